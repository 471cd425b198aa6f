"""``holotable simulate`` and the batch runner behind it."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest

import holotable
from holotable.agents import Agent, Observation, register_agent
from holotable.engine import derive_seed
from holotable.sim.backends import available_cores
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


# --------------------------------------------------------------------- backends, results files, resuming


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--backend", "spark"), "no backend 'spark'"),
        (("--address", "127.0.0.1:6379"), "use it with --backend ray"),
        (("--resume",), "--resume continues a results file: name it with --out FILE"),
    ],
)
def test_backend_and_resume_errors_exit_2(cli, args, message):
    result = cli("simulate", GAME, "--games", "3", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_out_then_resume_gives_the_same_report_without_playing_again(cli, tmp_path):
    out = tmp_path / "run.sqlite"
    args = ("--players", "3", "--games", "40", "--agents", "random,first-legal", "--seed", "5", "--workers", "2")
    first = sim_json(cli, *args, "--out", str(out))
    assert first["timing"]["resumed_games"] == 0
    # The file exists now: another run into it must say so instead of mixing two runs.
    again = cli("simulate", GAME, *args, "--out", str(out))
    assert again.exit_code == 2 and "already holds a simulation run; pass --resume" in again.stderr
    other = cli("simulate", GAME, *args[:-4], "--seed", "6", "--out", str(out), "--resume")
    assert other.exit_code == 2 and "holds another run: seed is 5 there, 6 here" in other.stderr
    resumed = sim_json(cli, *args, "--out", str(out), "--resume")
    assert resumed.pop("timing")["resumed_games"] == 40
    first.pop("timing")
    assert resumed == first
    text = cli("simulate", GAME, *args, "--out", str(out), "--resume")
    assert text.exit_code == 0 and "40 game(s) read back from the results file" in text.stdout


def test_workers_default_to_every_core(cli):
    report = sim_json(cli, "--players", "2", "--games", "6", "--seed", "1")
    assert report["timing"]["workers"] == available_cores()
    assert report["timing"]["backend"] == "local"


def test_progress_bar_shows_games_per_second():
    from rich.progress import Progress

    from holotable.cli.simulate import RateColumn

    clock = [0.0]
    column = RateColumn()
    with Progress(column, auto_refresh=False, disable=True, get_time=lambda: clock[0]) as bar:
        task_id = bar.add_task("games", total=100)
        task = bar.tasks[0]
        assert column.render(task).plain == ""  # no rate before two updates
        # The first update (games read back from a results file) does not count as played: 20 games in 2 s.
        clock[0] = 1.0
        bar.update(task_id, completed=10)
        clock[0] = 3.0
        bar.update(task_id, completed=30)
        assert column.render(task).plain == "10.0 games/s"


def test_resume_of_a_file_not_there_yet_starts_the_run(cli, tmp_path):
    out = tmp_path / "new.sqlite"
    args = ("--players", "2", "--games", "8", "--seed", "3", "--workers", "1")
    report = sim_json(cli, *args, "--out", str(out), "--resume")
    assert report["timing"]["resumed_games"] == 0 and out.exists()
    plain = sim_json(cli, *args)
    report.pop("timing")
    plain.pop("timing")
    assert report == plain


def test_progress_bar_on_a_terminal_shows_rate_and_time_left(tmp_path):
    """On a real terminal (a pseudo-terminal here) stderr gets the bar; stdout still gets only the report."""
    import os
    import pty
    import subprocess
    import sys

    primary, secondary = pty.openpty()
    command = [sys.executable, "-m", "holotable", "simulate", GAME, "--players", "4", "--games", "3000",
               "--seed", "2", "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=secondary, text=True)
    os.close(secondary)
    seen = b""
    while True:
        try:
            data = os.read(primary, 65536)
        except OSError:  # the terminal closes when the process ends
            break
        if not data:
            break
        seen += data
    stdout, _ = process.communicate(timeout=120)
    os.close(primary)
    assert process.returncode == 0
    assert "3000 games · seed 2" in stdout and "simulating" not in stdout
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode("utf-8", "replace"))  # without the colours
    # "simulating ━━━╸━━ 2574/3000 1,215.2 games/s 0:00:02": games done, rate, time left.
    assert re.search(r"simulating \S+ \d+/3000 [\d,]+\.\d games/s \d+:\d\d:\d\d", screen), screen[-500:]
