"""The spec's alternative readings as game parameters, each shown to change play as the spec says:
capture_geometry (SP-AMB-03), dock_geometry (SP-AMB-23), actions_before_departure (SP-AMB-24),
multi_card (SP-AMB-06), and the turn cap with its table default (SP-AMB-59)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import holotable
from holotable.engine import IllegalActionError, Rng

GAME = holotable.load("space-pirates")
B1 = ["B1", 30, 6.5, 90]  # gate from (27, 6.5) to (33, 6.5), the base below it
B2 = ["B2", 53.5, 30, 180]
FAR = {"center": [55, 55], "heading": 0}


def make(arr: dict[str, Any], *, record: bool = False, **params: Any) -> Any:
    st = GAME.new_state(players=2, seed=1, first_seat=0, dexterity="precise", record=record, **params)
    st.arrange({"layout": {"field": [60, 60], "bases": [B1, B2], "elements": [], "inhabited": 2}, **arr})
    return st


def kind(st: Any) -> str:
    dec = GAME.decision(st)
    return "none" if dec is None else dec.kind


def verbs(st: Any) -> list[str]:
    return [str(a) for a in st.legal_actions(st.to_move()[0])]


# ---------------------------------------------------------------------------- SP-AMB-03 capture_geometry


def ruler_past(token: list[float], **params: Any) -> Any:
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR],
               "tokens": [{"identity": "ORE", "pos": token}], "start": {"move": 1}}, **params)
    st.apply("ruler 0.0")  # nose (21.5, 30) -> (26.5, 30); the ship's centre runs (20, 30) -> (25, 30)
    return st


def test_SP_CAPTURE_01_capture_geometry_swept_ship_reaches_wider() -> None:
    """SP-CAPTURE-01, SP-CAPTURE-02. assumed:SP-AMB-03 -- a token 2.2 cm beside the course: 1.7 cm from the
    1 cm wide ruler (not under it, r_t = 1.25) but 2.2 cm from the ship centre's path (< r_t + r_s = 2.75)."""
    st = ruler_past([24, 32.2])
    assert kind(st) != "capture_offer" and st.data.holds[0] == []
    st = ruler_past([24, 32.2], capture_geometry="swept_ship")
    assert kind(st) == "capture_offer"
    st.apply("capture")
    assert [st.data.ident[t] for t in st.data.holds[0]] == ["ORE"]


def test_capture_geometry_both_readings_agree_on_a_token_under_the_ruler() -> None:
    """assumed:SP-AMB-03 -- a token on the centre line is captured under both readings; one just past the
    reach of both (2.85 cm ahead of the ship's final centre, 1.35 cm past the ruler end) under neither."""
    for geometry in ("ruler", "swept_ship"):
        assert kind(ruler_past([24, 30.3], capture_geometry=geometry)) == "capture_offer"
        assert kind(ruler_past([27.85, 30], capture_geometry=geometry)) != "capture_offer"


def test_capture_geometry_swept_ship_keeps_route_order() -> None:
    """SP-CAPTURE-02. assumed:SP-AMB-03 -- with the wider reach, candidates still come in route order."""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR],
               "tokens": [{"identity": "TECH", "pos": [25, 27.6]}, {"identity": "ORE", "pos": [22.5, 32.4]}],
               "start": {"move": 1}}, capture_geometry="swept_ship")
    st.apply("ruler 0.0")
    first = GAME.decision(st).tid
    assert st.data.ident[first] == "ORE"
    st.apply("skip")
    assert kind(st) == "capture_offer" and st.data.ident[GAME.decision(st).tid] == "TECH"


# ---------------------------------------------------------------------------- SP-AMB-23 dock_geometry


def dock_try(x: float, y: float, angle: float, **params: Any) -> str:
    st = make({"ships": [{"center": [x, y], "heading": angle}, FAR], "start": {"move": 1}}, **params)
    try:
        st.apply(f"ruler {angle}")
    except IllegalActionError as exc:
        return f"illegal {exc.rule}"
    return kind(st)


def test_SP_MOVE_12_dock_geometry_stand_docks_the_ship_disc() -> None:
    """SP-MOVE-12, SP-MOVE-08, SP-GEO-05. assumed:SP-AMB-23 -- diagonally towards the gate: the thin ruler ends
    0.05 cm short of it, so by default the ship would stand on the base (illegal); the swept disc touches
    the gate, so ``stand`` docks."""
    assert dock_try(28.0, 11.5, -45.0) == "illegal SP-MOVE-08"
    assert dock_try(28.0, 11.5, -45.0, dock_geometry="stand") == "dock_offer"


def test_dock_geometry_stand_needs_the_disc_to_meet_the_gate_first() -> None:
    """SP-GEO-05, SP-MOVE-07. assumed:SP-AMB-23 -- a steep ruler whose thin tip reaches the gate docks by
    default, but the wider disc strikes the base wall left of the gate first, so ``stand`` refuses it."""
    assert dock_try(26.0, 9.2, -60.0) == "dock_offer"
    assert dock_try(26.0, 9.2, -60.0, dock_geometry="stand") == "illegal SP-MOVE-07"


