"""``holotable tournament``: balanced seating, OpenSkill ratings, the JSON schema and bad input."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from holotable.cli import app
from holotable.engine import ConfigError, derive_seed
from holotable.sim import GameRecord, simulate
from holotable.sim.tournament import balanced_lineups, rate, tournament


def run(*args: str) -> tuple[int, str, str]:
    """``holotable args`` in-process, one game at a time unless the test asks for workers."""
    extra = [] if "--workers" in args else ["--workers", "1"]
    result = CliRunner().invoke(app, [*args, *extra])
    return result.exit_code, result.stdout, result.stderr


@settings(max_examples=60, deadline=None)
@given(agents=st.integers(1, 8), players=st.integers(1, 7), games=st.integers(1, 40))
def test_every_agent_sits_at_every_seat_equally_often(agents: int, players: int, games: int) -> None:
    names = [f"a{i}" for i in range(agents)]
    plan = balanced_lineups(names, players, games)
    assert plan.games >= games and plan.games % agents == 0 and plan.games - games < agents
    assert all(len(lineup) == players for lineup in plan.lineups)
    counts = plan.seat_counts()
    per_seat = plan.games // agents
    assert all(counts[name] == [per_seat] * players for name in names)  # every seat, every agent, equally
    if agents >= players:  # enough agents: nobody holds two seats of one table
        assert all(len(set(lineup)) == players for lineup in plan.lineups)
    else:  # more seats than agents: everyone is at every table
        assert all(set(lineup) == set(names) for lineup in plan.lineups)


def test_more_agents_than_seats_meet_everyone_over_the_blocks() -> None:
    """Later blocks change stride, so an agent does not only ever meet its neighbours in the list."""
    plan = balanced_lineups([f"a{i}" for i in range(7)], 2, 7 * 6)
    pairs = {frozenset(lineup) for lineup in plan.lineups}
    assert len(pairs) == 7 * 6 // 2  # all 21 pairs of 7 agents


def test_bad_seating_requests_are_refused() -> None:
    with pytest.raises(ConfigError, match="once"):
        balanced_lineups(["a", "a"], 2, 4)
    with pytest.raises(ConfigError, match="at least 1"):
        balanced_lineups(["a", "b"], 2, 0)


def test_ratings_put_the_player_who_always_wins_first_and_ties_stay_level() -> None:
    wins = [GameRecord(i, i, ("b", "a", "c"), (0.0, 2.0, 1.0), (3, 1, 2), (1,), 10) for i in range(20)]
    ratings = rate(wins, ["a", "b", "c"])
    assert [r.agent for r in ratings] == ["a", "c", "b"]
    assert ratings[0].sigma < 25 / 3 and math.isclose(ratings[0].ordinal, ratings[0].mu - 3 * ratings[0].sigma)
    ties = [GameRecord(i, i, ("a", "b"), (1.0, 1.0), (1, 1), (0, 1), 10) for i in range(5)]
    level = {r.agent: r for r in rate(ties, ["a", "b"])}
    assert math.isclose(level["a"].mu, level["b"].mu) and math.isclose(level["a"].mu, 25.0)


def test_heuristic_is_rated_above_random_in_captain_black() -> None:
    report = tournament("captain-black", ["random", "heuristic"], 24, seed=5, players=2, workers=1)
    top, bottom = report.ratings
    assert (top.agent, bottom.agent) == ("heuristic", "random")
    assert top.ordinal > bottom.ordinal and top.mu > bottom.mu
    standings = report.standings()
    assert standings[0]["agent"] == "heuristic" and standings[0]["win_rate"] > standings[1]["win_rate"]
    assert standings[0]["mean_rank"] < standings[1]["mean_rank"]


def test_games_match_batch_simulation_seeds_and_rotation() -> None:
    """As many agents as seats: the same line-ups and seeds as ``simulate`` with rotation, so the same games."""
    report = tournament("captain-black", ["heuristic", "random", "ismcts:iterations=8"], 6, seed=11, players=3,
                        workers=1)
    plain = simulate("captain-black", 3, 6, ["heuristic", "random", "ismcts:iterations=8"], seed=11, workers=1)
    assert [r.to_dict() for r in report.simulation.records] == [r.to_dict() for r in plain.records]
    assert report.simulation.records[4].seed == derive_seed(11, "game", 4)


def test_json_schema_and_balanced_seat_counts() -> None:
    code, out, _ = run("tournament", "captain-black", "-a", "heuristic,random,ismcts:iterations=8", "-n", "2",
                       "-g", "5", "--seed", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"game", "players", "games", "seed", "agents", "params", "seating", "rating_model", "standings",
            "seats"} <= set(data)
    assert data["games"] == 6 and data["seating"]["requested_games"] == 5 and data["seating"]["block"] == 3
    assert data["rating_model"] == "openskill PlackettLuce"
    assert {row["agent"] for row in data["standings"]} == {"heuristic", "random", "ismcts:iterations=8"}
    for row in data["standings"]:
        assert {"agent", "games", "wins", "win_rate", "win_rate_ci", "mean_rank", "mu", "sigma", "ordinal",
                "seat_games"} <= set(row)
        assert row["seat_games"] == [2, 2] and row["games"] == 4
        lo, hi = row["win_rate_ci"]
        assert 0.0 <= lo <= row["win_rate"] <= hi <= 1.0
        assert math.isclose(row["ordinal"], row["mu"] - 3 * row["sigma"])
    ordinals = [row["ordinal"] for row in data["standings"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_table_output_names_the_seating_and_the_ratings() -> None:
    code, out, _ = run("tournament", "captain-black", "-a", "heuristic,random", "-n", "4", "-g", "4")
    assert code == 0
    text = " ".join(out.split())  # rich wraps long lines
    assert "Standings" in text and "Ordinal" in text and "every block of 2 games" in text


def test_results_do_not_depend_on_workers() -> None:
    one = tournament("captain-black", ["heuristic", "random"], 4, seed=3, players=2, workers=1)
    two = tournament("captain-black", ["heuristic", "random"], 4, seed=3, players=2, workers=2)
    assert one.simulation.records == two.simulation.records
    assert [r.to_dict() for r in one.ratings] == [r.to_dict() for r in two.ratings]


@pytest.mark.parametrize(("args", "message"), [
    (["-a", "heuristic,nobody"], "no agent 'nobody'"),
    (["-a", "random,random"], "name each agent once"),
    (["-a", "random,heuristic", "-g", "0"], "at least 1"),
    (["-a", "random,heuristic", "-n", "9"], "players"),
    (["-a", "random,heuristic", "--set", "no_such_param=3"], "no_such_param"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    code, out, err = run("tournament", "captain-black", *args)
    assert code == 2, out + err
    assert message in err and len(err.strip().splitlines()) == 1
    assert out == ""
