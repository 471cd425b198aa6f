"""The FastAPI application: the lobby and table API, the table WebSocket and the browser pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

import holotable
from holotable.engine import registry

from .bots import LEVELS, BotPool, agent_labels, level_info
from .clocks import Clock, SystemClock
from .extensions import all_extensions, extension_for
from .live import bearer_token
from .schemas import (
    ActionRequest,
    CreateTableRequest,
    CreateTableResponse,
    ErrorBody,
    GameInfo,
    JoinRequest,
    RematchResponse,
    SeatToken,
    TableSummary,
    UndoRequest,
    WsActionMessage,
    WsUndoMessage,
)
from .storage import Store, default_database_url
from .tables import ApiError, Listener, LiveTable, TableManager

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (403, 404, 409, 410, 422, 503)
}


def _default_static_dir() -> Path | None:
    try:
        from holotable.web import STATIC_DIR
    except ImportError:
        return None
    return STATIC_DIR if STATIC_DIR.is_dir() else None


def _describe_validation(exc: RequestValidationError | ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body",))
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return "; ".join(parts) or "invalid request"


def create_app(
    database_url: str | None = None,
    *,
    clock: Clock | None = None,
    bot_workers: int = 2,
    tick: float = 0.25,
    static_dir: Path | None = None,
) -> FastAPI:
    """The server for ``database_url`` (default: SQLite under the XDG data folder).

    ``clock`` is the table clock's time source (tests pass a :class:`~holotable.server.clocks.ManualClock`),
    ``bot_workers`` the number of threads bots think in, ``tick`` how often (seconds) the clocks are
    checked; 0 turns the automatic check off (tests call ``app.state.manager.check_clocks()``).
    """
    store = Store(database_url or default_database_url())
    manager = TableManager(store, clock or SystemClock(), BotPool(bot_workers), tick=tick)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="holotable", version=holotable.__version__,
                  lifespan=lifespan, description="Play holotable's games in the browser: lobby, tables, bots.",
                  # The interactive API pages load scripts from the internet; the schema itself is served.
                  docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.state.store = store

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        body: dict[str, Any] = {"detail": exc.detail}
        if exc.rule is not None:
            body["rule"] = exc.rule
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _describe_validation(exc)}, status_code=422)

    async def table_or_404(table_id: str) -> LiveTable:
        return await manager.get(table_id)

    # ------------------------------------------------------------------ games
    @app.get("/api/games", response_model=list[GameInfo])
    async def games() -> list[dict[str, Any]]:
        out = []
        for spec in registry.specs():
            out.append({
                "name": spec.name,
                "title": spec.title,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "default_players": spec.default_players or spec.min_players,
                "params": [{**p.to_dict(), "help": p.doc} for p in spec.params],
                "agents": agent_labels(spec.name),
                "levels": [vars(level_info(spec.name, level)) | {"name": level} for level in LEVELS],
                "web": registry.manifest(spec.name).web or "generic",  # the page's renderer module
            })
        return out

    # ------------------------------------------------------------------ lobby
    @app.post("/api/tables", status_code=201, response_model=CreateTableResponse, responses=ERRORS)
    async def create_table(body: CreateTableRequest) -> dict[str, Any]:
        table, you = await manager.create(body)
        return _created(table, you)

    @app.get("/api/tables", response_model=list[TableSummary], responses=ERRORS)
    async def list_tables(
        status: Literal["open", "running", "finished"] | None = None,
    ) -> list[dict[str, Any]]:
        return await manager.summaries(status)

    @app.get("/api/tables/{table_id}", response_model=TableSummary, responses=ERRORS)
    async def table_summary(table_id: str) -> dict[str, Any]:
        return (await table_or_404(table_id)).summary()

    @app.post("/api/tables/{table_id}/join", response_model=SeatToken, responses=ERRORS)
    async def join(table_id: str, body: JoinRequest) -> dict[str, Any]:
        table = await table_or_404(table_id)
        seat, token = await manager.join(table, body.invite, body.name)
        return {"seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/catalog", responses=ERRORS)
    async def table_catalog(table_id: str) -> dict[str, Any]:
        """What the table page needs beyond a view (Buccaneers' card list), built from this table's config."""
        table = await table_or_404(table_id)
        try:
            from holotable.web.cards import catalog
        except ImportError:  # the browser package is not installed: nothing to describe
            return {}
        return catalog(table.record.game, table.config)

    @app.post("/api/tables/{table_id}/rematch", response_model=RematchResponse, responses=ERRORS)
    async def rematch(table_id: str, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        table = await table_or_404(table_id)
        seat = _seat(table, authorization, required=True)
        assert seat is not None
        new, you = await manager.rematch(table, seat)
        return _created(new, you)

    # ------------------------------------------------------------------ play
    @app.get("/api/tables/{table_id}/state", responses=ERRORS)
    async def table_state(
        table_id: str,
        authorization: Annotated[str | None, Header()] = None,
        since: Annotated[int | None, Query(ge=0, description="only log events after this ply")] = None,
    ) -> dict[str, Any]:
        table = await table_or_404(table_id)
        return manager.payload(table, _seat(table, authorization, required=False), since)

    @app.post("/api/tables/{table_id}/actions", responses=ERRORS)
    async def post_action(
        table_id: str, body: ActionRequest, authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        table = await table_or_404(table_id)
        seat = _seat(table, authorization, required=True)
        assert seat is not None
        await manager.act(table, seat, body.action, body.ply)
        return manager.payload(table, seat)

    @app.post("/api/tables/{table_id}/undo", responses=ERRORS)
    async def post_undo(
        table_id: str, body: UndoRequest | None = None, authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Take back your own last action, under the undo policy (the state's ``undo`` says whether you may)."""
        table = await table_or_404(table_id)
        seat = _seat(table, authorization, required=True)
        assert seat is not None
        await manager.undo(table, seat, None if body is None else body.ply)
        return manager.payload(table, seat)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str = "", since: str = "") -> None:
        await websocket.accept()
        try:
            table = await manager.get(table_id)
            seat = table.seat_of(token) if token else None
            start = int(since) if since.strip() else None
            if start is not None and start < 0:
                raise ApiError(422, "since must be a ply (0 or more)")
        except ValueError:
            await _refuse(websocket, ApiError(422, "since must be a ply (0 or more)"))
            return
        except ApiError as exc:
            await _refuse(websocket, exc)
            return
        listener = Listener(seat, start)
        listener.notify()  # the first message: the current state and the log since `since`
        table.listeners.add(listener)
        sender = asyncio.create_task(_send_loop(websocket, table, listener))
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None:  # a binary frame
                    listener.send_later({"type": "error", "status": 422, "detail": "send JSON text messages"})
                    continue
                other = _non_action_message(text)
                if other is not None and other["type"] == "undo":
                    await _undo_message(table, listener, text)
                    continue
                if other is not None:
                    await _extension_message(table, listener, other)
                    continue
                try:
                    message = WsActionMessage.model_validate_json(text)
                except ValidationError as exc:
                    listener.send_later({"type": "error", "status": 422, "detail": _describe_validation(exc)})
                    continue
                if seat is None:
                    listener.send_later({"type": "error", "status": 403, "detail": "spectators cannot act"})
                    continue
                try:
                    await manager.act(table, seat, message.action, message.ply)
                except ApiError as exc:
                    error: dict[str, Any] = {"type": "error", "status": exc.status, "detail": exc.detail}
                    if exc.rule is not None:
                        error["rule"] = exc.rule
                    listener.send_later(error)
        except WebSocketDisconnect:
            pass
        finally:
            table.listeners.discard(listener)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _undo_message(table: LiveTable, listener: Listener, text: str) -> None:
        """``{"type": "undo", "ply"?}``: take back this seat's action; refusals go back to this connection only."""
        try:
            message = WsUndoMessage.model_validate_json(text)
        except ValidationError as exc:
            listener.send_later({"type": "error", "status": 422, "detail": _describe_validation(exc), "about": "undo"})
            return
        if listener.seat is None:
            listener.send_later({"type": "error", "status": 403, "detail": "spectators cannot undo", "about": "undo"})
            return
        try:
            await manager.undo(table, listener.seat, message.ply)
        except ApiError as exc:
            listener.send_later({"type": "error", "status": exc.status, "detail": exc.detail, "about": "undo"})

    async def _extension_message(table: LiveTable, listener: Listener, message: dict[str, Any]) -> None:
        """A message for the game's extension (chat, ...); refusals go back to this connection only."""
        ext = extension_for(table.record.game)
        try:
            if ext is None:
                raise ApiError(422, f"unknown message type {message.get('type')!r}")
            await ext.on_message(manager, table, listener, message)
        except ApiError as exc:
            listener.send_later({"type": "error", "status": exc.status, "detail": exc.detail})

    async def _send_loop(websocket: WebSocket, table: LiveTable, listener: Listener) -> None:
        """All of a connection's messages go out from here, in order: errors, then the fresh state."""
        while True:
            await listener.wake.wait()
            listener.wake.clear()
            while listener.outbox:
                await websocket.send_json(listener.outbox.pop(0))
            if listener.dirty:
                listener.dirty = False
                payload = manager.payload(table, listener.seat, listener.since)
                listener.since = payload["ply"]
                await websocket.send_json({"type": "state", **payload})

    for ext in all_extensions():
        extra_routes = ext.router(manager)
        if extra_routes is not None:
            app.include_router(extra_routes)

    # ------------------------------------------------------------------ pages
    pages = static_dir if static_dir is not None else _default_static_dir()
    if pages is not None and pages.is_dir():
        app.mount("/static", StaticFiles(directory=pages), name="static")

    @app.get("/", include_in_schema=False, response_model=None)
    async def lobby_page() -> Response:
        return _page(pages, "index.html")

    @app.get("/t/{table_id}", include_in_schema=False, response_model=None)
    async def table_page(table_id: str) -> Response:
        return _page(pages, "table.html")

    return app


