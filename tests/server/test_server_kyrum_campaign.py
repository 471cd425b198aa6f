"""Kyrum campaigns kept on the server: creation, refusals that change nothing, the fold of each finished
table exactly once (also across a restart mid-game), the Thoth market, the questionnaire, and the Black
Hole partner link delivering messages between two campaigns of one server."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import select

from holotable.games.kyrum import partner as partner_codes
from holotable.games.kyrum.campaign import CampaignState, fold_game, start_game
from holotable.games.kyrum.pack import load_pack
from holotable.games.kyrum.server import seat_token_for, table_seed
from holotable.games.kyrum.server_store import campaigns_t, games_t

#: Campaign seeds whose game 1, played with :func:`policy`, is short / reaches the Black Hole early.
SHORT_SEED = 193
PARTNER_SEED_A = 43
PARTNER_SEED_B = 33


def policy(legal: list[dict[str, Any]], message: str = "The heron is the ship") -> str:
    """The first legal action that is not a concession (a Black Hole message when one is asked)."""
    texts = [entry["text"] for entry in legal]
    for text in texts:
        if text != "concede":
            return f"send {message}" if text == "send" else text
    return texts[0]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Campaigns:
    def __init__(self, srv: Any) -> None:
        self.srv = srv
        self.client = srv.client

    def create(self, name: str = "solo", **body: Any) -> tuple[str, str]:
        response = self.client.post("/api/campaigns", json={"name": name, **body})
        assert response.status_code == 201, response.text
        return response.json()["campaign_id"], response.json()["token"]

    def read(self, cid: str, token: str) -> dict[str, Any]:
        response = self.client.get(f"/api/campaigns/{cid}", headers=bearer(token))
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def start(self, cid: str, token: str) -> dict[str, Any]:
        response = self.client.post(f"/api/campaigns/{cid}/games", headers=bearer(token))
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def play(self, table: dict[str, Any], until: Callable[[dict[str, Any]], bool] | None = None,
             message: str = "The heron is the ship", limit: int = 400) -> dict[str, Any]:
        for _ in range(limit):
            payload = self.srv.state(table["table_id"], table["token"])
            if payload["status"] == "finished" or (until is not None and until(payload)):
                return payload
            response = self.srv.act(table["table_id"], table["token"], policy(payload["legal"], message),
                                    payload["ply"])
            assert response.status_code == 200, response.text
        raise AssertionError("the game did not end")

    def db(self, cid: str) -> tuple[Any, list[Any]]:
        with self.srv.store.engine.connect() as conn:
            row = conn.execute(select(campaigns_t).where(campaigns_t.c.id == cid)).mappings().first()
            games = conn.execute(select(games_t).where(games_t.c.campaign_id == cid)).mappings().all()
        return dict(row) if row else None, [dict(g) for g in games]


@pytest.fixture
def camps(open_server: Any, database_url: str) -> Iterator[Campaigns]:
    """A server over SQLite, and one over PostgreSQL: every campaign test runs on both."""
    with open_server(database_url) as srv:
        yield Campaigns(srv)


def test_create_read_and_start_a_game_replaying_start_game(camps: Campaigns) -> None:
    cid, token = camps.create("Ada", seed=SHORT_SEED)
    data = camps.read(cid, token)
    assert (data["name"], data["next_game"], data["length"], data["playing"]) == ("Ada", 1, 30, None)
    assert data["market"]["open"] is False and not data["questionnaire"]["open"]
    assert all("answer" not in q for q in data["questionnaire"]["questions"])  # the key is not handed out
    stored, _ = camps.db(cid)
    assert token not in json.dumps(stored, default=str)  # only the hash is kept

    table = camps.start(cid, token)
    assert table["token"] == seat_token_for(token, table["table_id"])
    live = camps.srv.live(table["table_id"])
    expected = start_game(CampaignState.from_json(stored["state"]), "kyrum-demo", private=True)
    assert live.config.params == expected.config.params
    assert live.record.seed == table_seed(SHORT_SEED, 1)
    assert camps.read(cid, token)["playing"]["table_id"] == table["table_id"]
    # A second start while the game runs is refused.
    again = camps.client.post(f"/api/campaigns/{cid}/games", headers=bearer(token))
    assert again.status_code == 409 and "between games" in again.json()["detail"]
    # The table's seat payload names its campaign; a spectator's does not.
    assert camps.srv.state(table["table_id"], table["token"])["extra"]["campaign_id"] == cid
    camps.play(table, until=lambda p: p["ply"] >= 2)
    spectator = camps.srv.state(table["table_id"])
    assert "campaign_id" not in spectator["extra"] and cid not in json.dumps(spectator)
    # A campaign's game is private: a spectator learns that it runs, not its board, scripts or log.
    seen = spectator["view"]
    assert seen["private"] is True and seen["game_number"] == 1
    assert not {"journal", "slots", "gauges", "reading", "scoreboard", "inventory"} & set(seen)
    assert spectator["log"] == [] and spectator["legal"] == []
    assert camps.srv.state(table["table_id"], table["token"])["log"]
    assert spectator["extra"]["reference"]["crafting"]["common"][0]["name"] == "fuel"
    # The seat gets the descriptions of the cards on its table (issue 18); the spectator none.
    mine = camps.srv.state(table["table_id"], table["token"])
    planets = {f"planet:{s['planet']}" for s in mine["view"]["slots"]}
    assert planets <= set(mine["extra"]["cards"])
    assert all(mine["extra"]["cards"][k]["lines"][1][0] == "White arrow" for k in planets)
    assert spectator["extra"]["cards"] == {}


@pytest.mark.parametrize("body", [
    {},
    {"name": ""},
    {"name": "two\nlines"},
    {"name": "x", "pack": "/etc"},
    {"name": "x", "pack": "../kyrum-demo"},
    {"name": "x", "seed": -1},
    {"name": "x", "unknown": 1},
    {"name": "x" * 81},
])
def test_bad_creation_is_refused_and_stores_nothing(camps: Campaigns, body: dict[str, Any]) -> None:
    response = camps.client.post("/api/campaigns", json=body)
    assert response.status_code == 422 and response.json()["detail"]
    with camps.srv.store.engine.connect() as conn:
        assert conn.execute(select(campaigns_t)).first() is None


def test_tokens_guard_every_route(camps: Campaigns) -> None:
    cid, token = camps.create()
    other_id, other_token = camps.create("other")
    before = camps.db(cid)
    for method, path, body in [("get", "", None), ("post", "/games", None), ("post", "/notes", {"text": "x"}),
                               ("post", "/market", {"item": "t1"}), ("post", "/link-invites", None),
                               ("post", "/questionnaire", {"answers": {}})]:
        for headers in ({}, bearer(other_token), {"Authorization": "Basic abc"}):
            response = camps.client.request(method, f"/api/campaigns/{cid}{path}", json=body, headers=headers)
            assert response.status_code == 403, (path, response.text)
    assert camps.client.get("/api/campaigns/nope", headers=bearer(token)).status_code == 404
    for made_up in range(50):  # made-up ids leave nothing in memory (each used to keep a lock for good)
        assert camps.client.post(f"/api/campaigns/fake{made_up}/notes", json={"text": "x"},
                                 headers=bearer(token)).status_code == 404
    ext = camps.srv.manager.extension("kyrum")
    assert not ext.locks.get(camps.srv.manager), "no campaign lock outlives its request"
    assert camps.db(cid) == before
    assert camps.read(other_id, other_token)["name"] == "other"


def test_whole_game_folds_exactly_once_then_market_comment_and_notes(camps: Campaigns) -> None:
    cid, token = camps.create(seed=SHORT_SEED)
    table = camps.start(cid, token)
    note = camps.client.post(f"/api/campaigns/{cid}/notes", json={"text": "a note written during the game"},
                             headers=bearer(token))
    assert note.status_code == 200 and note.json()["notes_pending"] == ["a note written during the game"]
    refused = camps.client.post(f"/api/campaigns/{cid}/market", json={"item": "t1"}, headers=bearer(token))
    assert refused.status_code == 409  # not while a game runs
    final = camps.play(table)
    assert final["outcome"] is not None
    data = camps.read(cid, token)
    assert data["next_game"] == 2 and data["playing"] is None
    assert data["scoreboard"][0]["result"] is not None
    assert data["journal"][-1] == {"game": 1, "text": "a note written during the game"}
    assert data["notes_pending"] == []
    # The campaign goes on with its next game: "play again" is not offered and a rematch is refused.
    assert final["rematch"] is False
    rematch = camps.client.post(f"/api/tables/{table['table_id']}/rematch", headers=bearer(table["token"]))
    assert rematch.status_code == 409 and "campaign" in rematch.json()["detail"]
    stored, games = camps.db(cid)
    assert [g["status"] for g in games] == ["folded"]
    # Folding again (the after-action hook once more, a restart's check) changes nothing.
    ext_state = CampaignState.from_json(stored["state"])
    live = camps.srv.live(table["table_id"])
    kyrum = camps.srv.manager.extension("kyrum")
    assert kyrum.fold(camps.srv.manager, cid, table["table_id"], live.state, []) is False
    assert camps.db(cid)[0] == stored
    expected = fold_game(CampaignState.from_json(live.config.params["campaign"]), live.state)
    expected.journal.append({"game": 1, "text": "a note written during the game"})
    assert expected == ext_state

    # Between games: the market (bank permitting), a comment, a journal note.
    pack = load_pack("kyrum-demo")
    bank = data["np_bank"]
    cheapest = min(pack.item_order, key=lambda i: pack.items[i].cost)
    response = camps.client.post(f"/api/campaigns/{cid}/market", json={"item": cheapest}, headers=bearer(token))
    if bank >= pack.items[cheapest].cost:
        assert response.status_code == 200
        assert response.json()["np_bank"] == bank - pack.items[cheapest].cost
    else:
        assert response.status_code == 409 and "costs" in response.json()["detail"]
        assert camps.db(cid)[0] == stored
    for bad in ({"item": "t99"}, {"item": ""}, {"item": "t1", "x": 1}):
        before = camps.db(cid)[0]
        assert camps.client.post(f"/api/campaigns/{cid}/market", json=bad, headers=bearer(token)).status_code == 422
        assert camps.db(cid)[0] == before
    comment = camps.client.post(f"/api/campaigns/{cid}/comment", json={"text": "close call"}, headers=bearer(token))
    assert comment.status_code == 200 and comment.json()["scoreboard"][0]["comment"] == "close call"
    note = camps.client.post(f"/api/campaigns/{cid}/notes", json={"text": "after"}, headers=bearer(token))
    assert note.json()["journal"][-1] == {"game": 2, "text": "after"}


def test_market_buys_with_the_bank(camps: Campaigns) -> None:
    """A campaign with NP in the bank buys an item; the purchase and the bank are stored together."""
    cid, token = camps.create(seed=SHORT_SEED)
    camps.play(camps.start(cid, token))
    stored, _ = camps.db(cid)
    state = CampaignState.from_json(stored["state"])
    state.np_bank = 9  # as if earlier games had earned it (the stored row is the campaign's only truth)
    with camps.srv.store.engine.begin() as conn:
        conn.execute(campaigns_t.update().where(campaigns_t.c.id == cid).values(state=state.to_json()))
    response = camps.client.post(f"/api/campaigns/{cid}/market", json={"item": "T04"}, headers=bearer(token))
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["np_bank"] == 9 - 2
    assert next(i for i in data["market"]["items"] if i["id"] == "T04")["owned"] == 1
    # The next game starts with the item in its campaign.
    table = camps.start(cid, token)
    assert camps.srv.state(table["table_id"], table["token"])["view"]["np_bank"] == 7


def test_fold_after_a_restart_mid_game(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url) as srv:
        camps = Campaigns(srv)
        cid, token = camps.create(seed=SHORT_SEED)
        table = camps.start(cid, token)
        camps.play(table, until=lambda p: p["ply"] >= 3)
    with open_server(sqlite_url) as srv:  # the table is rebuilt by replay; the same tokens still work
        camps = Campaigns(srv)
        assert camps.read(cid, token)["playing"]["table_id"] == table["table_id"]
        camps.play(table)
        data = camps.read(cid, token)
        assert data["next_game"] == 2 and data["scoreboard"][0]["result"] is not None
        stored, games = camps.db(cid)
    with open_server(sqlite_url) as srv:  # and nothing is folded twice at the next start
        camps = Campaigns(srv)
        assert camps.db(cid) == (stored, games)


def test_a_table_finished_while_the_fold_was_lost_is_folded_at_start(open_server: Any, sqlite_url: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Crash between the last action's commit and the fold: the next start folds it (once)."""
    with open_server(sqlite_url) as srv:
        camps = Campaigns(srv)
        cid, token = camps.create(seed=SHORT_SEED)
        table = camps.start(cid, token)
        camps.play(table, until=lambda p: p["ply"] >= 3)
        before, _ = camps.db(cid)
        with monkeypatch.context() as patch:  # the process dies before the fold is written
            patch.setattr(srv.manager.extension("kyrum"), "fold", lambda *args: False)
            camps.play(table)
        assert camps.db(cid)[0]["state"] == before["state"]  # not folded yet
    with open_server(sqlite_url) as srv:
        camps = Campaigns(srv)
        stored, games = camps.db(cid)
        assert [g["status"] for g in games] == ["folded"] and stored["table_id"] is None
        assert CampaignState.from_json(stored["state"]).next_game == 2