def test_dock_geometry_head_on_both_readings_dock_at_the_same_point() -> None:
    """SP-GEO-05. assumed:SP-AMB-23 -- straight at the gate the nose leads either way: the same truncation."""
    fractions = []
    for geometry in ("ruler", "stand"):
        st = make({"ships": [{"center": [30, 12], "heading": -90}, FAR], "start": {"move": 1}},
                  dock_geometry=geometry)
        st.apply("ruler -90.0")  # nose at y 10.5, the gate at y 6.5: 4 of the 5 cm
        assert kind(st) == "dock_offer"
        fractions.append(GAME.decision(st).res[5])
        st.apply("dock")
        assert st.data.ships[0].base == 0
    # touching = within eps_touch (0.01 cm) of the gate: (4 - 0.01) / 5
    assert fractions == pytest.approx([0.798, 0.798], abs=1e-3)


def test_dock_geometry_stand_applies_to_drift() -> None:
    """SP-DRIFT-02, SP-MOVE-12. assumed:SP-AMB-23 assumed:SP-AMB-36 -- drift rulers dock by the same test."""
    for geometry, expected in (("ruler", "illegal SP-MOVE-08"), ("stand", "dock_offer")):
        st = make({"ships": [{"center": [28.0, 11.5], "heading": 0}, FAR], "hands": [[], ["E1-1"]]},
                  dock_geometry=geometry)
        assert kind(st) == "drift"
        try:
            st.apply("drift -45.0")
            got = kind(st)
        except IllegalActionError as exc:
            got = f"illegal {exc.rule}"
        assert got == expected, geometry


# ---------------------------------------------------------------------------- SP-AMB-24 actions_before_departure


def docked(**params: Any) -> Any:
    return make({"ships": [{"base": 0}, FAR], "hands": [["E1-6"], ["E1-1"]], "holds": [["ORE"], []],
                 "mc": [3, 10], "market": {"0": "M01"}}, **params)


def test_SP_TURN_05_default_depart_has_no_base_actions() -> None:
    """SP-TURN-05. assumed:SP-AMB-24 -- by default a docked ship chooses first; departing skips the base."""
    st = docked()
    assert kind(st) == "turn_mode"
    st.apply("depart")
    assert kind(st) == "choose_card" and st.data.holds[0] != []


def test_SP_TURN_05_actions_before_departure_sells_then_departs() -> None:
    """SP-TURN-05, SP-BASE-01. assumed:SP-AMB-24 -- with ``actions_before_departure`` the base actions come
    first, then the choice; the ship sells and leaves in the same turn."""
    st = docked(actions_before_departure=True)
    assert kind(st) in ("base_look", "base_sell")
    turn = st.data.turn
    while kind(st) != "base_sell":
        st.apply("skip")
    ore = st.data.holds[0][0]
    st.apply(f"sell {ore}")
    assert st.data.mc[0] > 3 and st.data.holds[0] == []
    while kind(st) != "turn_mode":
        st.apply("skip")
    assert GAME.decision(st).after_base is True and st.view(1)["decision"]["after_base"] is True
    st.apply("depart")
    st.apply("card E1-6")
    st.apply("adv FLICK")  # no token on the map: FLICK and ASTEROID do nothing
    assert kind(st) == "ruler" and st.data.turn == turn
    st.apply(st.legal_actions(0)[0])  # the departure ruler (value 1: the turn then ends)
    assert st.data.ships[0].base is None and st.data.ships[0].center is not None


def test_actions_before_departure_stay_ends_the_turn_once() -> None:
    """SP-TURN-05, SP-BASE-01. assumed:SP-AMB-24 -- staying after the base actions ends the turn; the
    sequence is not offered twice."""
    st = docked(actions_before_departure=True)
    while kind(st) != "turn_mode":
        st.apply(st.legal_actions(0)[-1])  # skip / done
    st.apply("stay")
    assert st.data.active == 1 and st.data.ships[0].base == 0


def test_actions_before_departure_without_cards_only_uses_the_base() -> None:
    """SP-TURN-05. assumed:SP-AMB-24 -- no card, no departure: the base actions, then the turn passes."""
    st = make({"ships": [{"base": 0}, FAR], "hands": [[], ["E1-1"]], "mc": [0, 10]}, actions_before_departure=True)
    seen = []
    while st.data.active == 0:
        seen.append(kind(st))
        st.apply(st.legal_actions(0)[-1])
    assert "turn_mode" not in seen and seen


# ---------------------------------------------------------------------------- SP-AMB-06 multi_card


def in_space(hand: list[str], **params: Any) -> Any:
    return make({"ships": [{"center": [10, 30], "heading": 0}, FAR], "hands": [hand, ["E1-1"]]}, record=True,
                **params)


