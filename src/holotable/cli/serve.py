"""``holotable serve``: the browser server (FastAPI + uvicorn) over SQLite or PostgreSQL."""

from __future__ import annotations

from typing import Annotated

import typer


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0 for every interface).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
    database: Annotated[str | None, typer.Option(
        "--database", metavar="URL",
        help="SQLAlchemy URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB "
             "(default: SQLite in $XDG_DATA_HOME/holotable/server.sqlite3).",
    )] = None,
    bot_workers: Annotated[int, typer.Option("--bot-workers", min=1, max=64,
                                             help="Worker threads (quick bots) and processes (search bots).")] = 2,
) -> None:
    """Serve the lobby and tables for play in the browser; tables survive a restart."""
    try:
        import uvicorn
        from sqlalchemy.exc import SQLAlchemyError

        from holotable.server import create_app
        from holotable.server.storage import SchemaError, default_database_url, normalise_url
    except ImportError as exc:  # the optional `server` extra is missing
        typer.echo(f"holotable serve needs the server extra (pip install 'holotable[server]'): {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        url = normalise_url(database or default_database_url())
        app = create_app(url, bot_workers=bot_workers)
        app.state.store.create_schema()  # a database that cannot be used is reported here, not in a traceback
    except (SchemaError, SQLAlchemyError, ValueError, OSError) as exc:
        typer.echo(f"holotable serve: cannot use the database: {exc}", err=True)
        raise typer.Exit(1) from None
    shown = "localhost" if host in ("127.0.0.1", "::1", "0.0.0.0", "::") else host
    typer.echo(f"holotable: tables stored in {app.state.store.engine.url.render_as_string(hide_password=True)}")
    typer.echo(f"holotable: open http://{shown}:{port}/ in your browser (Ctrl+C stops the server)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
