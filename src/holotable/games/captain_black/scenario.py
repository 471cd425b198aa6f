"""Arranged starts for Captain Black scenarios (the ``arrange`` hook; format in docs/scenarios.md).

Keys mirror the names of ``full()["data"]``. Every key is optional; whatever is
given replaces the freshly set-up value (``start`` follows ``round`` and ``mover``
follows ``start`` unless given), and the result must still be a position
the real components allow: 42 gold and 8 black coins (CB-INV-01/02), 35 filled and
5 empty chest cards, and the configured 13 parrot cards, each exactly once.

>>> import holotable
>>> st = holotable.load("captain-black").new_state(players=2, seed=1)
>>> st.arrange({"bag": {"gold": 40, "black": 7}, "boxes": [2, 0], "island": 1})
>>> st.full()["data"]["bag"], st.full()["data"]["boxes"]
({'gold': 40, 'black': 7}, [2, 0])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from holotable.engine import Config, ScenarioError, State
from holotable.engine import chance as chances

from .data import Components, data_for
from .state import EMPTY, FILLED, CBData

CHEST_NAMES = {"filled": FILLED, "empty": EMPTY}


def arrange(st: State[CBData, Any], arrangement: Mapping[str, Any]) -> None:
    """Apply ``arrangement`` to a copy of the state's data and check it; the state keeps the copy."""
    unknown = sorted(set(arrangement) - set(_SETTERS))
    if unknown:
        raise ScenarioError(f"unknown arrangement key(s) {unknown} for captain-black; known: {sorted(_SETTERS)}")
    config = st.config
    new = st.data.copy()
    for key, value in arrangement.items():
        _SETTERS[key](new, config, value)
    _fit_round(new, config, arrangement)
    _check_conservation(new, config, data_for(config).components)
    st.data = new


def chance_events(st: State[CBData, Any]) -> dict[str, chances.Check]:
    """``draw``: the black coins in the next draw (its gold is the rest of the handful);
    ``shuffle``: the parrot deck when the set-aside parrots are reshuffled (CB-AMB-10), top first
    like ``parrot_deck_top_first``."""
    return {"draw": chances.integer(0), "shuffle": chances.order(chances.integer(0))}


# ---------------------------------------------------------------------- one setter per key
def _round(d: CBData, config: Config, value: Any) -> None:
    d.round = _int("round", value, 1, d.rounds_total)


def _start(d: CBData, config: Config, value: Any) -> None:
    d.start = _int("start", value, 0, d.players - 1)


def _mover(d: CBData, config: Config, value: Any) -> None:
    d.mover = _int("mover", value, 0, d.players - 1)


def _bag(d: CBData, config: Config, value: Any) -> None:
    if not isinstance(value, dict) or set(value) != {"gold", "black"}:
        raise ScenarioError(f"'bag' must be an object {{'gold': G, 'black': B}}, got {value!r}")
    d.bag_gold = _int("bag.gold", value["gold"], 0)
    d.bag_black = _int("bag.black", value["black"], 0)


def _island(d: CBData, config: Config, value: Any) -> None:
    # A full island would already have ended the round (CB-ROUND-END-01).
    d.island = _int("island", value, 0, config["island_fields"] - 1)


def _boxes(d: CBData, config: Config, value: Any) -> None:
    d.boxes = [_int(f"boxes[{i}]", v, 0) for i, v in enumerate(_per_seat("boxes", value, d.players))]


def _chests(d: CBData, config: Config, value: Any) -> None:
    d.chests = [_chest_list(f"chests[{i}]", hand) for i, hand in enumerate(_per_seat("chests", value, d.players))]


def _chest_deck(d: CBData, config: Config, value: Any) -> None:
    d.chest_deck = _chest_list("chest_deck_top_first", value)[::-1]  # stored top at the end


def _parrot_deck(d: CBData, config: Config, value: Any) -> None:
    d.parrot_deck = _parrot_list("parrot_deck_top_first", value)[::-1]


def _parrot_aside(d: CBData, config: Config, value: Any) -> None:
    d.parrot_aside = _parrot_list("parrot_aside", value)


