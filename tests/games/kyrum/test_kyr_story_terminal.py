"""The story in both terminal loops: ``holotable play kyrum`` (the generic play loop with Kyrum's terminal
hooks) and ``holotable kyrum continue`` (the campaign shell) print every new page after each action, in
reading order with its effects, and answer ``story`` and ``partner``.

KYR-SETUP-08 (the set-up encounter on the first screen), KYR-SCRIPT-02.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import typer
from rich.console import Console
from typer.testing import CliRunner

import holotable
from holotable.cli.common import LineReader
from holotable.cli.play import PlaySession
from holotable.engine import Match
from holotable.games.kyrum.campaign_commands import register

GAME = holotable.load("kyrum")


class Typed(LineReader):
    """Lines typed at the prompt, echoed as a person sees them."""

    def __init__(self, console: Console, lines: list[str]) -> None:
        super().__init__(console, False)
        self.lines: Iterator[str] = iter(lines)

    def ask(self, prompt: str) -> str | None:
        line = next(self.lines, None)
        self.console.print(f"{prompt}{line if line is not None else '<end>'}")
        return line


def flat(text: str) -> str:
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def play_loop(seed: int, lines: list[str]) -> str:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    PlaySession(Match.new(GAME, players=1, seed=seed), ["human"], console, Typed(console, lines)).run()
    return flat(out.getvalue())


def setup_encounter_seed() -> tuple[int, str]:
    for seed in range(100):
        st = GAME.new_state(1, seed=seed)
        if st.data.story and st.data.story[0].effects:
            return seed, st.data.story[0].title
    raise AssertionError("no seed meets an encounter with effects during set-up")


def test_play_loop_shows_the_setup_encounter_and_answers_story() -> None:
    seed, name = setup_encounter_seed()
    page = GAME.new_state(1, seed=seed).data.story[0]
    out = play_loop(seed, ["story", "help all", "quit"])
    first_screen = out[: out.index("Seat 1> story")]
    assert f"Encounter · {name}" in first_screen and page.effects[0] in first_screen
    after = out[out.index("Seat 1> story"):]
    assert "The story of game 1 so far (1 page)" in after and f"Encounter · {name}" in after
    assert "story every page read in this game so far" in after  # listed in the help


def test_play_loop_prints_each_new_page_once_in_full() -> None:
    """After the next action the set-up page is only named (it was shown); ``partner`` answers too."""
    seed, name = setup_encounter_seed()
    out = play_loop(seed, ["leave", "partner", "quit"])
    after = out[out.index("Seat 1> leave"):]
    assert f"(read above: Encounter · {name}" not in after  # leaving began a new reading: the page is in the story
    assert "This campaign has no Black Hole partner." in after


def make_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def root() -> None:
        """A stand-in for the ``holotable kyrum`` sub-app."""

    register(app)
    return app


def test_campaign_shell_prints_new_pages_and_answers_story(tmp_path: Path) -> None:
    db = str(tmp_path / "k.sqlite3")
    runner, app = CliRunner(), make_app()
    assert runner.invoke(app, ["new", "ada", "--seed", "3", "--database", db]).exit_code == 0
    done = runner.invoke(app, ["continue", "ada", "--database", db], input="story\npartner\nhelp\nconcede\ny\nquit\n")
    assert done.exit_code == 0, done.output
    out = flat(done.output)
    assert "The story of game 1 so far" in out or "Nothing has been read in this game yet." in out
    assert "This campaign has no Black Hole partner." in out
    assert "story every page read in this game so far" in out
    # conceding reads game 1's end-of-game script: printed in full after the action
    assert "Script A.70.01 · First Entry (end of the game)" in out[out.index("concede"):]
