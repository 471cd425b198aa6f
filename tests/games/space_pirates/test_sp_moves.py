"""Rulers, captures, police, drift, docking and wind (spec §3.6-3.10, §6.4, §6.10; T-SP-12..19, 30..37)."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.engine import IllegalActionError
from holotable.games.space_pirates import geometry as geo

GAME = holotable.load("space-pirates")
B1 = ["B1", 30, 6.5, 90]
B2 = ["B2", 53.5, 30, 180]


def make(arr: dict[str, Any], players: int = 2, bases: list[Any] | None = None,
         elements: list[Any] | None = None, **params: Any) -> Any:
    st = GAME.new_state(players=players, seed=1, first_seat=0, dexterity="precise", **params)
    bl = bases if bases is not None else [B1, B2]
    layout = {"field": [60, 60], "bases": bl, "elements": elements or [], "inhabited": len(bl)}
    st.arrange({"layout": layout, **arr})
    return st


def kind(st: Any) -> str:
    return str(GAME.decision(st).kind)


FAR = {"center": [55, 55], "heading": 0}


def test_T_SP_12_example1_three_rulers_and_capture() -> None:
    """SP-MOVE-01, SP-MOVE-02, SP-MOVE-03, SP-MOVE-10, SP-CAPTURE-01, SP-CAPTURE-03, SP-GEO-03, SP-GEO-04,
    SP-COMP-02 (T-SP-12). assumed:SP-AMB-03 assumed:SP-AMB-05"""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "tokens": [{"identity": "ORE", "pos": [35, 31]}],
               "start": {"move": 3}})
    st.apply("ruler 0.0")
    st.apply("ruler 0.0")
    assert kind(st) == "ruler"  # not touched by ruler 2 (3.64 cm away)
    st.apply("ruler 0.0")
    assert kind(st) == "capture_offer"
    st.apply("capture")
    d = st.data
    assert [d.ident[t] for t in d.holds[0]] == ["ORE"]
    assert d.ships[0].center == (35.0, 30.0) and d.ships[0].heading == 0.0
    view1 = st.view(1)["players"][0]
    assert view1["hold_count"] == 1 and view1["hold"] is None  # SP-CAPTURE-03: others see only the count
    # variant: a token 1.5 beyond the flat ruler end is not a candidate
    st2 = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "tokens": [{"identity": "ORE", "pos": [38.0, 30]}],
                "start": {"move": 3}})
    for _ in range(3):
        st2.apply("ruler 0.0")
    assert kind(st2) != "capture_offer"


def test_T_SP_13_angle_limits() -> None:
    """SP-MOVE-02, SP-MOVE-03 (T-SP-13): first ruler within 90° of the heading, then within 90° of the last.
    The spec's reading of the first ruler, kept as ``first_ruler: within_90``. assumed:SP-AMB-04"""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "start": {"move": 3}}, first_ruler="within_90")
    GAME.check(st, 0, GAME.parse_action("ruler 90.0"))
    with pytest.raises(IllegalActionError) as err:
        st.apply("ruler 90.5")
    assert err.value.rule == "SP-MOVE-02"
    st.apply("ruler 0.0")
    GAME.check(st, 0, GAME.parse_action("ruler 90.0"))
    GAME.check(st, 0, GAME.parse_action("ruler -90.0"))
    with pytest.raises(IllegalActionError) as err:
        st.apply("ruler 91.0")
    assert err.value.rule == "SP-MOVE-03"


