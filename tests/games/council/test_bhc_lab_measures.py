"""Black Hole Council's balance-report measures: pass rate per Proposal number (BHC-VOTE-05) and the
agenda each seat held (BHC-SETUP-04), checked against the recorded game."""

from __future__ import annotations

import math

import pytest
from bhc_helpers import GAME

from holotable.agents import observe
from holotable.engine import State
from holotable.games.council import simulation
from holotable.games.council.data import data_for
from holotable.sim.runner import make_agents


@pytest.mark.parametrize("seed", [2, 5])
def test_BHC_VOTE_05_pass_rate_per_proposal_number_and_agenda_held(seed: int) -> None:
    config = GAME.spec.make_config(4)
    state = State.new(GAME, config, seed, record=True)
    agents = make_agents(GAME, ["heuristic", "random", "heuristic", "random"], seed)
    while not state.is_terminal():
        for seat in state.to_move():
            state.apply(agents[seat].act(observe(state, seat)), seat)
    game = simulation.measures(state)
    votes = state.data.votes
    numbers = {int(v["proposal"]) for v in votes}
    assert {n for n in game if n.startswith("pass_rate:")} == {f"pass_rate:{k}" for k in numbers}
    for k in numbers:
        mine = [v for v in votes if v["proposal"] == k]
        assert math.isclose(game[f"pass_rate:{k}"], sum(v["approved"] for v in mine) / len(mine))
    overall = sum(game[f"pass_rate:{k}"] * sum(1 for v in votes if v["proposal"] == k) for k in numbers)
    assert math.isclose(overall / len(votes), game["pass_rate"])
    ids = data_for(config).agenda_ids
    final = GAME.outcome(state).details.get("agendas")
    for seat, m in enumerate(simulation.seat_measures(state)):
        held = [name.removeprefix("agenda:") for name, v in m.items() if name.startswith("agenda:") and v == 1.0]
        assert held == [ids[state.data.agendas[seat]]]
        assert sum(1 for name in m if name.startswith("agenda:")) == len(ids)
        if final is not None:  # the outcome reveals every agenda at the end
            assert held[0] == final[seat]
