"""Playing at a table: per-seat views, refusals that change nothing, every game, the WebSocket."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from holotable.engine import State, load, registry


def _replayed(srv: Any, table_id: str) -> State[Any, Any]:
    """The table rebuilt from what the database holds (config, seed and action log)."""
    stored = srv.store.table(table_id)
    assert stored is not None
    return srv.manager.rebuild(*stored).state


def test_each_seat_sees_its_own_view_and_log(open_server: Any, database_url: str) -> None:
    with open_server(database_url) as srv:
        created = srv.create("buccaneers", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}],
                             seed=5)
        table_id, tokens = created["table_id"], {0: created["you"]["token"]}
        tokens[1] = srv.join(created)
        # Stop where only the humans are asked: the bot has nothing to do, so nothing moves meanwhile.
        srv.play_until(table_id, tokens, lambda p: p["ply"] >= 9 and set(p["to_move"]) <= set(tokens))
        srv.wait_for(lambda: not srv.live(table_id).bot_tasks, what="the bot to finish")
        truth = _replayed(srv, table_id)
        for seat in (0, 1, None):
            payload = srv.state(table_id, tokens.get(seat) if seat is not None else None)
            assert payload["seat"] == seat
            assert payload["ply"] == truth.ply
            assert payload["view"] == truth.view(seat)
            assert payload["log"] == [e.to_dict() for e in truth.log_for(seat)]
            legal = [a["text"] for a in payload["legal"]]
            expected = [truth.game.action_to_str(a) for a in truth.legal_actions(seat)] if seat is not None else []
            assert legal == expected
        # The two players' hands differ and neither sees the other's.
        assert srv.state(table_id, tokens[0])["view"] != srv.state(table_id, tokens[1])["view"]
        since = srv.state(table_id, tokens[0], since=4)["log"]
        assert since and all(e["ply"] > 4 for e in since)


def test_refused_actions_change_nothing(open_server: Any, database_url: str) -> None:
    with open_server(database_url) as srv:
        created = srv.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
        table_id, token0 = created["table_id"], created["you"]["token"]
        token1 = srv.join(created)
        assert srv.act(table_id, token0, "draw 2", 0).status_code == 200
        live = srv.live(table_id)
        before = (live.state.fingerprint(), srv.store.action_count(table_id), srv.state(table_id, token1))
        refusals = [
            (token1, "draw 99", None, 422),          # beyond the bag
            (token1, "fly away", None, 422),         # not an action of this game
            (token0, "draw 1", None, 422),           # not seat 0's turn
            (token1, "draw 1", 0, 409),              # stale: meant for ply 0
            ("forged", "draw 1", None, 403),
            (None, "draw 1", None, 403),
        ]
        for token, text, ply, status in refusals:
            response = srv.act(table_id, token, text, ply)
            assert response.status_code == status, (text, response.text)
            assert isinstance(response.json()["detail"], str) and response.json()["detail"]
        illegal = srv.act(table_id, token1, "draw 99")
        assert illegal.json().get("rule", "").startswith("CB") or "draw" in illegal.json()["detail"]
        after = (live.state.fingerprint(), srv.store.action_count(table_id), srv.state(table_id, token1))
        assert after == before
        assert _replayed(srv, table_id).fingerprint() == live.state.fingerprint()


@pytest.mark.parametrize("game_name", registry.names())
def test_every_game_plays_through_the_server_and_rebuilds_exactly(server: Any, game_name: str) -> None:
    spec = load(game_name).spec
    players = spec.default_players or spec.min_players
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    created = server.create(game_name, seats, seed=11)
    table_id, tokens = created["table_id"], {0: created["you"]["token"]}
    rng = random.Random(3)
    server.play_until(table_id, tokens, lambda p: p["ply"] >= 14, choose=lambda legal: rng.choice(legal)["text"])
    server.wait_for(lambda: not server.live(table_id).bot_tasks, what="the bots to finish")
    live = server.live(table_id).state
    assert live.ply >= 14 or live.is_terminal()
    assert server.store.action_count(table_id) == live.ply
    assert _replayed(server, table_id).fingerprint() == live.fingerprint()


def test_websocket_pushes_each_seat_its_view_and_resumes_with_the_log(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    table_id, token0 = created["table_id"], created["you"]["token"]
    token1 = server.join(created)
    client = server.client
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token0}") as ws0, \
            client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        first = ws0.receive_json()
        assert first["type"] == "state" and first["seat"] == 0 and first["ply"] == 0
        assert [a["text"] for a in first["legal"]][:1] == ["draw 1"]
        assert spectator.receive_json()["seat"] is None
        ws0.send_json({"type": "action", "action": "draw 2", "ply": 0})
        pushed = ws0.receive_json()
        assert pushed["type"] == "state" and pushed["ply"] == 1 and pushed["legal"] == []
        assert pushed["view"] == server.live(table_id).state.view(0)
        assert all(e["ply"] == 1 for e in pushed["log"]) and pushed["log"]
        seen = spectator.receive_json()
        assert seen["ply"] == 1 and seen["view"] == server.live(table_id).state.view(None)
        # Refusals go to the sender only, with the reason.
        ws0.send_json({"type": "action", "action": "draw 1"})
        error = ws0.receive_json()
        assert error["type"] == "error" and error["status"] == 422 and "seat 0" in error["detail"]
        ws0.send_text('{"type": "shout"}')
        assert ws0.receive_json()["status"] == 422
        ws0.send_bytes(b"\x00\x01")
        assert ws0.receive_json()["status"] == 422
        ws0.send_text("[" * 1000 + "]" * 1000)  # nested too deep for json: refused, the connection stays
        assert ws0.receive_json()["status"] == 422
        ws0.send_text('{"type": "shout", "x": ' + "[" * 1000 + "]" * 1000 + "}")
        assert ws0.receive_json()["status"] == 422
        spectator.send_json({"type": "action", "action": "draw 1"})
        assert spectator.receive_json()["status"] == 403
        # Another seat acts over HTTP: both connections are told.
        assert server.act(table_id, token1, "draw 1").status_code == 200
        assert ws0.receive_json()["ply"] == 2
        assert spectator.receive_json()["ply"] == 2
    # Reconnecting with since=1 brings the current view and only the log after ply 1.
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token0}&since=1") as again:
        message = again.receive_json()
        assert message["ply"] == 2 and message["view"] == server.live(table_id).state.view(0)
        assert message["log"] and all(e["ply"] == 2 for e in message["log"])
    for bad, code in ((f"/ws/tables/{table_id}?token=forged", 403), ("/ws/tables/nowhere", 404)):
        with client.websocket_connect(bad) as ws:
            refusal = ws.receive_json()
            assert refusal["type"] == "error" and refusal["status"] == code


def test_the_table_says_who_has_it_open(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    table_id, token0 = created["table_id"], created["you"]["token"]
    server.join(created)
    client = server.client
    assert client.get(f"/api/tables/{table_id}").json()["presence"] == {"online": [], "watchers": 0}
    watch = f"/ws/tables/{table_id}"
    with client.websocket_connect(f"{watch}?token={token0}") as ws0, client.websocket_connect(watch) as one, \
            client.websocket_connect(watch):
        ws0.receive_json()
        one.receive_json()
        assert client.get(f"/api/tables/{table_id}").json()["presence"] == {"online": [0], "watchers": 2}
        ws0.send_json({"type": "action", "action": "draw 1", "ply": 0})
        assert ws0.receive_json()["presence"] == {"online": [0], "watchers": 2}
    server.wait_for(lambda: not server.live(table_id).listeners, what="the sockets to close")
    assert server.state(table_id)["presence"] == {"online": [], "watchers": 0}


def test_an_action_is_worked_out_off_the_event_loop(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the rules work out one table's move (a flick's physics can take a tenth of a second or more),
    the server answers everyone else: the real rules run, held at their start until another request was
    served (on the event loop they would hold that request up, and the move would fail here)."""
    from holotable.server import tables

    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    table_id, token0 = created["table_id"], created["you"]["token"]
    server.join(created)
    entered, release = threading.Event(), threading.Event()
    real = tables.play_step

    def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        if not release.wait(10):
            raise AssertionError("nothing else was served while the move was worked out")
        return real(*args, **kwargs)

    monkeypatch.setattr(tables, "play_step", held)
    answers: list[Any] = []
    mover = threading.Thread(target=lambda: answers.append(server.act(table_id, token0, "draw 1")))
    mover.start()
    assert entered.wait(10)
    assert server.client.get("/api/games").status_code == 200  # served while the move is being worked out
    release.set()
    mover.join(10)
    assert answers and answers[0].status_code == 200, answers
    assert server.state(table_id)["ply"] == 1