def _non_action_message(text: str) -> dict[str, Any] | None:
    """A JSON object message whose ``type`` is a string other than ``action`` (for the game's extension);
    ``None`` for anything else (the action model then reports what is wrong with it)."""
    try:
        message = json.loads(text)
    except ValueError:
        return None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str) or message["type"] == "action":
        return None
    return message


def _seat(table: LiveTable, authorization: str | None, *, required: bool) -> int | None:
    token = bearer_token(authorization)
    if token is None:
        if required:
            raise ApiError(403, "acting needs your seat token (Authorization: Bearer <token>)")
        return None
    return table.seat_of(token)


def _created(table: LiveTable, you: tuple[int, str] | None) -> dict[str, Any]:
    return {
        "table_id": table.id,
        "invite": table.record.invite,
        "invite_url": f"/t/{table.id}?invite={table.record.invite}",
        "you": None if you is None else {"seat": you[0], "token": you[1]},
    }


def _page(pages: Path | None, name: str) -> Response:
    if pages is None or not (pages / name).is_file():
        return PlainTextResponse("the browser pages are not installed; the API is described at /openapi.json",
                                 status_code=404)
    return FileResponse(pages / name)


async def _refuse(websocket: WebSocket, exc: ApiError) -> None:
    await websocket.send_json({"type": "error", "status": exc.status, "detail": exc.detail})
    await websocket.close(code=4000 + exc.status)