def test_T_SP_14_obstacles_field_and_ships() -> None:
    """SP-MOVE-04, SP-MOVE-05, SP-MOVE-06, SP-MOVE-08 (T-SP-14). assumed:SP-AMB-58"""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "start": {"move": 3}},
              elements=[["E09", 31.5, 30, 0]])  # square edges at x 29..34: ruler 1 ends at 26.5, ruler 2 overlaps
    st.apply("ruler 0.0")
    with pytest.raises(IllegalActionError) as err:
        st.apply("ruler 0.0")
    assert err.value.rule in ("SP-MOVE-05", "SP-MOVE-08")
    touch = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "start": {"move": 3}},
                 elements=[["E09", 29, 30, 0]])  # left edge at 26.5: ruler 1 only touches it
    touch.apply("ruler 0.0")  # ruler and end pose only touch the square: legal
    with pytest.raises(IllegalActionError) as err:
        touch.apply("ruler 0.0")
    assert err.value.rule == "SP-MOVE-05"
    lay = touch.data.layout
    assert not geo.overlaps_area(geo.ruler_rect((21.5, 30), 0.0, lay.c), lay.solid, 1e-6)
    st = make({"ships": [{"center": [55, 30], "heading": 0}, FAR], "start": {"move": 3}}, bases=[B1])
    with pytest.raises(IllegalActionError) as err:
        st.apply("ruler 0.0")
    assert err.value.rule == "SP-MOVE-04"
    st = make({"ships": [{"center": [20, 30], "heading": 0}, {"center": [29, 31], "heading": 0}],
               "start": {"move": 3}})
    probe = st.clone()
    probe.apply("ruler 0.0")
    with pytest.raises(IllegalActionError) as err:
        probe.apply("ruler 0.0")  # ruler 2 would overlap blue
    assert err.value.rule == "SP-MOVE-06"
    st.apply("ruler 90.0")  # overlapping one's own disc is fine
    assert st.data.ships[0].center == (21.5, 33.5)


def test_T_SP_15_example2_capture_two_and_dock() -> None:
    """SP-MOVE-12, SP-CAPTURE-02, SP-CAPTURE-06, SP-GEO-05, SP-GEO-12, SP-BASE-01, SP-TURN-10, SP-MOVE-13
    (T-SP-15). assumed:SP-AMB-21 assumed:SP-AMB-23"""
    st = make({"ships": [{"center": [30, 21.5], "heading": 270}, FAR],
               "tokens": [{"identity": "ORE", "pos": [30.8, 17]}, {"identity": "TECH", "pos": [29.4, 11]}],
               "start": {"move": 3}})
    st.apply("ruler -90.0")
    assert kind(st) == "capture_offer"
    st.apply("capture")
    st.apply("ruler -90.0")
    assert kind(st) == "capture_offer"
    st.apply("capture")
    st.apply("ruler -90.0")
    assert kind(st) == "dock_offer"
    st.apply("dock")
    d = st.data
    assert d.ships[0].base == 0 and d.docked[0][0] == 0
    assert sorted(d.ident[t] for t in d.holds[0]) == ["ORE", "TECH"]
    assert kind(st) in ("base_look", "base_sell", "base_buy")


def test_T_SP_16_example3_police() -> None:
    """SP-POLICE-01, SP-POLICE-02, SP-POLICE-03, SP-CAPTURE-05 (T-SP-16). assumed:SP-AMB-22"""
    st = make({"ships": [{"center": [30, 40], "heading": 90}, FAR],
               "tokens": [{"identity": "POLICE", "pos": [30.5, 44]}, {"identity": "ORE", "pos": [34, 47]}],
               "start": {"move": 5}})
    st.apply("ruler 90.0")
    st.apply("capture")
    d = st.data
    assert d.ships[0].arrested and d.police[0] is not None
    assert st.view(1)["players"][0]["police"] == d.police[0]
    with pytest.raises(IllegalActionError) as err:
        st.apply("ruler 90.0")
    assert err.value.rule == "SP-POLICE-03"
    st.apply("ruler 0.0")
    assert kind(st) == "ruler"  # the ORE under the ruler is not offered
    assert d.holds[0] == []


def test_T_SP_35_fine_paid_waived_and_due() -> None:
    """SP-POLICE-04, SP-POLICE-05 (T-SP-35). assumed:SP-AMB-48"""
    def dock(mc: int, hold: list[str]) -> Any:
        st = make({"ships": [{"center": [30, 16.5], "heading": 270}, FAR], "arrested": [0], "mc": [mc, 10],
                   "holds": [hold, []], "owner": {"0": 1}, "start": {"move": 2}})
        st.apply("ruler -90.0")
        st.apply("ruler -90.0")
        st.apply("dock")
        return st
    st = dock(3, [])
    assert st.data.mc == [2, 11] and not st.data.ships[0].arrested and st.data.police[0] is None
    st = dock(0, ["ORE"])
    d = st.data
    assert d.ships[0].fine_due and d.ships[0].arrested
    while kind(st) != "base_sell":
        st.apply("skip")
    card = d.market[0]
    price = next(m for m in GAME.content.markets if m.id == card).prices["ORE"]
    st.apply(f"sell {d.holds[0][0]}")
    assert not d.ships[0].arrested and d.police[0] is None  # fine settled right after the sale
    assert d.mc == [price - 1, 11]
    st = dock(0, [])
    while kind(st) not in ("base_recharge",):
        st.apply(st.legal_actions(0)[-1])
    assert not st.data.ships[0].arrested and st.data.mc == [0, 10]  # waived


