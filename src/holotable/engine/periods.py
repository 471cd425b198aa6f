"""Timed periods of a game's own table clock, and the one tracker both tables run them with.

The engine has no clock: a game only says which timed period is running now
(:meth:`~holotable.engine.Game.period`) and what the table plays once it is over. The terminal
and the server each read their own time source and feed it to a :class:`PeriodTracker`, which
never reads a clock itself, so tests move time by hand.

>>> tracker = PeriodTracker()
>>> negotiate = Period(("proposal", 1), 120.0, "deadline")
>>> tracker.sync(negotiate, now=10.0) is negotiate
True
>>> tracker.deadline(), tracker.left(100.0), tracker.over(129.9), tracker.over(130.0)
(130.0, 30.0, False, True)

The same period seen again keeps its start; a new key restarts the clock in full:

>>> _ = tracker.sync(negotiate, now=50.0); tracker.deadline()
130.0
>>> _ = tracker.sync(Period(("proposal", 2), 120.0, "deadline"), now=50.0); tracker.deadline()
170.0
>>> _ = tracker.sync(None, now=60.0); tracker.deadline(), tracker.over(1e9)
(None, False)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class Period:
    """A running period of a game's table clock: ``key`` names it (a new key restarts the clock),
    ``seconds`` is its length and ``action`` the text the table plays, for the first seat asked,
    once it is over."""

    key: Hashable
    seconds: float
    action: str


class PeriodTracker:
    """When the running period started. Fed the game's period and the time after every change
    (:meth:`sync`); the deadline follows from the start and the period's length."""

    __slots__ = ("period", "start")

    def __init__(self) -> None:
        #: The period in progress (``None``: no timed period runs).
        self.period: Period | None = None
        #: The time the period in progress started.
        self.start = 0.0

    def sync(self, period: Period | None, now: float) -> Period | None:
        """Take ``period`` as the running one: a period with a new key (or after none) starts
        ``now``; the same key keeps its start. Returns ``period``."""
        if period is not None and (self.period is None or period.key != self.period.key):
            self.start = now
        self.period = period
        return period

    def clear(self) -> None:
        """Forget the running period: the next :meth:`sync` starts afresh even with the same key
        (the terminal does this once it has played the period's action)."""
        self.period = None

    def restart(self, now: float) -> None:
        """Start the running period again at ``now`` (the time a server was down is nobody's)."""
        if self.period is not None:
            self.start = now

    def deadline(self) -> float | None:
        """When the running period is over (``None`` when none runs)."""
        return None if self.period is None else self.start + self.period.seconds

    def left(self, now: float) -> float | None:
        """Seconds left at ``now`` (negative once over; ``None`` when no period runs)."""
        return None if self.period is None else self.period.seconds - (now - self.start)

    def over(self, now: float) -> bool:
        """Whether a period runs and its time is up at ``now``."""
        deadline = self.deadline()
        return deadline is not None and now >= deadline
