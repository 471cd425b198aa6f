"""Turning views, logs and outcomes into rich renderables.

Any game gets a generic table of its view; a game can name a nicer renderer as the
``terminal`` role of its manifest (see :mod:`holotable.games.captain_black.terminal`). The
renderer's module may also offer the terminal's smaller pieces, found by name
(:func:`terminal_hook`): ``status_lines(view)`` (the compact picture in the status bar of a live
phase), ``change_line(event, seat)`` (one event as one short line), ``help_lines(view)`` (the
commands of this phase, grouped), ``COMMAND_WORDS`` (the action words a unique prefix may stand for) and
``TERMINAL_COMMANDS`` (the game's own look-up commands, ``(word, usage, doc, run(state, seat, rest))``, such
as Kyrum's ``card NAME``: never an action, available at any moment).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from holotable.engine import Event
from holotable.engine.words import seat_list, seat_name

#: ``renderer(view) -> renderable``: the body of a view panel for one game.
ViewRenderer = Callable[[dict[str, Any]], RenderableType]

#: Keys every view has (added by the engine); shown in the panel title, not the body.
ENGINE_KEYS = ("game", "players", "seat", "ply", "to_move", "terminal", "outcome", "committed", "my_choice")


def renderer_for(game: str) -> ViewRenderer:
    """The renderer the manifest of ``game`` names, imported on first use; else :func:`generic_body`."""
    from holotable.engine import registry

    found: ViewRenderer | None = registry.offered(game, "terminal")
    return generic_body if found is None else found


def terminal_hook(game: str, name: str) -> Any:
    """The attribute ``name`` of the module that holds ``game``'s terminal renderer (``None``: none)."""
    import sys

    from holotable.engine import registry

    found = registry.offered(game, "terminal")
    module = None if found is None else sys.modules.get(getattr(found, "__module__", ""))
    return None if module is None else getattr(module, name, None)


def seat_label(seat: int | None) -> str:
    return "spectator" if seat is None else seat_name(seat)


def seats_text(seats: Any) -> str:
    """Seat indices as the players call them (``[0, 2]`` -> ``"Seats 1 and 3"``; none: ``"(none)"``)."""
    numbers = [int(s) for s in seats or []]
    return seat_list(numbers) if numbers else "(none)"


def compact(value: Any) -> str:
    """A short one-line text for any JSON-ready value."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, list) and all(not isinstance(v, list | dict) for v in value):
        return ", ".join(compact(v) for v in value) if value else "(none)"
    return json.dumps(value, separators=(", ", ": "))


def generic_body(view: dict[str, Any]) -> RenderableType:
    """A key/value table of every game-specific entry of a view (or of a full state)."""
    table = Table(show_header=False, box=box.SIMPLE, pad_edge=False)
    table.add_column("key", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in view.items():
        if key in ENGINE_KEYS:
            continue
        table.add_row(escape(str(key)), escape(compact(value)))
    return table


def render_view(view: dict[str, Any], *, title: str | None = None) -> RenderableType:
    """A panel with what one seat sees (the game's renderer), then the outcome once the game is over."""
    body = renderer_for(str(view.get("game")))(view)
    to_move = view.get("to_move") or []
    head = title or f"{view.get('game')} · {seat_label(view.get('seat'))} · ply {view.get('ply')}"
    parts: list[RenderableType] = [body]
    if view.get("my_choice") is not None:
        parts.append(Text(f"Your sealed choice: {view['my_choice']}"))
    if view.get("committed"):
        parts.append(Text(f"Seats that have chosen: {seats_text(view['committed'])}"))
    subtitle = "game over" if view.get("terminal") else f"to move: {seats_text(to_move)}"
    panel = Panel(Group(*parts), title=escape(head), subtitle=escape(subtitle), expand=False)
    if isinstance(view.get("outcome"), dict):
        return Group(panel, render_outcome(view["outcome"]))
    return panel


def render_full(full: dict[str, Any]) -> RenderableType:
    """The omniscient state (``State.full()``): its data as a generic table."""
    data = full.get("data", {})
    table = generic_body(data if isinstance(data, dict) else {"data": data})
    title = f"{full.get('game')} · full state · ply {full.get('ply')}"
    extra = f"to move: {seats_text(full.get('to_move'))}"
    if full.get("pending"):
        extra += " · sealed: " + ", ".join(f"{seat_name(int(s))}: {a}" for s, a in full["pending"].items())
    return Panel(table, title=escape(title), subtitle=escape(extra), expand=False)


def render_outcome(outcome: dict[str, Any], labels: Sequence[str] | None = None) -> RenderableType:
    """Ranks, scores and winners, one row per seat, with the reason and details."""
    table = Table(title="Final result", box=box.SIMPLE_HEAVY)
    table.add_column("Seat", justify="right")
    if labels is not None:
        table.add_column("Player")
    table.add_column("Score", justify="right")
    table.add_column("Rank", justify="right")
    table.add_column("")
    winners = set(outcome.get("winners", []))
    for seat, (score, rank) in enumerate(zip(outcome["scores"], outcome["ranks"], strict=True)):
        row = [str(seat + 1)]  # numbered from 1, as the players call the seats
        if labels is not None:
            row.append(escape(labels[seat]))
        row += [_number(score), str(rank), "winner" if seat in winners else ""]
        table.add_row(*row, style="bold green" if seat in winners else None)
    lines: list[RenderableType] = [table, Text(f"Result: {outcome.get('reason', '')}", style="bold")]
    for key, value in (outcome.get("details") or {}).items():
        lines.append(Text(f"  {key}: {compact(value)}"))
    return Group(*lines)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def render_log(events: Iterable[Event], *, title: str = "Log") -> RenderableType | None:
    """The events as numbered lines (``None`` when there are none)."""
    lines = [Text.assemble((f"{e.ply:>4} ", "dim"), e.text) for e in events]
    if not lines:
        return None
    return Group(Text(title, style="bold underline"), *lines)
