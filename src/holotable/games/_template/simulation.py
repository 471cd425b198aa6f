"""What ``holotable simulate`` reports about Last Pebble (the ``measures``, ``seat_measures`` and
``schedule`` roles).

>>> [g.label for g in schedule(None, None, agent="random", seed=0, carry=None)][:2]  # type: ignore[arg-type]
['pile 5', 'pile 10']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from holotable.engine import Config, ConfigError, State
from holotable.sim.hooks import ScheduledGame

#: The schedule's piles: a "campaign" of ever longer games.
PILES = (5, 10, 15, 20)


def measures(state: State[Any, Any]) -> dict[str, float]:
    """Of a finished game: how many turns it lasted."""
    return {"turns": float(state.ply)}


def seat_measures(state: State[Any, Any]) -> list[dict[str, float]]:
    """Of a finished game, per seat: whether it took the last pebble."""
    return [{"took_last": float(seat == state.data.winner)} for seat in range(state.players)]


def schedule(config: Config, numbers: Sequence[int] | None, *, agent: str, seed: int,
             carry: str | None) -> list[ScheduledGame]:
    """Game ``n`` (1-4) starts with ``PILES[n - 1]`` pebbles; nothing carries from one to the next."""
    if carry is not None:
        raise ConfigError(f"Last Pebble's games carry nothing over, not {carry!r}")
    wanted = list(numbers) if numbers is not None else list(range(1, len(PILES) + 1))
    for n in wanted:
        if not 1 <= n <= len(PILES):
            raise ConfigError(f"Last Pebble's schedule has games 1-{len(PILES)}, not {n}")
    return [ScheduledGame(n, f"pile {PILES[n - 1]}", {"pile": PILES[n - 1]}) for n in wanted]
