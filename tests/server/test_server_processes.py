"""Several `holotable serve` processes on one PostgreSQL (issue 21): two real processes serve the same
tables. The database decides between them (the ply and the undo count are the version), each process
hears the other's changes through PostgreSQL's LISTEN/NOTIFY, and a process killed mid-game costs
nothing. On SQLite a second process is refused."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


class Http:
    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=20)

    def state(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.get(f"/api/tables/{table_id}/state", headers=headers)
        assert response.status_code == 200, response.text
        payload: dict[str, Any] = response.json()
        return payload

    def act(self, table_id: str, token: str, action: str, ply: int) -> httpx.Response:
        return self.http.post(f"/api/tables/{table_id}/actions", json={"action": action, "ply": ply},
                              headers={"Authorization": f"Bearer {token}"})


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("ply", "status", "view", "to_move", "committed", "legal", "seats", "undos")
    return all(a.get(k) == b.get(k) for k in keys)


def _eventually(check: Any, what: str, limit: float = 10.0) -> None:
    end = time.monotonic() + limit
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"{what} within {limit:.0f} s")
        time.sleep(0.05)


def _frames_until(ws: Any, ply: int, limit: float = 10.0) -> dict[str, Any]:
    """The first state frame on ``ws`` at ``ply`` or later."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        frame = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
        if frame.get("type") == "state" and frame["ply"] >= ply:
            return frame
    raise AssertionError(f"no state at ply {ply} within {limit:.0f} s")


def test_two_processes_serve_the_same_tables_hear_each_other_and_survive_a_kill(
        live_server: Any, fresh_postgres_url: str) -> None:
    first, second = live_server(database=fresh_postgres_url), live_server(database=fresh_postgres_url)
    a, b = Http(first.url), Http(second.url)
    # Made through one process, joined through the other: a token from either works at both.
    made = a.http.post("/api/tables", json={"game": "buccaneers", "players": 3, "seed": 5,
                                            "seats": [{"kind": "human"}] * 3})
    assert made.status_code == 201, made.text
    created = made.json()
    table_id = created["table_id"]
    tokens = {0: created["you"]["token"]}
    for _ in range(2):
        joined = b.http.post(f"/api/tables/{table_id}/join", json={"invite": created["invite"]})
        assert joined.status_code == 200, joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    assert sorted(tokens) == [0, 1, 2]
    for seat, token in tokens.items():
        assert a.state(table_id, token)["seat"] == seat == b.state(table_id, token)["seat"]
    _eventually(lambda: a.state(table_id)["status"] == "running", "the first process to hear the joins")

    with connect(f"ws://{first.url.removeprefix('http://')}/ws/tables/{table_id}?token={tokens[0]}") as ws_a, \
            connect(f"ws://{second.url.removeprefix('http://')}/ws/tables/{table_id}?token={tokens[1]}") as ws_b:
        start = _frames_until(ws_a, 0)["ply"]
        _frames_until(ws_b, 0)
        # The three picks of one simultaneous decision, at one instant, through both processes: all count.
        servers = {0: a, 1: b, 2: a}
        picks = {seat: servers[seat].state(table_id, token)["legal"][0]["text"] for seat, token in tokens.items()}
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            answers = list(pool.map(lambda seat: servers[seat].act(table_id, tokens[seat], picks[seat], start),
                                    sorted(tokens)))
        assert [r.status_code for r in answers] == [200, 200, 200], [r.text for r in answers]
        # Every socket on either process hears the whole decision.
        assert _frames_until(ws_a, start + 3)["ply"] >= start + 3
        assert _frames_until(ws_b, start + 3)["ply"] >= start + 3
        _eventually(lambda: all(_same(a.state(table_id, t), b.state(table_id, t)) for t in tokens.values()),
                    "both processes to show every seat the same table")

        # One seat's pick sent to both processes at once: the database takes one; the other is refused (the
        # seat has chosen this step, 422, or the table moved on, 409) and nothing is stored twice.
        public = b.state(table_id)
        seat = next(s for s in public["to_move"] if s not in public["committed"])
        legal = b.state(table_id, tokens[seat])["legal"][0]["text"]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            twice = list(pool.map(lambda srv: srv.act(table_id, tokens[seat], legal, public["ply"]), (a, b)))
        codes = sorted(r.status_code for r in twice)
        assert codes[0] == 200 and codes[1] in (409, 422), [r.text for r in twice]
        _eventually(lambda: _same(a.state(table_id), b.state(table_id)), "the processes to agree")
        assert a.state(table_id)["ply"] == public["ply"] + 1

    _undo_heard_across(a, b)
    _moves_alternate_without_waiting(a, b)

    # One process killed mid-game: the other plays on; the killed one, started again, is where the table is.
    first.stop(kill=True)
    for _ in range(4):
        public = b.state(table_id)
        if public["status"] == "finished":
            break
        for seat in [s for s in public["to_move"] if s not in public["committed"]]:
            legal = b.state(table_id, tokens[seat])["legal"][0]["text"]
            assert b.act(table_id, tokens[seat], legal, public["ply"]).status_code == 200
            public = b.state(table_id)
    first.start()
    a = Http(first.url)
    assert _same(a.state(table_id, tokens[2]), b.state(table_id, tokens[2]))


