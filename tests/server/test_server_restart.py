"""Durability: a real `holotable serve` killed with SIGKILL mid-game comes back with every table where it was."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest


def _strip(payload: dict[str, Any]) -> dict[str, Any]:
    out = dict(payload)
    out.pop("clock", None)  # carries the server's current time
    return out


class Client:
    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=20)

    def create(self, game: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
        response = self.http.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats, **body})
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def seat_all(self, created: dict[str, Any]) -> dict[int, str]:
        tokens = {} if created["you"] is None else {created["you"]["seat"]: created["you"]["token"]}
        while True:
            response = self.http.post(f"/api/tables/{created['table_id']}/join", json={"invite": created["invite"]})
            if response.status_code == 409:
                return tokens
            tokens[response.json()["seat"]] = response.json()["token"]

    def state(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.get(f"/api/tables/{table_id}/state", headers=headers)
        assert response.status_code == 200, response.text
        payload: dict[str, Any] = response.json()
        return payload

    def act_first_legal(self, table_id: str, tokens: dict[int, str]) -> bool:
        """One human move (the first legal action of the first human asked); false if no human is asked."""
        public = self.state(table_id)
        for seat in public["to_move"]:
            if seat in tokens:
                legal = self.state(table_id, tokens[seat])["legal"]
                response = self.http.post(f"/api/tables/{table_id}/actions",
                                          json={"action": legal[0]["text"], "ply": public["ply"]},
                                          headers={"Authorization": f"Bearer {tokens[seat]}"})
                assert response.status_code == 200, response.text
                return True
        return False

    def wait_for_humans(self, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
        end = time.monotonic() + 20
        while time.monotonic() < end:
            public = self.state(table_id)
            if public["status"] == "finished" or set(public["to_move"]) & set(tokens) == set(public["to_move"]):
                return public
            time.sleep(0.05)
        raise AssertionError(f"table {table_id} never came back to its humans")


def _kill_and_restart(database: str | None, live_server: Any) -> None:
    srv = live_server(database=database) if database else live_server()
    client = Client(srv.url)

    # A sequential game with a bot, a sealed simultaneous game with one choice made, and a table of bots.
    mixed = client.create("captain-black", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}],
                          seed=3)
    mixed_tokens = client.seat_all(mixed)
    for _ in range(6):
        client.wait_for_humans(mixed["table_id"], mixed_tokens)
        client.act_first_legal(mixed["table_id"], mixed_tokens)
    client.wait_for_humans(mixed["table_id"], mixed_tokens)

    sealed = client.create("buccaneers", [{"kind": "human"}] * 3, seed=8)
    sealed_tokens = client.seat_all(sealed)
    for _ in range(4):
        client.act_first_legal(sealed["table_id"], sealed_tokens)
    bots = client.create("council", [{"kind": "bot", "level": "easy"}] * 4, seed=1)

    tables = [(mixed["table_id"], mixed_tokens), (sealed["table_id"], sealed_tokens)]
    before = {(t, s): _strip(client.state(t, tokens.get(s) if s is not None else None))
              for t, tokens in tables for s in [*tokens, None]}
    assert before[(sealed["table_id"], None)]["committed"], "the sealed table should hold a pending choice"
    bot_log_before = client.state(bots["table_id"])["ply"]
    # The last acknowledged action is durable even when the kill follows at once.
    client.act_first_legal(sealed["table_id"], sealed_tokens)
    acknowledged = client.state(sealed["table_id"])
    srv.stop(kill=True)
    assert not srv.running

    srv.start()
    again = Client(srv.url)
    after_public = again.state(sealed["table_id"])
    assert _strip(after_public) == _strip(acknowledged), srv.log()
    for (table_id, seat), payload in before.items():
        if table_id == sealed["table_id"]:
            continue
        tokens = dict(tables)[table_id]
        assert _strip(again.state(table_id, tokens.get(seat) if seat is not None else None)) == payload, srv.log()
    # The bots' table resumes from where it was and plays on.
    assert again.state(bots["table_id"])["ply"] >= bot_log_before
    # Play goes on at the human tables.
    assert again.act_first_legal(mixed["table_id"], mixed_tokens)
    assert again.act_first_legal(sealed["table_id"], sealed_tokens) or after_public["status"] == "finished"
    listed = {t["table_id"] for t in again.http.get("/api/tables").json()}
    assert {mixed["table_id"], sealed["table_id"], bots["table_id"]} <= listed


@pytest.mark.slow
def test_sigkill_and_restart_loses_nothing_sqlite(live_server: Any) -> None:
    _kill_and_restart(None, live_server)


@pytest.mark.slow
def test_sigkill_and_restart_loses_nothing_postgres(live_server: Any, fresh_postgres_url: str) -> None:
    _kill_and_restart(fresh_postgres_url, live_server)