def _parrots(d: CBData, config: Config, value: Any) -> None:
    d.parrots = [_parrot_list(f"parrots[{i}]", p) for i, p in enumerate(_per_seat("parrots", value, d.players))]


_SETTERS: dict[str, Callable[[CBData, Config, Any], None]] = {
    "round": _round,
    "start": _start,
    "mover": _mover,
    "bag": _bag,
    "island": _island,
    "boxes": _boxes,
    "chests": _chests,
    "chest_deck_top_first": _chest_deck,
    "parrot_deck_top_first": _parrot_deck,
    "parrot_aside": _parrot_aside,
    "parrots": _parrots,
}


# ---------------------------------------------------------------------- whole-position checks
def _fit_round(d: CBData, config: Config, arrangement: Mapping[str, Any]) -> None:
    """Keep round, start player and first start player consistent (the ship moves one seat a round, CB-NEXT-03).

    Without ``start`` the round's start player follows from the first one; with it, the first
    start player follows from it, which must agree with the ``start_seat`` param when that is set.
    Without ``mover`` the start player holds the bag, as at the start of every round (CB-NEXT-03).
    """
    n = d.players
    if "start" in arrangement:
        first = (d.start - (d.round - 1)) % n
        fixed = config["start_seat"]
        if fixed is not None and fixed != first:
            raise ScenarioError(
                f"'start' {d.start} does not fit round {d.round}: param start_seat {fixed} makes seat "
                f"{(fixed + d.round - 1) % n} the start player of round {d.round}"
            )
        d.first_start = first
    else:
        d.start = (d.first_start + d.round - 1) % n
    if "mover" not in arrangement:
        d.mover = d.start


def _check_conservation(d: CBData, config: Config, c: Components) -> None:
    gold = d.bag_gold + sum(d.boxes)
    if gold != c.gold_coins:  # CB-INV-01
        raise ScenarioError(
            f"'bag'/'boxes': gold in the bag ({d.bag_gold}) and the boxes ({sum(d.boxes)}) make {gold}, "
            f"but there are {c.gold_coins} gold coins"
        )
    black = d.bag_black + d.island
    if black != c.black_coins:  # CB-INV-02
        raise ScenarioError(
            f"'bag'/'island': black coins in the bag ({d.bag_black}) and on the island ({d.island}) make {black}, "
            f"but there are {c.black_coins} black coins"
        )
    cards = list(d.chest_deck) + [card for hand in d.chests for card in hand]
    filled = sum(cards)
    if (filled, len(cards) - filled) != (c.chest_filled, c.chest_empty):
        raise ScenarioError(
            f"'chests'/'chest_deck_top_first': the deck and the hands hold {filled} filled and "
            f"{len(cards) - filled} empty chest cards, but there are {c.chest_filled} filled and {c.chest_empty} empty"
        )
    parrots = list(d.parrot_deck) + list(d.parrot_aside) + [v for hand in d.parrots for v in hand]
    if Counter(parrots) != Counter(config["parrot_values"]):
        raise ScenarioError(
            f"'parrot_deck_top_first'/'parrot_aside'/'parrots': the parrot cards are {sorted(parrots)}, but the "
            f"{len(config['parrot_values'])} cards of this game are {sorted(config['parrot_values'])}"
        )


# ---------------------------------------------------------------------- value parsers
def _int(key: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{key!r} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ScenarioError(f"{key!r} must be {bound}, got {value}")
    return value


def _per_seat(key: str, value: Any, players: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != players:
        raise ScenarioError(f"{key!r} must be a list with one entry per seat ({players}), got {value!r}")
    return value


def _chest_list(key: str, value: Any) -> list[bool]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v in CHEST_NAMES for v in value):
        raise ScenarioError(f"{key!r} must be a list of 'filled'/'empty', got {value!r}")
    return [CHEST_NAMES[v] for v in value]


def _parrot_list(key: str, value: Any) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError(f"{key!r} must be a list of parrot values, got {value!r}")
    return [_int(f"{key}[{i}]", v, 0) for i, v in enumerate(value)]