def _undo_heard_across(a: Http, b: Http) -> None:
    """An undo through one process is heard by the other, and play goes on from it in both."""
    made = a.http.post("/api/tables", json={"game": "buccaneers", "players": 3, "seed": 2,
                                            "seats": [{"kind": "human"}] * 3}).json()
    table_id, tokens = made["table_id"], {0: made["you"]["token"]}
    for _ in range(2):
        joined = b.http.post(f"/api/tables/{table_id}/join", json={"invite": made["invite"]}).json()
        tokens[joined["seat"]] = joined["token"]
    _eventually(lambda: a.state(table_id)["status"] == "running", "the joins to be heard")
    pick = a.state(table_id, tokens[0])["legal"][0]["text"]
    assert a.act(table_id, tokens[0], pick, 0).status_code == 200
    _eventually(lambda: b.state(table_id)["committed"] == [0], "the pick to be heard")
    # Taken back through the other process (a sealed pick the others have not matched may be withdrawn).
    undone = b.http.post(f"/api/tables/{table_id}/undo", json={"ply": 1},
                         headers={"Authorization": f"Bearer {tokens[0]}"})
    assert undone.status_code == 200, undone.text
    _eventually(lambda: (a.state(table_id)["undos"], a.state(table_id)["committed"]) == (1, []),
                "the undo to be heard")
    assert _same(a.state(table_id, tokens[0]), b.state(table_id, tokens[0]))
    # The seat picks again, through the first process, and both agree.
    again = a.state(table_id, tokens[0])["legal"][-1]["text"]
    assert a.act(table_id, tokens[0], again, 0).status_code == 200
    _eventually(lambda: _same(a.state(table_id, tokens[0]), b.state(table_id, tokens[0])), "the processes to agree")


def _moves_alternate_without_waiting(a: Http, b: Http) -> None:
    """Two players whose moves go to different processes, each sent the moment the other's is stored (the
    ply the answer gave): a process that has not heard of the last move yet catches up and takes the next
    one, it never refuses it as a ply from the future."""
    made = a.http.post("/api/tables", json={"game": "captain-black", "players": 2, "seed": 4,
                                            "params": {"start_seat": 0},
                                            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    table_id, tokens = made["table_id"], {0: made["you"]["token"]}
    tokens[1] = b.http.post(f"/api/tables/{table_id}/join", json={"invite": made["invite"]}).json()["token"]
    servers = {0: a, 1: b}
    state = b.state(table_id, tokens[1])
    for _ in range(12):
        if state["status"] == "finished":
            break
        seat = state["to_move"][0]
        answer = servers[seat].act(table_id, tokens[seat], "draw 1", state["ply"])
        assert answer.status_code == 200, answer.text
        state = answer.json()
    _eventually(lambda: _same(a.state(table_id), b.state(table_id)), "the processes to agree")


def test_a_second_process_on_one_sqlite_file_is_refused(live_server: Any, tmp_path: Any) -> None:
    database = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    live_server(database=database)
    with pytest.raises(RuntimeError, match="exited early") as refused:
        live_server(database=database)
    assert "another holotable server already uses" in str(refused.value)
    assert "use PostgreSQL to run several processes" in str(refused.value)


def test_a_process_that_has_not_heard_of_a_move_yet_catches_up_from_the_store(
        open_server: Any, fresh_postgres_url: str) -> None:
    """Two servers in this process on one PostgreSQL; the second hears no announcements (its listening
    task is stopped, as if they were late). A move chosen after the first server's move, sent to the
    second, is taken there: it reads what it missed from the store first (no 409 for "a ply still to
    come"). A move that really is stale stays a 409."""
    import asyncio

    async def deaf(manager: Any) -> None:
        task = manager._listener
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with open_server(fresh_postgres_url) as a, open_server(fresh_postgres_url) as b:
        b.client.portal.call(deaf, b.manager)
        created = a.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
        table_id, tokens = created["table_id"], {0: created["you"]["token"]}
        tokens[1] = b.join(created)  # b loads the table from the store, so it knows the join
        a.wait_for(lambda: a.live(table_id).status == "running", what="the first server to hear the join")
        assert a.act(table_id, tokens[0], "draw 1", 0).status_code == 200
        assert b.live(table_id).state.ply == 0, "the second server has not heard of the move"
        answer = b.act(table_id, tokens[1], "draw 1", 1)
        assert answer.status_code == 200, answer.text
        assert b.live(table_id).state.ply == 2
        stale = b.act(table_id, tokens[1], "draw 1", 1)  # not its turn any more, and the ply moved on
        assert stale.status_code == 409, stale.text