def test_T_SP_17_example4_wind() -> None:
    """SP-ADV-WIND-01, SP-ADV-WIND-02, SP-ADV-WIND-03, SP-ADV-WIND-04, SP-ADV-WIND-07, SP-BASE-07, SP-GEO-11
    (T-SP-17). assumed:SP-AMB-34"""
    st = make({"ships": [{"center": [30, 42], "heading": 0}, {"center": [45, 44], "heading": 0},
                         {"center": [10, 20], "heading": 0}, {"base": 0}],
               "hands": [["E1-1"], ["E1-2"], ["E1-3"], ["E1-4"]], "start": {"wind": True}}, players=4,
              elements=[["E09", 30, 50, 0], ["E13", 45, 50, 0]])
    st.apply("wind 90.0", 0)
    d = st.data
    assert d.ships[0].center == (30.0, 46.0) and d.ships[1].center == (45.0, 47.0)
    assert d.ships[2].center == (10.0, 30.0) and d.ships[3].base == 0
    # red pays one damage first (it names who picks its card), then blue; yellow and green none
    assert kind(st) == "damage_pay" and st.to_move() == (0,)
    st.apply("pay card 2", 0)
    st.apply("pick 0", 2)
    assert kind(st) == "damage_pay" and st.to_move() == (1,)
    st.apply("pay card 3", 1)
    st.apply("pick 0", 3)
    assert [len(h) for h in d.hands] == [0, 0, 1, 1]


def test_T_SP_18_wind_over_the_border() -> None:
    """SP-BORDER-01, SP-BORDER-02, SP-GEO-09 (T-SP-18). assumed:SP-AMB-35"""
    st = make({"ships": [FAR, {"center": [10, 55], "heading": 0}], "hands": [[], ["E1-1"]], "start": {"wind": True}})
    st.data.ships[0].center = (50.0, 20.0)
    st.apply("wind 90.0")
    assert st.data.ships[1].center == (10.0, 55.0)


def test_T_SP_19_ship_ship_collision_both_damaged() -> None:
    """SP-ADV-WIND-05, SP-ADV-WIND-04 (T-SP-19): the front ship stops at an element, the rear one at it."""
    st = make({"ships": [{"center": [30, 40], "heading": 0}, {"center": [30, 44], "heading": 0}],
               "hands": [["E1-1", "E1-2"], ["E1-3", "E1-4"]], "start": {"wind": True}},
              elements=[["E09", 30, 52, 0]])
    st.apply("wind 90.0")
    d = st.data
    assert d.ships[1].center == (30.0, 48.0) and d.ships[0].center == (30.0, 45.0)
    assert GAME.decision(st).kind == "blind_pick"  # a damage is being paid


def test_SP_BORDER_03_storm_put_back() -> None:
    """SP-BORDER-03, SP-ADV-WIND-02: the storm moves with the wind and is put back when its centre leaves."""
    st = make({"ships": [{"center": [10, 10], "heading": 0}, FAR], "storm": [30, 55], "start": {"wind": True}})
    st.apply("wind 90.0")
    assert st.data.storm == (30.0, 55.0)


def test_T_SP_30_storm_damage_once_at_end_of_turn() -> None:
    """SP-ADV-STORM-04, SP-ADV-STORM-05, SP-ADV-STORM-06, SP-GEO-08, SP-TURN-11 (T-SP-30). assumed:SP-AMB-33"""
    st = make({"ships": [{"center": [27, 27], "heading": 0}, {"base": 0}], "storm": [30, 30],
               "hands": [["E1-1", "E1-2"], ["E1-3"]], "start": {"move": 3}})
    for a in ("ruler 0.0", "ruler 90.0", "ruler 180.0"):
        st.apply(a)
    assert st.data.ships[0].center == (30.0, 32.0)
    assert kind(st) == "blind_pick" and st.to_move() == (1,)  # exactly one damage, from the storm
    st.apply("pick 0", 1)
    assert len(st.data.hands[0]) == 1 and st.data.active == 1  # blue (docked under nothing) takes none


