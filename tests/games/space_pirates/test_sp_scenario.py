"""Space Pirates' arrangement keys for the market and its scripted chance (scenario.py, flow.py)."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.engine import ScenarioError, State

#: A small table: two inhabited bases (0, 1) and an uninhabited one (2); seat 0 docked at base 0.
TABLE: dict[str, Any] = {
    "layout": {"field": [60, 60], "bases": [["B1", 30, 6.5, 90], ["B2", 53.5, 30, 180], ["B3", 6.5, 30, 0]],
               "elements": [], "inhabited": 2},
    "ships": [{"base": 0}, {"center": [40, 40], "heading": 0}],
}


def fresh() -> State[Any, Any]:
    return holotable.load("space-pirates").new_state(players=2, seed=1, first_seat=0, dexterity="precise")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"market_up": 0}, "market_up: expected a list of base indices"),
        ({"market_up": [3]}, "market_up: 3 is not a base index \\(0..2\\)"),
        ({"market_up": [2]}, "market_up: base 2 is uninhabited"),
        ({"seen_markets": [[0]]}, "seen_markets: one list of bases per seat \\(2\\)"),
        ({"seen_markets": [[0], [True]]}, "seen_markets.1: True is not a base index"),
        ({"seen_markets": [[], [2]]}, "seen_markets.1: base 2 is uninhabited"),
    ],
)
def test_bad_market_arrangements_are_refused_and_change_nothing(extra: dict[str, Any], message: str) -> None:
    st = fresh()
    before = st.fingerprint()
    with pytest.raises(ScenarioError, match=message):
        st.arrange({**TABLE, **extra})
    assert st.fingerprint() == before


def test_market_up_and_seen_markets_are_what_the_views_show() -> None:
    st = fresh()
    st.arrange({**TABLE, "market_up": [1], "seen_markets": [[0], []]})
    bases = {b["index"]: b for b in st.view(1)["bases"]}
    assert bases[1]["market_face_up"] and bases[0]["seen_by"] == [0] and bases[1]["seen_by"] == []
    assert st.view(0)["bases"][0]["market"] is not None and st.view(1)["bases"][0]["market"] is None


@pytest.mark.parametrize(
    ("chance", "message"),
    [
        ({"bag": ["GOLD"]}, "chance.bag\\[0\\]: expected a token face"),
        ({"flick": [{"rest": {"0": [1, 2]}, "spin": 3}]}, "chance.flick\\[0\\]: expected an object with keys"),
        ({"flick": [{"rest": {"x": [1, 2]}}]}, "chance.flick\\[0\\].rest: 'x' is not a token id"),
        ({"flick": [{"rest": {"0": [1]}}]}, "chance.flick\\[0\\].rest.0: expected \\[x, y\\]"),
        ({"flick": [{"contacts": [{"kind": "wall", "token": 0}]}]}, "contacts\\[0\\].kind"),
        ({"shuffle": [["E1-1", "X"]]}, "chance.shuffle\\[0\\]\\[1\\]: 'X' is not an energy card id"),
        ({"blind": [5]}, "chance.blind\\[0\\]: 5 is not an energy card id"),
    ],
)
def test_bad_scripted_chance_is_refused(chance: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        fresh().script_chance(chance)


def test_a_scripted_flick_must_name_tokens_on_the_map() -> None:
    """The form is checked when scripted, the tokens when the flick happens (only then is the table known)."""
    st = fresh()
    st.script_chance({"bag": ["ORE", "ORE", "TECH"], "flick": [{"rest": {"30": [40, 35]}}]})
    for action in ("base 0", "base 1", "place 14.0 28.0", "place 14.0 32.0", "place 26.0 14.0"):
        st.apply(action)
    assert [st.data.ident[t] for t in range(3)] == ["ORE", "ORE", "TECH"]
    with pytest.raises(ScenarioError, match=r"chance.flick: token\(s\) \[30\]"):
        st.apply("flick -165.0 0.15")


def test_a_face_the_bag_no_longer_holds_cannot_be_drawn() -> None:
    st = fresh()
    assert st.data.ident.count("POLICE") == 2  # the game's two police tokens
    st.script_chance({"bag": ["POLICE"] * 3})
    st.apply("base 0")
    with pytest.raises(ScenarioError, match=r"chance.bag: no POLICE token is left in the bag"):
        st.apply("base 1")
