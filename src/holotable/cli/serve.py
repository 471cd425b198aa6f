"""``holotable serve``: the browser server (FastAPI + uvicorn) over SQLite or PostgreSQL."""

from __future__ import annotations

import enum
import importlib.util
from typing import Annotated

import typer


class BotsWhere(enum.StrEnum):
    """Where search bots think (``--bots``)."""

    local = "local"
    ray = "ray"


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
                                             help="Worker threads (quick bots) and processes or Ray tasks "
                                                  "(search bots).")] = 2,
    max_body_kb: Annotated[int, typer.Option("--max-body-kb", min=0,
                                             help="Largest request body, in KiB (0: no limit).")] = 64,
    tables_per_hour: Annotated[int, typer.Option("--tables-per-hour", min=0,
                                                 help="New tables one address may open an hour (0: no limit).")] = 120,
    sockets_per_client: Annotated[int, typer.Option("--sockets-per-client", min=0,
                                                    help="Open WebSockets per address (0: no limit).")] = 24,
    sockets_per_table: Annotated[int, typer.Option("--sockets-per-table", min=0,
                                                   help="Open WebSockets per table (0: no limit).")] = 64,
    messages_per_second: Annotated[float, typer.Option("--messages-per-second", min=0,
                                                       help="Messages per WebSocket a second (0: no limit).")] = 20.0,
    header_timeout: Annotated[float, typer.Option("--header-timeout", min=0, metavar="SECONDS",
                                                  help="Seconds a request's headers may take to arrive; "
                                                       "slower gets 408 (0: no limit).")] = 10.0,
    body_timeout: Annotated[float, typer.Option("--body-timeout", min=0, metavar="SECONDS",
                                                help="Seconds a request's body may take to arrive; "
                                                     "slower gets 408 (0: no limit).")] = 30.0,
    idle_minutes: Annotated[float, typer.Option("--idle-minutes", min=0,
                                                help="Minutes a table nobody has open stays in memory; it loads again "
                                                     "from the database when asked for (0: keep every table).")] = 10.0,
    bots: Annotated[BotsWhere, typer.Option(
        "--bots",
        help="Where search bots (the hard level) think: local (worker processes on this machine) or ray "
             "(tasks on a Ray cluster; quick bots still think here).")] = BotsWhere.local,
    address: Annotated[str | None, typer.Option(
        "--address", metavar="ADDRESS",
        help="With --bots ray: the Ray cluster's HOST:PORT, or 'auto' for the one RAY_ADDRESS or `ray start` "
             "names (default: start Ray on this machine, with --bot-workers CPUs).")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", metavar="ADDRESSES",
        help="Proxies whose X-Forwarded-For names the player's address (default: 127.0.0.1, a proxy on "
             "this machine; or $FORWARDED_ALLOW_IPS).")] = None,
) -> None:
    """Serve the lobby and tables for play in the browser; tables survive a restart."""
    if address is not None and bots is not BotsWhere.ray:
        typer.echo("holotable serve: --address names a Ray cluster; use it with --bots ray", err=True)
        raise typer.Exit(2)
    if bots is BotsWhere.ray and importlib.util.find_spec("ray") is None:
        typer.echo("holotable serve: --bots ray needs Ray (pip install 'holotable[cluster]')", err=True)
        raise typer.Exit(2)
    try:
        import uvicorn
        from sqlalchemy.exc import SQLAlchemyError

        from holotable.engine import ConfigError
        from holotable.server import create_app
        from holotable.server.quotas import Quotas
        from holotable.server.storage import SchemaError, SoleUseError, default_database_url, normalise_url
        from holotable.server.timeouts import header_timeout_protocol
    except ImportError as exc:  # the optional `server` extra is missing
        typer.echo(f"holotable serve needs the server extra (pip install 'holotable[server]'): {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        url = normalise_url(database or default_database_url())
        quotas = Quotas(max_body_bytes=max_body_kb * 1024, tables_per_hour=tables_per_hour,
                        sockets_per_client=sockets_per_client, sockets_per_table=sockets_per_table,
                        messages_per_second=messages_per_second, header_timeout=header_timeout,
                        body_timeout=body_timeout)
        app = create_app(url, bot_workers=bot_workers, quotas=quotas, idle_seconds=idle_minutes * 60,
                         bots=bots.value, ray_address=address)
        try:
            app.state.store.claim_sole_use()  # a second process on one SQLite file would silently diverge
        except SoleUseError as exc:
            app.state.manager.pool.close()
            typer.echo(f"holotable serve: {exc}", err=True)
            raise typer.Exit(1) from None
        app.state.store.create_schema()  # a database that cannot be used is reported here, not in a traceback
    except ConfigError as exc:  # from --bots ray: Ray would not start, or the cluster does not answer
        typer.echo(f"holotable serve: cannot start the bots on Ray: {exc}", err=True)
        raise typer.Exit(1) from None
    except (SchemaError, SQLAlchemyError, ValueError, OSError) as exc:
        typer.echo(f"holotable serve: cannot use the database: {exc}", err=True)
        raise typer.Exit(1) from None
    shown = "localhost" if host in ("127.0.0.1", "::1", "0.0.0.0", "::") else host
    typer.echo(f"holotable: tables stored in {app.state.store.engine.url.render_as_string(hide_password=True)}")
    typer.echo(f"holotable: open http://{shown}:{port}/ in your browser (Ctrl+C stops the server)")
    uvicorn.run(app, host=host, port=port, log_level="warning", proxy_headers=True,
                forwarded_allow_ips=forwarded_allow_ips,
                http=header_timeout_protocol(quotas.header_timeout))  # httptools, with a limit on the headers' time
