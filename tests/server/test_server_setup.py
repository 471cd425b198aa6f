"""Where the server keeps its data, the `holotable serve` command, the pages, and racing writers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from typer.testing import CliRunner

from holotable.cli import app as cli_app
from holotable.server import create_app
from holotable.server.storage import actions_t, default_database_path, normalise_url
from holotable.server.tables import ApiError


def test_the_default_database_lives_in_the_xdg_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_path() == tmp_path / "holotable" / "server.sqlite3"
    with TestClient(create_app(tick=0)) as client:
        assert client.get("/api/tables").json() == []
    assert (tmp_path / "holotable" / "server.sqlite3").is_file()
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_database_path() == Path.home() / ".local" / "share" / "holotable" / "server.sqlite3"


def test_postgresql_urls_use_psycopg_3() -> None:
    assert normalise_url("postgresql://me:pw@db.example/tables") == "postgresql+psycopg://me:pw@db.example/tables"
    assert normalise_url("postgresql+psycopg://me@h/t") == "postgresql+psycopg://me@h/t"


def test_serve_command_options() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database"):
        assert option in result.output
    refused = CliRunner().invoke(cli_app, ["serve", "--port", "99999"])
    assert refused.exit_code != 0


def test_pages_are_served_from_the_static_folder(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<h1>lobby</h1>")
    (tmp_path / "table.html").write_text("<h1>table</h1>")
    (tmp_path / "app.js").write_text("export {};")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", tick=0, static_dir=tmp_path)) as client:
        assert client.get("/").text == "<h1>lobby</h1>"
        assert client.get("/t/abc123").text == "<h1>table</h1>"
        assert client.get("/static/app.js").text == "export {};"
    empty = tmp_path / "empty"
    empty.mkdir()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db2.sqlite3'}", tick=0, static_dir=empty)) as client:
        assert client.get("/").status_code == 404
        assert client.get("/openapi.json").status_code == 200


def test_two_actions_for_the_same_ply_only_one_is_played(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    table_id, token = created["table_id"], created["you"]["token"]
    server.join(created)
    manager, table = server.manager, server.live(table_id)

    async def race() -> list[Any]:
        return await asyncio.gather(*(manager.act(table, 0, f"draw {k}", 0) for k in (1, 2, 3)),
                                    return_exceptions=True)

    results = server.client.portal.call(race)
    refused = [r for r in results if isinstance(r, ApiError)]
    assert sum(r is None for r in results) == 1 and len(refused) == 2
    assert all(r.status == 409 for r in refused)
    assert server.store.action_count(table_id) == 1 and table.state.ply == 1
    assert server.state(table_id, token)["ply"] == 1


def test_a_table_whose_log_no_longer_replays_is_set_aside_not_fatal(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url) as srv:
        bad = srv.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
        good = srv.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
        srv.join(bad)
        srv.join(good)
        assert srv.act(good["table_id"], good["you"]["token"], "draw 1").status_code == 200
        # Someone edits the database by hand: an action that the rules refuse.
        with srv.store.engine.begin() as conn:
            conn.execute(insert(actions_t).values(table_id=bad["table_id"], ply=1, seat=1, action="draw 1",
                                                  source="human", at=0.0))
    with open_server(sqlite_url) as srv:
        gone = srv.client.get(f"/api/tables/{bad['table_id']}/state")
        assert gone.status_code == 410 and "does not replay" in gone.json()["detail"]
        assert srv.state(good["table_id"])["ply"] == 1


def test_an_in_memory_database_works_for_a_throwaway_server() -> None:
    with TestClient(create_app("sqlite://", tick=0)) as client:
        created = client.post("/api/tables", json={"game": "captain-black", "players": 2,
                                                   "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                                                   "params": {"start_seat": 0}}).json()
        headers = {"Authorization": f"Bearer {created['you']['token']}"}
        response = client.post(f"/api/tables/{created['table_id']}/actions", json={"action": "draw 1"},
                               headers=headers)
        assert response.status_code == 200 and response.json()["ply"] >= 1
        assert client.get("/api/tables").json()[0]["table_id"] == created["table_id"]
