"""The Space Pirates page's server extension: flick trajectories, ruler previews, the fan, no secrets."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from holotable.engine import IllegalActionError, State, load
from holotable.games.space_pirates import flow
from holotable.games.space_pirates.data import CARGO_TYPES, content_for
from holotable.games.space_pirates.server import SpacePiratesExtension, compact_trajectory, fan_of, replay_flick

GAME = load("space-pirates")
IDENTITIES = (*CARGO_TYPES, "ASTEROID", "POLICE")


def _engine_rests(st: State[Any, Any]) -> list[dict[int, tuple[float, float]]]:
    return [{int(k): (v[0], v[1]) for k, v in e.data["rest"].items()}
            for e in st.log_for(None) if e.ply == st.ply and e.kind == "flick"]


def _choose(st: State[Any, Any], seat: int, rng: random.Random) -> Any:
    """A random legal action, preferring to leave the base and to play cards (more flicks and rulers)."""
    legal = list(st.legal_actions(seat))
    for verb in ("depart", "card"):
        wanted = [a for a in legal if a.verb == verb]
        if wanted:
            return rng.choice(wanted)
    return rng.choice(legal)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replayed_flicks_end_exactly_where_the_engine_put_the_tokens(seed: int) -> None:
    st = State.new(GAME, GAME.spec.make_config(2, turn_cap=12), seed, record=True)
    rng = random.Random(seed)
    flicks = 0
    while not st.is_terminal() and st.ply < 300:
        seat = st.to_move()[0]
        action = _choose(st, seat, rng)
        if action.verb == "flick":  # any angle and strength the rules allow, not only the listed sample
            weakest = content_for(st.config).constants.min_flick_strength
            action = GAME.parse_action(f"flick {rng.uniform(-180, 180)!r} {rng.uniform(weakest, 0.6)!r}")
        before = st.clone()
        st.apply(action, seat)
        replay = replay_flick(before, action)
        if action.verb != "flick":
            assert replay is None
            continue
        assert replay is not None
        tid, flicker, out = replay
        assert (tid, flicker) == (st.data.last_flick["tid"], st.data.last_flick["flicker"])
        assert _engine_rests(st) == [out.rest]
        assert out.trajectory, "the replay records the path"
        record = compact_trajectory(before, st, tid, flicker, out)
        for k, t in enumerate(record["tids"]):
            where = st.data.pos[t] if st.data.where[t] == "map" else None
            expected = [None, None] if where is None else [round(where[0], 1), round(where[1], 1)]
            assert record["final"][2 * k:2 * k + 2] == expected
        assert all(len(frame) == 2 * len(record["tids"]) for frame in record["frames"])
        flicks += 1
    assert flicks >= 3


def _two_humans(server: Any, **params: Any) -> tuple[str, dict[int, str]]:
    created = server.create("space-pirates", [{"kind": "human"}, {"kind": "human"}], seed=4,
                            params={"first_seat": 0, **params})
    tokens = {0: created["you"]["token"]}
    tokens[1] = server.join(created)
    return created["table_id"], tokens


def _play_to(server: Any, table_id: str, tokens: dict[int, str], kind: str, rng: random.Random,
             limit: int = 200) -> dict[str, Any]:
    """Play both seats (preferring departures and cards) until the decision is ``kind``; return the mover's payload."""
    for _ in range(limit):
        public = server.state(table_id)
        dec = public["view"]["decision"]
        seat = public["to_move"][0]
        mine = server.state(table_id, tokens[seat])
        if dec["kind"] == kind:
            return mine
        texts = [a["text"] for a in mine["legal"]]
        pick = next((t for t in texts if t == "depart" or t.startswith("card ")), None)
        response = server.act(table_id, tokens[seat], pick or rng.choice(texts), public["ply"])
        assert response.status_code == 200, response.text
    raise AssertionError(f"no {kind} decision within {limit} moves")


