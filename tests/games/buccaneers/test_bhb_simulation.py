"""Black Hole Buccaneers' simulation measures, checked against the recorded game: pull-ins per black hole
from the step G log (BHB-SCORE-G-01), cards collected against every tableau seen during play (BHB-SEL-04)."""

from __future__ import annotations

import math
from typing import Any

import pytest

import holotable
from holotable.agents import observe
from holotable.engine import State
from holotable.games.buccaneers import simulation
from holotable.games.buccaneers.actions import Play
from holotable.sim.batch import simulate
from holotable.sim.hooks import measures_for, seat_measures_for
from holotable.sim.runner import make_agents

GAME = holotable.load("buccaneers")


def play_watching(seed: int, lineup: list[str]) -> tuple[State[Any, Any], list[set[str]]]:
    """A recorded game, and every card seen in each seat's tableau after any step."""
    state = State.new(GAME, GAME.spec.make_config(len(lineup)), seed, record=True)
    agents = make_agents(GAME, lineup, seed)
    seen: list[set[str]] = [set() for _ in lineup]
    while not state.is_terminal():
        for seat in state.to_move():
            state.apply(agents[seat].act(observe(state, seat)), seat)
        for seat, tableau in enumerate(state.data.tableaux):
            seen[seat].update(item.card for item in tableau)
    return state, seen


def test_buccaneers_registers_its_measures() -> None:
    assert measures_for(GAME) is simulation.measures
    assert seat_measures_for(GAME) is simulation.seat_measures


@pytest.mark.parametrize(("seed", "lineup"), [(1, ["heuristic", "random", "random"]), (4, ["random"] * 4)])
def test_BHB_SCORE_G_01_pull_ins_per_black_hole_match_the_log(seed: int, lineup: list[str]) -> None:
    state, seen = play_watching(seed, lineup)
    events = state.log_for(None)
    holes = list(state.data.stack)  # round 1 first; round 1 starts at set-up, before the log
    assert holes[1:] == [e.data["black_hole"] for e in events if e.kind == "round_start"]
    pulled = [e.data["pulled_in"] for e in events if e.kind == "score_step" and e.data.get("step") == "G"]
    assert len(holes) == len(pulled) == 3
    per_seat = simulation.seat_measures(state)
    game = simulation.measures(state)
    n = len(lineup)
    for hole, seats in zip(holes, pulled, strict=True):
        assert math.isclose(game[f"pulled_in:{hole}"], len(seats) / n)
        for seat in range(n):
            assert per_seat[seat][f"pulled_in:{hole}"] == (1.0 if seat in seats else 0.0)
    assert math.isclose(game["pulled_in_share"], sum(len(s) for s in pulled) / (3 * n))
    plays = [sum(1 for s, a in state.history if s == seat and isinstance(a, Play)) for seat in range(n)]
    for seat, m in enumerate(per_seat):
        assert m["rounds_pulled_in"] == sum(seat in seats for seats in pulled)
        assert sum(m[f"round_points:{r}"] for r in (1, 2, 3)) == state.outcome().scores[seat]
        mine = {name.removeprefix("collected:") for name, v in m.items() if name.startswith("collected:") and v}
        assert seen[seat] <= mine  # every card ever in the tableau was collected
        laid = sum(v for name, v in m.items() if name.startswith("cards:"))
        assert laid >= plays[seat] and laid >= len(mine)
    assert {n.removeprefix("collected:") for n in per_seat[0] if n.startswith("collected:")} == set(
        simulation.card_kinds())


def test_report_has_one_pull_in_rate_per_black_hole_played() -> None:
    report = simulate("buccaneers", 3, 3, ["random"], seed=7, workers=1)
    played = [name for rec in report.records for name, _ in rec.measures if name.startswith("pulled_in:")]
    for name, summary in report.measures.items():
        if name.startswith("pulled_in:"):
            assert summary.n == played.count(name)
