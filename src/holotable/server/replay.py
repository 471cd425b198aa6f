"""Replays: a table's stored action log stepped through as one seat saw it.

While a game runs, a seat replays only its own view (a spectator the public one): the view at ply N
is exactly what that seat was shown at ply N, so a replay teaches it nothing it was not told. Once
the game is over any seat's view may be replayed, by anyone with the link: the seed and every
hidden card are then public anyway (:attr:`~holotable.engine.GameSpec.has_secrets`).

The positions are rebuilt from the config, the seed and the log through the rules, the same way a
table is rebuilt after a restart. Stepping forward one move at a time is the common case (a player
pressing "next"), so each table keeps the last position asked for and the next request carries on
from it; a step back replays from the start.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from holotable.engine import State
from holotable.engine.undo import play as play_step

from .live import TABLE_SOURCES, LiveTable
from .storage import ActionRecord


@dataclass(frozen=True)
class _Cursor:
    undos: int
    #: the actions the position was built from (a prefix of the table's log while ``undos`` is unchanged)
    actions: tuple[ActionRecord, ...]
    state: State[Any, Any]


class Replays:
    """Per table, the last replayed position (never changed once cached: a step forward works on a clone)."""

    def __init__(self) -> None:
        self._cursors: dict[str, _Cursor] = {}
        self._lock = threading.Lock()

    def forget(self, table_id: str) -> None:
        """Drop a table's cached position (the table left memory)."""
        with self._lock:
            self._cursors.pop(table_id, None)

    def state_at(self, table: LiveTable, actions: Sequence[ActionRecord], undos: int, ply: int) -> State[Any, Any]:
        """The position after the first ``ply`` of ``actions`` (the table's log when asked), events recorded.

        Runs in a worker thread: it may replay a whole game through the rules."""
        wanted = tuple(actions[:ply])
        with self._lock:
            cursor = self._cursors.get(table.id)
        n = 0 if cursor is None else len(cursor.actions)
        if cursor is not None and cursor.undos == undos and n <= ply and cursor.actions == wanted[:n]:
            st = cursor.state.clone()
        else:
            st, n = State.new(table.game, table.config, table.record.seed, record=True), 0
        for action in wanted[n:]:
            play_step(st, action.action, action.seat, by_table=action.source in TABLE_SOURCES)
        with self._lock:
            self._cursors[table.id] = _Cursor(undos, wanted, st)
        return st.clone()