def test_T_SP_31_storm_placement() -> None:
    """SP-ADV-STORM-01, SP-ADV-STORM-02, SP-ADV-STORM-03, SP-SETUP-13 (T-SP-31). assumed:SP-AMB-32"""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, {"center": [40, 30], "heading": 0}],
               "start": {"storm": True}})
    assert st.data.storm is None
    with pytest.raises(IllegalActionError):
        st.apply("storm 40.0 35.0")  # over blue
    st.apply("storm 22.0 32.0")  # over the active player's own ship
    assert st.data.storm == (22.0, 32.0)
    st2 = make({"ships": [{"center": [20, 30], "heading": 0}, {"center": [40, 30], "heading": 0}],
                "storm": [22, 32], "start": {"storm": True}})
    with pytest.raises(IllegalActionError):
        st2.apply("storm 22.0 32.0")  # must move


def test_T_SP_32_drift_any_direction() -> None:
    """SP-DRIFT-01, SP-DRIFT-02, SP-DRIFT-03, SP-TURN-04 (T-SP-32). assumed:SP-AMB-36"""
    st = make({"ships": [{"center": [30, 30], "heading": 0}, FAR], "hands": [[], ["E1-1"]]})
    assert kind(st) == "drift"
    st.apply("drift 180.0")
    sh = st.data.ships[0]
    assert sh.center == (25.0, 30.0) and sh.heading == 180.0
    assert st.data.in_play is None and st.data.active == 1


def test_SP_DRIFT_04_05_drift_captures_and_dead_end() -> None:
    """SP-DRIFT-04, SP-DRIFT-05, SP-CAPTURE-08: a drift ruler captures; with no legal drift the ship stays."""
    st = make({"ships": [{"center": [30, 30], "heading": 0}, FAR], "hands": [[], ["E1-1"]],
               "tokens": [{"identity": "SPICE", "pos": [33.5, 30.5]}]})
    st.apply("drift 0.0")
    assert kind(st) == "capture_offer"
    st.apply("capture")
    assert len(st.data.holds[0]) == 1
    boxed = make({"ships": [{"center": [1.5, 1.5], "heading": 0}, {"center": [4.6, 1.5], "heading": 0}],
                  "hands": [[], []]}, elements=[["E09", 2.5, 6.0, 0]])
    assert boxed.data.ships[0].center == (1.5, 1.5) and boxed.data.active == 1


def test_T_SP_33_departure_through_the_gate() -> None:
    """SP-MOVE-11, SP-MOVE-07, SP-MOVE-15, SP-GEO-02, SP-GEO-06, SP-TURN-05, SP-TURN-08 (T-SP-33).
    assumed:SP-AMB-49"""
    st = make({"ships": [{"base": 0}, FAR], "hands": [["E3-7"], ["E1-1"]]})
    assert st.data.layout.bases[0].slots[0] == pytest.approx((28.0, 4.5))
    assert kind(st) == "turn_mode"
    st.apply("depart")
    st.apply("card E3-7")
    st.apply("adv STORM")
    st.apply("storm 45.0 45.0")
    st.apply("wind -90.0")  # ships in space: only the far one; the docked ship does not move
    with pytest.raises(IllegalActionError) as err:
        st.apply("ruler 0.0")
    assert err.value.rule == "SP-MOVE-11"
    with pytest.raises(IllegalActionError):
        st.apply("stop")  # a departing ship lays at least one ruler
    st.apply("ruler 90.0")
    assert st.data.ships[0].center == (28.0, 9.5) and st.data.docked[0] == [None, None]


def test_T_SP_34_full_base_cannot_be_entered() -> None:
    """SP-MOVE-12, SP-MOVE-13, SP-MOVE-07 (T-SP-34)."""
    st = make({"ships": [{"center": [30, 16.5], "heading": 270}, {"base": 0}, {"base": 0}], "start": {"move": 2}},
              players=3)
    st.apply("ruler -90.0")
    with pytest.raises(IllegalActionError) as err:
        st.apply("ruler -90.0")
    assert err.value.rule in ("SP-MOVE-07", "SP-MOVE-06", "SP-MOVE-08")


