"""Fixtures for the server tests: an in-process server (Starlette's TestClient) over SQLite or a
real PostgreSQL, with a hand-moved clock, and small helpers to drive it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from holotable.server import create_app
from holotable.server.clocks import ManualClock
from holotable.server.storage import Store
from holotable.server.tables import LiveTable, TableManager


class Harness:
    """One running server: HTTP and WebSocket through ``client``, the clock in ``clock``."""

    def __init__(self, client: TestClient, clock: ManualClock) -> None:
        self.client = client
        self.clock = clock

    @property
    def manager(self) -> TableManager:
        manager: TableManager = self.client.app.state.manager  # type: ignore[attr-defined]
        return manager

    @property
    def store(self) -> Store:
        return self.manager.store

    def live(self, table_id: str) -> LiveTable:
        """The table in memory (loaded, as a request would, if it is not)."""
        table = self.manager.tables.get(table_id)
        if table is None:
            table = self.client.portal.call(self.manager.get, table_id)  # type: ignore[union-attr]
        return table

    def create(self, game: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
        response = self.client.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats, **body})
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def join(self, created: dict[str, Any]) -> str:
        response = self.client.post(f"/api/tables/{created['table_id']}/join", json={"invite": created["invite"]})
        assert response.status_code == 200, response.text
        token: str = response.json()["token"]
        return token

    def state(self, table_id: str, token: str | None = None, **params: Any) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.client.get(f"/api/tables/{table_id}/state", headers=headers, params=params)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def act(self, table_id: str, token: str | None, action: str, ply: int | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body: dict[str, Any] = {"action": action}
        if ply is not None:
            body["ply"] = ply
        return self.client.post(f"/api/tables/{table_id}/actions", json=body, headers=headers)

    def play_until(self, table_id: str, tokens: dict[int, str], stop: Callable[[dict[str, Any]], bool],
                   choose: Callable[[list[dict[str, Any]]], str] | None = None,
                   timeout: float = 30.0) -> dict[str, Any]:
        """Play the humans of ``tokens`` (their first legal action, or ``choose``) and wait for the bots,
        until ``stop(spectator payload)``; return that payload."""
        end = time.monotonic() + timeout
        while True:
            public = self.state(table_id)
            if stop(public) or public["status"] == "finished":
                return public
            mine = [s for s in public["to_move"] if s in tokens]
            if mine:
                seat = mine[0]
                legal = self.state(table_id, tokens[seat])["legal"]
                text = (choose or (lambda options: options[0]["text"]))(legal)
                response = self.act(table_id, tokens[seat], text, public["ply"])
                assert response.status_code in (200, 409), response.text  # 409: a bot moved first
            elif time.monotonic() > end:
                raise AssertionError(f"table {table_id} stalled at ply {public['ply']}")
            else:
                time.sleep(0.01)

    def check_clocks(self) -> int:
        played: int = self.client.portal.call(self.manager.check_clocks)  # type: ignore[union-attr]
        return played

    def wait_for(self, condition: Callable[[], bool], timeout: float = 20.0, what: str = "condition") -> None:
        """Wait for the bots (they think in worker threads)."""
        end = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.02)


OpenServer = Callable[..., Any]


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test that takes this runs against a SQLite file and against a real PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    url: str = request.getfixturevalue("fresh_postgres_url")
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@pytest.fixture
def open_server() -> Iterator[OpenServer]:
    """``with open_server(url) as srv:`` runs a server (lifespan included) until the block ends;
    opening it again on the same URL is a restart."""

    @contextmanager
    def run(url: str, clock: ManualClock | None = None, **options: Any) -> Iterator[Harness]:
        clock = clock or ManualClock()
        options.setdefault("tick", 0)
        app = create_app(url, clock=clock, static_dir=None, **options)
        with TestClient(app) as client:
            yield Harness(client, clock)

    yield run


@pytest.fixture
def server(open_server: OpenServer, sqlite_url: str) -> Iterator[Harness]:
    """A server over a fresh SQLite file."""
    with open_server(sqlite_url) as harness:
        yield harness

