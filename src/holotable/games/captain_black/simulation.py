"""Captain Black in simulations and balance reports: measures of a finished game, per game and per seat.

Per game: decisions (draws) per round, the mean handful, the winner's filled chests and whether the
win was shared. Per seat: filled and empty chest cards, draws and the mean handful (how much risk the
seat's policy takes), gold boxed per round, parrot cards taken (rounds with the fewest coins, and their
points), and the family ``draw_size:<band>``: the share of the seat's draws in each handful band
(``1-3``, ``4-6``, ``7-10``, ``11-20``, ``21+``). ``parrots:taken`` is 1 for a seat that took parrots at
least once (an indicator: balance reports give the win rate of those seats, the parrots' catch-up power).

The chest distribution by seat and by policy (agent) is the score distribution of the report.

>>> from holotable.sim import simulate
>>> report = simulate("captain-black", players=2, games=2, agents=["heuristic", "random"], seed=3)
>>> sorted(report.measures)
['draws_per_round', 'mean_draw', 'shared_win', 'winner_chests']
"""

from __future__ import annotations

from typing import Any

from holotable.engine import State

from .state import CBData

#: Handful bands (inclusive lower, inclusive upper) of ``draw_size``; the last is open-ended.
DRAW_BANDS: tuple[tuple[int, int | None], ...] = ((1, 3), (4, 6), (7, 10), (11, 20), (21, None))


def band(k: int) -> str:
    """The ``draw_size`` band of a handful of ``k`` coins.

    >>> band(1), band(6), band(11), band(40)
    ('1-3', '4-6', '11-20', '21+')
    """
    for lo, hi in DRAW_BANDS:
        if hi is None or lo <= k <= hi:
            return f"{lo}+" if hi is None else f"{lo}-{hi}"
    raise ValueError(k)


def _draws(state: State[Any, Any]) -> list[tuple[int, int]]:
    """(seat, coins drawn) of every move."""
    return [(seat, int(action.k)) for seat, action in state.history]


def measures(state: State[Any, Any]) -> dict[str, float]:
    d: CBData = state.data
    draws = _draws(state)
    out = state.outcome()
    filled = [sum(hand) for hand in d.chests]
    return {
        "draws_per_round": len(draws) / len(d.rounds) if d.rounds else 0.0,
        "mean_draw": sum(k for _, k in draws) / len(draws) if draws else 0.0,
        "winner_chests": float(max(filled)),
        "shared_win": 1.0 if len(out.winners) > 1 else 0.0,
    }


def seat_measures(state: State[Any, Any]) -> list[dict[str, float]]:
    d: CBData = state.data
    draws = _draws(state)
    result = []
    for seat in range(d.players):
        mine = [k for s, k in draws if s == seat]
        parrot_cards = [card for rnd in d.rounds for card in rnd["parrots"].get(str(seat), [])]
        parrot_rounds = sum(1 for rnd in d.rounds if str(seat) in rnd["parrots"])
        numbers: dict[str, float] = {
            "filled_chests": float(sum(d.chests[seat])),
            "empty_chests": float(len(d.chests[seat]) - sum(d.chests[seat])),
            "draws": float(len(mine)),
            "gold_per_round": sum(rnd["gold"][seat] for rnd in d.rounds) / len(d.rounds) if d.rounds else 0.0,
            "parrot_rounds": float(parrot_rounds),
            "parrot_points": float(sum(parrot_cards)),
            "parrots:taken": 1.0 if parrot_rounds else 0.0,
        }
        if mine:
            numbers["mean_draw"] = sum(mine) / len(mine)
            for lo, _ in DRAW_BANDS:
                name = band(lo)
                numbers[f"draw_size:{name}"] = sum(1 for k in mine if band(k) == name) / len(mine)
        result.append(numbers)
    return result
