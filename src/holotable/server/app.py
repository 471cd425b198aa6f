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
from .tables import IDLE_SECONDS, ApiError, TableManager
from .timeouts import BodyTimeout


def create_app(
    database_url: str | None = None,
    *,
    clock: Clock | None = None,
    bot_workers: int = 2,
    tick: float = 0.25,
    static_dir: Path | None = None,
    quotas: Quotas | None = None,
    idle_seconds: float = IDLE_SECONDS,
    bots: str = "local",
    ray_address: str | None = None,
) -> FastAPI:
    """The server for ``database_url`` (default: SQLite under the XDG data folder).

    ``clock`` is the table clock's time source (tests pass a :class:`~holotable.server.clocks.ManualClock`),
    ``bot_workers`` the number of threads bots think in, ``tick`` how often (seconds) the clocks are
    checked; 0 turns the automatic check off (tests call ``app.state.manager.check_clocks()``);
    ``quotas`` what one client may ask (:mod:`holotable.server.quotas`; default :class:`Quotas`).
    ``idle_seconds`` how long a table nobody uses stays in memory (0: for ever; the store keeps it).
    ``bots`` where search bots think: ``"local"`` (worker processes here) or ``"ray"`` (Ray tasks: on the
    cluster at ``ray_address``, ``host:port`` or ``"auto"``, or on a Ray started here when it is ``None``;
    see :class:`~holotable.server.ray_bots.RayBotPool`).
    """
    quotas = quotas or Quotas()
    store = Store(database_url or default_database_url())
    pool = _bot_pool(bots, bot_workers, ray_address)
    manager = TableManager(store, clock or SystemClock(), pool, tick=tick, quotas=quotas,
                           idle_seconds=idle_seconds)

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
    if quotas.body_timeout > 0:  # a body still arriving after this: 408 (the headers' limit is uvicorn's protocol's)
        app.add_middleware(BodyTimeout, seconds=quotas.body_timeout)

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


def _bot_pool(bots: str, workers: int, ray_address: str | None) -> BotPool:
    if bots == "ray":
        from .ray_bots import RayBotPool  # Ray itself is imported only now

        return RayBotPool(workers, ray_address)
    if bots != "local":
        raise ValueError(f"bots think 'local' or on 'ray', not {bots!r}")
    if ray_address is not None:
        raise ValueError("ray_address names a Ray cluster: use it with bots='ray'")
    return BotPool(workers)


async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
    body: dict[str, Any] = {"detail": exc.detail}
    if exc.rule is not None:
        body["rule"] = exc.rule
    headers = None if exc.retry_after is None else {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}
    return JSONResponse(body, status_code=exc.status, headers=headers)


async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    return JSONResponse({"detail": describe_validation(exc)}, status_code=422)
