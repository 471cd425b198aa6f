"""Black Hole Buccaneers in simulations and balance reports: measures of a finished game.

Per game: the share of seats pulled in over the three rounds, and ``pulled_in:<black hole>`` for each
black hole played (the share of seats it pulled in; black holes not in this game are left out, so the
report's mean is the pull-in rate *when that black hole is played*).

Per seat: the points of each round (``round_points:1``..), rounds pulled in, ``pulled_in:<black hole>``
(0/1, only for the black holes of this game), ``cards:<kind>`` (how many cards of each kind the seat laid
out over the game: spaceship, artifact, robot...) and ``collected:<card id>`` (1 if the seat laid that card
out in some round, else 0, for every card): an indicator family, so balance reports give the win rate by
card collected. A card is collected when it is laid out in its owner's tableau: chosen from hand (also a
random card forced by the Analog GPS Tracker, which asks nobody), taken with the Titan Tentacle, or laid out
by the Surprise Egg or the Alien Wading Pool. The finished state no longer holds earlier rounds' tableaux,
so the measures replay the game's action log with the event log on (replay is exact) and read those
lay-outs from it.

>>> from holotable.sim import simulate
>>> report = simulate("buccaneers", players=3, games=1, agents=["random"], seed=2)
>>> report.measures["pulled_in_share"].n
1
"""

from __future__ import annotations

from functools import cache
from typing import Any

from holotable.engine import State

from .state import BHBData


@cache
def card_kinds() -> dict[str, str]:
    """Card id -> its kind (the data class's name in lower case: ``spaceship``, ``artifact``...)."""
    from .data import load_default

    return {card.id: type(card).__name__.lower() for card in load_default().junk}


#: Events that lay a card out in a seat's tableau (each names ``seat`` and ``card``).
LAY_OUT_EVENTS = frozenset({"reveal", "lay_toy_private", "tentacle_take", "lay_scoring"})
#: The last state replayed and its result: both measure hooks ask for the same finished state in turn.
_LAST: list[tuple[State[Any, Any], int, list[list[str]]]] = []


def collected(state: State[Any, Any]) -> list[list[str]]:
    """The cards each seat laid out over the game, in order (replays the game once per finished state)."""
    if _LAST and _LAST[0][0] is state and _LAST[0][1] == state.ply:
        return _LAST[0][2]
    replay = State.new(state.game, state.config, state.seed, record=True)
    for seat, action in state.history:
        replay.apply(action, seat)
    out: list[list[str]] = [[] for _ in range(state.data.players)]
    for ev in replay.events or ():
        if ev.kind in LAY_OUT_EVENTS:
            out[int(ev.data["seat"])].append(str(ev.data["card"]))
    _LAST[:] = [(state, state.ply, out)]
    return out


def measures(state: State[Any, Any]) -> dict[str, float]:
    d: BHBData = state.data
    seat_rounds = [pulled for rnd in d.pad for pulled in rnd["pulled_in"]]
    out = {"pulled_in_share": sum(seat_rounds) / len(seat_rounds) if seat_rounds else 0.0}
    for hole, rounds in _rounds_by_hole(d).items():
        flags = [pulled for rnd in rounds for pulled in rnd["pulled_in"]]
        out[f"pulled_in:{hole}"] = sum(flags) / len(flags)
    return out


def _rounds_by_hole(d: BHBData) -> dict[str, list[dict[str, Any]]]:
    """The finished rounds of each black hole (an agreed stack may repeat one)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for rnd in d.pad:
        out.setdefault(rnd["black_hole"], []).append(rnd)
    return out


def seat_measures(state: State[Any, Any]) -> list[dict[str, float]]:
    d: BHBData = state.data
    kinds = card_kinds()
    cards = collected(state)
    result = []
    for seat in range(d.players):
        numbers: dict[str, float] = {"rounds_pulled_in": float(sum(rnd["pulled_in"][seat] for rnd in d.pad))}
        for rnd in d.pad:
            numbers[f"round_points:{rnd['round']}"] = float(rnd["points"][seat])
        for hole, rounds in _rounds_by_hole(d).items():  # 0/1, or the share when a hole came twice
            numbers[f"pulled_in:{hole}"] = sum(1.0 for rnd in rounds if rnd["pulled_in"][seat]) / len(rounds)
        for kind in sorted(set(kinds.values())):
            numbers[f"cards:{kind}"] = float(sum(1 for c in cards[seat] if kinds.get(c) == kind))
        mine = set(cards[seat])
        for card in kinds:
            numbers[f"collected:{card}"] = 1.0 if card in mine else 0.0
        result.append(numbers)
    return result
