"""A dexterity level per seat (``seat_dexterity``, SP-PHYS-05, SP-AMB-55): a handicap for any seat.

Everything reads a seat's noise through ``skill.flick_noise``; these tests check what it answers, that
the rules' flicks really use the flicking seat's level, and that a bad list is refused before a
table exists.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import holotable
from holotable.engine import ConfigError, Rng
from holotable.games.space_pirates import decisions as dec
from holotable.games.space_pirates import flow, skill

GAME = holotable.load("space-pirates")
LEVELS = tuple(GAME.content.constants.dexterity)  # precise, casual, standard, shaky


def table(players: int = 2, **params: Any) -> Any:
    st = GAME.new_state(players=players, seed=3, first_seat=0, **params)
    st.arrange({"layout": {"field": [60, 60], "bases": [["B1", 30, 6.5, 90], ["B2", 53.5, 30, 180]],
                           "elements": [], "inhabited": 2},
                "ships": [{"center": [10, 50], "heading": 0}, {"center": [50, 50], "heading": 0}][:players]
                + [{"center": [10, 10 + 8 * s], "heading": 0} for s in range(players - 2)],
                "tokens": [{"identity": "ORE", "pos": [30, 30]}]})
    return st


def test_without_a_list_every_seat_has_the_tables_level() -> None:
    """SP-PHYS-05: ``seat_dexterity`` empty (the default) = the table's ``dexterity`` for all. assumed:SP-AMB-55"""
    st = GAME.new_state(players=3, seed=1, dexterity="shaky")
    assert [skill.skill_name(st.config, s) for s in range(3)] == ["shaky"] * 3
    assert skill.flick_noise(st.config, 2) == GAME.content.constants.dexterity["shaky"]
    cleared = GAME.spec.make_config(players=2, seat_dexterity=None)  # `-p seat_dexterity=none`
    assert skill.seat_levels(cleared) == ("standard", "standard")


@settings(max_examples=20)
@given(levels=hst.lists(hst.sampled_from(LEVELS), min_size=2, max_size=4))
def test_each_seat_gets_its_own_level(levels: list[str]) -> None:
    """SP-PHYS-05: the list names the seats' levels in seat order (spaces around names are fine).
    assumed:SP-AMB-55"""
    st = GAME.new_state(players=len(levels), seed=1, seat_dexterity=" , ".join(levels))
    assert [skill.skill_name(st.config, s) for s in range(len(levels))] == levels
    assert [skill.flick_noise(st.config, s) for s in range(len(levels))] == [
        GAME.content.constants.dexterity[name] for name in levels]


@pytest.mark.parametrize(("players", "text", "why"), [
    (3, "precise,shaky", "2 level\\(s\\) for 3 seats"),
    (2, "precise,shaky,standard", "3 level\\(s\\) for 2 seats"),
    (2, "precise,wobbly", "entry 2 of 2 is 'wobbly'"),
    (2, "precise,,", "3 level\\(s\\)"),
    (2, ",shaky", "entry 1 of 2 is empty"),
    (2, "Precise,shaky", "'Precise'"),
])
def test_a_bad_list_is_refused_with_the_reason(players: int, text: str, why: str) -> None:
    """SP-PHYS-05: a wrong count or an unknown name is a clear ConfigError, before any table is made."""
    with pytest.raises(ConfigError, match=why) as err:
        GAME.new_state(players=players, seed=1, seat_dexterity=text)
    assert "precise, casual, standard, shaky" in str(err.value)  # it lists the levels to choose from


def flick(st: Any, seat: int, seed: int) -> tuple[float, float]:
    """The noisy (angle, strength) the rules give ``seat``'s flick of the token at 45 degrees, 0.4."""
    tid = next(t for t, w in enumerate(st.data.where) if w == "map")
    ctx = flow.Ctx(st, GAME.content)
    ctx.rng = Rng(seed)
    na, ns, _ = flow.resolve_flick(ctx, dec.Flick(seat, tid, "FLICK"), 45.0, 0.4)
    return na, ns


def test_the_rules_flick_with_the_flicking_seats_noise() -> None:
    """SP-PHYS-05, SP-FLICK-01: a precise seat's flick goes exactly as aimed, a shaky seat's strays, and
    by twice the standard seat's error for the same draw (the levels' angle sd are 0, 3 and 6 degrees).
    assumed:SP-AMB-55"""
    st = table(3, seat_dexterity="precise,shaky,standard")
    for seed in range(5):
        assert flick(st, 0, seed) == (45.0, 0.4)
        shaky, standard = flick(st, 1, seed), flick(st, 2, seed)
        assert shaky[0] - 45.0 == pytest.approx(2 * (standard[0] - 45.0))
        assert shaky[0] != 45.0
    uniform = table(3, dexterity="shaky")
    assert flick(uniform, 0, 1) == flick(st, 1, 1)  # a listed level is the same noise as the table's


def test_a_bot_seat_aims_with_its_own_noise() -> None:
    """SP-PHYS-05: the heuristic bot plans its flick through the physics under its own seat's level.
    assumed:SP-AMB-55"""
    from holotable.agents import make_agent, observe

    plays: dict[str, list[str]] = {}
    for levels in ("precise,precise", "precise,shaky"):
        st = GAME.new_state(players=2, seed=5, first_seat=0, seat_dexterity=levels)
        bot = make_agent("heuristic", GAME, seed=1)
        seen = []
        while len(seen) < 3 and not st.is_terminal():
            seat = st.to_move()[0]
            action = bot.act(observe(st, seat)) if seat == 1 else st.legal_actions(seat)[0]
            if seat == 1 and str(action).startswith("flick"):
                seen.append(str(action))
            st.apply(action, seat)
        plays[levels] = seen
    assert plays["precise,precise"] and plays["precise,shaky"]
    assert plays["precise,precise"] != plays["precise,shaky"]
