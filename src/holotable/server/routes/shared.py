"""What the routers share: dependencies for the app's table manager, the table named in the path
(404, or 410 for one that no longer rebuilds) and the seat of the ``Authorization`` token (403), and the
documented error responses. Every dependency is ``async``: FastAPI would run a plain function in a
worker thread, a measurable cost on every request.

A dependency runs before FastAPI checks the route's own query and body, so a request that is wrong in
two ways (no such table *and* a malformed body) hears of the first of them that a dependency finds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.requests import HTTPConnection

from ..live import LiveTable, bearer_token
from ..schemas import ErrorBody
from ..tables import TableManager

#: The refusals every table route documents (each with a JSON body ``{"detail": ...}``).
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (403, 404, 409, 410, 422, 503)
}


def app_manager(connection: HTTPConnection) -> TableManager:
    """The table manager of the app serving this request or WebSocket (``create_app`` puts it there)."""
    manager: TableManager = connection.app.state.manager
    return manager


async def manager_of(connection: HTTPConnection) -> TableManager:
    return app_manager(connection)


Manager = Annotated[TableManager, Depends(manager_of)]


async def table_of(table_id: str, connection: HTTPConnection) -> LiveTable:
    """The table of the path; :class:`ApiError` 404 (no such table) or 410 (it no longer rebuilds)."""
    return await app_manager(connection).get(table_id)


Table = Annotated[LiveTable, Depends(table_of)]


# The routes that play take one dependency that holds all they need: FastAPI solves every dependency
# (and each one's own) on every request, which a chain of small ones makes measurably slower.
@dataclass(frozen=True)
class Viewer:
    """Who asks for a table's state: the manager, the table of the path and the token's seat (``None``: a spectator)."""

    manager: TableManager
    table: LiveTable
    seat: int | None


@dataclass(frozen=True)
class Player:
    """Who plays at a table: the manager, the table of the path and the token's seat."""

    manager: TableManager
    table: LiveTable
    seat: int


async def viewer_of(table_id: str, connection: HTTPConnection,
                    authorization: Annotated[str | None, Header()] = None) -> Viewer:
    """The table (404/410), then the seat of the token: ``None`` without one; a forged token or a
    malformed header is a 403."""
    manager = app_manager(connection)
    table = await manager.get(table_id)
    token = bearer_token(authorization)
    return Viewer(manager, table, None if token is None else table.seat_of(token))


async def player_of(table_id: str, connection: HTTPConnection,
                    authorization: Annotated[str | None, Header()] = None) -> Player:
    """The table (404/410), then the seat of the token, which the route needs: no token, a forged one
    or a malformed header is a 403."""
    manager = app_manager(connection)
    table = await manager.get(table_id)
    token = bearer_token(authorization, missing="acting needs your seat token (Authorization: Bearer <token>)")
    return Player(manager, table, table.seat_of(token))


AsViewer = Annotated[Viewer, Depends(viewer_of)]
AsPlayer = Annotated[Player, Depends(player_of)]


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
