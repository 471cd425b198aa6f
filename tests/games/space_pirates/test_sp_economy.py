"""Bases, energy, damage, money, victory, flick consequences, adventures and hidden information
(spec §3.3-3.5, §3.11-3.16; T-SP-06..11, 20..29, 38, 39, 41, 42)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import holotable
from holotable.engine import IllegalActionError, Rng
from holotable.games.space_pirates import flow
from holotable.games.space_pirates import geometry as geo
from holotable.games.space_pirates.physics import Contact, FlickOutcome

GAME = holotable.load("space-pirates")
B1 = ["B1", 30, 6.5, 90]
B2 = ["B2", 53.5, 30, 180]
FAR = {"center": [55, 55], "heading": 0}


def make(arr: dict[str, Any], players: int = 2, **params: Any) -> Any:
    st = GAME.new_state(players=players, seed=1, first_seat=0, dexterity="precise", **params)
    layout = {"field": [60, 60], "bases": [B1, B2], "elements": [], "inhabited": 2}
    st.arrange({"layout": layout, **arr})
    return st


def kind(st: Any) -> str:
    return str(GAME.decision(st).kind)


def points(st: Any, seat: int) -> int:
    return sum(GAME.content.card(c).value for c in st.data.hands[seat])


def at_base(**extra: Any) -> Any:
    arr = {"ships": [{"base": 0}, FAR], "start": {"base": True}, **extra}
    return make(arr)


def test_T_SP_20_recharge_at_unowned_base() -> None:
    """SP-ENERGY-03, SP-ENERGY-04, SP-ENERGY-05, SP-ENERGY-06, SP-ENERGY-07, SP-ENERGY-09, SP-BASE-06, SP-BASE-01
    (T-SP-20). assumed:SP-AMB-25"""
    st = at_base(hands=[["E3-1", "E2-1"], []], mc=[6, 10])
    while kind(st) != "base_recharge":
        st.apply("skip")
    bank = st.data.bank
    st.apply("recharge 4")
    d = st.data
    assert "E3-1" in d.discard[3] and "E2-1" in d.discard[2] and d.mc[0] == 2 and d.bank == bank + 4
    for v in (5, 5, 5, 4):
        st.apply(f"take {v}")
    with pytest.raises(IllegalActionError):
        st.apply("take 2")  # 21 points
    st.apply("take 1")
    assert points(st, 0) == 20


def test_T_SP_21_22_24_recharge_payments() -> None:
    """SP-ENERGY-06, SP-MONEY-03 (T-SP-21, T-SP-22, T-SP-24). assumed:SP-AMB-26"""
    st = at_base(hands=[[], []], mc=[6, 10], owner={"0": 1})
    while kind(st) != "base_recharge":
        st.apply("skip")
    st.apply("recharge 4")
    assert st.data.mc == [2, 14]
    own = at_base(hands=[[], []], mc=[6, 10], owner={"0": 0})
    while kind(own) != "base_recharge":
        own.apply("skip")
    assert [str(a) for a in own.legal_actions(0)] == ["recharge 0", "skip"]
    own.apply("recharge 0")
    for v in (5, 5, 5):
        own.apply(f"take {v}")
    assert points(own, 0) == 15 and own.data.mc[0] == 6 and kind(own) != "base_take"
    poor = at_base(hands=[[], []], mc=[3, 10])
    while kind(poor) != "base_recharge":
        poor.apply("skip")
    assert [str(a) for a in poor.legal_actions(0)] == ["recharge 0", "recharge 1", "recharge 2", "recharge 3", "skip"]


def test_T_SP_23_reshuffle_only_empty_stacks() -> None:
    """SP-ENERGY-05, SP-ENERGY-07, SP-ENERGY-08 (T-SP-23). assumed:SP-AMB-27"""
    st = at_base(hands=[["E4-1"], []], mc=[5, 10], draw={"3": ["E3-1"]},
                 discard={"5": ["E5-1", "E5-2"], "1": ["E1-1"]})
    while kind(st) != "base_recharge":
        st.apply("skip")
    st.apply("recharge 4")
    d = st.data
    assert sorted(len(d.draw[v]) for v in range(1, 6)) == [0, 1, 1, 1, 2]
    assert len(d.draw[2]) == 0 and d.mc[0] == 1
    for v in (5, 5, 4, 3, 1):
        st.apply(f"take {v}")
    assert points(st, 0) == 18 and kind(st) != "base_take"


def test_T_SP_25_26_buy_order_and_single_base() -> None:
    """SP-BASE-01, SP-BASE-02, SP-BASE-03, SP-BASE-08 (T-SP-25, T-SP-26). assumed:SP-AMB-47"""
    st = at_base(mc=[15, 10], holds=[["ORE"], []])
    assert kind(st) == "base_buy"
    st.apply("buy")
    d = st.data
    assert d.mc[0] == 0 and d.owner[0] == 0 and d.owned[0] == 0 and d.bank == 195 - 10 - 0
    assert kind(st) == "base_look"
    st.apply("look")
    assert 0 in d.seen_markets[0]
    assert kind(st) == "base_sell"
    rich = at_base(mc=[19, 10], owner={"1": 0})
    assert kind(rich) != "base_buy"  # SP-BASE-08: already owns a base
    skipped = at_base(mc=[15, 10], holds=[["ORE"], []])
    skipped.apply("skip")
    skipped.apply("skip")
    skipped.apply("done")
    assert kind(skipped) == "base_recharge"  # buy is never offered again


def test_T_SP_27_28_29_victory_immediately() -> None:
    """SP-WIN-01, SP-WIN-02, SP-WIN-03, SP-TURN-12, SP-BASE-04, SP-BASE-05 (T-SP-27..29). assumed:SP-AMB-31
    assumed:SP-AMB-46"""
    st = at_base(mc=[18, 10], owner={"0": 0}, market={"0": "M01"}, holds=[["SPICE"], []])
    st.apply("skip")
    st.apply(f"sell {st.data.holds[0][0]}")
    assert st.data.mc[0] == 21 and st.is_terminal() and st.to_move() == ()
    assert st.outcome().winners == (0,) and st.data.market_up[0]
    other = at_base(mc=[10, 17], owner={"0": 1}, hands=[[], []])
    while kind(other) != "base_recharge":
        other.apply("skip")
    other.apply("recharge 4")
    assert other.is_terminal() and other.outcome().winners == (1,)
    long = make({"ships": [{"base": 0}, FAR, FAR], "mc": [39, 10, 10], "owner": {"0": 0},
                 "holds": [["ORE"], [], []], "market": {"0": "M01"}, "start": {"base": True}}, players=3,
                victory="long")
    long.data.ships[2].center = (40.0, 40.0)
    assert not long.is_terminal()
    long.apply("skip")
    long.apply(f"sell {long.data.holds[0][0]}")
    assert long.data.mc[0] == 41 and long.is_terminal()


def test_T_SP_41_bank_pays_what_it_has() -> None:
    """SP-MONEY-04, SP-MONEY-01, SP-MONEY-02 (T-SP-41). assumed:SP-AMB-29 assumed:SP-AMB-30"""
    st = at_base(mc=[100, 92], market={"0": "M01"}, holds=[["MEDS"], []])
    assert st.data.bank == 3
    st.apply("skip")  # buy
    st.apply("skip")  # look
    st.apply(f"sell {st.data.holds[0][0]}")
    assert st.data.mc[0] == 103 and st.data.bank == 0 and sum(st.data.mc) + st.data.bank == 195


def test_T_SP_11_damage_payment_choices() -> None:
    """SP-DAMAGE-01, SP-DAMAGE-02, SP-DAMAGE-03, SP-DAMAGE-05, SP-DAMAGE-06 (T-SP-11). assumed:SP-AMB-38"""
    st = make({"ships": [{"center": [20, 20], "heading": 0}, FAR, FAR], "holds": [["ORE", "TECH"], [], []],
               "hands": [["E1-1", "E2-1", "E3-1"], [], []], "arrested": [0], "start": {"damage": 0}}, players=3)
    st.data.ships[2].center = (40.0, 40.0)
    d = st.data
    legal = sorted(str(a) for a in st.legal_actions(0))
    assert legal == sorted([f"pay cargo {t}" for t in d.holds[0]] + ["pay card 1", "pay card 2"])
    mc, pos = list(d.mc), d.ships[0].center
    st.apply("pay card 1")
    assert kind(st) == "blind_pick" and st.to_move() == (1,)
    assert [str(a) for a in st.legal_actions(1)] == ["pick 0", "pick 1", "pick 2"]
    st.apply("pick 2", 1)
    assert len(d.hands[0]) == 2 and sum(len(d.discard[v]) for v in range(1, 6)) == 1
    assert d.mc == mc and d.ships[0].center == pos and d.ships[0].arrested
    nothing = make({"ships": [{"center": [20, 20], "heading": 0}, FAR], "hands": [[], []], "start": {"damage": 0}})
    assert nothing.data.active == 1  # no decision, no effect


def test_SP_DAMAGE_04_card_in_play_is_safe() -> None:
    """SP-DAMAGE-04, SP-TURN-06, SP-TURN-09: the played card is not in the hand and is discarded after the move."""
    st = make({"ships": [{"center": [30, 30], "heading": 0}, FAR], "hands": [["E1-9"], ["E1-1"]]})
    st.apply("card E1-9")
    assert st.data.in_play == "E1-9" and st.data.hands[0] == []
    assert damage_options_empty(st)
    assert st.view(1)["in_play"] == "E1-9"


def damage_options_empty(st: Any) -> bool:
    return flow.damage_options(st.data, 0) == []


def scripted(st: Any, tid: int, flicker: int, out: FlickOutcome, cause: str = "FLICK") -> None:
    ctx = flow.Ctx(st, GAME.content)
    flow.apply_flick_outcome(ctx, tid, flicker, out, cause)
    flow.advance(ctx)


def one_token(identity: str, pos: list[float], **arr: Any) -> tuple[Any, int]:
    st = make({"ships": [{"center": [20, 20], "heading": 0}, {"center": [40, 40], "heading": 0}],
               "tokens": [{"identity": identity, "pos": pos}], "hands": [["E1-1", "E1-2"], ["E1-3", "E1-4"]],
               "holds": [[], ["ORE"]], **arr})
    tid = next(t for t, w in enumerate(st.data.where) if w == "map")
    return st, tid


def test_T_SP_06_exit_put_back_and_penalty() -> None:
    """SP-FLICK-04, SP-FLICK-06, SP-FLICK-13 (T-SP-06). assumed:SP-AMB-15 assumed:SP-AMB-19"""
    st, t = one_token("ORE", [50, 22])
    scripted(st, t, 1, FlickOutcome({}, {t: (60.0, 22.0)}, [], set()))
    assert st.data.pos[t] == (55.0, 22.0)
    assert kind(st) == "damage_pay" and st.to_move() == (1,)


def test_T_SP_07_08_turned_over_revealed_one_penalty() -> None:
    """SP-FLICK-04, SP-FLICK-05, SP-FLICK-07, SP-FLICK-08, SP-INFO-01 (T-SP-07, T-SP-08).
    assumed:SP-AMB-11 assumed:SP-AMB-13 assumed:SP-AMB-14 assumed:SP-AMB-16 assumed:SP-AMB-45"""
    st, t = one_token("SPICE", [30, 30])
    scripted(st, t, 1, FlickOutcome({t: (31.0, 33.0)}, {}, [], {t}))
    d = st.data
    assert d.known[t] == 3 and not d.open[t] and d.pos[t] == (31.0, 33.0)
    assert st.view(0)["tokens"][0]["identity"] == "SPICE"
    st2, t2 = one_token("SPICE", [30, 30])
    contacts = [Contact(0.1, t2, "element", "E09", 50.0), Contact(0.2, t2, "token", "5", 50.0)]
    scripted(st2, t2, 1, FlickOutcome({}, {t2: (60.0, 30.0)}, contacts, {t2}))
    assert kind(st2) == "damage_pay"
    st2.apply(f"pay cargo {st2.data.holds[1][0]}", 1)
    assert st2.data.stack.top.kind != "damage_pay" and st2.data.active == 0  # exactly one penalty


def test_T_SP_09_hidden_token_touches_a_ship() -> None:
    """SP-FLICK-09, SP-INFO-01 (T-SP-09). assumed:SP-AMB-10 assumed:SP-AMB-09"""
    st, t = one_token("ASTEROID", [30, 30])
    scripted(st, t, 1, FlickOutcome({t: (22.0, 22.0)}, {}, [Contact(0.1, t, "ship", "0", 80.0)], set()))
    assert st.data.open[t] and kind(st) == "blind_pick"
    for ident in ("ORE", "POLICE"):
        st, t = one_token(ident, [30, 30])
        scripted(st, t, 1, FlickOutcome({t: (22.0, 22.0)}, {}, [Contact(0.1, t, "ship", "0", 80.0)], set()))
        d = st.data
        assert d.known[t] == 1 and not d.open[t] and d.active == 0 and kind(st) != "blind_pick"
        assert st.view(0)["tokens"][0]["identity"] == ident and st.view(1)["tokens"][0]["identity"] is None


def test_T_SP_10_open_asteroid_hits_and_penalty() -> None:
    """SP-FLICK-10, SP-FLICK-11, SP-FLICK-13 (T-SP-10): flicker 1 (target) + 1 (penalty), the other 1."""
    st, t = one_token("ASTEROID", [30, 30])
    st.data.open[t] = True
    contacts = [Contact(0.1, t, "element", "E09", 90.0), Contact(0.2, t, "ship", "1", 70.0),
                Contact(0.25, t, "ship", "1", 30.0), Contact(0.3, t, "ship", "0", 50.0)]
    scripted(st, t, 1, FlickOutcome({t: (33.0, 33.0)}, {}, contacts, set()))
    damage = [task for task in st.data.stack if task.kind in ("damage", "damage_pay", "blind_pick")]
    seats = [task.victim if task.kind == "blind_pick" else task.seat for task in damage]
    assert sorted(seats) == [0, 1, 1]


def test_SP_FLICK_12_gate_hit_counts_for_docked_ship() -> None:
    """SP-FLICK-12: a touch on an occupied gate hits the nearest docked ship. assumed:SP-AMB-62"""
    st = make({"ships": [{"center": [20, 40], "heading": 0}, {"base": 0}],
               "tokens": [{"identity": "ORE", "pos": [31, 12]}]})
    t = next(t for t, w in enumerate(st.data.where) if w == "map")
    scripted(st, t, 0, FlickOutcome({t: (31.0, 9.0)}, {}, [Contact(0.1, t, "base", "0", 80.0, (31.5, 6.5))], set()))
    assert st.data.known[t] & 2


def test_T_SP_38_39_adventures_with_nothing_to_do_and_neighbours() -> None:
    """SP-ADV-FLICK-01, SP-ADV-AST-01, SP-ADV-NEWR-01, SP-ADV-NEWL-01, SP-FLICK-02, SP-TURN-07 (T-SP-38, 39).
    assumed:SP-AMB-42 assumed:SP-AMB-43 assumed:SP-AMB-44 assumed:SP-AMB-56"""
    st = make({"ships": [{"center": [30, 30], "heading": 0}, FAR], "hands": [["E1-6", "E1-5"], ["E1-1"]]})
    st.apply("card E1-6")  # FLICK + ASTEROID with no tokens: nothing happens
    assert kind(st) == "choose_adv"
    st.apply("adv FLICK")
    assert kind(st) == "ruler"
    st = make({"ships": [{"center": [30, 30], "heading": 0}, FAR], "hands": [["E1-5"], ["E1-1"]]})
    st.apply("card E1-5")
    st.apply("adv NEW_RIGHT")
    assert kind(st) == "place" and st.to_move() == (0,)
    tid = GAME.decision(st).tid
    assert st.view(0)["transit"][0]["identity"] is not None and st.view(1)["transit"][0]["identity"] is None
    st.apply("place 10.0 10.0")
    assert kind(st) == "flick" and st.to_move() == (1,)  # 2 players: the right neighbour is the other
    st.apply("flick 90.0 0.1", 1)  # the weakest flick the rules accept (SP-AMB-55)
    while kind(st) != "place":
        st.apply(st.legal_actions(st.to_move()[0])[0], st.to_move()[0])
    assert st.to_move() == (0,) and GAME.decision(st).tid != tid
    st.apply("place 50.0 10.0")
    assert kind(st) == "flick" and st.to_move() == (1,)


def test_T_SP_42_stay_and_depart_and_dock_with_rulers_left() -> None:
    """SP-TURN-05, SP-TURN-10, SP-TURN-13, SP-TURN-03, SP-TURN-01, SP-TURN-02 (T-SP-42). assumed:SP-AMB-24
    assumed:SP-AMB-06 assumed:SP-AMB-08 assumed:SP-AMB-37 assumed:SP-AMB-64"""
    st = make({"ships": [{"base": 0}, FAR], "hands": [["E5-1"], ["E1-1"]], "mc": [3, 10]})
    assert kind(st) == "turn_mode"
    st.apply("stay")
    assert kind(st) in ("base_look", "base_recharge") and st.data.in_play is None
    st = make({"ships": [{"center": [30, 16.5], "heading": 270}, FAR], "hands": [[], ["E1-1"]],
               "start": {"move": 5}})
    st.data.in_play = "E5-2"  # the card of this move (its adventures are covered elsewhere)
    st.apply("ruler -90.0")
    st.apply("ruler -90.0")
    st.apply("dock")
    assert st.data.ships[0].base == 0 and st.data.discard[5] == ["E5-2"]
    assert kind(st) in ("base_buy", "base_look", "base_sell", "base_recharge")


def test_SP_TURN_13_docked_by_own_wind_does_not_move() -> None:
    """SP-TURN-13, SP-ADV-WIND-03: the wind docks the active ship, which then does not move."""
    st = make({"ships": [{"center": [30, 12], "heading": 0}, FAR], "hands": [["E1-9"], ["E1-1"]]})
    st.apply("card E1-9")
    st.apply("adv WIND")
    st.apply("wind -90.0")
    assert st.data.ships[0].base == 0
    while kind(st) in ("flick_target", "flick", "place"):
        st.apply(st.legal_actions(st.to_move()[0])[0], st.to_move()[0])
    assert kind(st) in ("base_look", "base_recharge", "base_buy") and st.data.discard[1] == ["E1-9"]


def test_SP_INFO_views_per_seat_and_determinize() -> None:
    """SP-INFO-01, SP-INFO-02, SP-INFO-03, SP-INFO-04, SP-INFO-05, SP-INFO-06, SP-SETUP-10.
    assumed:SP-AMB-28 assumed:SP-AMB-61 assumed:SP-AMB-39"""
    st = make({"ships": [{"base": 0}, {"base": 1}], "holds": [["ORE"], ["TECH"]],
               "tokens": [{"identity": "RELICS", "pos": [30, 30], "known": [0]}], "start": {"base": True}})
    st.data.seen_markets[0].add(0)
    v0, v1, spec = st.view(0), st.view(1), st.view(None)
    assert v0["players"][0]["hand"] is not None and v0["players"][1]["hand"] is None
    assert v1["players"][0]["hold"] is None and v1["players"][0]["hold_count"] == 1
    assert v0["tokens"][0]["identity"] == "RELICS" and v1["tokens"][0]["identity"] is None
    assert spec["tokens"][0]["identity"] is None
    assert v0["bases"][0]["market"] is not None and v1["bases"][0]["market"] is None
    assert v1["players"][0]["mc"] == 10 and v1["bank"] == 175 and "draw_sizes" in v1["energy"]
    for seat in (0, 1):
        for k in range(4):
            det = st.determinize(seat, Rng(k))
            assert det.view(seat) == st.view(seat)
            other = 1 - seat
            assert all(det.data.ident[t] in ("ORE", "SPICE", "TECH", "MEDS", "RELICS") for t in det.data.holds[other])
    changed = {tuple(st.determinize(1, Rng(k)).data.ident) for k in range(6)}
    assert len(changed) > 1


@settings(max_examples=4, deadline=None)
@given(seed=hst.integers(0, 10_000), players=hst.integers(2, 4))
def test_conservation_in_random_games(seed: int, players: int) -> None:
    """SP-MONEY-01, SP-COMP-05, SP-BASE-08, SP-ENERGY-03: 195 MC, 34 tokens and 36 cards are conserved,
    holds hold cargo only, the table stays tidy (P-S-06, P-S-09: SP-MOVE-14, SP-FLICK-06, SP-GEO-09) and
    random games end (turn cap, assumed:SP-AMB-59)."""
    st = GAME.new_state(players=players, seed=seed, turn_cap=12)
    rng = Rng(seed)
    while not st.is_terminal():
        seat = st.to_move()[0]
        st.apply(rng.choice(list(st.legal_actions(seat))), seat)
        d = st.data
        assert sum(d.mc) + d.bank == 195 and min(d.mc) >= 0 and d.bank >= 0
        assert len(d.where) == 34
        cards = sum(len(h) for h in d.hands) + sum(len(s) for s in d.draw.values())
        cards += sum(len(s) for s in d.discard.values()) + (d.in_play is not None)
        assert cards == 36
        assert all(d.ident[t] not in ("ASTEROID", "POLICE") for h in d.holds for t in h)
        assert all(d.open[t] <= (d.ident[t] == "ASTEROID") for t in range(34))
        assert sum(o is not None for o in d.owned) == sum(o is not None for o in d.owner)
        dec = GAME.decision(st)
        if dec is not None and dec.kind in ("choose_card", "turn_mode", "drift"):
            assert_table_is_tidy(d)


def assert_table_is_tidy(d: Any, tol: float = 0.05) -> None:
    """P-S-06 / P-S-09 at a turn start: tokens and ships inside the field, off elements, bases and each other."""
    lay = d.layout
    c = lay.c
    toks = d.map_tokens()
    ships = d.ship_positions()
    for t, p in toks.items():
        r = c.token_radius - tol
        assert geo.disc_inside_field(p, r, lay)
        assert not geo.disc_overlaps(p, r, lay.solid) and not geo.disc_overlaps(p, r, lay.inhabited_union)
        assert all(geo.dist(p, q) >= 2 * c.token_radius - tol for u, q in toks.items() if u != t)
        assert all(geo.dist(p, q) >= c.token_radius + c.ship_radius - tol for q in ships.values())
    for s, p in ships.items():
        r = c.ship_radius - tol
        assert geo.disc_inside_field(p, r, lay)
        assert not geo.disc_overlaps(p, r, lay.solid) and not geo.disc_overlaps(p, r, lay.inhabited_union)
        assert all(geo.dist(p, q) >= 2 * r for u, q in ships.items() if u != s)


def test_action_space_and_round_trips() -> None:
    """SP-FLICK-01, SP-MOVE-01: continuous choices have a finite legal set on the index grid; check accepts
    any valid continuous value; texts round-trip."""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "start": {"move": 2}})
    size = GAME.num_actions(st.config)
    for a in st.legal_actions(0):
        i = GAME.action_index(a)
        assert 0 <= i < size and GAME.index_action(i) == a
        assert GAME.parse_action(str(a)) == a
    st.apply("ruler 12.345")  # off-grid but legal
    assert st.data.ships[0].heading == 12.345
    assert GAME.parse_action("flick 0.1 0.3333333333333333").b == 1 / 3


def test_turn_cap_ends_without_a_winner() -> None:
    """SP-TURN-02 / assumed:SP-AMB-59: no limit in the rules; the configurable cap ends a game with no winner."""
    st = GAME.new_state(players=2, seed=3, turn_cap=3)
    rng = Rng(1)
    while not st.is_terminal():
        seat = st.to_move()[0]
        st.apply(rng.choice(list(st.legal_actions(seat))), seat)
    out = st.outcome()
    assert st.data.turn == 4 and st.data.winner is None and out.ranks == (1, 1)
    assert out.scores == tuple(float(m) for m in st.data.mc)
    assert GAME.spec.param("turn_cap").optional  # empty = unlimited


def test_alternative_flick_options() -> None:
    """SP-FLICK-04, SP-FLICK-12, SP-FLICK-06 alternatives: assumed:SP-AMB-13 assumed:SP-AMB-17 assumed:SP-AMB-62
    assumed:SP-AMB-15 - each option changes exactly its own consequence."""
    def run(**params: Any) -> Any:
        st = make({"ships": [{"center": [20, 40], "heading": 0}, {"base": 0}], "hands": [["E1-1"], ["E1-2", "E1-3"]],
                   "tokens": [{"identity": "ORE", "pos": [31, 12]}, {"identity": "TECH", "pos": [40, 40]}]}, **params)
        t0, t1 = (t for t, w in enumerate(st.data.where) if w == "map")
        contacts = [Contact(0.1, t0, "base", "0", 80.0, (31.5, 6.5)), Contact(0.2, t1, "element", "E09", 50.0)]
        scripted(st, t0, 0, FlickOutcome({t0: (31.0, 9.0), t1: (41.0, 41.0)}, {}, contacts, set()))
        return st, t0
    st, t0 = run()
    assert st.data.known[t0] & 2 and st.data.active == 0  # docked ship learns the token, no penalty
    st, t0 = run(docked_ships_immune_to_tokens=True)
    assert not st.data.known[t0] & 2
    st, _ = run(bases_are_elements=True)
    assert kind(st) == "blind_pick" and st.to_move() == (1,)  # flicker (seat 0) pays: seat 1 picks
    st, _ = run(penalty_for_pushed_tokens=True)
    assert kind(st) == "blind_pick" and st.to_move() == (1,)


def test_SP_PHYS_03_walled_border_option_keeps_tokens_on_the_table() -> None:
    """SP-PHYS-03 with the walled-border option (assumed:SP-AMB-15): the token bounces back instead of leaving."""
    import random

    from holotable.games.space_pirates.physics import PymunkFlickResolver

    lay = geo.build_layout((60.0, 60.0, (), (), 0))
    out = PymunkFlickResolver().resolve(lay, {}, {0: (30.0, 30.0)}, 0, 0.0, 1.0, random.Random(0), walled=True)
    assert out.exits == {} and any(c.kind == "wall" for c in out.contacts)
    assert 0.0 <= out.rest[0][0] <= lay.W and 0.0 <= out.rest[0][1] <= lay.H
