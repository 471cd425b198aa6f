"""The per-game extension hooks of the server (holotable.server.extensions): who gets which hook, that
each app has its own extension objects, and that an extension can neither break a stored action nor
make a game without one answer odd messages."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from holotable.engine import registry
from holotable.games.council.server import chat_t
from holotable.server import extensions
from holotable.server.extensions import TableExtension, extension_class


def test_every_manifests_extension_serves_its_own_registered_game() -> None:
    offering = [name for name in registry.names() if registry.manifest(name).server is not None]
    assert offering == ["council", "kyrum", "space-pirates"]
    for game in offering:
        cls = extension_class(game)
        assert cls is not None and cls.game == game
    assert extension_class("captain-black") is None and extension_class("no-such-game") is None


def _chat_lines(srv: Any) -> int:
    with srv.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(chat_t)).scalar_one())


def test_two_apps_in_one_process_have_their_own_extensions(open_server: Any, tmp_path: Any) -> None:
    with open_server(f"sqlite:///{tmp_path / 'a.sqlite3'}") as first, \
            open_server(f"sqlite:///{tmp_path / 'b.sqlite3'}") as second:
        assert set(first.manager.extensions) == set(extensions.new_extensions()) == set(second.manager.extensions)
        for game, ext in first.manager.extensions.items():
            assert ext is not second.manager.extension(game) and type(ext) is type(second.manager.extension(game))
        created = first.create("council", [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3, seed=3,
                               params={"first_leader": 0, "negotiation_seconds": 0})
        table_id, token = created["table_id"], created["you"]["token"]
        # The second app started after the first: its Council chat must not have taken over the first's store.
        with first.client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "chat", "text": "hello"})
            heard = ws.receive_json()
            while heard["type"] == "state":  # the bots play on meanwhile
                heard = ws.receive_json()
            assert (heard["type"], heard["text"]) == ("chat", "hello")
        assert (_chat_lines(first), _chat_lines(second)) == (1, 0)
        assert [line["text"] for line in first.state(table_id)["extra"]["chat"]] == ["hello"]
        assert second.manager.extension("council").history(table_id) == []


def test_a_game_without_an_extension_refuses_other_message_types_and_changes_nothing(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                            params={"start_seat": 0})  # the human moves first: an action is ours to send
    table_id, token = created["table_id"], created["you"]["token"]
    before = server.state(table_id, token)
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "chat", "text": "hello"})
        answer = ws.receive_json()
        # an action still works on the same connection afterwards
        ws.send_json({"type": "action", "action": before["legal"][0]["text"], "ply": before["ply"]})
        after_action = ws.receive_json()
    assert answer == {"type": "error", "status": 422, "detail": "unknown message type 'chat'"}
    assert after_action["type"] == "state" and after_action["ply"] > before["ply"]
    assert "extra" not in before


class _Failing(TableExtension):
    game = "captain-black"
    calls: list[int]

    def __init__(self) -> None:
        self.calls = []

    def after_action(self, manager: Any, table: Any, seat: int, before: Any, after: Any, action: Any,
                     source: str) -> None:
        self.calls.append(after.ply)
        assert before.ply == after.ply - 1
        raise RuntimeError("extension bug")

    def payload_extra(self, manager: Any, table: Any, seat: int | None) -> dict[str, Any] | None:
        return {"seen_by": seat}


def test_a_failing_extension_does_not_undo_the_stored_action(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    failing = _Failing()
    monkeypatch.setitem(server.manager.extensions, "captain-black", failing)
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}])
    table_id, token = created["table_id"], created["you"]["token"]
    other = server.join(created)
    state = server.state(table_id, token)
    assert state["extra"] == {"seen_by": 0} and server.state(table_id, other)["extra"] == {"seen_by": 1}
    assert server.state(table_id)["extra"] == {"seen_by": None}
    mover = token if 0 in state["to_move"] else other
    legal = server.state(table_id, mover)["legal"]
    response = server.act(table_id, mover, legal[0]["text"], state["ply"])
    assert response.status_code == 200, response.text
    assert failing.calls == [state["ply"] + 1]
    stored = server.store.table(table_id)
    assert stored is not None and [a.ply for a in stored[2]] == [state["ply"] + 1]


class _NoRematch(TableExtension):
    game = "captain-black"

    def rematch_refusal(self, manager: Any, table: Any) -> str | None:
        return "this game goes on elsewhere"


def test_an_extension_can_refuse_play_again(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(server.manager.extensions, "captain-black", _NoRematch())
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=3)
    table_id, token = created["table_id"], created["you"]["token"]
    assert "rematch" not in server.state(table_id, token), "offered only once the game is over"
    final = server.play_until(table_id, {0: token}, lambda p: p["status"] == "finished")
    assert final["rematch"] is False
    response = server.client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 409 and response.json()["detail"] == "this game goes on elsewhere"
    assert server.state(table_id, token)["rematch_id"] is None
