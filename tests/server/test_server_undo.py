"""Undo at a table, by the engine's one undo policy (holotable.engine.undo), over HTTP and the WebSocket:
a seat takes back its own last action; never after another seat (or the table's clock) acted, after chance
or a reveal, or once the others' sealed choices are known; a sealed choice is withdrawn wherever it lies
among the others' and chosen again. Every refusal says why and changes nothing; an accepted undo is stored
(also on PostgreSQL) and survives a restart."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import select

from holotable.server.live import ApiError
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import Nim, SealedBid


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def undo(srv: Any, table_id: str, token: str | None, ply: int | None = None, **body: Any) -> Any:
    payload = dict(body)
    if ply is not None:
        payload["ply"] = ply
    return srv.client.post(f"/api/tables/{table_id}/undo", json=payload or None, headers=bearer(token))


def _strip(payload: dict[str, Any]) -> dict[str, Any]:
    out = dict(payload)
    out.pop("clock", None)  # carries the server's current time
    return out


def stored_rows(srv: Any, table_id: str) -> list[tuple[int, int, str, str]]:
    stored = srv.store.table(table_id)
    assert stored is not None
    return [(a.ply, a.seat, a.action, a.source) for a in stored[2]]


def snapshot(srv: Any, table_id: str, tokens: dict[int, str]) -> tuple[Any, ...]:
    """What a refusal must leave alone: the stored actions, every seat's and a spectator's state, the live state."""
    views = {seat: _strip(srv.state(table_id, token)) for seat, token in tokens.items()}
    views[None] = _strip(srv.state(table_id))
    live = srv.live(table_id)
    return stored_rows(srv, table_id), views, live.state.fingerprint(), live.record.undos


def rebuilt_fingerprint(srv: Any, table_id: str) -> str:
    stored = srv.store.table(table_id)
    assert stored is not None
    fingerprint: str = srv.manager.rebuild(*stored).state.fingerprint()
    return fingerprint


def seat_all(srv: Any, created: dict[str, Any]) -> dict[int, str]:
    tokens = {created["you"]["seat"]: created["you"]["token"]}
    while len(tokens) < len(srv.live(created["table_id"]).seats):
        response = srv.client.post(f"/api/tables/{created['table_id']}/join", json={"invite": created["invite"]})
        assert response.status_code == 200, response.text
        tokens[response.json()["seat"]] = response.json()["token"]
    return tokens


def first_craft(legal: list[dict[str, Any]]) -> str:
    return next(entry["text"] for entry in legal if entry["text"].startswith("craft"))


def test_a_seat_takes_back_its_own_action_over_http_and_the_websocket(open_server: Any, database_url: str) -> None:
    with open_server(database_url) as srv:
        created = srv.create("kyrum", [{"kind": "human"}], seed=3)
        table_id, token = created["table_id"], created["you"]["token"]
        start = srv.state(table_id, token)
        assert start["undo"] == {"allowed": False, "reason": "nothing has been played yet", "action": None}
        assert srv.act(table_id, token, "explore 1", 0).status_code == 200
        explored = srv.state(table_id, token)
        craft = first_craft(explored["legal"])
        assert not explored["undo"]["allowed"] and "chance" in explored["undo"]["reason"]

        # Over HTTP: the craft is taken back, in storage and on the table.
        crafted = srv.act(table_id, token, craft, explored["ply"]).json()
        assert crafted["undo"] == {"allowed": True, "reason": None, "action": craft}
        back = undo(srv, table_id, token, crafted["ply"])
        assert back.status_code == 200, back.text
        after = back.json()
        assert (after["ply"], after["undos"]) == (explored["ply"], 1)
        assert after["view"] == explored["view"] and after["legal"] == explored["legal"]
        assert after["log"] == explored["log"]
        assert stored_rows(srv, table_id) == [(1, 0, "explore 1", "human")]
        assert srv.store.table(table_id)[0].undos == 1
        assert rebuilt_fingerprint(srv, table_id) == srv.live(table_id).state.fingerprint()

        # Over the WebSocket: every connection hears the table go back, with its whole log.
        with srv.client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws, \
                srv.client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            assert ws.receive_json()["ply"] == 1 and watcher.receive_json()["ply"] == 1
            ws.send_json({"type": "action", "action": craft, "ply": 1})
            assert ws.receive_json()["undo"]["allowed"] is True
            assert watcher.receive_json()["ply"] == 2
            ws.send_json({"type": "undo", "ply": 2})
            pushed = ws.receive_json()
            assert pushed["type"] == "state" and (pushed["ply"], pushed["undos"]) == (1, 2)
            assert pushed["view"] == explored["view"] and pushed["log"] == explored["log"]
            seen = watcher.receive_json()
            assert (seen["ply"], seen["undos"]) == (1, 2) and "undo" not in seen  # spectators get none
            # The same again is refused (explore drew on chance) to this connection only, with the reason.
            ws.send_json({"type": "undo"})
            error = ws.receive_json()
            assert error == {"type": "error", "status": 422, "detail": explored["undo"]["reason"], "about": "undo"}
        before_restart = _strip(srv.state(table_id, token))
        fingerprint = srv.live(table_id).state.fingerprint()
    with open_server(database_url) as srv:  # a restart after undos rebuilds the same table
        assert _strip(srv.state(table_id, token)) == before_restart
        assert srv.live(table_id).state.fingerprint() == fingerprint
        assert stored_rows(srv, table_id) == [(1, 0, "explore 1", "human")]
        crafted = srv.act(table_id, token, craft, 1)
        assert crafted.status_code == 200 and crafted.json()["undo"]["allowed"]


def test_refused_undos_say_why_and_change_nothing(server: Any) -> None:
    # Chance: a Captain Black draw.
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    cb, cb_tokens = created["table_id"], seat_all(server, created)
    assert server.act(cb, cb_tokens[0], "draw 2", 0).status_code == 200
    # Another seat acted: Nim (deterministic, perfect information, so only the order can refuse).
    with temporarily_registered(Nim()):
        made = server.create("test-nim", [{"kind": "human"}, {"kind": "human"}])
        nim, nim_tokens = made["table_id"], seat_all(server, made)
        assert server.act(nim, nim_tokens[0], "take 1", 0).status_code == 200
        assert server.act(nim, nim_tokens[1], "take 2", 1).status_code == 200
        # A reveal: Space Pirates' first choice of a start base shows its owner the base's market card.
        made = server.create("space-pirates", [{"kind": "human"}, {"kind": "human"}], seed=4)
        sp, sp_tokens = made["table_id"], seat_all(server, made)
        mover = server.state(sp)["to_move"][0]
        base = server.state(sp, sp_tokens[mover])["legal"][0]["text"]
        assert server.act(sp, sp_tokens[mover], base, 0).status_code == 200

        cases: list[tuple[str, dict[int, str], str | None, dict[str, Any], int, str]] = [
            (cb, cb_tokens, cb_tokens[0], {}, 422, "'draw 2' drew on chance"),
            (cb, cb_tokens, cb_tokens[1], {}, 422, "you have not played anything to take back"),
            (nim, nim_tokens, nim_tokens[0], {}, 422, "another player has acted since your last action"),
            (sp, sp_tokens, sp_tokens[mover], {}, 422, "revealed hidden information"),
            (nim, nim_tokens, nim_tokens[1], {"ply": 1}, 409, "stale undo"),
            (nim, nim_tokens, nim_tokens[1], {"ply": -1}, 422, "ply"),
            (nim, nim_tokens, nim_tokens[1], {"seat": 0}, 422, "seat"),
            (nim, nim_tokens, None, {}, 403, "seat token"),
            (nim, nim_tokens, "forged", {}, 403, "no seat at this table"),
            (nim, nim_tokens, cb_tokens[0], {}, 403, "no seat at this table"),  # another table's token
        ]
        for table_id, tokens, token, body, status, reason in cases:
            before = snapshot(server, table_id, tokens)
            response = undo(server, table_id, token, **body)
            assert response.status_code == status, (table_id, body, response.text)
            assert reason in response.json()["detail"], response.json()
            assert snapshot(server, table_id, tokens) == before
            if status == 422 and not body:  # the refusal is the one the seat's state message announced
                assert server.state(table_id, token)["undo"] == {"allowed": False,
                                                                  "reason": response.json()["detail"],
                                                                  "action": None}
        before = snapshot(server, nim, nim_tokens)
        wrong_header = server.client.post(f"/api/tables/{nim}/undo", headers={"Authorization": "Basic abc"})
        assert wrong_header.status_code == 403
        assert server.client.post("/api/tables/nowhere/undo", headers=bearer(nim_tokens[1])).status_code == 404
        # Spectators, and bad messages, over the WebSocket.
        with server.client.websocket_connect(f"/ws/tables/{nim}") as watcher, \
                server.client.websocket_connect(f"/ws/tables/{nim}?token={nim_tokens[0]}") as ws:
            watcher.receive_json()
            ws.receive_json()
            watcher.send_json({"type": "undo"})
            assert watcher.receive_json() == {"type": "error", "status": 403, "detail": "spectators cannot undo",
                                              "about": "undo"}
            for message, status in (({"type": "undo", "ply": "x"}, 422), ({"type": "undo", "what": 1}, 422),
                                    ({"type": "undo", "ply": 0}, 409), ({"type": "undo"}, 422)):
                ws.send_json(message)
                error = ws.receive_json()
                assert (error["type"], error["status"]) == ("error", status), error
        assert snapshot(server, nim, nim_tokens) == before
        # Seat 1's own last action is still its to take back.
        assert server.state(nim, nim_tokens[1])["undo"] == {"allowed": True, "reason": None, "action": "take 2"}
        assert undo(server, nim, nim_tokens[1], 2).status_code == 200


def test_a_sealed_choice_is_withdrawn_from_among_the_others_and_chosen_again(open_server: Any,
                                                                            database_url: str) -> None:
    with temporarily_registered(SealedBid()):
        with open_server(database_url) as srv:
            made = srv.create("test-sealed-bid", [{"kind": "human"}] * 3, seed=5)
            table_id, tokens = made["table_id"], seat_all(srv, made)
            hands = {seat: [e["text"] for e in srv.state(table_id, t)["legal"]] for seat, t in tokens.items()}
            assert srv.act(table_id, tokens[0], hands[0][0], 0).status_code == 200
            assert srv.act(table_id, tokens[1], hands[1][0], 1).status_code == 200
            # Seat 0 committed before seat 1, and may still change its choice: the others have not all chosen.
            assert srv.state(table_id, tokens[0])["undo"] == {"allowed": True, "reason": None, "action": hands[0][0]}
            assert srv.state(table_id, tokens[1])["undo"]["allowed"] is True
            assert srv.state(table_id, tokens[2])["undo"]["reason"] == "you have not played anything to take back"
            back = undo(srv, table_id, tokens[0], 2)
            assert back.status_code == 200, back.text
            assert (back.json()["ply"], back.json()["committed"], back.json()["to_move"]) == (1, [1], [0, 2])
            # The stored rows after the withdrawn one are renumbered (in one transaction).
            assert stored_rows(srv, table_id) == [(1, 1, hands[1][0], "human")]
            assert rebuilt_fingerprint(srv, table_id) == srv.live(table_id).state.fingerprint()
            # Chosen again, differently; then the last seat commits and every choice is revealed together.
            assert srv.act(table_id, tokens[0], hands[0][-1], 1).status_code == 200
            assert srv.act(table_id, tokens[2], hands[2][0], 2).status_code == 200
            assert stored_rows(srv, table_id) == [(1, 1, hands[1][0], "human"), (2, 0, hands[0][-1], "human"),
                                                  (3, 2, hands[2][0], "human")]
            revealed = srv.state(table_id, tokens[2])["undo"]
            assert revealed["allowed"] is False and "revealed everyone's sealed choices" in revealed["reason"]
            for seat in (0, 1):
                assert srv.state(table_id, tokens[seat])["undo"]["reason"] == (
                    "another player has acted since your last action")
            before = snapshot(srv, table_id, tokens)
            assert undo(srv, table_id, tokens[2]).status_code == 422
            assert snapshot(srv, table_id, tokens) == before
            views = before[1]
            fingerprint = srv.live(table_id).state.fingerprint()
        with open_server(database_url) as srv:  # a restart rebuilds the same table, undo count included
            assert {seat: _strip(srv.state(table_id, tokens.get(seat) if seat is not None else None))
                    for seat in views} == views
            assert srv.live(table_id).state.fingerprint() == fingerprint
            assert srv.live(table_id).record.undos == 1


def test_buccaneers_picks_change_until_the_last_pick_over_the_websocket(server: Any) -> None:
    made = server.create("buccaneers", [{"kind": "human"}] * 3, seed=8)
    table_id, tokens = made["table_id"], seat_all(server, made)
    picks = {seat: [e["text"] for e in server.state(table_id, t)["legal"]] for seat, t in tokens.items()}
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        assert ws.receive_json()["ply"] == 0
        ws.send_json({"type": "action", "action": picks[0][0], "ply": 0})
        assert ws.receive_json()["committed"] == [0]
        assert server.act(table_id, tokens[1], picks[1][0], 1).status_code == 200
        assert ws.receive_json()["committed"] == [0, 1]
        ws.send_json({"type": "undo", "ply": 2})
        changed = ws.receive_json()
        assert (changed["committed"], changed["ply"]) == ([1], 1)
        assert [e["text"] for e in changed["legal"]] == picks[0]
        ws.send_json({"type": "action", "action": picks[0][1], "ply": 1})
        assert ws.receive_json()["committed"] == [0, 1]
        assert server.act(table_id, tokens[2], picks[2][0], 2).status_code == 200
        resolved = ws.receive_json()
        assert resolved["committed"] == [] and resolved["undo"]["allowed"] is False
    # What was played is the changed pick, and the table is exactly its stored log replayed.
    assert stored_rows(server, table_id) == [(1, 1, picks[1][0], "human"), (2, 0, picks[0][1], "human"),
                                             (3, 2, picks[2][0], "human")]
    assert any(e["kind"] == "pass" for e in server.state(table_id)["log"]), "the picks were carried out"
    assert rebuilt_fingerprint(server, table_id) == server.live(table_id).state.fingerprint()


def test_clock_moves_stand_and_an_undo_gives_no_time_back(server: Any) -> None:
    with temporarily_registered(Nim()):
        made = server.create("test-nim", [{"kind": "human"}, {"kind": "human"}],
                             clock={"mode": "per_move", "seconds": 10})
        table_id, tokens = made["table_id"], seat_all(server, made)
        asked_at = server.clock.now()
        server.clock.advance(4)
        assert server.act(table_id, tokens[0], "take 1", 0).status_code == 200
        server.clock.advance(3)
        back = undo(server, table_id, tokens[0], 1)
        assert back.status_code == 200
        # Seat 0 decides again, on the clock of the decision it took back (started when it was first asked).
        assert back.json()["clock"]["deadline_ts"] == pytest.approx(asked_at + 10)
        assert server.act(table_id, tokens[0], "take 1", 0).status_code == 200
        server.clock.advance(11)
        assert server.check_clocks() == 1  # seat 1 ran out of time: the table played for it
        stored = stored_rows(server, table_id)
        assert stored[-1][1:] == (1, stored[-1][2], "timeout")
        assert server.state(table_id, tokens[1])["undo"]["reason"] == "you have not played anything to take back"
        assert server.state(table_id, tokens[0])["undo"]["reason"] == (
            "the table's clock has played since your last action")
        before = snapshot(server, table_id, tokens)
        assert undo(server, table_id, tokens[0]).status_code == 422
        assert undo(server, table_id, tokens[1]).status_code == 422
        assert snapshot(server, table_id, tokens) == before


def test_an_action_chosen_before_an_undo_is_stale_after_it(server: Any) -> None:
    """A bot (or a clock) that chose at ply n before an undo must not play at the new ply n: the position differs."""
    with temporarily_registered(Nim()):
        made = server.create("test-nim", [{"kind": "human"}, {"kind": "human"}])
        table_id, tokens = made["table_id"], seat_all(server, made)
        assert server.act(table_id, tokens[0], "take 1", 0).status_code == 200
        assert undo(server, table_id, tokens[0], 1).status_code == 200
        assert server.act(table_id, tokens[0], "take 2", 0).status_code == 200
        live = server.live(table_id)
        before = snapshot(server, table_id, tokens)
        with pytest.raises(ApiError) as refused:
            server.client.portal.call(live_act, server.manager, live, 1, "take 1", 1, 0)
        assert refused.value.status == 409 and "taken back" in refused.value.detail
        assert snapshot(server, table_id, tokens) == before
        server.client.portal.call(live_act, server.manager, live, 1, "take 1", 1, 1)  # the current count: played
        assert stored_rows(server, table_id)[-1] == (2, 1, "take 1", "bot")


async def live_act(manager: Any, table: Any, seat: int, action: str, ply: int, undos: int) -> None:
    await manager.act(table, seat, action, ply, "bot", undos)


def test_council_chat_and_a_leaders_swap_taken_back(server: Any) -> None:
    made = server.create("council", [{"kind": "human"}] * 4, seed=2, params={"first_leader": 0})
    table_id, tokens = made["table_id"], seat_all(server, made)
    leader = server.state(table_id, tokens[0])
    swap = next(e["text"] for e in leader["legal"] if e["text"].startswith("swap "))
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        first = ws.receive_json()
        ws.send_json({"type": "chat", "text": "before the swap"})
        assert ws.receive_json()["text"] == "before the swap"
        assert server.act(table_id, tokens[0], swap, 0).status_code == 200
        assert ws.receive_json()["ply"] == 1
        back = undo(server, table_id, tokens[0], 1)
        assert back.status_code == 200
        assert back.json()["view"] == leader["view"] and back.json()["legal"] == leader["legal"]
        pushed = ws.receive_json()
        assert pushed["view"] == first["view"] and pushed["undos"] == 1
        assert [line["text"] for line in pushed["extra"]["chat"]] == ["before the swap"]
        ws.send_json({"type": "chat", "text": "after the undo"})
        assert ws.receive_json()["text"] == "after the undo"
    chat = server.state(table_id, tokens[2])["extra"]["chat"]
    assert [line["text"] for line in chat] == ["before the swap", "after the undo"]
    # The table is back at its start: nobody has anything to take back.
    assert server.state(table_id, tokens[0])["undo"]["reason"] == "nothing has been played yet"


def test_space_pirates_keeps_the_last_flick_through_an_undo(server: Any) -> None:
    made = server.create("space-pirates", [{"kind": "human"}, {"kind": "human"}], seed=4)
    table_id, tokens = made["table_id"], seat_all(server, made)
    rng = random.Random(1)
    for _ in range(120):
        public = server.state(table_id)
        live = server.live(table_id)
        seat = public["to_move"][0]
        mine = server.state(table_id, tokens[seat])
        if live.steps and live.steps[-1].text.startswith("flick") and live.steps[-1].seat == seat:
            flicked = mine
            text = mine["legal"][0]["text"]
            assert server.act(table_id, tokens[seat], text, mine["ply"]).status_code == 200
            if server.state(table_id, tokens[seat])["undo"]["allowed"]:
                break
            continue
        choices = [e["text"] for e in mine["legal"]]
        text = rng.choice([c for c in choices if c.startswith("flick")] or choices)
        assert server.act(table_id, tokens[seat], text, mine["ply"]).status_code == 200
    else:
        raise AssertionError("no undoable action after a flick in 120 plies")
    assert flicked["extra"]["flick"]["ply"] == flicked["ply"]
    back = undo(server, table_id, tokens[seat], flicked["ply"] + 1)
    assert back.status_code == 200, back.text
    assert back.json()["extra"]["flick"] == flicked["extra"]["flick"]
    assert back.json()["view"] == flicked["view"]
    # The flick itself drew on chance: it stands.
    assert "chance" in back.json()["undo"]["reason"]


def test_a_kyrum_message_sent_to_the_partner_stands(server: Any) -> None:
    from test_server_kyrum_campaign import PARTNER_SEED_A, Campaigns

    camps = Campaigns(server)
    cid, token = camps.create("Ada", seed=PARTNER_SEED_A, partner=True)
    table = camps.start(cid, token)
    camps.play(table, until=lambda p: (p["view"]["decision"] or {}).get("kind") == "partner")
    payload = server.state(table["table_id"], table["token"])
    assert server.act(table["table_id"], table["token"], "send Look for the heron", payload["ply"]).status_code == 200
    refused = server.state(table["table_id"], table["token"])["undo"]
    assert refused["allowed"] is False and refused["reason"]
    # Whatever the rules say of it (a reveal, chance), the server's extension refuses it too: the message
    # has already been delivered beyond the table.
    kyrum = server.manager.extension("kyrum")
    live = server.live(table["table_id"])
    assert kyrum.undo_refusal(server.manager, live, 0, live.actions[-1]) == (
        "your message has already gone to your Black Hole partner: it cannot be taken back")
    assert kyrum.undo_refusal(server.manager, live, 0, live.actions[0]) is None
    before = (snapshot(server, table["table_id"], {0: table["token"]}), camps.read(cid, token)["partner"])
    response = undo(server, table["table_id"], table["token"])
    assert response.status_code == 422 and response.json()["detail"] == refused["reason"]
    assert (snapshot(server, table["table_id"], {0: table["token"]}), camps.read(cid, token)["partner"]) == before
    with server.store.engine.connect() as conn:
        from holotable.games.kyrum.server_store import messages_t

        sent = conn.execute(select(messages_t.c.text).where(messages_t.c.campaign_id == cid)).scalars().all()
    assert sent == ["Look for the heron"]
