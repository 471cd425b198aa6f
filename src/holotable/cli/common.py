"""Helpers shared by the commands: consoles, errors, parameter and seat parsing."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from holotable.agents import agent_names, parse_agent_spec
from holotable.engine import ConfigError, Game, HolotableError, Match, SaveError, load

#: Exit status for every user error (bad name, bad option, corrupt file), as click uses for usage errors.
USAGE_ERROR = 2

HUMAN = "human"

#: Width of output that goes to a file or a pipe.
PIPED_WIDTH = 120


def out_console() -> Console:
    """A console on the current stdout (built per command so test runners can capture it).

    Piped output gets a fixed, roomy width instead of rich's 80 columns, so that
    tables in logs and scripted sessions are not squeezed.
    """
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=PIPED_WIDTH)
    return console


def err_console() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str) -> NoReturn:
    """Print a one-line error to stderr and exit with status 2 (no traceback)."""
    err_console().print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(USAGE_ERROR)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn holotable's own errors (bad game, parameter, agent, save file) into :func:`fail`."""
    try:
        yield
    except HolotableError as exc:
        fail(str(exc))


def load_game(name: str) -> Game[Any, Any]:
    with user_errors():
        return load(name)


def load_match(path: Path) -> Match:
    """A saved match (a sealed seed is opened with this user's key, :mod:`holotable.cli.seal`);
    an unreadable or corrupt file raises :class:`SaveError` naming the file."""
    from .seal import local_seal

    try:
        return Match.load(path, local_seal())
    except SaveError as exc:
        raise SaveError(f"cannot load {path}: {exc}") from exc


def parse_params(items: Sequence[str] | None) -> dict[str, Any]:
    """``["max_handful=5", "start_seat=none"]`` -> ``{"max_handful": "5", "start_seat": None}``.

    Values stay text: each game parameter converts and checks its own value.
    """
    params: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--param expects key=value, got {item!r}")
        value = value.strip()
        params[key] = None if value.lower() in ("", "none", "null") else value
    return params


def split_names(text: str | None) -> list[str]:
    """``"heuristic, random"`` -> ``["heuristic", "random"]``."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def check_agents(game: Game[Any, Any], names: Sequence[str], *, allow_human: bool = False) -> None:
    """Raise :class:`ConfigError` naming the first unknown agent."""
    known = agent_names(game.spec.name)
    for spec in names:
        if spec == HUMAN and allow_human:
            continue
        name, _ = parse_agent_spec(spec)
        if name not in known:
            extra = f"{HUMAN}, " if allow_human else ""
            raise ConfigError(f"no agent {name!r} for {game.spec.name}; available: {extra}{', '.join(known)}")


def stdin_is_interactive() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


class LineReader:
    """Reads commands. Interactive: line editing via ``input``. Scripted: echoes each line."""

    def __init__(self, console: Console, interactive: bool) -> None:
        self.console = console
        self.interactive = interactive

    def ask(self, prompt: str) -> str | None:
        """One line without its newline, or ``None`` at end of input. ``prompt`` is plain text: a
        ``[y/N]`` in it is shown as typed (as console markup it was a style tag, and vanished)."""
        if self.interactive:
            try:
                return self.console.input(Text(prompt))
            except EOFError:
                return None
        line = sys.stdin.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        # Echo, so that a scripted session reads like a typed one.
        self.console.print(Text(f"{prompt}{line}"))
        return line

