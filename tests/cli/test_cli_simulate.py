"""``holotable simulate`` and the batch runner behind it."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import holotable
from holotable.agents import Agent, Observation, register_agent
from holotable.engine import derive_seed
from holotable.sim.batch import simulate
from holotable.sim.runner import make_agents, play_game
from holotable.sim.stats import wilson_interval

GAME = "captain-black"


class FirstLegal(Agent):
    """A second, deterministic agent so that rotation has two names to move around."""

    name = "first-legal"

    def act(self, obs: Observation) -> Any:
        return obs.legal[0]


register_agent("first-legal", FirstLegal)


def sim_json(cli, *args: str) -> dict[str, Any]:
    result = cli("simulate", GAME, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_report_schema_and_consistency(cli):
    report = sim_json(cli, "--players", "3", "--games", "30", "--agents", "random", "--seed", "11")
    assert (report["game"], report["games"], report["players"], report["seed"]) == (GAME, 30, 3, 11)
    assert report["agents"] == ["random"]
    assert [s["seat"] for s in report["seats"]] == [0, 1, 2]
    for seat in report["seats"]:
        assert seat["agent"] == "random" and seat["games"] == 30
        lo, hi = seat["win_rate_ci"]
        assert seat["win_rate"] == seat["wins"] / 30
        assert (lo, hi) == pytest.approx(wilson_interval(seat["wins"], 30))
        assert 0 <= lo <= seat["win_rate"] <= hi <= 1
        assert seat["mean_score_ci"][0] <= seat["mean_score"] <= seat["mean_score_ci"][1]
        assert 1 <= seat["mean_rank"] <= 3
    # Win shares split shared wins, so they add up to one per game.
    assert sum(s["win_share"] for s in report["seats"]) == pytest.approx(30)
    # A shared win counts for each winner: each shared game adds one or two extra wins among 3 seats.
    extra = sum(s["wins"] for s in report["seats"]) - 30
    assert report["shared_wins"] <= extra <= 2 * report["shared_wins"]
    (summary,) = report["agents_summary"]
    assert summary["agent"] == "random" and summary["games"] == 90
    assert report["mean_length"] > 0
    assert report["length_ci"][0] <= report["mean_length"] <= report["length_ci"][1]


def test_same_seed_same_stats_whatever_the_workers(cli):
    args = ("--players", "2", "--games", "24", "--agents", "random,first-legal", "--seed", "5")
    one = sim_json(cli, *args, "--workers", "1")
    two = sim_json(cli, *args, "--workers", "2")
    assert one.pop("timing")["workers"] == 1
    assert two.pop("timing")["workers"] == 2
    assert one == two
    assert sim_json(cli, "--players", "2", "--games", "24", "--agents", "random,first-legal", "--seed", "6") != one


def test_game_i_uses_its_derived_seed_and_replays_on_its_own():
    report = simulate(GAME, 2, 6, ["random", "first-legal"], seed=9)
    game = holotable.load(GAME)
    config = game.spec.make_config(2)
    for i, rec in enumerate(report.records):
        assert rec.index == i and rec.seed == derive_seed(9, "game", i)
        _, alone = play_game(game, config, rec.seed, make_agents(game, rec.agents, rec.seed))
        assert (rec.scores, rec.ranks, rec.steps) == (alone.outcome.scores, alone.outcome.ranks, alone.steps)


def test_rotation_moves_each_agent_round_the_table(cli):
    report = sim_json(cli, "--players", "2", "--games", "10", "--agents", "first-legal,random", "--seed", "3")
    for seat in report["seats"]:
        assert seat["agent"] == "mixed"
        assert seat["agent_games"] == {"first-legal": 5, "random": 5}
    by_agent = {a["agent"]: a for a in report["agents_summary"]}
    assert by_agent["first-legal"]["games"] == by_agent["random"]["games"] == 10
    fixed = sim_json(cli, "--players", "2", "--games", "10", "--agents", "first-legal,random", "--seed", "3",
                     "--no-rotate")
    assert [s["agent"] for s in fixed["seats"]] == ["first-legal", "random"]
    # Without rotation the per-seat and per-agent numbers are the same games.
    by_agent = {a["agent"]: a for a in fixed["agents_summary"]}
    for seat in fixed["seats"]:
        assert seat["wins"] == by_agent[seat["agent"]]["wins"]
        assert seat["mean_score"] == by_agent[seat["agent"]]["mean_score"]


def test_agent_stats_count_every_seat_game_won():
    report = simulate(GAME, 3, 12, ["random"], seed=2)
    (summary,) = report.agents_summary
    wins = sum(1 for rec in report.records for seat in range(3) if seat in rec.winners)
    assert summary.games == 36 and summary.wins == wins
    assert math.isclose(summary.win_share, 12)


def test_params_reach_the_games(cli):
    report = sim_json(cli, "--players", "2", "--games", "5", "--param", "max_handful=1", "--seed", "1")
    assert report["params"]["max_handful"] == 1
    # Drawing one coin at a time makes long games: at least one draw per black coin per round.
    assert report["mean_length"] >= 2 * 8


def test_text_report(cli):
    result = cli("simulate", GAME, "--players", "2", "--games", "20", "--agents", "first-legal,random",
                 "--seed", "4")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("Per seat position", "Per agent", "first-legal", "Win rate [95% CI]", "Mean game length",
                 "games/s", "20 games · seed 4"):
        assert text in out
    assert result.stderr == ""  # no progress bar when not on a terminal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "nope"), "no game called 'nope'"),
        (("simulate", GAME, "--agents", "random,ghost"), "no agent 'ghost'"),
        (("simulate", GAME, "--players", "1"), "2-4 players"),
        (("simulate", GAME, "--games", "0"), "at least 1"),
        (("simulate", GAME, "--workers", "0"), "workers"),
        (("simulate", GAME, "--param", "island_fields=0"), "island_fields"),
        (("simulate", GAME, "--players", "2", "--agents", "random,random,random"), "3 agents named for 2 seats"),
    ],
)
def test_errors_exit_2(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_heuristic_beats_random_in_a_small_run(require_agent):
    require_agent("heuristic")
    report = simulate(GAME, 2, 40, ["heuristic", "random"], seed=1)
    by_agent = {a.agent: a for a in report.agents_summary}
    assert by_agent["heuristic"].games == by_agent["random"].games == 40
    assert by_agent["heuristic"].win_share + by_agent["random"].win_share == pytest.approx(40)
