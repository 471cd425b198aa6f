"""Browser play: ``holotable serve`` runs a FastAPI server with a lobby, tables, server-side bots,
table clocks and durable storage (SQLite or PostgreSQL). See ``docs/server.md``.

The server needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, psycopg).
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