def test_questionnaire_after_the_last_game(camps: Campaigns) -> None:
    cid, token = camps.create()
    early = camps.client.post(f"/api/campaigns/{cid}/questionnaire", json={"answers": {"Q1": 1}},
                              headers=bearer(token))
    assert early.status_code == 409 and "only after game 30" in early.json()["detail"]
    stored, _ = camps.db(cid)
    state = CampaignState.from_json(stored["state"])
    state.next_game = 31  # the end of the campaign, as the stored state says
    with camps.srv.store.engine.begin() as conn:
        conn.execute(campaigns_t.update().where(campaigns_t.c.id == cid).values(state=state.to_json()))
    pack = load_pack("kyrum-demo")
    questions = pack.questionnaire["questions"]
    missing = camps.client.post(f"/api/campaigns/{cid}/questionnaire", json={"answers": {"Q1": 1}},
                                headers=bearer(token))
    assert missing.status_code == 422 and camps.db(cid)[0]["answers"] is None
    wrong = {q["id"]: (q["answer"] + 1) % len(q["choices"]) for q in questions}
    right = {q["id"]: q["answer"] for q in questions}
    answers = {**wrong, questions[0]["id"]: questions[0]["answer"]}
    done = camps.client.post(f"/api/campaigns/{cid}/questionnaire", json={"answers": answers},
                             headers=bearer(token))
    assert done.status_code == 200, done.text
    result = done.json()["questionnaire"]["result"]
    assert result["own_score"] == questions[0]["points"] and result["shared_score"] == 2 * questions[0]["points"]
    again = camps.client.post(f"/api/campaigns/{cid}/questionnaire", json={"answers": right}, headers=bearer(token))
    assert again.status_code == 409


