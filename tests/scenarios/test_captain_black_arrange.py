"""Captain Black's ``arrange`` hook: every key, its validation, conservation, and all-or-nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import holotable
from holotable.engine import ScenarioError, State

GAME = holotable.load("captain-black")
PARROTS = [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]  # the default parrot_values (CB-AMB-02)
F, E = "filled", "empty"


def fresh(players: int = 3, seed: int = 2, **params: Any) -> State[Any, Any]:
    return GAME.new_state(players=players, seed=seed, **{"start_seat": 0, **params})


def test_every_key_is_applied() -> None:
    state = fresh()
    chests_left = [F] * 33 + [E] * 4
    arrangement = {
        "round": 2,
        "mover": 2,
        "bag": {"gold": 30, "black": 5},
        "island": 3,
        "boxes": [5, 0, 7],
        "chests": [[F, E], [F], []],
        "chest_deck_top_first": chests_left,
        "parrot_deck_top_first": PARROTS[2:],
        "parrot_aside": [1],
        "parrots": [[], [1], []],
    }
    state.arrange(arrangement)
    data = state.full()["data"]
    for key, value in arrangement.items():
        assert data[key] == value, key
    assert data["start"] == 1  # round 2 of a game whose first start player is seat 0 (CB-NEXT-03)
    assert state.to_move() == (2,)
    assert [a.k for a in state.legal_actions()] == list(range(1, 36))


def test_start_sets_the_first_start_player_and_the_mover() -> None:
    state = GAME.new_state(players=4, seed=3)  # random first start player
    state.arrange({"round": 3, "start": 1})
    data = state.full()["data"]
    assert (data["first_start"], data["start"], data["mover"]) == (3, 1, 1)


def test_start_must_fit_the_start_seat_param() -> None:
    with pytest.raises(ScenarioError, match="'start' 2 does not fit round 1: param start_seat 0"):
        fresh().arrange({"start": 2})


@pytest.mark.parametrize(
    ("arrangement", "message"),
    [
        ({"round": 0}, "'round' must be 1..3, got 0"),
        ({"round": 4}, "'round' must be 1..3, got 4"),
        ({"round": "2"}, "'round' must be an integer, got '2'"),
        ({"start": 3}, "'start' must be 0..2, got 3"),
        ({"mover": -1}, "'mover' must be 0..2, got -1"),
        ({"mover": True}, "'mover' must be an integer, got True"),
        ({"bag": [42, 8]}, "'bag' must be an object"),
        ({"bag": {"gold": 42}}, "'bag' must be an object"),
        ({"bag": {"gold": 42.0, "black": 8}}, "'bag.gold' must be an integer"),
        ({"bag": {"gold": 42, "black": -1}}, "'bag.black' must be >= 0, got -1"),
        ({"island": 8}, "'island' must be 0..7, got 8"),
        ({"boxes": [0, 0]}, "'boxes' must be a list with one entry per seat (3)"),
        ({"boxes": [0, -2, 0]}, "'boxes[1]' must be >= 0, got -2"),
        ({"chests": [[], [], "filled"]}, "'chests[2]' must be a list of 'filled'/'empty'"),
        ({"chests": [[], [], ["full"]]}, "'chests[2]' must be a list of 'filled'/'empty'"),
        ({"chest_deck_top_first": [True]}, "'chest_deck_top_first' must be a list of 'filled'/'empty'"),
        ({"parrot_deck_top_first": "1,2"}, "'parrot_deck_top_first' must be a list of parrot values"),
        ({"parrot_aside": [1, "2"]}, "'parrot_aside[1]' must be an integer"),
        ({"parrots": [[], []]}, "'parrots' must be a list with one entry per seat (3)"),
        ({"over": True}, "unknown arrangement key(s) ['over'] for captain-black"),
    ],
)
def test_each_malformed_key_is_named(arrangement: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        fresh().arrange(arrangement)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("arrangement", "message"),
    [
        # CB-INV-01: 42 gold coins
        ({"boxes": [1, 0, 0]}, "gold in the bag (42) and the boxes (1) make 43, but there are 42 gold coins"),
        ({"bag": {"gold": 41, "black": 8}}, "make 41, but there are 42 gold coins"),
        # CB-INV-02: 8 black coins
        ({"island": 2}, "black coins in the bag (8) and on the island (2) make 10, but there are 8 black coins"),
        # 35 filled + 5 empty chest cards
        ({"chests": [[F], [], []]}, "hold 36 filled and 5 empty chest cards, but there are 35 filled and 5 empty"),
        ({"chest_deck_top_first": [F] * 36 + [E] * 4}, "hold 36 filled and 4 empty"),
        # 13 parrot cards, the configured values
        ({"parrot_aside": [1]}, "the parrot cards are"),
        ({"parrot_deck_top_first": [3] * 13}, "but the 13 cards of this game are"),
        ({"parrot_deck_top_first": PARROTS[1:]}, "the parrot cards are"),
    ],
)
def test_conservation_violations_are_rejected(arrangement: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        fresh().arrange(arrangement)
    assert message in str(info.value)


def test_parrot_conservation_follows_the_parrot_values_param() -> None:
    values = [2] * 13
    state = fresh(parrot_values=values)
    state.arrange({"parrot_deck_top_first": values[3:], "parrot_aside": values[:3]})
    with pytest.raises(ScenarioError, match="the parrot cards are"):
        state.arrange({"parrot_deck_top_first": PARROTS})


def test_an_arranged_state_plays_on_by_the_normal_rules() -> None:
    """An arranged state plays on by the normal rules: the draw of all coins ends the round (CB-EX-04)."""
    state = fresh(players=2)
    state.arrange({"bag": {"gold": 1, "black": 1}, "boxes": [20, 21], "island": 7})
    state.apply("draw 2")
    assert state.full()["data"]["rounds"][0]["gold"] == [20, 21]
    assert state.full()["data"]["round"] == 2


# ---------------------------------------------------------------------- properties
def chest_cards() -> st.SearchStrategy[list[str]]:
    return st.permutations([F] * 35 + [E] * 5)


@st.composite
def valid_arrangements(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """Random positions the components allow, mid-round."""
    box_gold = draw(st.lists(st.integers(0, 42 // players), min_size=players, max_size=players))
    island = draw(st.integers(0, 7))
    cards = draw(chest_cards())
    cuts = sorted(draw(st.lists(st.integers(0, 16), min_size=players, max_size=players)))
    hands, start = [], 0
    for cut in cuts:
        hands.append(cards[start:cut] if cut > start else [])
        start = max(start, cut)
    deck = cards[start:]
    parrots = draw(st.permutations(PARROTS))
    aside = draw(st.integers(0, 13))
    return {
        "round": draw(st.integers(1, players)),
        "mover": draw(st.integers(0, players - 1)),
        "bag": {"gold": 42 - sum(box_gold), "black": 8 - island},
        "island": island,
        "boxes": box_gold,
        "chests": hands,
        "chest_deck_top_first": deck,
        "parrot_deck_top_first": parrots[aside:],
        "parrot_aside": parrots[:aside],
    }


@given(st.data(), st.integers(2, 4), st.integers(0, 2**31))
def test_valid_arrangements_play_to_the_end_conserving_everything(data: st.DataObject, players: int, seed: int) -> None:
    state = fresh(players=players, seed=seed)
    arrangement = data.draw(valid_arrangements(players))
    state.arrange(arrangement)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
        d = state.full()["data"]
        assert d["bag"]["gold"] + sum(d["boxes"]) == 42  # CB-INV-01
        assert d["bag"]["black"] + d["island"] == 8  # CB-INV-02
        cards = d["chest_deck_top_first"] + [c for hand in d["chests"] for c in hand]
        assert sorted(cards) == sorted([F] * 35 + [E] * 5)
        steps += 1
        assert steps < 2000
    assert state.outcome().ranks


broken = st.sampled_from(["round", "start", "mover", "bag", "island", "boxes", "chests", "chest_deck_top_first",
                          "parrot_deck_top_first", "parrot_aside", "parrots", "over", "rounds"])
junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=3),
                 st.lists(st.integers(-1, 4), max_size=5), st.dictionaries(st.sampled_from(["gold", "black"]),
                                                                          st.integers(-1, 50)))


@given(st.data(), st.integers(2, 4))
def test_a_refused_arrangement_leaves_the_state_untouched(data: st.DataObject, players: int) -> None:
    state = fresh(players=players)
    before = state.fingerprint()
    arrangement = data.draw(valid_arrangements(players))
    arrangement[data.draw(broken)] = data.draw(junk)  # usually breaks it, sometimes still valid
    try:
        state.arrange(arrangement)
    except ScenarioError:
        assert state.fingerprint() == before
    else:
        d = state.full()["data"]
        assert d["bag"]["gold"] + sum(d["boxes"]) == 42
        assert d["bag"]["black"] + d["island"] == 8


def test_a_refused_arrangement_after_valid_keys_changes_nothing() -> None:
    """All or nothing: keys accepted before the bad one do not stick."""
    state = fresh()
    before = state.full()
    with pytest.raises(ScenarioError, match="'island'"):
        state.arrange({"mover": 2, "boxes": [1, 1, 1], "bag": {"gold": 39, "black": 8}, "island": 9})
    assert state.full() == before
