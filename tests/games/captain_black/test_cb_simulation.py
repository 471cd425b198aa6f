"""Captain Black's simulation measures, checked against the game's own event log (CB-DRAW-03 draws,
CB-PARROT-01 parrots to the fewest, CB-END-02 filled chests)."""

from __future__ import annotations

import math
from typing import Any

import pytest

import holotable
from holotable.agents import observe
from holotable.engine import State
from holotable.games.captain_black import simulation
from holotable.sim.batch import simulate
from holotable.sim.hooks import measures_for, seat_measures_for
from holotable.sim.runner import make_agents

GAME = holotable.load("captain-black")


def play_recorded(seed: int, lineup: list[str]) -> State[Any, Any]:
    config = GAME.spec.make_config(len(lineup))
    state = State.new(GAME, config, seed, record=True)
    agents = make_agents(GAME, lineup, seed)
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(agents[seat].act(observe(state, seat)), seat)
    return state


def test_captain_black_registers_its_measures() -> None:
    assert measures_for(GAME) is simulation.measures
    assert seat_measures_for(GAME) is simulation.seat_measures


@pytest.mark.parametrize("seed", [3, 8])
def test_CB_DRAW_03_measures_match_the_event_log(seed: int) -> None:
    state = play_recorded(seed, ["heuristic", "random", "random"])
    events = state.log_for(None)
    draws = [e.data for e in events if e.kind == "draw"]
    parrots = [e.data for e in events if e.kind == "parrots"]
    per_seat = simulation.seat_measures(state)
    outcome = state.outcome()
    for seat, m in enumerate(per_seat):
        mine = [d["k"] for d in draws if d["seat"] == seat]
        assert m["draws"] == len(mine)
        assert math.isclose(m["mean_draw"], sum(mine) / len(mine))
        assert math.isclose(sum(v for k, v in m.items() if k.startswith("draw_size:")), 1.0)
        assert m["draw_size:1-3"] == sum(1 for k in mine if k <= 3) / len(mine)
        assert m["filled_chests"] == outcome.scores[seat]  # CB-END-02
        took = [p for p in parrots if p["seat"] == seat]
        assert m["parrot_rounds"] == len(took)
        assert m["parrot_points"] == sum(sum(p["cards"]) for p in took)
        assert m["parrots:taken"] == (1.0 if took else 0.0)
        gold = sum(d["k"] for d in draws if d["seat"] == seat and d["black"] == 0)  # CB-EVAL-01
        assert math.isclose(m["gold_per_round"], gold / len(state.data.rounds))
    game = simulation.measures(state)
    assert math.isclose(game["draws_per_round"], len(draws) / len(state.data.rounds))
    assert game["winner_chests"] == max(outcome.scores)
    assert game["shared_win"] == (1.0 if len(outcome.winners) > 1 else 0.0)


def test_heuristic_takes_smaller_handfuls_than_random() -> None:
    """The per-agent figure separates the risk policies: the heuristic draws fewer coins per turn."""
    report = simulate("captain-black", 3, 6, ["heuristic", "random"], seed=2, workers=1)
    by_agent = {a.agent: a.measures for a in report.agents_summary}
    assert by_agent["heuristic"]["mean_draw"].mean < by_agent["random"]["mean_draw"].mean