def test_partner_link_delivers_black_hole_messages(camps: Campaigns) -> None:
    a_id, a_token = camps.create("Ada", seed=PARTNER_SEED_A, partner=True)
    b_id, b_token = camps.create("Bo", seed=PARTNER_SEED_B, partner=True)
    solo_id, solo_token = camps.create("Solo")
    # A solo campaign cannot link; a code is single-use and not one's own.
    assert camps.client.post(f"/api/campaigns/{solo_id}/link-invites", headers=bearer(solo_token)).status_code == 409
    invite = camps.client.post(f"/api/campaigns/{a_id}/link-invites", headers=bearer(a_token))
    assert invite.status_code == 201
    code = invite.json()["code"]
    assert camps.client.post(f"/api/campaigns/{a_id}/link", json={"code": code},
                             headers=bearer(a_token)).status_code == 422
    bad = camps.client.post(f"/api/campaigns/{b_id}/link", json={"code": code + "x"}, headers=bearer(b_token))
    assert bad.status_code == 404 and camps.read(b_id, b_token)["partner"]["linked"] is False
    linked = camps.client.post(f"/api/campaigns/{b_id}/link", json={"code": code}, headers=bearer(b_token))
    assert linked.status_code == 200, linked.text
    assert linked.json()["partner"] == {**linked.json()["partner"], "linked": True, "partner_name": "Ada"}
    assert camps.read(a_id, a_token)["partner"]["partner_name"] == "Bo"
    assert camps.client.post(f"/api/campaigns/{solo_id}/link", json={"code": code},
                             headers=bearer(solo_token)).status_code == 404  # used up

    # Ada meets the Black Hole and writes; Bo's campaign receives it at once.
    a_table = camps.start(a_id, a_token)
    camps.play(a_table, until=lambda p: p["view"]["phase"] == "SCRIPT"
               and (p["view"]["decision"] or {}).get("kind") == "partner")
    payload = camps.srv.state(a_table["table_id"], a_table["token"])
    assert [e["text"] for e in payload["legal"]] == ["send"]
    assert camps.srv.act(a_table["table_id"], a_table["token"], "send Look for the heron",
                         payload["ply"]).status_code == 200
    b_view = camps.read(b_id, b_token)
    assert [(m["from"], m["text"], m["heard_in_game"]) for m in b_view["partner"]["inbox"]] == [
        ("Ada", "Look for the heron", None)]
    a_view = camps.read(a_id, a_token)
    outgoing = a_view["partner"]["outbox"]
    assert [m["text"] for m in outgoing] == ["Look for the heron"]
    assert partner_codes.decode(outgoing[0]["code"])["text"] == "Look for the heron"
    # Bo's next game hears it at its Black Hole (the engine's 'received').
    b_table = camps.start(b_id, b_token)
    at_hole = camps.play(b_table, until=lambda p: (p["view"]["decision"] or {}).get("kind") == "partner")
    mine = camps.srv.state(b_table["table_id"], b_table["token"])
    assert at_hole["status"] == "running"
    assert mine["view"]["decision"]["received"] == "Look for the heron"
    assert camps.read(b_id, b_token)["partner"]["inbox"][0]["heard_in_game"] == 1
    # What the link shares is the messages and the name: never the other campaign's data.
    assert "journal" not in json.dumps(camps.read(b_id, b_token)["partner"])


