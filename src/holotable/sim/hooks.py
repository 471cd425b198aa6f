"""What a game may add to simulation reports: named measures of a finished game, and a schedule.

* **Measures**: ``measures(state) -> {name: number}`` turns a finished game into numbers worth
  averaging over many games (game length in the game's own units, points by source, gauges at
  the end...). ``holotable simulate`` reports each one's mean with a 95% interval; balance
  reports can reuse the same hook.
* **Seat measures**: ``seat_measures(state) -> [{name: number}, ...]``, one mapping per seat, for
  what belongs to a player rather than to the game (Council's share of right Deduction guesses,
  coins earned by source...). The report averages them per agent and per seat position.
* **Schedule**: a campaign game plays a fixed series of games (Kyrum's 30 scheduled games). A
  schedule function turns a configuration into one :class:`ScheduledGame` per game number: the
  parameter values that start that game. ``holotable simulate --schedule`` plays each of them
  many times (:mod:`holotable.sim.schedule`).

A game names them as the ``measures``, ``seat_measures`` and ``schedule`` roles of its manifest
(:mod:`holotable.engine.manifest`; the built-in games keep them in their ``simulation`` module),
imported the first time a hook of that game is asked for.

>>> import holotable
>>> schedule_for(holotable.load("captain-black")) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from holotable.engine import Config, Game, State, registry

MeasuresFn = Callable[[State[Any, Any]], Mapping[str, float]]
"""``fn(finished_state)`` -> named numbers (the same names for every game of a configuration)."""

SeatMeasuresFn = Callable[[State[Any, Any]], Sequence[Mapping[str, float]]]
"""``fn(finished_state)`` -> one mapping of named numbers per seat (a seat may leave a name out)."""


@dataclass(frozen=True)
class ScheduledGame:
    """One game of a schedule: its number, a label for reports and the parameters that start it."""

    number: int
    label: str
    #: Parameter values to set on top of the simulation's own (e.g. Kyrum's ``campaign``).
    params: Mapping[str, Any] = field(default_factory=dict)


class ScheduleFn(Protocol):
    """``fn(config, numbers, agent=..., seed=..., carry=...)`` -> the scheduled games asked for.

    ``numbers`` is ``None`` for every scheduled game. ``carry`` names how the earlier games'
    leftovers are built (``None``: the game's default); ``agent`` and ``seed`` are for a game
    that builds them by playing the earlier games. Raises :class:`~holotable.engine.ConfigError`
    for a number outside the schedule or an unknown ``carry``.
    """

    def __call__(
        self, config: Config, numbers: Sequence[int] | None, *, agent: str, seed: int, carry: str | None
    ) -> list[ScheduledGame]: ...


def measures_for(game: Game[Any, Any]) -> MeasuresFn | None:
    """The measures the game's manifest names, or ``None``."""
    fn: MeasuresFn | None = registry.offered(game.spec.name, "measures")
    return fn


def seat_measures_for(game: Game[Any, Any]) -> SeatMeasuresFn | None:
    """The per-seat measures the game's manifest names, or ``None``."""
    fn: SeatMeasuresFn | None = registry.offered(game.spec.name, "seat_measures")
    return fn


def schedule_for(game: Game[Any, Any]) -> ScheduleFn | None:
    """The schedule the game's manifest names, or ``None``."""
    fn: ScheduleFn | None = registry.offered(game.spec.name, "schedule")
    return fn
