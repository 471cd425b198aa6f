"""What one client may ask of the server (issue 21: no limits on bodies, table creation, sockets or
message rate): each quota answers with a status and the reason, changes nothing, and frees up again.
The clock is moved by hand; the quotas are set small per test through ``create_app(quotas=...)``."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from holotable.server.live import Listener
from holotable.server.quotas import Quotas

TABLE = {"game": "captain-black", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def test_a_body_over_the_limit_is_a_413_and_stores_nothing(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url, quotas=Quotas(max_body_bytes=2048)) as srv:
        big = {**TABLE, "seats": [{"kind": "human", "name": "x" * 40}] * 2, "padding": "y" * 4000}
        refused = srv.client.post("/api/tables", json=big)
        assert refused.status_code == 413 and "Too Large" in refused.text
        assert srv.client.get("/api/tables").json() == []
        assert srv.client.post("/api/tables", json=TABLE).status_code == 201  # an ordinary one still goes


def test_new_tables_per_hour_are_counted_per_client_and_free_up(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url, quotas=Quotas(tables_per_hour=3)) as srv:
        for _ in range(3):
            assert srv.client.post("/api/tables", json=TABLE).status_code == 201
        refused = srv.client.post("/api/tables", json=TABLE)
        assert refused.status_code == 429 and "at most 3 an hour" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) == 3600
        assert srv.client.post("/api/tutorials/captain-black", json={}).status_code == 429  # a tutorial too
        assert len(srv.client.get("/api/tables").json()) == 3  # nothing was made
        srv.clock.advance(1800)
        assert int(srv.client.post("/api/tables", json=TABLE).headers["Retry-After"]) == 1800
        srv.clock.advance(1801)
        assert srv.client.post("/api/tables", json=TABLE).status_code == 201


def test_sockets_per_client_and_per_table(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url, quotas=Quotas(sockets_per_client=2, sockets_per_table=3)) as srv:
        table_id = srv.client.post("/api/tables", json=TABLE).json()["table_id"]
        path = f"/ws/tables/{table_id}"
        with srv.client.websocket_connect(path) as one, srv.client.websocket_connect(path) as two:
            for ws in (one, two):
                assert ws.receive_json()["type"] == "state"
            with srv.client.websocket_connect(path) as three:
                refusal = three.receive_json()
                assert refusal["status"] == 429 and "at most 2 at once" in refusal["detail"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    three.receive_json()
                assert closed.value.code == 4429
        with srv.client.websocket_connect(path) as again:  # the two closed: room again
            assert again.receive_json()["type"] == "state"
        manager = srv.manager
        live = manager.tables[table_id]
        for _ in range(3):  # three connections elsewhere (other addresses)
            live.listeners.add(Listener(None, None))
        with srv.client.websocket_connect(path) as full:
            assert full.receive_json() == {"type": "error", "status": 429,
                                           "detail": "this table has 3 connections, the most it takes"}
        assert manager.limits.sockets == {}  # every closed socket was counted off


def test_messages_faster_than_the_rate_are_refused_once_a_second(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url, quotas=Quotas(messages_per_second=2)) as srv:
        made = srv.client.post("/api/tables", json=TABLE).json()
        with srv.client.websocket_connect(f"/ws/tables/{made['table_id']}?token={made['you']['token']}") as ws:
            assert ws.receive_json()["type"] == "state"
            for _ in range(4):  # the burst: twice the rate, each answered (an unknown type is a 422)
                ws.send_json({"type": "shout"})
                assert ws.receive_json()["status"] == 422
            for _ in range(5):  # over the rate: one answer, the rest dropped unanswered
                ws.send_json({"type": "shout"})
            answer = ws.receive_json()
            assert answer["status"] == 429 and "at most 2 a second" in answer["detail"]
            srv.clock.advance(1.0)  # two more come back
            ws.send_json({"type": "shout"})
            assert ws.receive_json()["status"] == 422  # answered again, not a second 429


def test_a_connection_that_reads_no_more_is_let_go() -> None:
    listener = Listener(0, None, limit=2)
    for n in range(3):
        listener.send_later({"type": "error", "n": n})
    assert listener.overflowed and len(listener.outbox) == 2