def test_manual_partner_codes(camps: Campaigns) -> None:
    cid, token = camps.create("Ada", partner=True)
    solo_id, solo_token = camps.create("Solo")
    body = partner_codes.payload("kyrum-demo", "Remote", "abcd", 1, "message", "hello from afar", None)
    code = partner_codes.encode(body)
    response = camps.client.post(f"/api/campaigns/{cid}/codes", json={"code": code}, headers=bearer(token))
    assert response.status_code == 200
    assert response.json()["partner"]["inbox"][0]["text"] == "hello from afar"
    assert camps.client.post(f"/api/campaigns/{cid}/codes", json={"code": code},
                             headers=bearer(token)).status_code == 409  # once
    damaged = code[:-2] + ("A" if code[-2] != "A" else "B") + code[-1]
    before = camps.db(cid)
    assert camps.client.post(f"/api/campaigns/{cid}/codes", json={"code": damaged},
                             headers=bearer(token)).status_code == 422
    assert camps.client.post(f"/api/campaigns/{solo_id}/codes", json={"code": code},
                             headers=bearer(solo_token)).status_code == 409
    assert camps.db(cid) == before


def test_campaign_survives_a_restart_on_sqlite_and_postgresql(open_server: Any, database_url: str) -> None:
    with open_server(database_url) as srv:
        camps = Campaigns(srv)
        cid, token = camps.create(seed=SHORT_SEED)
        table = camps.start(cid, token)
        camps.play(table, until=lambda p: p["ply"] >= 2)
    with open_server(database_url) as srv:
        camps = Campaigns(srv)
        camps.play(table)
        data = camps.read(cid, token)
        assert data["next_game"] == 2 and [g["status"] for g in data["games"]] == ["folded"]


