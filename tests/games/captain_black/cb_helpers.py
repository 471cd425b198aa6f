"""Scenario builders for the Captain Black tests.

Scenarios start from a real ``State`` and then set ``st.data`` fields directly. Decks keep
their top card at the END of the list, so builders take cards "top first" and reverse them.
A round end is always driven by a real ``apply``: the island is one field short of full and
the mover draws the whole bag, which must contain a black coin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import holotable
from holotable.engine import Rng, State
from holotable.games.captain_black import Draw, draw_black
from holotable.games.captain_black.state import EMPTY, FILLED, CBData

GAME = holotable.load("captain-black")
GOLD = 42
BLACK = 8
CHESTS_FILLED = 35
CHESTS_EMPTY = 5
DEFAULT_PARROTS = (1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3)

CBState = State[CBData, Draw]


def new_state(players: int = 4, seed: int = 0, *, start_seat: int | None = 0, record: bool = False,
              **params: Any) -> CBState:
    return GAME.new_state(players=players, seed=seed, record=record, start_seat=start_seat, **params)


def deck(top_first: Sequence[Any], rest: Sequence[Any] = ()) -> list[Any]:
    """A deck list (top at the end) whose top cards are ``top_first`` and then ``rest``."""
    return list(reversed(list(top_first) + list(rest)))


def parrot_deck(top_first: Sequence[int], values: Sequence[int] = DEFAULT_PARROTS) -> list[int]:
    """All parrot ``values`` as a deck with ``top_first`` on top (the rest in any order)."""
    rest = Counter(values)
    rest.subtract(top_first)
    if any(c < 0 for c in rest.values()):
        raise ValueError(f"{list(top_first)} is not part of the parrot cards {list(values)}")
    return deck(top_first, sorted(rest.elements()))


def chest_deck(top_first: Sequence[bool], *, filled: int = CHESTS_FILLED, empty: int = CHESTS_EMPTY) -> list[bool]:
    """A chest deck of ``filled``/``empty`` cards with ``top_first`` on top (the rest filled first)."""
    left_filled = filled - sum(1 for c in top_first if c)
    left_empty = empty - sum(1 for c in top_first if not c)
    if left_filled < 0 or left_empty < 0:
        raise ValueError("too many filled or empty cards on top")
    return deck(top_first, [FILLED] * left_filled + [EMPTY] * left_empty)


def arrange_round_end(st: CBState, boxes: Sequence[int], *, mover: int | None = None) -> int:
    """Boxes as given, the island one black coin short of full, every other coin in the bag.

    Returns the size of the bag: drawing all of it must bring the last black coin.
    """
    d = st.data
    fields = st.config["island_fields"]
    d.boxes = list(boxes)
    d.island = fields - 1
    d.bag_black = BLACK - d.island
    d.bag_gold = GOLD - sum(boxes)
    assert d.bag_gold >= 0, "boxes hold more gold than exists"
    if mover is not None:
        d.mover = mover
    return d.bag_gold + d.bag_black


def end_round(st: CBState) -> None:
    """The mover draws the whole bag; the last black coin lands and the round ends."""
    d = st.data
    rounds_before = len(d.rounds)
    st.apply(Draw(d.bag_gold + d.bag_black))
    assert len(d.rounds) == rounds_before + 1, "the round did not end"


def enter_round(st: CBState, round_no: int) -> None:
    """Jump to the start of ``round_no`` (ship rotated as the rules would have it)."""
    d = st.data
    d.round = round_no
    d.start = (d.first_start + round_no - 1) % d.players
    d.mover = d.start


def seed_for_draw(gold: int, black: int, k: int, wanted_black: int) -> int:
    """The first RNG seed whose next draw of ``k`` coins brings exactly ``wanted_black`` black coins."""
    for seed in range(10_000):
        if draw_black(Rng(seed), gold, black, k) == wanted_black:
            return seed
    raise AssertionError("no seed found")  # pragma: no cover - each wanted outcome has a fair chance


def replay(st: CBState) -> CBState:
    """A fresh state with the same config and seed, fed the same action log."""
    other: CBState = State.new(GAME, st.config, st.seed)
    for seat, action in st.history:
        other.apply(action, seat)
    return other


def filled(hand: Sequence[bool]) -> int:
    return sum(1 for card in hand if card)
