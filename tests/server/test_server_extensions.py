"""The per-game extension hooks of the server (holotable.server.extensions): who gets which hook, and
that an extension can neither break a stored action nor make a game without one answer odd messages."""

from __future__ import annotations

from typing import Any

import pytest

from holotable.engine import registry
from holotable.server import extensions, tables
from holotable.server.extensions import TableExtension, extension_for


def test_every_manifests_extension_serves_its_own_registered_game() -> None:
    offering = [name for name in registry.names() if registry.manifest(name).server is not None]
    assert offering == ["council", "kyrum", "space-pirates"]
    for game in offering:
        ext = extension_for(game)
        assert ext is not None and ext.game == game
    assert extensions.all_extensions() == [extension_for(game) for game in offering]
    assert extension_for("captain-black") is None and extension_for("no-such-game") is None


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
    monkeypatch.setattr(tables, "extension_for", lambda game: failing if game == "captain-black" else None)
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
    monkeypatch.setattr(tables, "extension_for", lambda game: _NoRematch() if game == "captain-black" else None)
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=3)
    table_id, token = created["table_id"], created["you"]["token"]
    assert "rematch" not in server.state(table_id, token), "offered only once the game is over"
    final = server.play_until(table_id, {0: token}, lambda p: p["status"] == "finished")
    assert final["rematch"] is False
    response = server.client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 409 and response.json()["detail"] == "this game goes on elsewhere"
    assert server.state(table_id, token)["rematch_id"] is None
