"""Stepping through a saved match, as one seat, a spectator, or omnisciently."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from holotable.engine import Event, Match, State
from holotable.engine.words import seat_name

from .common import LineReader
from .render import render_full, render_log, render_outcome, render_view

KEYS = "Enter/n next · b back · g N go to ply N · q quit"


class Replay:
    """Every position of a match, with the log of each ply, seen from one viewpoint."""

    def __init__(self, match: Match, seat: int | None = None, *, omniscient: bool = False) -> None:
        self.match = match
        self.seat = seat
        self.omniscient = omniscient
        # Positions are kept without their logs; the final state's log holds every event once.
        st = State.new(match.game, match.config, match.seed, record=True)
        self.positions: list[State[Any, Any]] = [st.clone(keep_events=False)]
        for actor, text in match.actions:
            st.apply(text, actor)
            self.positions.append(st.clone(keep_events=False))
        self.events: list[Event] = st.events or []

    @property
    def last_ply(self) -> int:
        return len(self.positions) - 1

    def _visible(self, event: Event) -> bool:
        return self.omniscient or event.visible_to(self.seat)

    def frame(self, ply: int) -> RenderableType:
        """What the viewer sees after ``ply`` actions: that ply's log, then the table."""
        state = self.positions[ply]
        parts: list[RenderableType] = [Text(f"── ply {ply}/{self.last_ply} ──", style="bold")]
        if ply > 0:
            actor, text = self.match.actions[ply - 1]
            # The action itself is shown only to its author (or omnisciently): the log says
            # what the others may know of it (a sealed or hidden choice stays hidden).
            if self.omniscient or actor == self.seat:
                parts.append(Text(f"{seat_name(actor)} played: {text}"))
            else:
                parts.append(Text(f"{seat_name(actor)} moved"))
        log = render_log([e for e in self.events if e.ply == ply and self._visible(e)], title="Log")
        if log is not None:
            parts.append(log)
        if self.omniscient:
            parts.append(render_full(state.full()))
            if state.is_terminal():
                parts.append(render_outcome(state.outcome().to_dict()))
        else:
            parts.append(render_view(state.view(self.seat)))
        return Group(*parts)

    # ------------------------------------------------------------------ driving it
    def print_range(self, console: Console, start: int, stop: int) -> None:
        for ply in range(start, stop + 1):
            console.print(self.frame(ply))

    def interactive(self, console: Console, reader: LineReader, start: int) -> None:
        ply = start
        console.print(self.frame(ply))
        while True:
            line = reader.ask(f"({KEYS}) > ")
            if line is None:
                return
            command, _, arg = line.strip().lower().partition(" ")
            if command in ("q", "quit"):
                return
            if command in ("", "n", "next"):
                if ply == self.last_ply:
                    console.print("end of the match (b to go back, q to quit)")
                    continue
                ply += 1
            elif command in ("b", "back"):
                if ply == 0:
                    console.print("already at the start")
                    continue
                ply -= 1
            elif command in ("g", "goto"):
                try:
                    target = int(arg)
                except ValueError:
                    console.print("usage: g N")
                    continue
                if not 0 <= target <= self.last_ply:
                    console.print(f"ply must be 0..{self.last_ply}")
                    continue
                ply = target
            else:
                console.print(f"unknown key {command!r}: {KEYS}")
                continue
            console.print(self.frame(ply))

