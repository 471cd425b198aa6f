"""``holotable simulate council``: the game's measures and per-seat measures, checked against the games
they summarise (BHC-DED-07 coins, BHC-FINAL-01 spaces, BHC-INTRIGUE-03 once per game)."""

from __future__ import annotations

import math

import pytest
from bhc_helpers import GAME

from holotable.engine import derive_seed
from holotable.games.council import simulation
from holotable.sim.batch import simulate
from holotable.sim.hooks import measures_for, seat_measures_for
from holotable.sim.runner import make_agents, play_game


def test_council_registers_its_measures() -> None:
    assert measures_for(GAME) is simulation.measures
    assert seat_measures_for(GAME) is simulation.seat_measures


@pytest.mark.parametrize("seed", [1, 2])
def test_BHC_DED_07_seat_measures_match_the_recorded_game(seed: int) -> None:
    """Deduction share and coins, Pay-Out coins and final spaces are read off the finished game, and the
    coins every seat took from Deduction add up to what the three rounds paid."""
    config = GAME.spec.make_config(5)
    lineup = ["heuristic", "random", "heuristic", "random", "random"]
    state, _ = play_game(GAME, config, seed, make_agents(GAME, lineup, seed))
    per_seat = simulation.seat_measures(state)
    records = [rec for rnd in state.data.deductions for rec in rnd]
    assert len(records) == 15  # five guessers, three Deduction Rounds
    assert sum(m["deduction_coins"] for m in per_seat) == sum(rec["coins"] for rec in records) == 5 * (1 + 1 + 2)
    for seat, m in enumerate(per_seat):
        mine = [rec for rec in records if rec["guesser"] == seat]
        assert m["deduction_right"] == sum(rec["correct"] for rec in mine) / 3
        assert m["final_space"] == state.data.positions[seat]
        assert m["payout_coins"] == state.data.payout[seat]
        assert m["intrigue_played"] in (0.0, 1.0)
    game = simulation.measures(state)
    assert game["proposals"] >= 6 and 0.0 <= game["pass_rate"] <= 1.0
    assert game["written_off_rounds"] == sum(1 for s in state.data.history if s["written_off"])


def test_report_averages_seat_measures_per_agent_and_per_seat() -> None:
    """The simulation report's per-agent figure is the mean over exactly that agent's seat-games."""
    report = simulate("council", 4, 6, ["heuristic", "random"], seed=9)
    by_agent = {a.agent: a for a in report.agents_summary}
    for name, stats in by_agent.items():
        values = [dict(rec.seat_measures[seat])["deduction_right"]
                  for rec in report.records for seat, agent in enumerate(rec.agents) if agent == name]
        assert stats.measures["deduction_right"].n == len(values) == 12
        assert math.isclose(stats.measures["deduction_right"].mean, sum(values) / len(values))
    seat0 = [dict(rec.seat_measures[0])["final_space"] for rec in report.records]
    assert math.isclose(report.seats[0].measures["final_space"].mean, sum(seat0) / 6)
    assert report.records[0].seed == derive_seed(9, "game", 0)
    as_json = report.to_dict(include_games=True)
    assert {n for n in as_json["agents_summary"][0]["measures"] if not n.startswith("agenda:")} == {
        "deduction_coins", "deduction_right", "final_space", "intrigue_played", "payout_coins"}
    assert len(as_json["results"][0]["seat_measures"]) == 4
