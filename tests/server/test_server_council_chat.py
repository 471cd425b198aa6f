"""Council's table chat channel: broadcast to every connection, refusals that change nothing, and
the conversation kept across a reload and a server restart."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from holotable.games.council.server import BURST_LINES, BURST_SECONDS, chat_t


def _council(srv: Any, players: int = 4, **params: Any) -> tuple[str, dict[int, str]]:
    created = srv.create("council", [{"kind": "human"}] * players, seed=3,
                         params={"first_leader": 0, "negotiation_seconds": 0, **params})
    tokens = {0: created["you"]["token"]}
    for _ in range(players - 1):
        token = srv.join(created)
        tokens[srv.state(created["table_id"], token)["seat"]] = token
    return created["table_id"], tokens


def _stored(srv: Any, table_id: str) -> list[tuple[int, str]]:
    with srv.store.engine.connect() as conn:
        rows = conn.execute(select(chat_t).where(chat_t.c.table_id == table_id).order_by(chat_t.c.id))
        return [(r.seat, r.text) for r in rows]


def _count(srv: Any) -> int:
    with srv.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(chat_t)).scalar_one())


def test_a_chat_line_reaches_every_connection_and_changes_no_game_state(server: Any) -> None:
    table_id, tokens = _council(server)
    client = server.client
    before = server.state(table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws1, \
            client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[2]}") as ws2, \
            client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        for ws in (ws1, ws2, watcher):
            assert ws.receive_json()["type"] == "state"
        ws1.send_json({"type": "chat", "text": "  swap   Mine\tand Conquer,\nplease "})
        heard = [ws.receive_json() for ws in (ws1, ws2, watcher)]
    for message in heard:
        assert message["type"] == "chat"
        assert (message["seat"], message["text"], message["ply"]) == (1, "swap Mine and Conquer, please", 0)
        assert message["ts"] == server.clock.now() and message["id"] == heard[0]["id"]
    after = server.state(table_id)
    assert after["ply"] == before["ply"] and after["view"] == before["view"], "chat is no game action"
    assert _stored(server, table_id) == [(1, "swap Mine and Conquer, please")]
    assert after["extra"]["chat"] == [{k: heard[0][k] for k in ("id", "seat", "text", "ts", "ply")}]


def test_chat_goes_on_while_the_engine_takes_no_talk(server: Any) -> None:
    """The engine refuses `say` once the Vote is called; the table chat does not."""
    table_id, tokens = _council(server)
    assert server.act(table_id, tokens[0], "call vote").status_code == 200
    refused = server.act(table_id, tokens[1], "say still here?")
    assert refused.status_code == 422
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "still here?"})
        assert ws.receive_json()["text"] == "still here?"
    assert server.state(table_id)["view"]["phase"] == "vote"


def test_refusals_are_told_to_the_sender_alone_and_store_nothing(server: Any) -> None:
    table_id, tokens = _council(server, chat_max_chars=12)
    client = server.client
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[3]}") as ws3, \
            client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        for ws in (ws0, ws3, watcher):
            ws.receive_json()
        cases = [
            (watcher, {"type": "chat", "text": "hello"}, 403, "spectators"),
            (ws0, {"type": "chat", "text": "   \n\t "}, 422, "needs some text"),
            (ws0, {"type": "chat", "text": "\x00\x01"}, 422, "needs some text"),
            (ws0, {"type": "chat"}, 422, "must be a string"),
            (ws0, {"type": "chat", "text": 42}, 422, "must be a string"),
            (ws0, {"type": "chat", "text": "x" * 13}, 422, "at most 12"),
            (ws0, {"type": "whisper", "text": "psst", "to": 3}, 422, "unknown message type"),
        ]
        for ws, message, status, why in cases:
            ws.send_json(message)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["status"] == status and why in answer["detail"], answer
        assert _stored(server, table_id) == [] and server.state(table_id)["extra"]["chat"] == []
        # Nobody else heard a thing: the next line each connection gets is the first accepted one.
        ws3.send_json({"type": "chat", "text": "x" * 12})
        for ws in (ws0, ws3, watcher):
            message = ws.receive_json()
            assert message["type"] == "chat" and message["text"] == "x" * 12
    assert _stored(server, table_id) == [(3, "x" * 12)]


def test_a_flood_is_slowed_down_and_the_seat_may_talk_again_later(server: Any) -> None:
    table_id, tokens = _council(server)
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        ws.receive_json()
        for i in range(BURST_LINES):
            ws.send_json({"type": "chat", "text": f"line {i}"})
            assert ws.receive_json()["type"] == "chat"
        ws.send_json({"type": "chat", "text": "one more"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["status"] == 429
        server.clock.advance(BURST_SECONDS)
        ws.send_json({"type": "chat", "text": "one more"})
        assert ws.receive_json()["text"] == "one more"
    assert [text for _, text in _stored(server, table_id)] == [*(f"line {i}" for i in range(BURST_LINES)), "one more"]


def test_the_conversation_survives_a_server_restart(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url) as srv:
        table_id, tokens = _council(srv)
        other_id, other_tokens = _council(srv)
        with srv.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[2]}") as ws:
            ws.receive_json()
            for text in ("first", "second"):
                ws.send_json({"type": "chat", "text": text})
                assert ws.receive_json()["text"] == text
        with srv.client.websocket_connect(f"/ws/tables/{other_id}?token={other_tokens[0]}") as ws:
            ws.receive_json()
            ws.send_json({"type": "chat", "text": "another table"})
            ws.receive_json()
        before = srv.state(table_id, tokens[0])["extra"]["chat"]
    with open_server(sqlite_url) as srv:
        assert _count(srv) == 3
        after = srv.state(table_id, tokens[0])["extra"]["chat"]
        assert after == before and [(m["seat"], m["text"]) for m in after] == [(2, "first"), (2, "second")]
        assert [m["text"] for m in srv.state(other_id)["extra"]["chat"]] == ["another table"]
        with srv.client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            watcher.receive_json()
            watcher.send_json({"type": "chat_history"})
            history = watcher.receive_json()
        assert history == {"type": "chat_history", "messages": before}
        with srv.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[3]}") as ws:
            ws.receive_json()
            ws.send_json({"type": "chat", "text": "third"})
            assert ws.receive_json()["id"] > before[-1]["id"]
        assert [m["text"] for m in srv.state(table_id)["extra"]["chat"]] == ["first", "second", "third"]


def test_a_replay_shows_the_chat_as_it_stood_at_that_move(server: Any) -> None:
    table_id, tokens = _council(server)
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "first"})
        assert ws.receive_json()["text"] == "first"
    assert server.act(table_id, tokens[1], "support").status_code == 200
    assert server.act(table_id, tokens[2], "oppose").status_code == 200
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "second"})
        while ws.receive_json()["type"] != "chat":
            pass
    headers = {"Authorization": f"Bearer {tokens[1]}"}
    said = {ply: [line["text"] for line in server.client.get(f"/api/tables/{table_id}/replay", params={"ply": ply},
                                                              headers=headers).json()["extra"]["chat"]]
            for ply in (0, 1, 2)}
    assert said == {0: ["first"], 1: ["first"], 2: ["first", "second"]}
