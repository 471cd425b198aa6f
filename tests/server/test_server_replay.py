"""Replays (`GET /api/tables/{id}/replay`): a table's stored log stepped through as one seat saw it.

While the game runs a seat replays only its own view (a spectator the public one); once it is over, any
seat's view, for anyone with the link."""

from __future__ import annotations

import random
from typing import Any

from holotable.engine import State


def replay(server: Any, table_id: str, token: str | None = None, **params: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return server.client.get(f"/api/tables/{table_id}/replay", params=params, headers=headers)


def fresh_views(server: Any, table_id: str, seat: int | None) -> list[dict[str, Any]]:
    """What ``seat`` was shown after each ply, from an independent replay of the stored log."""
    live = server.live(table_id)
    st = State.new(live.game, live.config, live.record.seed)
    views = [st.view(seat)]
    for action in live.actions:
        st.apply(action.action, action.seat)
        views.append(st.view(seat))
    return views


def test_a_running_game_replays_each_seats_own_view_at_every_ply_in_any_order(server: Any) -> None:
    created = server.create("buccaneers", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}],
                            seed=5)
    table_id = created["table_id"]
    tokens = {0: created["you"]["token"], 1: server.join(created)}
    server.play_until(table_id, tokens, lambda p: p["ply"] >= 12)
    server.wait_for(lambda: not server.live(table_id).bot_tasks, what="the bot")
    last = server.live(table_id).state.ply
    for seat, token in tokens.items():
        expected = fresh_views(server, table_id, seat)
        plies = list(range(last + 1))
        random.Random(seat).shuffle(plies)  # forward steps, steps back and jumps all land on the same views
        for ply in [*plies, last - 1, last]:
            got = replay(server, table_id, token, ply=ply)
            assert got.status_code == 200, got.text
            body = got.json()
            assert body["view"] == expected[ply] and body["ply"] == ply and body["legal"] == []
            assert body["replay"] == {"ply": ply, "last": last, "full": False, "viewer": seat}
            assert all(e["ply"] <= ply for e in body["log"])
        now = replay(server, table_id, token).json()  # no ply: the position now, as the table shows it
        assert now["view"] == server.state(table_id, token)["view"]
    # A spectator replays the public view.
    assert replay(server, table_id, ply=3).json()["view"] == fresh_views(server, table_id, None)[3]


def test_while_it_runs_no_one_replays_another_seat_and_bad_requests_change_nothing(server: Any) -> None:
    created = server.create("buccaneers", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}])
    table_id = created["table_id"]
    tokens = {0: created["you"]["token"], 1: server.join(created)}
    server.play_until(table_id, tokens, lambda p: p["ply"] >= 3)
    server.wait_for(lambda: not server.live(table_id).bot_tasks, what="the bot")
    before = server.live(table_id).state.fingerprint()
    refusals = [(tokens[0], {"seat": 1}, 403), (None, {"seat": 0}, 403), (tokens[0], {"seat": 2}, 403),
                (tokens[0], {"seat": 7}, 422), (tokens[0], {"ply": 10_000}, 422), (tokens[0], {"ply": -1}, 422),
                ("forged", {}, 403), (tokens[0], {"ply": "x"}, 422)]
    for token, params, status in refusals:
        refused = replay(server, table_id, token, **params)
        assert refused.status_code == status, (params, refused.text)
        assert refused.json()["detail"]
    assert server.live(table_id).state.fingerprint() == before
    assert replay(server, "no-such-table").status_code == 404


def test_a_finished_game_replays_any_seat_for_anyone(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=2)
    table_id = created["table_id"]
    server.play_until(table_id, {0: created["you"]["token"]}, lambda p: p["status"] == "finished", timeout=60)
    last = server.live(table_id).state.ply
    for seat in (0, 1):
        expected = fresh_views(server, table_id, seat)
        for ply in (0, last // 2, last):
            body = replay(server, table_id, None, ply=ply, seat=seat).json()  # no token: a shared link
            assert body["view"] == expected[ply] and body["replay"]["full"] is True
    end = replay(server, table_id, None, seat=1).json()
    assert end["outcome"] == server.state(table_id)["outcome"]


def test_an_undo_replays_the_log_as_it_now_stands(server: Any) -> None:
    created = server.create("kyrum", [{"kind": "human"}], seed=3)
    table_id, token = created["table_id"], created["you"]["token"]
    assert server.act(table_id, token, "explore 1", 0).status_code == 200
    explored = server.state(table_id, token)
    craft = next(m["text"] for m in explored["legal"] if m["text"].startswith("craft"))
    assert server.act(table_id, token, craft, explored["ply"]).status_code == 200
    assert replay(server, table_id, token, ply=2).status_code == 200  # the cursor now stands after the craft
    undone = server.client.post(f"/api/tables/{table_id}/undo", json={}, headers={"Authorization": f"Bearer {token}"})
    assert undone.status_code == 200, undone.text
    assert replay(server, table_id, token, ply=2).status_code == 422  # that move is gone from the log
    other = next(m["text"] for m in explored["legal"] if m["text"] != craft)
    assert server.act(table_id, token, other, explored["ply"]).status_code == 200
    assert replay(server, table_id, token, ply=2).json()["view"] == fresh_views(server, table_id, 0)[2]