def test_every_screen_gets_the_last_flick_with_public_positions_only(server: Any) -> None:
    table_id, tokens = _two_humans(server)
    rng = random.Random(2)
    mover = _play_to(server, table_id, tokens, "flick", rng)
    seat, ply = mover["to_move"][0], mover["ply"]
    before = server.live(table_id).state.clone()
    assert server.act(table_id, tokens[seat], "flick 30.0 0.3", ply).status_code == 200
    after = server.live(table_id).state
    rests = _engine_rests(after)
    for who in (0, 1, None):
        payload = server.state(table_id, tokens.get(who) if who is not None else None)
        flick = payload["extra"]["flick"]
        assert flick["ply"] == after.ply and flick["flicker"] == seat
        assert set(flick) == {"ply", "tid", "flicker", "tids", "start", "frames", "final", "fps", "exits",
                              "turned_over"}
        on_map = {t["tid"]: t["pos"] for t in payload["view"]["tokens"]}
        for k, t in enumerate(flick["tids"]):
            if t in on_map:
                assert flick["final"][2 * k:2 * k + 2] == [round(on_map[t][0], 1), round(on_map[t][1], 1)]
        assert payload["extra"]["noise"] == {"level": "standard", "angle_sd": 3.0, "strength_sd": 0.06}
    replay = replay_flick(before, GAME.parse_action("flick 30.0 0.3"))
    assert replay is not None and rests == [replay[2].rest]


def test_extra_holds_no_hidden_identity(server: Any) -> None:
    table_id, tokens = _two_humans(server)
    rng = random.Random(5)
    for kind in ("flick", "ruler"):
        _play_to(server, table_id, tokens, kind, rng)
        for who in (0, 1, None):
            payload = server.state(table_id, tokens.get(who) if who is not None else None)
            text = json.dumps(payload["extra"])
            assert "identity" not in text
            assert not [name for name in IDENTITIES if name in text]
            hands = [cid for s, p in enumerate(payload["view"]["players"]) if s != who
                     for cid in server.live(table_id).state.data.hands[s]]
            assert not [cid for cid in hands if f'"{cid}"' in text]