def test_SP_TURN_03_default_is_exactly_one_card() -> None:
    """SP-TURN-03. assumed:SP-AMB-06 -- one card, no 'done' offered, its value is the number of rulers."""
    st = in_space(["E1-6", "E3-3", "E2-6"])
    assert "done" not in verbs(st)
    st.apply("card E1-6")
    assert kind(st) == "choose_adv"


def test_SP_TURN_07_multi_card_sums_values_and_pools_adventures() -> None:
    """SP-TURN-03, SP-TURN-06, SP-TURN-07, SP-TURN-08, SP-TURN-09. assumed:SP-AMB-06 -- cards are shown as
    chosen, 'done' starts the play; the values add up and every symbol of every card resolves once, copies
    of one symbol needing no choice."""
    st = in_space(["E1-6", "E3-3", "E2-6"], multi_card=True)
    st.apply("card E1-6")
    assert kind(st) == "choose_card" and verbs(st) == ["card E2-6", "card E3-3", "done"]
    st.apply("card E3-3")
    assert st.view(1)["in_play"] == "E1-6" and st.view(1)["also_played"] == ["E3-3"]
    st.apply("done")
    assert kind(st) == "choose_adv" and verbs(st) == ["adv FLICK", "adv ASTEROID"]  # listed once each
    st.apply("adv FLICK")
    assert GAME.decision(st).left == ("ASTEROID", "FLICK", "ASTEROID")
    st.apply("adv FLICK")  # two ASTEROIDs left: nothing to choose, both resolve (no open asteroid: no effect)
    assert kind(st) == "ruler" and GAME.decision(st).left == 1 + 3
    for _ in range(4):
        st.apply("ruler 0.0")
    d = st.data
    assert d.discard[1] == ["E1-6"] and d.discard[3] == ["E3-3"] and d.hands[0] == ["E2-6"]
    assert d.in_play is None and d.also_played == [] and d.ships[0].center == (30.0, 30.0)
    played = [e.data["card"] for e in st.log_for(1) if e.kind == "card_played"]
    assert played == ["E1-6", "E3-3"]


def test_multi_card_whole_hand_starts_without_done() -> None:
    """SP-TURN-08. assumed:SP-AMB-06 -- once the hand is empty the play begins."""
    st = in_space(["E1-6", "E2-6"], multi_card=True)
    st.apply("card E2-6")
    st.apply("card E1-6")
    assert kind(st) == "choose_adv" and st.data.hands[0] == []


def test_multi_card_actions_are_indexed_and_checked() -> None:
    """assumed:SP-AMB-06 -- the extra choice uses existing actions ('card', 'done'): finite and indexable."""
    st = in_space(["E1-6", "E3-3"], multi_card=True)
    st.apply("card E1-6")
    for a in st.legal_actions(0):
        assert GAME.index_action(GAME.action_index(a)) == a
    with pytest.raises(IllegalActionError):
        st.apply("card E1-6")  # already played
    with pytest.raises(IllegalActionError):
        st.apply("stop")


@settings(max_examples=4, deadline=None)
@given(seed=hst.integers(0, 10_000), players=hst.integers(2, 4))
def test_multi_card_random_games_conserve_cards_and_money(seed: int, players: int) -> None:
    """SP-MONEY-01, SP-ENERGY-03. assumed:SP-AMB-06 -- with several cards a turn, 36 cards and 195 MC stay."""
    st = GAME.new_state(players=players, seed=seed, turn_cap=12, multi_card=True)
    rng = Rng(seed)
    while not st.is_terminal():
        seat = st.to_move()[0]
        st.apply(rng.choice(list(st.legal_actions(seat))), seat)
        d = st.data
        cards = sum(len(h) for h in d.hands) + sum(len(s) for s in d.draw.values())
        cards += sum(len(s) for s in d.discard.values()) + (d.in_play is not None) + len(d.also_played)
        assert cards == 36 and sum(d.mc) + d.bank == 195


# ---------------------------------------------------------------------------- SP-AMB-59 turn cap


def play_one_turn_from(turn: int, **params: Any) -> Any:
    st = make({"ships": [{"center": [30, 30], "heading": 0}, FAR], "hands": [["E1-6"], ["E1-6"]]}, **params)
    st.data.turn = turn
    rng = Rng(0)
    while not st.is_terminal() and st.data.turn == turn:
        seat = st.to_move()[0]
        st.apply(rng.choice(list(st.legal_actions(seat))), seat)
    return st


def test_SP_TURN_02_turn_cap_default_and_table_value() -> None:
    """SP-TURN-02. assumed:SP-AMB-59 -- 300 turns for simulations; 0 (no cap) at a table."""
    param = GAME.spec.param("turn_cap")
    assert (param.default, param.table_value) == (300, 0)
    assert play_one_turn_from(300).is_terminal()
    assert play_one_turn_from(299).data.turn == 300 and not play_one_turn_from(299).is_terminal()
    for unlimited in (0, None):
        st = play_one_turn_from(300, turn_cap=unlimited)
        assert not st.is_terminal() and st.data.turn == 301