def test_T_SP_36_hidden_asteroid_capture() -> None:
    """SP-CAPTURE-04, SP-GEO-10, SP-ADV-AST-02 (T-SP-36)."""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR],
               "tokens": [{"identity": "ASTEROID", "pos": [24, 30.5]}], "hands": [["E1-1", "E1-2"], []],
               "start": {"move": 1}})
    st.apply("ruler 0.0")
    st.apply("capture")
    d = st.data
    t = next(t for t, w in enumerate(d.ident) if w == "ASTEROID" and d.where[t] == "map")
    assert d.open[t] and d.pos[t] == (24.0, 35.5)
    st.apply("pick 1", 1)
    assert len(d.hands[0]) == 1  # one damage paid with a card (blind pick by the only other seat)


def test_T_SP_37_open_asteroid_damages_once_per_move() -> None:
    """SP-CAPTURE-07 (T-SP-37). assumed:SP-AMB-20"""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR],
               "tokens": [{"identity": "ASTEROID", "pos": [24, 30.5], "open": True}],
               "holds": [["ORE", "SPICE"], []], "start": {"move": 2}})
    st.apply("ruler 0.0")
    assert kind(st) == "damage_pay"  # no capture offer, one damage
    st.apply(f"pay cargo {st.data.holds[0][0]}")
    st.apply("ruler 0.0")
    assert len(st.data.holds[0]) == 1


def test_SP_MOVE_14_tokens_pushed_aside() -> None:
    """SP-MOVE-14, SP-MOVE-09: an uncaptured token under the final disc is pushed out. assumed:SP-AMB-57"""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "tokens": [{"identity": "ORE", "pos": [25.5, 30.5]}],
               "start": {"move": 1}})
    st.apply("ruler 0.0")
    st.apply("skip")
    d = st.data
    t = next(t for t, w in enumerate(d.where) if w == "map")
    p = d.pos[t]
    assert p is not None and geo.dist(p, (25.0, 30.0)) >= 2.75 - 0.01


def test_SP_ADV_WIND_06_wind_captures() -> None:
    """SP-ADV-WIND-06, SP-CAPTURE-08: the swept disc passes a face-down token and its owner may capture."""
    st = make({"ships": [{"center": [10, 10], "heading": 0}, {"center": [40, 10], "heading": 0}],
               "tokens": [{"identity": "MEDS", "pos": [40.5, 15]}], "start": {"wind": True}})
    st.apply("wind 90.0")
    assert GAME.decision(st).kind == "capture_offer" and st.to_move() == (1,)
    st.apply("capture", 1)
    assert len(st.data.holds[1]) == 1


def test_SP_GEO_12_route_order_within_one_ruler() -> None:
    """SP-GEO-12, SP-CAPTURE-02: two tokens under one ruler are offered nearest-along-the-route first."""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR],
               "tokens": [{"identity": "ORE", "pos": [25.5, 29.5]}, {"identity": "TECH", "pos": [22.5, 30.8]}],
               "start": {"move": 1}})
    d = st.data
    ore = next(t for t in range(34) if d.ident[t] == "ORE" and d.where[t] == "map")
    tech = next(t for t in range(34) if d.ident[t] == "TECH" and d.where[t] == "map")
    st.apply("ruler 0.0")
    assert GAME.decision(st).tid == tech
    st.apply("skip")
    assert GAME.decision(st).tid == ore


def test_SP_POLICE_03_arrested_ship_just_before_a_gate_can_dock() -> None:
    """SP-POLICE-03 with SP-GEO-05: an arrested ship's entry ruler is judged by its truncated end.

    The full ruler would end past the gate, farther from it than the nose; the part up to the gate
    ends at the gate, which is closer, so docking is allowed (spec 6.4: the truncation applies "for
    the remaining checks"). Found by a bot game in which such a ship could never move again."""
    st = make({"ships": [{"center": [30, 10], "heading": 270}, FAR], "arrested": [0], "mc": [5, 10],
               "holds": [[], []], "owner": {"0": 1}, "start": {"move": 2}})
    st.apply("ruler -90.0")
    assert kind(st) == "dock_offer"
