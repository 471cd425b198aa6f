"""The lobby: games, creating tables, invitations, spectators, listings, rematches; seat tokens."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from holotable.engine import load, registry
from holotable.server.storage import seats_t, tables_t
from holotable.server.tokens import hash_token

HUMANS_AND_BOT = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]


def test_games_lists_every_registered_game_with_levels_and_params(server: Any) -> None:
    games = server.client.get("/api/games").json()
    assert [g["name"] for g in games] == [s.name for s in registry.specs()]
    for game, spec in zip(games, registry.specs(), strict=True):
        assert (game["min_players"], game["max_players"]) == (spec.min_players, spec.max_players)
        assert [p["name"] for p in game["params"]] == [p.name for p in spec.params]
        assert [(p["default"], p["table_default"]) for p in game["params"]] == [
            (p.to_dict()["default"], p.to_dict()["table_default"]) for p in spec.params]
        assert [lv["name"] for lv in game["levels"]] == ["easy", "normal", "hard"]
        assert game["levels"][0]["agent"] == "random"
        assert game["levels"][2]["agent"].startswith("ismcts") and game["levels"][2]["think_seconds"] > 0
        assert {"random", "ismcts"} <= {a["name"] for a in game["agents"]}
        # The table page's renderer module: the `web` role of the game's manifest (each game has its own).
        assert game["web"] == registry.manifest(spec.name).web == spec.name
        # What the game is, for a newcomer choosing one in the lobby: the game's own declaration.
        assert game["description"] == spec.description and len(spec.description) > 30


def test_games_give_each_option_and_choice_in_plain_words(server: Any) -> None:
    # The lobby shows these; the code names (`name`, `choices`) stay what the API takes.
    for game in server.client.get("/api/games").json():
        spec = load(game["name"]).spec
        for shown, param in zip(game["params"], spec.params, strict=True):
            assert shown["label"] == param.shown_label and "_" not in shown["label"]
            assert shown["choices"] == (None if param.choices is None else list(param.choices))
            assert shown["choice_labels"] == param.shown_choices
            assert all("_" not in words for words in shown["choice_labels"] or ())
    tie = next(p for g in server.client.get("/api/games").json() if g["name"] == "buccaneers"
               for p in g["params"] if p["name"] == "tie_rule")
    assert dict(zip(tie["choices"], tie["choice_labels"], strict=True))["ships_first"] == "Spaceship owners rank first"


def test_create_join_spectate_and_list(open_server: Any, database_url: str) -> None:
    with open_server(database_url) as srv:
        created = srv.create("captain-black", HUMANS_AND_BOT, name="Ann")
        table_id, creator = created["table_id"], created["you"]["token"]
        assert created["you"]["seat"] == 0
        assert created["invite_url"] == f"/t/{table_id}?invite={created['invite']}"

        listed = srv.client.get("/api/tables", params={"status": "open"}).json()
        assert [t["table_id"] for t in listed] == [table_id]
        assert listed[0]["seats"][0] | {"claimed": True} == listed[0]["seats"][0]
        assert listed[0]["seats"][0]["name"] == "Ann"
        assert srv.client.get("/api/tables", params={"status": "running"}).json() == []
        # While a human seat is free the game waits.
        assert srv.act(table_id, creator, "draw 1").status_code == 409

        wrong = srv.client.post(f"/api/tables/{table_id}/join", json={"invite": "not-it"})
        assert wrong.status_code == 403 and "invitation" in wrong.json()["detail"]
        joined = srv.client.post(f"/api/tables/{table_id}/join", json={"invite": created["invite"], "name": "Bo"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        full = srv.client.post(f"/api/tables/{table_id}/join", json={"invite": created["invite"]})
        assert full.status_code == 409 and full.json()["detail"]

        running = srv.client.get("/api/tables", params={"status": "running"}).json()
        assert [t["table_id"] for t in running] == [table_id]
        assert srv.client.get(f"/api/tables/{table_id}").json()["status"] == "running"

        spectator = srv.state(table_id)
        assert spectator["seat"] is None and spectator["legal"] == []
        assert spectator["view"] == srv.live(table_id).state.view(None)
        assert "invite" not in spectator  # only a seated player may see the invitation again

        # Only hashes of the tokens are stored.
        with srv.store.engine.connect() as conn:
            rows = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id)).mappings().all()
            stored = " ".join(str(v) for row in rows for v in row.values())
            stored += " ".join(str(v) for v in conn.execute(select(tables_t)).mappings().one().values())
        assert creator not in stored and joined.json()["token"] not in stored
        assert {r["seat"]: r["token_hash"] for r in rows if r["kind"] == "human"} == {
            0: hash_token(creator), 1: hash_token(joined.json()["token"])}


def test_an_invited_player_sets_their_name_and_it_survives_a_restart(open_server: Any, sqlite_url: str) -> None:
    with open_server(sqlite_url) as srv:
        created = srv.create("captain-black", [{"kind": "human"}, {"kind": "human"}], name="Ann")
        table_id = created["table_id"]
        token = srv.join(created)  # by the link, without a name
        assert srv.client.get(f"/api/tables/{table_id}").json()["seats"][1]["name"] is None
        headers = {"Authorization": f"Bearer {token}"}
        named = srv.client.post(f"/api/tables/{table_id}/name", json={"name": "  Bo   Diddley "}, headers=headers)
        assert named.status_code == 200 and named.json() == {"seat": 1, "name": "Bo Diddley"}
        before = srv.live(table_id).state.fingerprint()
        for body, auth, status in [({"name": ""}, headers, 422), ({"name": "x" * 41}, headers, 422),
                                   ({"name": "   "}, headers, 422), ({"name": "Eve"}, {}, 403),
                                   ({"name": "Eve"}, {"Authorization": "Bearer forged"}, 403),
                                   ({"name": "Eve", "seat": 0}, headers, 422)]:
            refused = srv.client.post(f"/api/tables/{table_id}/name", json=body, headers=auth)
            assert refused.status_code == status, (body, refused.text)
            assert isinstance(refused.json()["detail"], (str, list))
        assert srv.live(table_id).state.fingerprint() == before
    with open_server(sqlite_url) as srv:
        seats = srv.client.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["name"] for s in seats] == ["Ann", "Bo Diddley"]


def test_a_token_acts_only_for_its_own_seat_at_its_own_table(server: Any) -> None:
    first = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    other = server.create("captain-black", [{"kind": "human"}, {"kind": "bot"}])
    table_id, token0 = first["table_id"], first["you"]["token"]
    token1 = server.join(first)
    assert server.state(table_id, token1)["seat"] == 1
    # Seat 1 cannot play seat 0's turn, a token from another table holds no seat here, nor does garbage.
    assert server.act(table_id, token1, "draw 1").status_code == 422
    for token in (other["you"]["token"], "garbage", None):
        response = server.act(table_id, token, "draw 1")
        assert response.status_code == 403 and response.json()["detail"]
    bad_header = server.client.get(f"/api/tables/{table_id}/state", headers={"Authorization": "Basic xyz"})
    assert bad_header.status_code == 403
    assert server.live(table_id).state.ply == 0
    assert server.act(table_id, token0, "draw 1").status_code == 200


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"game": "no-such-game", "players": 2}, "no-such-game"),
        ({"game": "captain-black", "players": 9}, "2-4 players"),
        ({"game": "captain-black", "players": 2, "params": {"max_handful": "lots"}}, "max_handful"),
        ({"game": "captain-black", "players": 2, "params": {"no_such": 1}}, "no_such"),
        ({"game": "captain-black", "players": 2, "seats": [{"kind": "human"}]}, "2 seats"),
        ({"game": "captain-black", "players": 2, "seats": [{"kind": "human", "level": "easy"}, {"kind": "bot"}]},
         "human"),
        ({"game": "captain-black", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "agent": "nobody"}]},
         "nobody"),
        ({"game": "captain-black", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "agent": "ismcts:x"}]},
         "key=value"),  # a malformed spec was a 500
        ({"game": "captain-black", "players": 2,
          "seats": [{"kind": "human"}, {"kind": "bot", "agent": "ismcts:time_limit=3600"}]}, "at most 10"),
        ({"game": "captain-black", "players": 2,
          "seats": [{"kind": "human"}, {"kind": "bot", "agent": "ismcts:time_limit=x"}]}, "time_limit"),
        ({"game": "captain-black", "players": 2, "seats": [{"kind": "robot"}, {"kind": "bot"}]}, "kind"),
        ({"game": "captain-black", "players": 2, "clock": {"mode": "per_move", "seconds": 0}}, "seconds"),
        ({"game": "space-pirates", "players": 2, "params": {"data": {"constants.physics.dt": 2e-6}}},
         "takes a number from 0.0005 to 0.02"),  # one flick took 10 s and held up the server
        ({"game": "captain-black", "players": 2, "params": {"data": {"components.gold_coins": 10**9}}},
         "takes a number from 1 to 200"),
        ({"game": "captain-black", "players": 2, "surprise": True}, "surprise"),
    ],
)
def test_bad_tables_are_refused_with_the_reason_and_nothing_is_stored(
        server: Any, body: dict[str, Any], reason: str) -> None:
    response = server.client.post("/api/tables", json=body)
    assert response.status_code == 422
    assert reason in response.json()["detail"]
    assert server.client.get("/api/tables").json() == []


def test_rematch_keeps_game_options_and_seats(server: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]
    created = server.create("captain-black", seats, params={"max_handful": 3},
                            clock={"mode": "per_game", "seconds": 900})
    table_id, tokens = created["table_id"], {0: created["you"]["token"]}
    tokens[1] = server.join(created)
    assert server.client.post(f"/api/tables/{table_id}/rematch",
                              headers={"Authorization": f"Bearer {tokens[1]}"}).status_code == 409  # not over yet
    end = server.play_until(table_id, tokens, lambda p: p["status"] == "finished")
    assert end["outcome"] is not None and end["status"] == "finished"
    assert server.client.get("/api/tables", params={"status": "finished"}).json()[0]["table_id"] == table_id

    again = server.client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert again.status_code == 200, again.text
    new_id, you = again.json()["table_id"], again.json()["you"]
    assert new_id != table_id and you["seat"] == 1
    old, new = server.live(table_id), server.live(new_id)
    assert new.record.params == old.record.params and new.record.params["max_handful"] == 3
    assert (new.record.clock_mode, new.record.clock_seconds) == ("per_game", 900)
    assert [(s.kind, s.level, s.agent) for s in new.seats] == [(s.kind, s.level, s.agent) for s in old.seats]
    assert old.record.rematch_id == new_id and new.record.rematch_of == table_id
    assert server.state(table_id, tokens[0])["rematch_id"] == new_id
    # Asking twice does not take the other player's seat at the rematch (it used to: any free seat).
    twice = server.client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert twice.status_code == 409 and "Seat 2 at the rematch is already taken" in twice.json()["detail"]
    assert not server.live(new_id).seats[0].claimed
    # The other player follows into the same new table and keeps their seat.
    follow = server.client.post(f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert follow.json()["table_id"] == new_id and follow.json()["you"]["seat"] == 0
    assert server.live(new_id).seats[0].name == "Ann"
    assert server.client.get(f"/api/tables/{new_id}").json()["status"] == "running"
    spectator = server.client.post(f"/api/tables/{table_id}/rematch")
    assert spectator.status_code == 403


def test_only_a_public_table_shows_its_invitation_in_the_lobby(server: Any) -> None:
    public = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], public=True)
    private = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}])
    listed = {t["table_id"]: t for t in server.client.get("/api/tables").json()}
    assert listed[public["table_id"]]["invite"] == public["invite"] and listed[public["table_id"]]["public"]
    assert listed[private["table_id"]]["invite"] is None
    server.join(public)  # now full: nothing left to offer
    assert server.client.get(f"/api/tables/{public['table_id']}").json()["invite"] is None


def test_the_catalog_is_built_from_the_tables_config(server: Any) -> None:
    bucc = server.create("buccaneers", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    catalog = server.client.get(f"/api/tables/{bucc['table_id']}/catalog").json()
    view = server.state(bucc["table_id"], bucc["you"]["token"])["view"]
    assert view["hand"] and set(catalog["cards"]) >= set(view["hand"])  # every card in hand is described
    assert view["black_hole"]["id"] in catalog["black_holes"]
    captain = server.create("captain-black", [{"kind": "human"}, {"kind": "bot"}])
    assert server.client.get(f"/api/tables/{captain['table_id']}/catalog").json() == {}
    assert server.client.get("/api/tables/nowhere/catalog").status_code == 404


@pytest.mark.parametrize("pack", ["/etc", "../../..", "~/packs", "a/b", "etc", "tests"])
def test_a_remote_player_cannot_point_the_server_at_its_files(server: Any, pack: str) -> None:
    response = server.client.post("/api/tables", json={"game": "kyrum", "players": 1, "params": {"pack": pack}})
    assert response.status_code == 422 and "path" in response.json()["detail"]


def test_tables_with_people_take_the_games_human_table_defaults(server: Any) -> None:
    param = load("space-pirates").spec.param("turn_cap")
    assert param.table_value != param.default  # else this test would prove nothing
    people = server.create("space-pirates", [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    bots = server.create("space-pirates", [{"kind": "bot", "level": "easy"}] * 2)
    chosen = server.create("space-pirates", [{"kind": "human"}, {"kind": "bot"}], params={"turn_cap": 50})
    assert server.live(people["table_id"]).config["turn_cap"] == param.table_value
    assert server.live(bots["table_id"]).config["turn_cap"] == param.default
    assert server.live(chosen["table_id"]).config["turn_cap"] == 50
