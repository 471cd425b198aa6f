"""Space Pirates' simulation measures: every MC a seat gained or spent is accounted for by source
(SP-MONEY-01..04), sales match the recorded ``sold`` events (SP-BASE-04), counts match the log."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.agents import observe
from holotable.engine import State
from holotable.games.space_pirates import simulation
from holotable.sim.hooks import measures_for, seat_measures_for
from holotable.sim.runner import make_agents

GAME = holotable.load("space-pirates")


def play_recorded(seed: int, lineup: list[str]) -> State[Any, Any]:
    state = State.new(GAME, GAME.spec.make_config(len(lineup)), seed, record=True)
    agents = make_agents(GAME, lineup, seed)
    while not state.is_terminal():
        for seat in state.to_move():
            state.apply(agents[seat].act(observe(state, seat)), seat)
    return state


def test_space_pirates_registers_its_measures() -> None:
    assert measures_for(GAME) is simulation.measures
    assert seat_measures_for(GAME) is simulation.seat_measures


@pytest.mark.parametrize(("seed", "lineup"), [(3, ["heuristic", "random"])])
def test_SP_MONEY_01_money_by_source_adds_up_to_the_final_mc(seed: int, lineup: list[str]) -> None:
    state = play_recorded(seed, lineup)
    start = State.new(GAME, state.config, seed).data.mc
    events = state.log_for(None)
    per_seat = simulation.seat_measures(state)
    for seat, m in enumerate(per_seat):
        income = m["income:sales"] + m["income:base"]
        spent = m["spent:base"] + m["spent:fines"] + m["spent:energy"] + m["spent:other"]
        assert start[seat] + income - spent == m["final_mc"] == state.data.mc[seat]
        sold = [e.data["price"] for e in events if e.kind == "sold" and e.data["seat"] == seat]
        assert m["income:sales"] == sum(sold) and m["cargo_sold"] == len(sold)  # SP-BASE-04
        assert m["captures"] == sum(1 for e in events if e.kind == "captured" and e.data["seat"] == seat)
        assert m["spent:base"] == (15.0 if any(e.kind == "base_bought" and e.data["seat"] == seat for e in events)
                                   else 0.0)
        assert m["owns_base"] == (1.0 if state.data.owned[seat] is not None else 0.0)
    game = simulation.measures(state)
    assert game["turns"] == state.data.turn
    assert game["captures"] == sum(m["captures"] for m in per_seat)
    assert game["no_winner"] == (1.0 if len(state.outcome().winners) == len(lineup) else 0.0)  # SP-AMB-59
