"""Builders for the Black Hole Buccaneers tests: arranged positions through the public ``arrange`` hook.

Scoring-phase positions are arranged in round 3 (the black hole ``hole`` at the bottom of an agreed
stack) so the game ends after step H and the tableaux, piles and pad can be inspected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import holotable
from holotable.engine import State
from holotable.games.buccaneers import cards as tb
from holotable.games.buccaneers.state import BHBData, Laid

GAME = holotable.load("buccaneers")
BState = State[BHBData, Any]
OTHER_HOLES = {"BH-M2": ("BH-R2", "BH-D4"), "BH-M1": ("BH-R2", "BH-D4"), "BH-R4": ("BH-M1", "BH-D4")}


def new(players: int = 3, seed: int = 0, *, record: bool = True, **params: Any) -> BState:
    return GAME.new_state(players=players, seed=seed, record=record, **params)


def arranged(players: int, arrangement: Mapping[str, Any], *, seed: int = 0, record: bool = True,
             **params: Any) -> BState:
    st = new(players, seed, record=record, **params)
    st.arrange(dict(arrangement))
    return st


def scoring(tableaux: Sequence[Sequence[Any]], bh_pile: Sequence[Any], *, hole: str = "BH-M2", seed: int = 0,
            record: bool = True, params: Mapping[str, Any] | None = None, **extra: Any) -> BState:
    """A position at the start of step A of the last round."""
    first, second = OTHER_HOLES.get(hole, ("BH-M1", "BH-R1"))
    arrangement = {"round": 3, "phase": "scoring", "tableaux": [list(t) for t in tableaux],
                   "bh_pile": list(bh_pile), **extra}
    return arranged(len(tableaux), arrangement, seed=seed, record=record,
                    black_holes=f"{first},{second},{hole}", **(params or {}))


def selection(hands: Sequence[Sequence[str]], *, tableaux: Sequence[Sequence[Any]] | None = None,
              direction: str = "CW", seed: int = 0, round_: int = 1, record: bool = True,
              params: Mapping[str, Any] | None = None, **extra: Any) -> BState:
    """A position at step 1 of a turn (first-game black holes unless ``black_holes`` is in params)."""
    n = len(hands)
    arrangement: dict[str, Any] = {"hands": [list(h) for h in hands], "round": round_, **extra}
    if tableaux is not None:
        arrangement["tableaux"] = [list(t) for t in tableaux]
    p = {"setup": "first_game", "direction": direction, **(params or {})}
    return arranged(n, arrangement, seed=seed, record=record, **p)


def play(st: BState, *cards: str) -> None:
    """Step 1: seat i plays ``cards[i]``; seats not asked (GPS) are skipped (give ``""``)."""
    for seat, card in enumerate(cards):
        if card:
            st.apply(f"play {card}", seat)


def decide(st: BState, text: str) -> None:
    st.apply(text)


def item(st: BState, seat: int, card: str) -> Laid:
    return tb.laid(st.data, seat, card)


def vw(st: BState, seat: int, card: str) -> tuple[int, int]:
    it = item(st, seat, card)
    s = tb.stats(st.data.tableaux[seat], it)
    return (s.value, s.weight)


def cards_of(st: BState, seat: int) -> list[str]:
    return [it.card for it in st.data.tableaux[seat]]


def pad(st: BState) -> dict[str, Any]:
    return dict(st.data.pad[-1])


def events(st: BState, kind: str, seat: int | None = None) -> list[Any]:
    return [e for e in st.log_for(seat) if e.kind == kind]
