"""What the routers share: dependencies for the app's table manager (:data:`Manager`), the table named
in the path (:data:`Table`: 404, or 410 for one that no longer rebuilds) and the seat of the
``Authorization`` token (:data:`Seat`: 403), and the documented error responses. Every dependency is
``async``: FastAPI would run a plain function in a worker thread, a measurable cost on every request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.requests import HTTPConnection

from ..live import ApiError, LiveTable, bearer_token
from ..quotas import TooMany
from ..schemas import ErrorBody
from ..tables import TableManager

#: The refusals every table route documents (each with a JSON body ``{"detail": ...}``).
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (403, 404, 409, 410, 413, 422, 429, 503)
}


def app_manager(connection: HTTPConnection) -> TableManager:
    """The table manager of the app serving this request or WebSocket (``create_app`` puts it there)."""
    manager: TableManager = connection.app.state.manager
    return manager


async def manager_of(connection: HTTPConnection) -> TableManager:
    return app_manager(connection)


Manager = Annotated[TableManager, Depends(manager_of)]


def client_of(connection: HTTPConnection) -> str:
    """The client's address (the player's, when uvicorn takes a trusted proxy's headers)."""
    return connection.client.host if connection.client is not None else "unknown"


async def count_new_table(connection: HTTPConnection) -> None:
    """A route that opens a table counts it against the client's hourly quota (429 when used up)."""
    manager = app_manager(connection)
    try:
        manager.limits.table_created(client_of(connection), manager.clock.now())
    except TooMany as exc:
        raise ApiError(429, exc.detail, retry_after=exc.retry_after) from None


#: Add to a route that opens a new table: ``dependencies=[NEW_TABLE]``.
NEW_TABLE = Depends(count_new_table)


@dataclass(frozen=True)
class TableRef:
    """The table a request names: this app's manager and the path's table id.

    The route looks the table up itself (:meth:`table`), after FastAPI has checked its query and body:
    a dependency that raised would answer a request wrong in two ways (no such table *and* a malformed
    body) with the 404 instead of the 422 it has always had."""

    manager: TableManager
    table_id: str

    async def table(self) -> LiveTable:
        """The table; :class:`ApiError` 404 (no such table) or 410 (it no longer rebuilds)."""
        return await self.manager.get(self.table_id)


@dataclass(frozen=True)
class SeatRef(TableRef):
    """A table and the ``Authorization`` header that may hold a seat token."""

    authorization: str | None

    async def viewer(self) -> tuple[LiveTable, int | None]:
        """The table, then the seat of the token: ``None`` without one (a spectator); a forged token or
        a malformed header is a 403."""
        table = await self.table()
        token = bearer_token(self.authorization)
        return table, None if token is None else await self.manager.seat_of(table, token)

    async def player(self) -> tuple[LiveTable, int]:
        """The table, then the seat of the token, which the route needs: no token, a forged one or a
        malformed header is a 403."""
        table = await self.table()
        token = bearer_token(self.authorization,
                             missing="acting needs your seat token (Authorization: Bearer <token>)")
        return table, await self.manager.seat_of(table, token)


async def table_ref(table_id: str, connection: HTTPConnection) -> TableRef:
    return TableRef(app_manager(connection), table_id)


async def seat_ref(table_id: str, connection: HTTPConnection,
                   authorization: Annotated[str | None, Header()] = None) -> SeatRef:
    return SeatRef(app_manager(connection), table_id, authorization)


# A route takes one of these (it holds the manager too): FastAPI solves every dependency, and each
# one's own, on every request, so a chain of small ones would cost each request more.
Table = Annotated[TableRef, Depends(table_ref)]
Seat = Annotated[SeatRef, Depends(seat_ref)]


def describe_validation(exc: RequestValidationError | ValidationError) -> str:
    """The validation errors in one line, each ``field: message``."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body",))
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return "; ".join(parts) or "invalid request"


def created(table: LiveTable, you: tuple[int, str] | None) -> dict[str, Any]:
    """The answer to a request that made a table (a new one or a rematch): its id, invitation and your seat."""
    return {
        "table_id": table.id,
        "invite": table.record.invite,
        "invite_url": f"/t/{table.id}?invite={table.record.invite}",
        "you": None if you is None else {"seat": you[0], "token": you[1]},
    }
