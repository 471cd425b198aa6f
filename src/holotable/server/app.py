"""The FastAPI application: :func:`create_app` makes the app's table manager (which owns the game
extensions) and assembles the routers of :mod:`holotable.server.routes`, the error handlers and the
lifespan."""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

import holotable

from .bots import BotPool
from .clocks import Clock, SystemClock
from .quotas import Quotas
from .routes import games, lobby, pages, play, ws
from .routes.shared import describe_validation
from .storage import Store, default_database_url
from .tables import ApiError, TableManager


def create_app(
    database_url: str | None = None,
    *,
    clock: Clock | None = None,
    bot_workers: int = 2,
    tick: float = 0.25,
    static_dir: Path | None = None,
    quotas: Quotas | None = None,
) -> FastAPI:
    """The server for ``database_url`` (default: SQLite under the XDG data folder).

    ``clock`` is the table clock's time source (tests pass a :class:`~holotable.server.clocks.ManualClock`),
    ``bot_workers`` the number of threads bots think in, ``tick`` how often (seconds) the clocks are
    checked; 0 turns the automatic check off (tests call ``app.state.manager.check_clocks()``);
    ``quotas`` what one client may ask (:mod:`holotable.server.quotas`; default :class:`Quotas`).
    """
    quotas = quotas or Quotas()
    store = Store(database_url or default_database_url())
    manager = TableManager(store, clock or SystemClock(), BotPool(bot_workers), tick=tick, quotas=quotas)

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
                  docs_url=None, redoc_url=None,
                  max_body_size=quotas.max_body_bytes or None)  # a larger body: 413
    app.state.manager = manager  # what the routes' dependencies hand them (routes.shared.manager_of)
    app.state.store = store
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]

    for routes in (games.router, lobby.router, play.router, ws.router):
        app.include_router(routes)
    for ext in manager.extensions.values():  # this app's extensions: their routes reach this manager
        extra_routes = ext.router(manager)
        if extra_routes is not None:
            app.include_router(extra_routes)
    folder = static_dir if static_dir is not None else pages.default_static_dir()
    pages.mount_static(app, folder)
    app.include_router(pages.router(folder))
    return app


async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
    body: dict[str, Any] = {"detail": exc.detail}
    if exc.rule is not None:
        body["rule"] = exc.rule
    headers = None if exc.retry_after is None else {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}
    return JSONResponse(body, status_code=exc.status, headers=headers)


async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    return JSONResponse({"detail": describe_validation(exc)}, status_code=422)
