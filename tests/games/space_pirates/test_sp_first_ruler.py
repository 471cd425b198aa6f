"""The first ruler of a move (SP-MOVE-02, SP-TURN-04) under both readings of SP-AMB-04.

The rulebook: "the first ruler must touch the nose of his cosmic ship's base, and the additional rulers
touch one another, forming a snake. Each ruler may form a maximum angle of 90° with the previous one."
So by default (``first_ruler: nose``) the first ruler leaves the nose in any direction and only the
rulers after it keep within 90 degrees of the one before; ``first_ruler: within_90`` keeps the spec's
earlier reading (the first ruler within 90 degrees of the heading).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import holotable
from holotable.engine import ConfigError, IllegalActionError
from holotable.games.space_pirates import flow
from holotable.games.space_pirates import geometry as geo

GAME = holotable.load("space-pirates")
B1 = ["B1", 30, 6.5, 90]
B2 = ["B2", 53.5, 30, 180]
FAR = {"center": [55, 55], "heading": 0}
SHIP = {"center": [20, 30], "heading": 0}  # nose at (21.5, 30)


def facing(gap: float, first_ruler: str | None, **arr: Any) -> Any:
    """Red's nose ``gap`` cm from the left edge of a 5 x 5 square (E09) it faces; red holds a card."""
    params = {} if first_ruler is None else {"first_ruler": first_ruler}
    st = GAME.new_state(players=2, seed=1, first_seat=0, dexterity="precise", **params)
    square = ["E09", 21.5 + gap + 2.5, 30, 0]
    st.arrange({"layout": {"field": [60, 60], "bases": [B1, B2], "elements": [square], "inhabited": 2},
                "ships": [SHIP, FAR], "hands": [["E3-1"], ["E1-1"]], **arr})
    return st


def kind(st: Any) -> str:
    return str(GAME.decision(st).kind)


def test_the_default_is_the_rulebook_reading() -> None:
    """SP-MOVE-02: the table's default lets the first ruler leave the nose in any direction. assumed:SP-AMB-04"""
    assert GAME.new_state(players=2, seed=1).config["first_ruler"] == "nose"
    with pytest.raises(ConfigError):
        GAME.new_state(players=2, seed=1, first_ruler="sideways")


@settings(max_examples=15)
@given(gap=hst.floats(min_value=0.0, max_value=1.0))
def test_a_ship_nose_to_an_element_turns_away_instead_of_drifting(gap: float) -> None:
    """SP-MOVE-02, SP-TURN-04, SP-TURN-03, SP-DRIFT-01: nose within 1 cm of an element it faces, with a card in hand.
    Under ``within_90`` every ruler ahead or sideways is blocked, so the ship must drift; under the
    rulebook's ``nose`` it plays its card and may turn straight back. assumed:SP-AMB-04"""
    assert kind(facing(gap, "within_90")) == "drift"
    assert not flow.first_ruler_exists(facing(gap, "within_90").data, 0)
    st = facing(gap, None)
    assert kind(st) == "choose_card" and flow.first_ruler_exists(st.data, 0)


@settings(max_examples=10)
@given(gap=hst.floats(min_value=0.5, max_value=1.0), back=hst.floats(min_value=135.0, max_value=225.0))
def test_the_ship_follows_a_backward_first_ruler(gap: float, back: float) -> None:
    """SP-MOVE-02, SP-MOVE-08, SP-GEO-03: the first ruler starts at the nose; after it the ship's nose lies
    at the ruler's end and its heading is the ruler's direction. assumed:SP-AMB-04 assumed:SP-AMB-58"""
    turned_back(gap, round(back, 1))


def test_a_ship_touching_an_element_turns_straight_back() -> None:
    """SP-MOVE-02, SP-MOVE-05: nose on the element's edge: only the ruler straight back stays off it (its
    flat start end only touches the edge). assumed:SP-AMB-04"""
    turned_back(0.0, 180.0)
    st = facing(0.0, None, start={"move": 3})
    assert not flow.ruler_result(st.data, GAME.decision(st), 170.0).legal


def turned_back(gap: float, theta: float) -> None:
    st = facing(gap, None, start={"move": 3})
    legal = flow.ruler_result(st.data, GAME.decision(st), theta)
    assert legal.legal and legal.start == (21.5, 30.0)
    st.apply(f"ruler {theta}")
    sh = st.data.ships[0]
    nose, heading = flow.nose(st.data, 0)
    assert heading == pytest.approx(geo.norm_angle(theta))
    assert nose == pytest.approx(legal.end, abs=2e-3)  # positions are stored to 3 decimals
    assert sh.center == pytest.approx(geo.end_center(legal.end, theta, st.data.layout.c), abs=2e-3)
    blocked = facing(gap, "within_90", start={"move": 3})
    with pytest.raises(IllegalActionError) as err:
        blocked.apply(f"ruler {theta}")
    assert err.value.rule == "SP-MOVE-02"


def test_the_rulers_after_the_first_keep_the_90_degree_limit() -> None:
    """SP-MOVE-03: both readings keep the limit between rulers; the first ruler's sector is all round
    under ``nose``, half a turn under ``within_90``. assumed:SP-AMB-04 assumed:SP-AMB-05"""
    for first_ruler in ("nose", "within_90"):
        st = facing(5.0, first_ruler, start={"move": 3})
        first = [a.a for a in st.legal_actions(0) if a.verb == "ruler"]
        back = [a for a in first if isinstance(a, float) and geo.angle_diff(a, 0.0) > 90.0]
        assert bool(back) == (first_ruler == "nose")
        assert flow.turn_limit(st.data, GAME.decision(st)) == (None if first_ruler == "nose" else 0.0)
        st.apply("ruler 90.0")
        assert flow.turn_limit(st.data, GAME.decision(st)) == 90.0
        with pytest.raises(IllegalActionError) as err:
            st.apply("ruler -0.5")
        assert err.value.rule == "SP-MOVE-03"
        st.apply("ruler 0.0")


def test_a_departing_ship_still_passes_through_its_gate() -> None:
    """SP-MOVE-11, SP-GEO-06: leaving the nose in any direction does not free a departure from the gate."""
    st = GAME.new_state(players=2, seed=1, first_seat=0, dexterity="precise")
    st.arrange({"layout": {"field": [60, 60], "bases": [B1, B2], "elements": [], "inhabited": 2},
                "ships": [{"base": 0}, FAR], "start": {"move": 2}})
    assert flow.nose(st.data, 0) == ((28.0, 6.0), 90.0)  # docked at B1
    for theta in (-90.0, 180.0, 0.0):
        with pytest.raises(IllegalActionError) as err:
            GAME.check(st, 0, GAME.parse_action(f"ruler {theta}"))
        assert err.value.rule == "SP-MOVE-11"
    GAME.check(st, 0, GAME.parse_action("ruler 90.0"))


def test_the_heuristic_turns_away_from_an_element_it_faces() -> None:
    """SP-MOVE-02, SP-TURN-04: nose on a square with a card to play, the heuristic bot lays a ruler behind it
    instead of stopping at once. assumed:SP-AMB-04"""
    from holotable.agents import make_agent, observe

    st = facing(0.5, None, start={"move": 3})
    action = make_agent("heuristic", GAME, seed=1).act(observe(st, 0))
    assert action.verb == "ruler" and geo.angle_diff(float(action.a), 0.0) > 90.0
