"""What one client may ask of the server: request bodies, new tables, sockets and messages.

The limits are per client address (``request.client.host``: behind a proxy, run uvicorn with its
proxy headers so this is the player's address, see docs/server.md) and configurable
(``holotable serve --max-body-kb --tables-per-hour --sockets-per-client --sockets-per-table
--messages-per-second --header-timeout --body-timeout``). Each refusal is an answer with a status and a
reason, never a silent drop: 413 for a body too large (FastAPI's own ``max_body_size``), 408 for a
request whose headers or body take too long to arrive (:mod:`holotable.server.timeouts`), 429 with
``Retry-After`` for too many new tables, a WebSocket closed with code 4429 for too many sockets or a
client that reads no more, and a ``{"type": "error", "status": 429}`` frame for messages sent faster
than the rate. Times come from the table manager's clock, so tests move them by hand (the two
timeouts' from the event loop).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Quotas:
    """The server's limits per client (0 turns one off)."""

    #: The largest request body (an action, a new table, a chat line are a few hundred bytes).
    max_body_bytes: int = 64 * 1024
    #: New tables (tutorials and rematches included) one client may open in an hour.
    tables_per_hour: int = 120
    #: WebSockets one client may hold open at once, and one table may have.
    sockets_per_client: int = 24
    sockets_per_table: int = 64
    #: Messages a WebSocket may send a second, with bursts of twice that.
    messages_per_second: float = 20.0
    #: Messages waiting to go out to one socket: a client that reads no more is disconnected at this
    #: many (it reconnects and gets the whole state).
    send_queue: int = 200
    #: Seconds a request's headers, and then its whole body, may take to arrive (408 after that; a
    #: slow-loris defence, :mod:`holotable.server.timeouts`).
    header_timeout: float = 10.0
    body_timeout: float = 30.0


class TooMany(Exception):
    """A quota is used up; ``retry_after`` seconds until it frees up (0: unknown)."""

    def __init__(self, detail: str, retry_after: float = 0.0) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after = retry_after


@dataclass
class ClientLimits:
    """Per-client counters of one server process: tables opened in the last hour, sockets open."""

    quotas: Quotas
    created: dict[str, deque[float]] = field(default_factory=dict)
    sockets: dict[str, int] = field(default_factory=dict)

    def table_created(self, client: str, now: float) -> None:
        """Count a new table for ``client``; :class:`TooMany` once it has opened its hour's worth."""
        limit = self.quotas.tables_per_hour
        if limit <= 0:
            return
        times = self.created.setdefault(client, deque())
        while times and times[0] <= now - 3600.0:
            times.popleft()
        if len(times) >= limit:
            wait = times[0] + 3600.0 - now
            raise TooMany(f"too many new tables: at most {limit} an hour from one address; try again in "
                          f"{math.ceil(wait / 60)} min", wait)
        times.append(now)

    def socket_opened(self, client: str, table_sockets: int) -> None:
        """Count a socket of ``client`` joining a table that has ``table_sockets`` already."""
        q = self.quotas
        if q.sockets_per_table > 0 and table_sockets >= q.sockets_per_table:
            raise TooMany(f"this table has {table_sockets} connections, the most it takes")
        held = self.sockets.get(client, 0)
        if q.sockets_per_client > 0 and held >= q.sockets_per_client:
            raise TooMany(f"too many connections from one address: at most {q.sockets_per_client} at once")
        self.sockets[client] = held + 1

    def socket_closed(self, client: str) -> None:
        held = self.sockets.get(client, 0) - 1
        if held > 0:
            self.sockets[client] = held
        else:
            self.sockets.pop(client, None)


@dataclass
class MessageRate:
    """A token bucket for one socket's messages: ``rate`` a second, bursts of twice that."""

    rate: float
    tokens: float = field(init=False)
    at: float = -math.inf
    told_at: float = -math.inf

    def __post_init__(self) -> None:
        self.tokens = 2.0 * self.rate  # a full burst to start with

    def allow(self, now: float) -> bool:
        if self.rate <= 0:
            return True
        if now > self.at:
            self.tokens = min(2.0 * self.rate, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def tell(self, now: float) -> bool:
        """Whether to answer a refused message (once a second: the answers must not flood either)."""
        if now - self.told_at >= 1.0:
            self.told_at = now
            return True
        return False