def test_linked_partners_share_their_questionnaire_scores(camps: Campaigns) -> None:
    a_id, a_token = camps.create("Ada", partner=True)
    b_id, b_token = camps.create("Bo", partner=True)
    code = camps.client.post(f"/api/campaigns/{a_id}/link-invites", headers=bearer(a_token)).json()["code"]
    assert camps.client.post(f"/api/campaigns/{b_id}/link", json={"code": code},
                             headers=bearer(b_token)).status_code == 200
    for cid in (a_id, b_id):  # both campaigns at their end
        stored, _ = camps.db(cid)
        state = CampaignState.from_json(stored["state"])
        state.next_game = 31
        with camps.srv.store.engine.begin() as conn:
            conn.execute(campaigns_t.update().where(campaigns_t.c.id == cid).values(state=state.to_json()))
    questions = load_pack("kyrum-demo").questionnaire["questions"]
    right = {q["id"]: q["answer"] for q in questions}
    wrong = {q["id"]: (q["answer"] + 1) % len(q["choices"]) for q in questions}
    full = sum(int(q["points"]) for q in questions)
    first = camps.client.post(f"/api/campaigns/{a_id}/questionnaire", json={"answers": right}, headers=bearer(a_token))
    assert first.status_code == 200
    assert first.json()["questionnaire"]["result"] is None  # waits for Bo's score
    assert first.json()["questionnaire"]["own_score"] == full
    second = camps.client.post(f"/api/campaigns/{b_id}/questionnaire", json={"answers": wrong}, headers=bearer(b_token))
    assert second.json()["questionnaire"]["result"]["shared_score"] == full + 0
    again = camps.client.post(f"/api/campaigns/{a_id}/questionnaire", json={"answers": {}}, headers=bearer(a_token))
    result = again.json()["questionnaire"]["result"]
    assert (result["own_score"], result["partner_score"], result["shared_score"]) == (full, 0, full)


