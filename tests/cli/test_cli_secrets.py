"""The terminal keeps a running game's secrets: no seed on screen or in a save before the end, a chosen
seed announced, and the one undo policy (hot-seat included). Each test reproduces a leak the terminal
once had and shows it refused."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import holotable
from holotable.cli.common import LineReader
from holotable.cli.play import PlaySession
from holotable.cli.seal import local_seal
from holotable.engine import Match, Rng, SaveError, UndoRefusedError

SEED = 918273645501  # long enough that no output shows it by accident


class Script(LineReader):
    """Typed lines for a session, as a person at the keyboard (``interactive``) or a pipe."""

    def __init__(self, console: Console, lines: list[str], interactive: bool = True) -> None:
        super().__init__(console, interactive)
        self.lines: Iterator[str] = iter(lines)

    def ask(self, prompt: str) -> str | None:
        line = next(self.lines, None)
        self.console.print(f"{prompt}{line if line is not None else '<end>'}")
        return line


def session(match: Match, seats: list[str], lines: list[str], interactive: bool = True) -> str:
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None, highlight=False)
    PlaySession(match, seats, console, Script(console, lines, interactive)).run()
    return out.getvalue()


def advance(match: Match, until: Callable[[Any], bool], seed: int = 1) -> None:
    rng = Rng(seed)
    while not match.state.is_terminal() and not until(match.state):
        seat = match.state.to_move()[0]
        legal = match.state.legal_actions(seat)
        match.play(legal[rng.randrange(len(legal))], seat)


# ---------------------------------------------------------------------------- seeds


def test_council_s_first_line_no_longer_shows_the_seed(cli: Any) -> None:
    result = cli("play", "council", "--players", "4", "--humans", "1", "--seed", str(SEED), input="quit\n")
    assert result.exit_code == 0, result.output
    assert str(SEED) not in result.stdout
    first = result.stdout.splitlines()[:2]
    assert first[0].startswith("Black Hole Council · 4 players · Seat 1: human")
    assert first[1] == "A seeded game: the deal was chosen by the command line (--seed)."


def test_the_seed_is_shown_once_the_game_is_over(cli: Any) -> None:
    result = cli("play", "captain-black", "--players", "3", "--humans", "0", "--bots", "random", "--seed", str(SEED))
    assert result.exit_code == 0, result.output
    before, _, after = result.stdout.partition("Final result")
    assert str(SEED) not in before
    assert f"This game's seed was {SEED}." in after


def test_a_fresh_seed_is_not_announced_and_never_shown_before_the_end(cli: Any) -> None:
    result = cli("play", "buccaneers", "--players", "3", "--humans", "1", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "seed" not in result.stdout.lower()


def test_a_save_before_the_end_holds_the_seed_sealed(cli: Any, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "m.json"
    base = ("play", "captain-black", "--players", "2", "--humans", "1", "--bots", "random", "--param", "start_seat=0")
    assert cli(*base, "--seed", str(SEED), "--save", str(save), input="draw 2\nquit\n").exit_code == 0
    text = save.read_text()
    data = json.loads(text)
    assert data["seed"] is None and data["sealed_seed"].startswith("sealed1:")
    assert str(SEED) not in text and f"{SEED:x}" not in text
    resumed = cli("play", "--load", str(save), "--humans", "0", "--save", str(save))  # this computer's key opens it
    assert resumed.exit_code == 0, resumed.output
    finished = json.loads(save.read_text())
    assert finished["seed"] == SEED and "sealed_seed" not in finished  # over: no longer a secret
    # Another computer (another user's key) cannot open a sealed save, and says why.
    assert cli(*base, "--seed", str(SEED), "--save", str(save), input="draw 2\nquit\n").exit_code == 0
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
    elsewhere = cli("play", "--load", str(save))
    assert elsewhere.exit_code == 2 and "no key to open it" in elsewhere.stderr
    monkeypatch.undo()
    token = data["sealed_seed"]
    flipped = "B" if token[12] == "A" else "A"
    tampered = dict(data, sealed_seed=token[:12] + flipped + token[13:])  # one character changed
    save.write_text(json.dumps(tampered))
    refused = cli("play", "--load", str(save))
    assert refused.exit_code == 2 and "another computer's key" in refused.stderr


def test_a_sealed_seed_needs_its_key() -> None:
    cb = holotable.load("captain-black")
    match = Match.new(cb, players=2, seed=SEED)
    sealed = match.to_json(local_seal())
    with pytest.raises(SaveError, match="sealed"):
        Match.from_json(sealed)
    assert Match.from_json(sealed, local_seal()).state.fingerprint() == match.state.fingerprint()


def test_an_unfinished_game_replays_only_as_a_spectator(cli: Any, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    assert cli("play", "council", "--players", "4", "--humans", "1", "--save", str(save), input="quit\n").exit_code == 0
    for extra in (("--seat", "1"), ("--omniscient",)):
        refused = cli("replay", str(save), "--to-end", *extra)
        assert refused.exit_code == 2 and "secrets stay hidden" in refused.stderr
    spectator = cli("replay", str(save), "--to-end")
    assert spectator.exit_code == 0, spectator.output


# ---------------------------------------------------------------------------- undo


def test_a_failed_captain_black_draw_cannot_be_retaken() -> None:
    match = Match.new(holotable.load("captain-black"), players=2, seed=3, start_seat=0)
    text = session(match, ["human", "human"], ["draw 9", "undo", "", "quit"])
    assert "you cannot take that back: 'draw 9' drew on chance" in text
    assert match.actions[0] == (0, "draw 9")


def test_a_council_vote_cannot_be_rechosen_once_the_votes_are_revealed() -> None:
    match = Match.new(holotable.load("council"), players=4, seed=5, first_leader=0)
    advance(match, lambda st: st.data.phase == "vote")
    a, b, last = match.state.to_move()  # the Leader does not vote
    for seat in (a, b):
        match.play(match.state.legal_actions(seat)[0], seat)
    match.take_back(a)  # before the last vote, a vote may change, even after another seat's
    match.play(match.state.legal_actions(a)[-1], a)
    match.play(match.state.legal_actions(last)[0], last)  # the last vote: the result is known
    with pytest.raises(UndoRefusedError, match="revealed everyone's sealed choices"):
        match.take_back(last)
    with pytest.raises(UndoRefusedError, match="another player has acted since your last action"):
        match.take_back(a)


def test_a_deduction_guess_cannot_be_retried() -> None:
    match = Match.new(holotable.load("council"), players=4, seed=6, first_leader=0)
    advance(match, lambda st: st.data.phase == "deduce")
    assert match.state.data.phase == "deduce"
    seats = match.state.to_move()
    for seat in seats:
        match.play(match.state.legal_actions(seat)[0], seat)
    with pytest.raises(UndoRefusedError, match="revealed everyone's sealed choices"):
        match.take_back(seats[-1])


def test_hot_seat_nobody_takes_back_another_seat_s_vote() -> None:
    """The next voter at the keyboard cannot undo the first voter's vote; the first voter itself may,
    before the keyboard changes hands."""
    def at_the_vote() -> Match:
        match = Match.new(holotable.load("council"), players=4, seed=5, first_leader=0)
        advance(match, lambda st: st.data.phase == "vote")
        return match

    match = at_the_vote()
    voter = match.state.to_move()[0]
    first, other = (match.state.game.action_to_str(a) for a in match.state.legal_actions(voter))
    text = session(match, ["human"] * 4, [first, "", "undo", "quit"])
    assert re.search(r"you cannot take that back: (you have not played anything|another player has acted)", text)
    assert match.state.pending == {voter: match.state.game.parse_action(first)}
    match = at_the_vote()
    text = session(match, ["human"] * 4, [first, "undo", other, "", "quit"])
    assert f"took back '{first}'" in text
    assert match.state.pending == {voter: match.state.game.parse_action(other)}


def test_a_space_pirates_flick_cannot_be_retried_with_the_same_noise() -> None:
    match = Match.new(holotable.load("space-pirates"), players=2, seed=3)
    advance(match, lambda st: st.game.decision(st).kind == "flick")
    seat = match.state.to_move()[0]
    match.play("flick 45 0.4", seat)
    assert match.steps[-1].chance
    with pytest.raises(UndoRefusedError, match="drew on chance"):
        match.take_back(seat)


def test_an_own_move_that_showed_nothing_is_taken_back_in_the_terminal() -> None:
    match = Match.new(holotable.load("kyrum"), players=1, seed=1)
    advance(match, lambda st: any(a.verb == "craft" for a in st.legal_actions(0)), seed=2)
    craft = next(match.state.game.action_to_str(a) for a in match.state.legal_actions(0) if a.verb == "craft")
    before = match.state.fingerprint()
    text = session(match, ["human"], [craft, "undo", "quit"], interactive=False)
    assert f"took back '{craft}'" in text
    assert match.state.fingerprint() == before
