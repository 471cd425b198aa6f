"""The browser pages: the lobby (``/``), a table (``/t/{table_id}``) and their files under ``/static``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles


def default_static_dir() -> Path | None:
    """The browser package's files, or ``None`` when it is not installed."""
    try:
        from holotable.web import STATIC_DIR
    except ImportError:
        return None
    return STATIC_DIR if STATIC_DIR.is_dir() else None


def mount_static(app: FastAPI, pages: Path | None) -> None:
    """Serve ``pages`` under ``/static`` (nothing when there are no pages)."""
    if pages is not None and pages.is_dir():
        app.mount("/static", StaticFiles(directory=pages), name="static")


def router(pages: Path | None) -> APIRouter:
    """The page routes over the folder ``pages``; without one they answer 404 with a pointer to the API."""
    routes = APIRouter()

    @routes.get("/", include_in_schema=False, response_model=None)
    async def lobby_page() -> Response:
        return page(pages, "index.html")

    @routes.get("/t/{table_id}", include_in_schema=False, response_model=None)
    async def table_page(table_id: str) -> Response:
        return page(pages, "table.html")

    return routes


def page(pages: Path | None, name: str) -> Response:
    """The file ``name`` of ``pages``, or 404 with a reason when the pages are not installed."""
    if pages is None or not (pages / name).is_file():
        return PlainTextResponse("the browser pages are not installed; the API is described at /openapi.json",
                                 status_code=404)
    return FileResponse(pages / name)