def test_preview_refuses_an_illegal_ruler_with_the_rules_reason_and_changes_nothing(server: Any) -> None:
    table_id, tokens = _two_humans(server)
    mine = _play_to(server, table_id, tokens, "ruler", random.Random(3))
    seat = mine["to_move"][0]
    fan = mine["extra"]["fan"]
    assert fan["kind"] == "ruler" and fan["seat"] == seat and fan["length"] == 5.0
    # a departing first ruler: any direction under the default first_ruler=nose (the gate still decides)
    assert fan["count"] == 0 and fan["limit"] is None and fan["max"] - fan["min"] == 360.0
    live = server.live(table_id)
    assert fan == fan_of(live.state)
    before = (live.state.fingerprint(), server.store.action_count(table_id), server.state(table_id, tokens[seat]))
    backwards = f"ruler {fan['heading'] + 135.0!r}"
    response = server.client.post(f"/api/tables/{table_id}/preview", json={"action": backwards},
                                  headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["legal"] is False
    with pytest.raises(IllegalActionError) as refused:
        live.state.clone().apply(backwards, seat)
    assert body["reason"] == str(refused.value) and body["rule"] == refused.value.rule
    legal = next(a["text"] for a in mine["legal"] if a["text"].startswith("ruler "))
    response = server.client.post(f"/api/tables/{table_id}/preview", json={"action": legal},
                                  headers={"Authorization": f"Bearer {tokens[seat]}"})
    body = response.json()
    assert body["legal"] is True and len(body["start"]) == 2 and len(body["end"]) == 2
    assert body["start"] == pytest.approx(fan["origin"])
    other = tokens[1 - seat]
    not_yours = server.client.post(f"/api/tables/{table_id}/preview", json={"action": legal},
                                   headers={"Authorization": f"Bearer {other}"}).json()
    assert not_yours == {"legal": False, "reason": "it is not your turn", "rule": None}
    refusals = [
        ({"action": legal}, {}, 403),
        ({"action": legal}, {"Authorization": "Bearer forged"}, 403),
        ({"action": "fly away"}, {"Authorization": f"Bearer {tokens[seat]}"}, 422),
        ({"action": "flick 10.0 0.5"}, {"Authorization": f"Bearer {tokens[seat]}"}, 422),
        ({}, {"Authorization": f"Bearer {tokens[seat]}"}, 422),
    ]
    for body_, headers, status in refusals:
        response = server.client.post(f"/api/tables/{table_id}/preview", json=body_, headers=headers)
        assert response.status_code == status, (body_, response.text)
        assert response.json()["detail"]
    after = (live.state.fingerprint(), server.store.action_count(table_id), server.state(table_id, tokens[seat]))
    assert after == before


def test_the_catalog_lists_public_card_data(server: Any) -> None:
    table_id, _ = _two_humans(server)
    catalog = server.client.get(f"/api/tables/{table_id}/catalog").json()  # the one catalog route of every game
    assert len(catalog["cards"]) == 36
    assert catalog["cards"]["E3-2"]["value"] == 3 and catalog["sizes"]["token_radius"] == 1.25
    other = server.create("captain-black", [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    assert server.client.get(f"/api/tables/{other['table_id']}/catalog").json() == {}
    assert server.client.get(f"/api/tables/{table_id}/space-pirates/catalog").status_code == 404  # no second route
    assert SpacePiratesExtension.game == "space-pirates"


def _moving(first_ruler: str) -> Any:
    """Red in open space heading east, three rulers to lay (the arrangement of test_sp_first_ruler)."""
    st = GAME.new_state(players=2, seed=1, first_seat=0, dexterity="precise", first_ruler=first_ruler)
    st.arrange({"layout": {"field": [60, 60], "bases": [["B1", 30, 6.5, 90], ["B2", 53.5, 30, 180]],
                           "elements": [["E09", 29.0, 30, 0]], "inhabited": 2},
                "ships": [{"center": [20, 30], "heading": 0}, {"center": [55, 55], "heading": 0}],
                "hands": [["E3-1"], ["E1-1"]], "start": {"move": 3}})
    return st


@pytest.mark.parametrize("first_ruler", ["nose", "within_90"])
def test_the_fan_is_the_sector_the_rules_allow(first_ruler: str) -> None:
    """SP-MOVE-02/03: the fan is read from flow.turn_limit. A first ruler: the whole turn under ``nose``,
    90 degrees either side of the heading under ``within_90``; a later ruler: 90 degrees either side of
    the previous one under both. assumed:SP-AMB-04"""
    st = _moving(first_ruler)
    fan = fan_of(st)
    assert fan is not None and fan["kind"] == "ruler" and fan["count"] == 0
    assert fan["origin"] == [21.5, 30.0]
    if first_ruler == "nose":
        assert flow.turn_limit(st.data, GAME.decision(st)) is None
        assert fan["limit"] is None and fan["heading"] == 0.0
        assert (fan["min"], fan["max"]) == (-180.0, 180.0)
    else:
        assert fan["limit"] == fan["heading"] == 0.0 and (fan["min"], fan["max"]) == (-90.0, 90.0)
    st.apply("ruler 90.0")
    fan = fan_of(st)
    assert fan is not None and fan["count"] == 1 and fan["left"] == 2
    assert fan["limit"] == fan["heading"] == 90.0 and (fan["min"], fan["max"]) == (0.0, 180.0)


def test_a_replay_draws_a_flick_where_it_was_played_and_no_path_elsewhere(server: Any) -> None:
    table_id, tokens = _two_humans(server)
    mover = _play_to(server, table_id, tokens, "flick", random.Random(2))
    seat, ply = mover["to_move"][0], mover["ply"]
    assert server.act(table_id, tokens[seat], "flick 30.0 0.3", ply).status_code == 200
    live = server.state(table_id, tokens[seat])["extra"]["flick"]
    headers = {"Authorization": f"Bearer {tokens[seat]}"}
    at_flick = server.client.get(f"/api/tables/{table_id}/replay", params={"ply": ply + 1}, headers=headers).json()
    assert at_flick["extra"]["flick"] == live  # the same path the live table animated
    before = server.client.get(f"/api/tables/{table_id}/replay", params={"ply": ply}, headers=headers).json()
    assert before["extra"]["flick"] is None or before["extra"]["flick"]["ply"] < ply + 1
    start = server.client.get(f"/api/tables/{table_id}/replay", params={"ply": 0}, headers=headers).json()
    assert start["extra"]["flick"] is None
