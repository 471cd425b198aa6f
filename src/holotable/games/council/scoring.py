"""Scoring a round (BHC-SCORE), the Intrigue effects on it (BHC-INTRIGUE) and Pay-Out coins (BHC-PAYOUT).

Pure functions over planet ids; the data come from :mod:`.data`.

>>> from .data import load_default
>>> DATA = load_default()
>>> ex01 = ["RBW-MINUS", "GRN-E", "YEL-F", "RED-C", "BLU-D"]  # BHC-EX-01
>>> round_points(DATA, DATA.agendas[0], ex01)
4
>>> round_points(DATA, DATA.agendas[0], ex01, intrigue=BLACK_HOLE, failed=2)
6
"""

from __future__ import annotations

from collections.abc import Sequence

from .data import BLACK_HOLE, CONQUER, MINE, SETTLE, TAX, CouncilData, Planet

__all__ = ["BLACK_HOLE", "matches", "payout_coins", "round_points", "tax_coins"]


def matches(planet: Planet, agenda: Sequence[int], outcome: int) -> bool:
    """A planet matches a Goal when it is a Rainbow or the Agenda sends its colour there (BHC-SCORE-01/02)."""
    return planet.rainbow or agenda[planet.colour] == outcome


def round_points(
    data: CouncilData, agenda: Sequence[int], table: Sequence[str], intrigue: int | None = None, failed: int = 0
) -> int:
    """A player's points for the arrangement ``table`` (planet ids by outcome), with an Intrigue effect.

    ``failed`` counts the Proposals 1 and 2 that failed earlier this round (Black Hole Intrigue).
    """
    planets = [data.planet(pid) for pid in table]
    if intrigue == MINE:  # BHC-INTRIGUE-MINE-01: only this player's count sees Tax and Mine swapped
        planets[TAX], planets[MINE] = planets[MINE], planets[TAX]
    total = 0
    for outcome, planet in enumerate(planets):  # BHC-SCORE-01/03
        if matches(planet, agenda, outcome):
            total += planet.points
            if outcome == SETTLE and intrigue == SETTLE:  # BHC-INTRIGUE-SETTLE-01: doubled, -1 becomes -2
                total += planet.points
        elif outcome == CONQUER and intrigue == CONQUER:  # BHC-INTRIGUE-CONQUER-01: counted once
            total += planet.points
    if intrigue == BLACK_HOLE:  # BHC-INTRIGUE-BH-01
        total += failed
    return total


def tax_coins(data: CouncilData, table: Sequence[str]) -> int:
    """Extra coins of the Tax Intrigue with Get Paid: the Tax planet's points, never negative (BHC-AMB-24)."""
    return max(0, data.planet(table[TAX]).points)


def payout_coins(data: CouncilData, agenda: Sequence[int], history: Sequence[Sequence[str] | None]) -> int:
    """Coins a player collects at Pay-Out from the face-up history sets (BHC-PAYOUT-02..05).

    ``None`` stands for a written-off set, which pays nothing.
    """
    coins = 0
    for planets in history:
        if planets is None:
            continue
        for outcome, pid in enumerate(planets):
            planet = data.planet(pid)
            if planet.coin and matches(planet, agenda, outcome):
                coins += planet.coin
    return coins
