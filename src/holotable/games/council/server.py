"""Black Hole Council's table chat: free public talk at any moment of the game (BHC-AMB-36).

The engine takes free chat (``say ...``) only during Negotiate (bots' one-line answers come that
way). People at a table talk all the time (while the votes are out, during the Advance turns, at
the Deduction and after the game), so the browser's chat box uses this channel in every phase,
Negotiate included, and the conversation reads as one thread. The structured talk (suggestions,
pledges, bribe requests, claims) stays engine actions, logged and replayed with the game.

WebSocket messages (see :mod:`holotable.server.extensions`):

- ``{"type": "chat", "text": "..."}`` from a seated connection: sanitised like the engine's chat
  (unprintable characters become spaces, whitespace collapses), refused when empty or longer than
  the table's ``chat_max_chars``; spectators are refused (403), and so is a seat sending more than
  :data:`BURST_LINES` lines within :data:`BURST_SECONDS` (429). Every connection of the table then
  gets ``{"type": "chat", "id", "seat", "text", "ts", "ply"}``.
- ``{"type": "chat_history"}``: this connection alone gets ``{"type": "chat_history", "messages": [...]}``
  (the last :data:`HISTORY_LIMIT` lines).

Every state payload carries the last :data:`RECENT` lines as ``extra.chat``, so a page that
reloads (or a server that restarts: the lines are stored in ``holotable_council_chat``) shows the
conversation at once. Chat is public to every seat and watcher; whispers are not modelled.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select

from holotable.games.council.actions import sanitise
from holotable.server.extensions import TableExtension
from holotable.server.live import ApiError

if TYPE_CHECKING:
    from holotable.engine import State
    from holotable.server.live import Listener, LiveTable
    from holotable.server.storage import ActionRecord, Store
    from holotable.server.tables import TableManager

#: Lines sent with every state payload (``extra.chat``).
RECENT = 40
#: Lines kept in memory per table and sent on ``chat_history``.
HISTORY_LIMIT = 200
#: The longest line when the table's config has no ``chat_max_chars``.
DEFAULT_MAX_CHARS = 200
#: At most this many lines per seat within :data:`BURST_SECONDS` (a stuck key or a script is refused, 429).
BURST_LINES = 8
BURST_SECONDS = 10.0

chat_metadata = MetaData()

chat_t = Table(
    "holotable_council_chat",
    chat_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("ts", Float, nullable=False),
    Column("ply", Integer, nullable=False),
)


def clean_text(raw: object, limit: int) -> str:
    """The line as it will be shown, or :class:`ApiError` 422 with the reason.

    >>> clean_text("  hello\\n  there ", 200)
    'hello there'
    >>> clean_text("   ", 200)
    Traceback (most recent call last):
    ...
    holotable.server.live.ApiError: a chat message needs some text
    """
    if not isinstance(raw, str):
        raise ApiError(422, "a chat message's text must be a string")
    if len(raw) > 4 * limit:  # do not even sanitise a huge message
        raise ApiError(422, f"a chat message is at most {limit} characters")
    text = sanitise(raw)
    if not text:
        raise ApiError(422, "a chat message needs some text")
    if len(text) > limit:
        raise ApiError(422, f"a chat message is at most {limit} characters")
    return text


class CouncilExtension(TableExtension):
    """The table chat channel: kept in memory per table and in its own SQL table (one instance per app)."""

    game = "council"

    def __init__(self) -> None:
        self._lines: dict[str, list[dict[str, Any]]] = {}
        self._recent: dict[tuple[str, int], list[float]] = {}
        self._store: Store | None = None

    async def start(self, manager: TableManager) -> None:
        # One instance per app; an app started again begins afresh. The chat table is created if missing.
        self._lines = {}
        self._recent = {}
        self._store = manager.store
        await asyncio.to_thread(chat_metadata.create_all, manager.store.engine)

    def forget(self, table_id: str) -> None:
        self._lines.pop(table_id, None)
        for key in [k for k in self._recent if k[0] == table_id]:
            del self._recent[key]

    # ------------------------------------------------------------------ storage
    def _load(self, table_id: str) -> list[dict[str, Any]]:
        lines = self._lines.get(table_id)
        if lines is not None:
            return lines
        lines = self._read(table_id)
        self._lines[table_id] = lines
        return lines

    def _read(self, table_id: str) -> list[dict[str, Any]]:
        """The table's last lines as stored, oldest first."""
        if self._store is None:
            return []
        with self._store.engine.connect() as conn:
            rows = conn.execute(
                select(chat_t).where(chat_t.c.table_id == table_id).order_by(chat_t.c.id.desc())
                .limit(HISTORY_LIMIT)
            ).mappings().all()
        return [_line(r) for r in reversed(rows)]

    def _insert(self, table_id: str, seat: int, text: str, ts: float, ply: int) -> int:
        assert self._store is not None
        with self._store.engine.begin() as conn:
            result = conn.execute(insert(chat_t).values(table_id=table_id, seat=seat, text=text, ts=ts, ply=ply))
            self._store.notify(conn, table_id, "chat")  # the other server processes' pages hear it too
            key = result.inserted_primary_key
            return int(key[0]) if key is not None else 0

    def history(self, table_id: str) -> list[dict[str, Any]]:
        """The table's last lines, oldest first (copies)."""
        return [dict(line) for line in self._load(table_id)]

    # ------------------------------------------------------------------ hooks
    def payload_extra(self, manager: TableManager, table: LiveTable, seat: int | None) -> dict[str, Any] | None:
        limit = _limit(table)
        return {"chat": self.history(table.id)[-RECENT:], "chat_max_chars": limit}

    def replay_extra(self, manager: TableManager, table: LiveTable, before: State[Any, Any] | None,
                     after: State[Any, Any], action: ActionRecord | None, seat: int | None) -> dict[str, Any] | None:
        """The chat as it stood after that move: the lines said while the table was at that ply or before
        (the chat is public: every seat and every watcher read the same)."""
        said = [line for line in self.history(table.id) if line["ply"] <= after.ply]
        return {"chat": said[-RECENT:], "chat_max_chars": _limit(table)}

    async def on_message(self, manager: TableManager, table: LiveTable, listener: Listener,
                         message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "chat_history":
            await asyncio.to_thread(self._load, table.id)
            listener.send_later({"type": "chat_history", "messages": self.history(table.id)})
            return
        if kind != "chat":
            raise ApiError(422, f"unknown message type {kind!r}")
        if listener.seat is None:
            raise ApiError(403, "spectators cannot chat; take a seat to talk")
        limit = _limit(table)
        text = clean_text(message.get("text"), limit)
        ts = manager.clock.now()
        recent = [t for t in self._recent.get((table.id, listener.seat), []) if ts - t < BURST_SECONDS]
        if len(recent) >= BURST_LINES:
            raise ApiError(429, f"slow down: at most {BURST_LINES} lines in {BURST_SECONDS:g} seconds")
        await asyncio.to_thread(self._load, table.id)
        ply = table.state.ply
        try:
            key = await asyncio.to_thread(self._insert, table.id, listener.seat, text, ts, ply)
        except Exception as exc:  # stored first, told after: a line that is not stored is not sent
            raise ApiError(503, "the message could not be stored; nothing was sent") from exc
        self._recent[(table.id, listener.seat)] = [*recent, ts]
        line = {"id": key, "seat": listener.seat, "text": text, "ts": ts, "ply": ply}
        lines = self._lines.setdefault(table.id, [])
        lines.append(line)
        del lines[:-HISTORY_LIMIT]
        for other in list(table.listeners):
            other.send_later({"type": "chat", **line})


    async def heard(self, manager: TableManager, table: LiveTable, kind: str) -> None:
        """Another server process stored a chat line at this table: read the new lines and tell this
        process's pages, as that process told its own."""
        if kind != "chat" or table.id not in self._lines:
            return  # nobody here has read this table's chat: it is read fresh when asked for
        stored = await asyncio.to_thread(self._read, table.id)
        lines = self._lines.setdefault(table.id, [])
        known = {line["id"] for line in lines}
        new = [line for line in stored if line["id"] not in known]
        lines.extend(new)
        lines.sort(key=lambda line: line["id"])
        del lines[:-HISTORY_LIMIT]
        for line in new:
            for other in list(table.listeners):
                other.send_later({"type": "chat", **line})


def _limit(table: LiveTable) -> int:
    value = table.config.get("chat_max_chars", DEFAULT_MAX_CHARS)
    return int(value) if isinstance(value, int) and value > 0 else DEFAULT_MAX_CHARS


def _line(row: Any) -> dict[str, Any]:
    return {"id": int(row["id"]), "seat": int(row["seat"]), "text": str(row["text"]), "ts": float(row["ts"]),
            "ply": int(row["ply"])}

