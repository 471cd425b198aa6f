"""Bots at a live table: what they know of the time, how they say "not yet", and when they are asked.

In simulation every agent answers at once, and a timed phase is replaced by the game's own
bounds (Black Hole Council's ticks). At a table with people, a phase can instead run on a
clock (Council's two minutes of open negotiation) where every seat may act at any moment. A
bot there must be able to wait, to react to what was said, and not to flood the table. Three
small pieces, used alike by the server and the terminal, keep that one mechanism:

* :class:`PeriodTime` rides on the :class:`~holotable.agents.base.Observation` (``obs.period``):
  how long the running period lasts and how much of it has passed, read from the table's clock.
  It is ``None`` in simulation, where an agent must answer with an action.
* :class:`Wait` is what a *live* agent (``Agent.live = True``) may answer instead of an action:
  "ask me again in this many seconds, or sooner when the table changes".
* :class:`Pacer` keeps, per bot seat, when it is next due. It never reads a clock: the table
  tells it the time, so tests move time by hand.

>>> pacer = Pacer(gap=0.5)
>>> pacer.due([1, 2], now=10.0)
[1, 2]
>>> pacer.acted(1, now=10.0); pacer.waits(2, now=10.0, seconds=3.0)
>>> pacer.due([1, 2], now=10.2), pacer.due([1, 2], now=10.5), pacer.next_time([1, 2])
([], [1], 10.5)
>>> pacer.changed(now=11.0)  # something was said: a waiting bot looks again at once
>>> pacer.due([1, 2], now=11.0)
[1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The shortest time between two actions of one bot at a live table (spec: about 2 a second).
MIN_GAP = 0.5
#: How long a bot that cannot wait on its own (``Agent.live`` is false) leaves between its actions.
PLAIN_GAP = 4.0


@dataclass(frozen=True, slots=True)
class PeriodTime:
    """The running timed period as a bot sees it: its length and the seconds passed (table clock)."""

    seconds: float
    elapsed: float

    @property
    def left(self) -> float:
        return max(0.0, self.seconds - self.elapsed)

    @property
    def share(self) -> float:
        """The part of the period that has passed, 0 to 1."""
        return min(1.0, self.elapsed / self.seconds) if self.seconds > 0 else 1.0


@dataclass(frozen=True, slots=True)
class Wait:
    """A live agent's "not yet": ask again after ``seconds``, or sooner if the table changes."""

    seconds: float = 1.0


class Pacer:
    """When each bot seat of one live table is due to be asked next.

    A seat is due once its wake time has come (``waits``), and never sooner than ``gap`` after
    its own last action (``acted``). A change at the table (``changed``) wakes every waiting seat,
    so bots react to what was said or moved, still no faster than ``gap``."""

    __slots__ = ("_ready", "_wake", "gap")

    def __init__(self, gap: float = MIN_GAP) -> None:
        self.gap = gap
        self._wake: dict[int, float] = {}
        #: seat -> the earliest time it may act again (its last action plus its gap)
        self._ready: dict[int, float] = {}

    def acted(self, seat: int, now: float, gap: float | None = None) -> None:
        """``seat`` just acted: it is due again no sooner than ``gap`` (default: the pacer's) from now."""
        self._ready[seat] = now + (self.gap if gap is None else gap)
        self._wake.pop(seat, None)

    def waits(self, seat: int, now: float, seconds: float) -> None:
        """``seat`` answered :class:`Wait`: due again ``seconds`` from now (or at the next change)."""
        self._wake[seat] = now + max(0.0, seconds)

    def changed(self, now: float) -> None:
        """The table changed: every waiting seat is due now (still after its gap)."""
        for seat in self._wake:
            self._wake[seat] = min(self._wake[seat], now)

    def reset(self) -> None:
        """A new period: every seat is due at once."""
        self._wake.clear()
        self._ready.clear()

    def when(self, seat: int) -> float:
        """The time ``seat`` is next due (``-inf``: now)."""
        wake = self._wake.get(seat, float("-inf"))
        ready = self._ready.get(seat)
        return wake if ready is None else max(wake, ready)

    def due(self, seats: Iterable[int], now: float) -> list[int]:
        """The seats among ``seats`` due at ``now``, in order."""
        return [s for s in seats if self.when(s) <= now]

    def next_time(self, seats: Iterable[int]) -> float | None:
        """The earliest time one of ``seats`` is due (``None`` for no seats)."""
        times = [self.when(s) for s in seats]
        return min(times) if times else None
