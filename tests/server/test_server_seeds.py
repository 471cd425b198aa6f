"""Seeds are table secrets: whoever knows a running game's seed can compute every hidden card and every
future draw, so no answer or message a seat or a spectator can get before the end holds it. A seed the
creator chose is allowed, and then every seat and the lobby are told the table is seeded, and by whom."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from sqlalchemy import Column, MetaData, Table, create_engine, insert, select

from holotable.engine import load, registry
from holotable.games.kyrum.campaign import game_seed
from holotable.games.kyrum.server import table_seed
from holotable.games.kyrum.server_store import campaigns_t
from holotable.server.storage import ADDED_COLUMNS, normalise_url, seats_t, tables_t
from holotable.server.tokens import hash_token
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import Nim

#: A long known seed (19 digits; the largest a table takes is 2**62).
SEED = 4611686018427387903
#: Plies played at each table (each seat's first move, undos, the log and the bots' derived seeds in use).
PLIES = 12


def seed_forms(seed: int) -> list[str]:
    """How a seed could be written: decimal, hexadecimal (with or without 0x: one contains the other),
    and as a float (JSON numbers past 2**53)."""
    return [str(seed), format(seed, "x"), repr(float(seed)).lower()]


class Recorder:
    """Every body a seat or a spectator was sent: HTTP answers and WebSocket frames, with where they came from."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.bodies: list[tuple[str, str]] = []

    def request(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.client.request(method, path, headers=headers, **kwargs)
        self.bodies.append((f"{method.upper()} {path} -> {response.status_code}", response.text))
        return response

    def get(self, path: str, token: str | None = None, **kwargs: Any) -> Any:
        return self.request("get", path, token, **kwargs)

    def post(self, path: str, token: str | None = None, **kwargs: Any) -> Any:
        return self.request("post", path, token, **kwargs)

    def drain(self, ws: Any, name: str, ply: int, undos: int) -> None:
        """Read ``ws``'s frames until the state at ``ply`` (after ``undos`` take-backs) arrives."""
        while True:
            text = ws.receive_text()
            self.bodies.append((f"ws {name}", text))
            frame = json.loads(text)
            if frame.get("type") == "state" and frame["ply"] == ply and frame["undos"] == undos:
                return

    def leaks(self, seeds: list[int]) -> list[str]:
        found = []
        for seed in seeds:
            for form in seed_forms(seed):
                found += [f"{where} holds {form}" for where, text in self.bodies if form in text.lower()]
        return found

    def states_and_summaries(self) -> list[tuple[str, dict[str, Any]]]:
        """Every table state and lobby summary in the bodies (a list's entries one by one)."""
        out = []
        for where, text in self.bodies:
            try:
                data = json.loads(text)
            except ValueError:
                continue
            for item in data if isinstance(data, list) else [data]:
                if isinstance(item, dict) and "table_id" in item and ("view" in item or "created_at" in item):
                    out.append((where, item))
        return out


def _non_ending(legal: list[dict[str, Any]], rng: random.Random) -> str:
    texts = [entry["text"] for entry in legal if entry["text"] not in ("concede", "leave")]
    return rng.choice(texts or [entry["text"] for entry in legal])


@pytest.mark.parametrize("game_name", registry.names())
def test_no_answer_or_frame_holds_the_seed_before_the_end(server: Any, game_name: str) -> None:
    spec = load(game_name).spec
    players = spec.min_players
    rec = Recorder(server.client)
    rec.get("/api/games")
    created = rec.post("/api/tables", json={"game": game_name, "players": players, "seed": SEED, "name": "Ann",
                                            "seats": [{"kind": "human"}] * players}).json()
    table_id = created["table_id"]
    tokens = {0: created["you"]["token"]}
    for other in range(1, players):
        joined = rec.post(f"/api/tables/{table_id}/join", json={"invite": created["invite"], "name": f"P{other}"})
        tokens[joined.json()["seat"]] = joined.json()["token"]
    base = f"/api/tables/{table_id}"
    rng = random.Random(7)
    undone = 0
    with server.client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as mine, \
            server.client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        rec.drain(mine, "seat 0", 0, 0)
        rec.drain(watcher, "spectator", 0, 0)
        for _ in range(PLIES):
            public = rec.get(f"{base}/state").json()
            if public["status"] == "finished":
                break
            seat = next(s for s in public["to_move"] if s in tokens)
            state = rec.get(f"{base}/state", tokens[seat]).json()
            if state["undo"]["allowed"] and undone < 2:
                assert rec.post(f"{base}/undo", tokens[seat]).status_code == 200
                undone += 1
            else:
                response = rec.post(f"{base}/actions", tokens[seat],
                                    json={"action": _non_ending(state["legal"], rng), "ply": state["ply"]})
                assert response.status_code == 200, response.text
                rec.post(f"{base}/undo", tokens[(seat + 1) % players])  # another seat's undo: refused
            now = server.live(table_id)
            rec.drain(mine, "seat 0", now.state.ply, now.record.undos)
            rec.drain(watcher, "spectator", now.state.ply, now.record.undos)
        mine.send_json({"type": "undo", "ply": 10_000})  # a stale undo over the socket: its error frame
        error = mine.receive_text()
        rec.bodies.append(("ws seat 0 undo", error))
        assert json.loads(error)["status"] == 409
    assert server.live(table_id).status == "running", "the check is of a game that has not ended"
    for token in tokens.values():
        rec.get(f"{base}/state", token, params={"since": 1})
    for status in ("open", "running", "finished"):
        rec.get("/api/tables", params={"status": status})
    rec.get("/api/tables")
    rec.get(base)
    rec.get(f"{base}/catalog")
    rec.post(f"{base}/rematch", tokens[0])
    rec.post(f"{base}/undo")
    if game_name == "space-pirates":
        rec.post(f"{base}/preview", tokens[0], json={"action": "ruler 0"})
    rec.get(f"/t/{table_id}")

    assert rec.leaks([SEED]) == []
    told = rec.states_and_summaries()
    assert len(told) >= 4 * PLIES
    for where, item in told:
        assert item["seeded"] is not None and item["seeded"]["by"] == "Ann", where
        assert item["seeded"]["text"] == "Seeded table: the deal was chosen by Ann.", where


def test_a_table_with_a_drawn_seed_says_nothing_of_it_and_never_sends_it(server: Any) -> None:
    rec = Recorder(server.client)
    created = rec.post("/api/tables", json={"game": "buccaneers", "players": 3, "name": "Ann",
                                            "seats": [{"kind": "human"}] * 2 + [{"kind": "bot", "level": "easy"}]})
    table_id = created.json()["table_id"]
    token1 = rec.post(f"/api/tables/{table_id}/join", json={"invite": created.json()["invite"]}).json()["token"]
    tokens = {0: created.json()["you"]["token"], 1: token1}
    server.play_until(table_id, tokens, lambda p: p["ply"] >= 6)
    for token in (*tokens.values(), None):
        rec.get(f"/api/tables/{table_id}/state", token)
    rec.get(f"/api/tables/{table_id}")
    rec.get("/api/tables")
    live = server.live(table_id)
    assert not live.record.seeded
    assert rec.leaks([live.record.seed]) == []
    for where, item in rec.states_and_summaries():
        assert item["seeded"] is None, where


def test_an_unnamed_creator_is_the_tables_creator(server: Any) -> None:
    created = server.create("captain-black", [{"kind": "bot", "level": "easy"}] * 2, seed=SEED)
    summary = server.client.get(f"/api/tables/{created['table_id']}").json()
    assert summary["seeded"]["by"] is None
    assert summary["seeded"]["text"] == "Seeded table: the deal was chosen by the table's creator."


def test_a_rematch_of_a_seeded_table_draws_a_fresh_seed(server: Any) -> None:
    with temporarily_registered(Nim()):
        created = server.create("test-nim", [{"kind": "human"}, {"kind": "human"}], seed=SEED, name="Ann",
                                params={"pile": 2})
        table_id, token0 = created["table_id"], created["you"]["token"]
        token1 = server.join(created)
        assert server.act(table_id, token0, "take 2").status_code == 200
        assert server.state(table_id)["status"] == "finished"
        again = server.client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {token1}"})
        assert again.status_code == 200, again.text
        fresh = server.live(again.json()["table_id"])
        assert fresh.record.seed != SEED and not fresh.record.seeded and fresh.record.seeded_by is None
        assert server.state(fresh.id, again.json()["you"]["token"])["seeded"] is None
        assert server.client.get(f"/api/tables/{fresh.id}").json()["seeded"] is None
        stored = server.store.table(fresh.id)
        assert stored is not None and stored[0].seeded is False


def test_kyrum_campaign_routes_keep_the_seed_until_the_campaign_ends(server: Any) -> None:
    rec = Recorder(server.client)
    made = rec.post("/api/campaigns", json={"name": "Ann", "seed": SEED}).json()
    cid, token = made["campaign_id"], made["token"]
    path = f"/api/campaigns/{cid}"
    read = rec.get(path, token).json()
    assert read["seed"] is None and read["seed_chosen"] is True
    table = rec.post(f"{path}/games", token).json()
    base = f"/api/tables/{table['table_id']}"
    rng = random.Random(2)
    for _ in range(PLIES):
        state = rec.get(f"{base}/state", table["token"]).json()
        if state["status"] == "finished":
            break
        rec.post(f"{base}/actions", table["token"], json={"action": _non_ending(state["legal"], rng),
                                                          "ply": state["ply"]})
    rec.get(f"{base}/state")
    rec.get(base)
    rec.post(f"{path}/notes", token, json={"text": "a note"})
    rec.post(f"{path}/market", token, json={"item": "t1"})
    rec.post(f"{path}/comment", token, json={"text": "x"})
    rec.post(f"{path}/link-invites", token)
    rec.post(f"{path}/questionnaire", token, json={"answers": {}})
    rec.get(path, token)
    rec.get("/campaigns")
    rec.get(f"/campaigns/{cid}")
    secrets_ = [SEED, *(f(SEED, n) for n in (1, 2) for f in (table_seed, game_seed))]
    assert rec.leaks(secrets_) == []
    # Its table was seeded by the campaign's owner, and says so.
    mine = server.state(table["table_id"], table["token"])
    assert mine["seeded"]["by"] == "Ann"

    # A campaign whose seed the server drew: its games are not seeded tables.
    drawn = server.client.post("/api/campaigns", json={"name": "Bo"}).json()
    bearer = {"Authorization": f"Bearer {drawn['token']}"}
    assert server.client.get(f"/api/campaigns/{drawn['campaign_id']}", headers=bearer).json()["seed_chosen"] is False
    game = server.client.post(f"/api/campaigns/{drawn['campaign_id']}/games", headers=bearer).json()
    assert server.state(game["table_id"], game["token"])["seeded"] is None


def test_a_finished_campaign_shows_its_seed(server: Any) -> None:
    from holotable.games.kyrum.campaign import CampaignState

    made = server.client.post("/api/campaigns", json={"name": "Ann", "seed": SEED}).json()
    bearer = {"Authorization": f"Bearer {made['token']}"}
    with server.store.engine.begin() as conn:
        raw = conn.execute(select(campaigns_t.c.state).where(campaigns_t.c.id == made["campaign_id"])).scalar_one()
        state = CampaignState.from_json(raw)
        state.next_game = 31  # every scheduled game played
        conn.execute(campaigns_t.update().where(campaigns_t.c.id == made["campaign_id"])
                     .values(state=state.to_json()))
    data = server.client.get(f"/api/campaigns/{made['campaign_id']}", headers=bearer).json()
    assert data["complete"] is True and data["seed"] == SEED


def test_an_older_database_gets_the_new_columns(open_server: Any, database_url: str) -> None:
    """A database made before the seeded flag and the undo count: the columns are added in place, and its
    tables read as drawn (not seeded) with nothing taken back."""
    engine = create_engine(normalise_url(database_url))
    old = MetaData()
    added = set(ADDED_COLUMNS["holotable_tables"])
    Table(tables_t.name, old, *[Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
                                for c in tables_t.columns if c.name not in added])
    Table(seats_t.name, old, *[Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
                               for c in seats_t.columns])
    Table(campaigns_t.name, old, *[Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
                                   for c in campaigns_t.columns if c.name != "seed_chosen"])
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(insert(old.tables[tables_t.name]).values(
            id="oldtable", game="kyrum", players=1, params="{}", seed=SEED, clock_mode="none", clock_seconds=0,
            invite="inv", public=False, status="running", created_at=1.0, started_at=1.0))
        conn.execute(insert(old.tables[seats_t.name]).values(
            table_id="oldtable", seat=0, kind="human", name="Ann", token_hash=hash_token("tok"), claimed=True))
    engine.dispose()
    with open_server(database_url) as srv:
        summary = srv.client.get("/api/tables/oldtable")
        assert summary.status_code == 200, summary.text
        assert summary.json()["seeded"] is None
        state = srv.state("oldtable", "tok")
        assert (state["undos"], state["undo"]["allowed"], state["seeded"]) == (0, False, None)
        legal = state["legal"][0]["text"]
        assert srv.act("oldtable", "tok", legal, 0).status_code == 200
        stored = srv.store.table("oldtable")
        assert stored is not None and stored[0].undos == 0 and len(stored[2]) == 1
        made = srv.client.post("/api/campaigns", json={"name": "Ann"})
        assert made.status_code == 201, made.text