@pytest.mark.parametrize(("path", "body", "status"), [
    ("/notes", {"text": ""}, 422),
    ("/notes", {"text": "   "}, 422),
    ("/notes", {"text": "x" * 2001}, 422),
    ("/notes", {}, 422),
    ("/comment", {"text": "two\nlines"}, 422),
    ("/comment", {"text": "fine"}, 409),  # no game finished yet
    ("/market", {"item": "t1"}, 409),  # the market opens after game 1
    ("/market", {"item": 3}, 422),
    ("/questionnaire", {"answers": {"Q1": "a"}}, 422),
    ("/questionnaire", {"answers": {}, "partner_score": 51}, 422),
    ("/link", {"code": ""}, 422),
    ("/link", {"code": "KYRLINK-nothing"}, 404),
    ("/codes", {"code": "KYR1-AAAAA"}, 409),  # a solo campaign receives no partner codes
])
def test_bad_between_games_requests_change_nothing(camps: Campaigns, path: str, body: dict[str, Any],
                                                   status: int) -> None:
    cid, token = camps.create(seed=SHORT_SEED)
    before = camps.db(cid)
    response = camps.client.post(f"/api/campaigns/{cid}{path}", json=body, headers=bearer(token))
    assert response.status_code == status, response.text
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]
    assert camps.db(cid) == before
