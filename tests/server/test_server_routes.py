"""The routers' shared dependencies (holotable.server.routes.shared) answer as the routes always have:
a malformed query or body is reported before the table lookup and the seat token are, then the
missing table (404), then the token (403)."""

from __future__ import annotations

from typing import Any


def test_a_malformed_request_is_refused_for_that_before_its_table_or_token_are_looked_at(server: Any) -> None:
    client = server.client
    forged = {"Authorization": "Bearer forged-token"}
    assert client.post("/api/tables/no-such-table/actions", json={}).status_code == 422
    assert client.post("/api/tables/no-such-table/join", json={"invite": ""}).status_code == 422
    assert client.get("/api/tables/no-such-table/state", params={"since": -1}, headers=forged).status_code == 422
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}])
    table_id = created["table_id"]
    assert client.post(f"/api/tables/{table_id}/actions", json={"action": ""}).status_code == 422
    assert client.post(f"/api/tables/{table_id}/undo", json={"ply": -1}, headers=forged).status_code == 422


def test_then_the_table_then_the_seat_token(server: Any) -> None:
    client = server.client
    missing = client.post("/api/tables/no-such-table/actions", json={"action": "draw 1"})
    assert (missing.status_code, missing.json()) == (404, {"detail": "no table 'no-such-table'"})
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}])
    table_id = created["table_id"]
    anonymous = client.post(f"/api/tables/{table_id}/actions", json={"action": "draw 1"})
    assert (anonymous.status_code, anonymous.json()["detail"]) == (
        403, "acting needs your seat token (Authorization: Bearer <token>)")
    forged = client.get(f"/api/tables/{table_id}/state", headers={"Authorization": "Bearer forged-token"})
    assert (forged.status_code, forged.json()["detail"]) == (403, "that token holds no seat at this table")
    basic = client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": "Basic abc"})
    assert (basic.status_code, basic.json()["detail"]) == (
        403, "the Authorization header must be 'Bearer <seat token>'")
    spectator = client.get(f"/api/tables/{table_id}/state")
    assert spectator.status_code == 200 and spectator.json()["seat"] is None
