"""``holotable replay``: every step, per-seat filtering, errors, and the interactive keys."""

from __future__ import annotations

import io
import re
import sys

import pytest
from rich.console import Console

import holotable
from holotable.cli.common import LineReader
from holotable.cli.replay import Replay
from holotable.engine import Match
from holotable.sim.runner import make_agents, play_game

GAME = "captain-black"
PRIVATE = "Your new chest cards"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[str, Match]:
    """A finished 2-player match between random bots, saved to a file."""
    game = holotable.load(GAME)
    config = game.spec.make_config(2)
    final, _ = play_game(game, config, 8, make_agents(game, ["random", "random"], 8))
    match = Match(game, config, 8, [(seat, game.action_to_str(a)) for seat, a in final.history])
    path = tmp_path_factory.mktemp("replay") / "match.json"
    match.save(path)
    return str(path), match


def frames(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"── ply (\d+)/\d+ ──", text)]


def test_non_interactive_replay_prints_every_step_and_the_result(cli, saved):
    path, match = saved
    result = cli("replay", path)
    assert result.exit_code == 0, result.output
    assert frames(result.stdout) == list(range(len(match.actions) + 1))
    assert match.state.outcome().reason in result.stdout
    for event in match.state.log_for(None):
        assert event.text in result.stdout


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_sees_only_its_own_private_events(cli, saved, seat):
    path, match = saved
    result = cli("replay", path, "--seat", str(seat), "--to-end")
    assert result.exit_code == 0, result.output
    events = match.state.events or []
    mine = [e for e in events if e.to == frozenset((seat,))]
    assert mine, "the match should have dealt chest cards"
    assert result.stdout.count(PRIVATE) == len(mine)
    # Its own actions are named; the other seat's are not.
    assert f"Seat {seat + 1} played:" in result.stdout
    assert f"Seat {2 - seat} played:" not in result.stdout


def test_spectator_sees_no_private_event_and_omniscient_sees_all(cli, saved):
    path, match = saved
    assert PRIVATE not in cli("replay", path).stdout
    everything = cli("replay", path, "--omniscient").stdout
    private = [e for e in match.state.events or [] if e.to is not None]
    assert everything.count(PRIVATE) == len(private)
    assert "chest_deck_top_first" in everything  # the hidden deck order is part of the full state


def test_ply_option_shows_one_position_or_runs_to_the_end(cli, saved):
    path, match = saved
    assert frames(cli("replay", path, "--ply", "3").stdout) == [3]
    assert frames(cli("replay", path, "--ply", "3", "--to-end").stdout) == list(range(3, len(match.actions) + 1))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "holotable-match", "version": 99}', "unsupported save version"),
        ('{"format": "holotable-match", "version": 1, "game": "captain-black", "config": {"players": 2}, '
         '"seed": 1, "actions": [{"seat": 0, "action": "draw 500"}]}', "does not replay"),
    ],
)
def test_corrupt_files_exit_2_with_one_line(cli, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = cli("replay", str(path))
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.strip().count("\n") == 0
    assert "Traceback" not in result.output


def test_missing_file_and_bad_options_exit_2(cli, saved, tmp_path):
    path, match = saved
    assert cli("replay", str(tmp_path / "nothing.json")).exit_code == 2
    assert cli("replay", path, "--seat", "5").exit_code == 2
    result = cli("replay", path, "--ply", str(len(match.actions) + 1))
    assert result.exit_code == 2 and "--ply must be" in result.stderr


def test_interactive_keys(saved, monkeypatch):
    _, match = saved
    replay = Replay(match, seat=None)
    out = io.StringIO()
    console = Console(file=out, width=120)
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n\nb\nb\nb\nb\ng 5\ng 999\nzz\nq\nn\n"))
    replay.interactive(console, LineReader(console, interactive=False), start=0)
    text = out.getvalue()
    assert frames(text) == [0, 1, 2, 1, 0, 5]
    assert "already at the start" in text
    assert f"ply must be 0..{len(match.actions)}" in text
    assert "unknown key" in text
