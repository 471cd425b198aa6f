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

A game package registers them from an optional ``simulation`` module, imported the first time
a hook of that game is asked for (like the ``bots`` and ``encoding`` companions).

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


_MEASURES: dict[str, MeasuresFn] = {}
_SEAT_MEASURES: dict[str, SeatMeasuresFn] = {}
_SCHEDULES: dict[str, ScheduleFn] = {}
_LOOKED: set[str] = set()


def register_measures(game_name: str, fn: MeasuresFn) -> None:
    """Report ``fn(finished_state)`` for every simulated game of ``game_name``."""
    _MEASURES[game_name] = fn


def register_seat_measures(game_name: str, fn: SeatMeasuresFn) -> None:
    """Report ``fn(finished_state)[seat]`` per agent and per seat for every simulated game of ``game_name``."""
    _SEAT_MEASURES[game_name] = fn


def register_schedule(game_name: str, fn: ScheduleFn) -> None:
    """``game_name`` plays a schedule of games; ``fn`` gives the parameters of each."""
    _SCHEDULES[game_name] = fn


def _load(game: Game[Any, Any]) -> str:
    name = game.spec.name
    if name not in _LOOKED:
        _LOOKED.add(name)
        if name not in _MEASURES and name not in _SEAT_MEASURES and name not in _SCHEDULES:
            registry.import_companion(game, "simulation")
    return name


def measures_for(game: Game[Any, Any]) -> MeasuresFn | None:
    """The game's registered measures, or ``None``."""
    return _MEASURES.get(_load(game))


def seat_measures_for(game: Game[Any, Any]) -> SeatMeasuresFn | None:
    """The game's registered per-seat measures, or ``None``."""
    return _SEAT_MEASURES.get(_load(game))


def schedule_for(game: Game[Any, Any]) -> ScheduleFn | None:
    """The game's registered schedule, or ``None``."""
    return _SCHEDULES.get(_load(game))
