"""``holotable render``: PNG pictures of a position from a saved match (at a ply) or a scenario file.

A saved match (``holotable play --save``) is replayed to ``--ply`` (default: its last ply); with
``--every K`` every K-th ply from ``--ply`` (default 0) to the end is drawn, one file per ply, which
gives a sequence for docs or for following a game. A scenario file (docs/scenarios.md) is set up,
arranged and played, and its final position drawn. Pictures show one seat's view (``--seat``) or
the spectator's, never more. Only games whose manifest names a ``picture`` drawer can be drawn (Space Pirates).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from holotable.engine import ConfigError, Match, Scenario, State, registry, run_scenario

from .common import load_match, user_errors

DrawFn = Callable[..., Path]


def drawer_for(game: str) -> DrawFn:
    """The ``picture`` role of the game's manifest: ``draw(state, seat, path, title=...) -> Path``."""
    fn: DrawFn | None = registry.offered(game, "picture")
    if fn is None:
        with_one = [n for n in registry.names() if registry.manifest(n).picture is not None]
        raise ConfigError(f"no PNG picture for {game}; games with one: {', '.join(with_one)}")
    return fn


def _is_scenario(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False  # let the match loader report the problem
    return isinstance(data, dict) and data.get("format") == "holotable-scenario"


def _check_seat(state: State[Any, Any], seat: int | None) -> None:
    if seat is not None and not 0 <= seat < state.players:
        raise ConfigError(f"there is no seat {seat} in a {state.players}-player game")


def render_files(source: Path, out: Path | None, *, ply: int | None, seat: int | None,
                 every: int | None) -> list[Path]:
    """Draw the pictures asked for; returns the files written."""
    if every is not None and every < 1:
        raise ConfigError("--every must be at least 1")
    if _is_scenario(source):
        if ply is not None or every is not None:
            raise ConfigError("--ply and --every apply to saved matches; a scenario is drawn at its end")
        scenario = Scenario.load(source)
        state, _ = run_scenario(scenario, record=True)
        _check_seat(state, seat)
        draw = drawer_for(state.game.spec.name)
        target = out or source.with_suffix(".png")
        return [draw(state, seat, target, title=scenario.title or source.stem)]
    match: Match = load_match(source)
    last = len(match.actions)
    draw = drawer_for(match.game.spec.name)
    if ply is not None and not 0 <= ply <= last:
        raise ConfigError(f"--ply must be 0..{last}, not {ply}")
    title = f"{match.game.spec.title}: {source.name}"
    if every is None:
        at = last if ply is None else ply
        state = match.state_at(at)
        _check_seat(state, seat)
        target = out or source.with_name(f"{source.stem}-ply{at}.png")
        return [draw(state, seat, target, title=title)]
    folder = out or source.with_name(f"{source.stem}-frames")
    written = []
    start = ply or 0
    for at in range(start, last + 1, every):
        state = match.state_at(at)
        _check_seat(state, seat)
        written.append(draw(state, seat, folder / f"ply{at:05d}.png", title=title))
    return written


def render_command(
    source: Annotated[Path, typer.Argument(metavar="FILE", help="A saved match or a scenario file.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="The PNG file (a folder with --every).")] = None,
    ply: Annotated[int | None, typer.Option("--ply", help="Draw the match at this ply (default: the last).")] = None,
    seat: Annotated[int | None, typer.Option("--seat", help="Draw what this seat sees (default: spectator).")] = None,
    every: Annotated[int | None, typer.Option("--every", help="Draw every K-th ply to the end (a sequence).")] = None,
) -> None:
    """Draw a position as a PNG picture (a saved match at a ply, a sequence of plies, or a scenario)."""
    with user_errors():
        files = render_files(source, out, ply=ply, seat=seat, every=every)
    for path in files:
        typer.echo(str(path))
