"""Table clocks: the server is the clock. Time is read from an injectable :class:`Clock`
so tests move it by hand instead of sleeping.

Two kinds of clock run at a table:

- the **seat clock** chosen when the table is created: ``none``, ``per_move`` (each decision
  has ``seconds``) or ``per_game`` (each seat has ``seconds`` for the whole game, spent only
  while it is asked to decide);
- the **game's own table clock**, for a game whose rules time a phase (Black Hole Council's
  timed Negotiate phase): the game declares it (:meth:`~holotable.engine.Game.period`), the
  server tracks it with the engine's :class:`~holotable.engine.PeriodTracker`, as terminal play
  does, and plays the period's action (``deadline``) when one is over.

While a game period runs, **the period is the clock**: the seat clocks stand still. No seat
times out during it and no per-game time is spent (every seat may be asked the whole time, as in
Council's open negotiation, where a non-Leader's per-move timeout would otherwise end the talk for
everyone). Per-game time spent before the period is charged when it starts; when it is over, each
seat then asked starts a fresh decision (``per_move``) or goes on spending what it had left
(``per_game``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal, Protocol

from holotable.engine.periods import Period, PeriodTracker

ClockMode = Literal["none", "per_move", "per_game"]


class Clock(Protocol):
    """Seconds since the epoch (a float)."""

    def now(self) -> float: ...


class SystemClock:
    """The wall clock."""

    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to (tests).

    >>> clock = ManualClock(100.0)
    >>> clock.advance(2.5); clock.now()
    102.5
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds


@dataclass(frozen=True)
class ClockSettings:
    mode: ClockMode = "none"
    seconds: int = 0

    @property
    def active(self) -> bool:
        return self.mode != "none" and self.seconds > 0


@dataclass
class SeatClocks:
    """The clock state of one table: when each asked seat started deciding, what per-game time is
    left, and the game period in progress. Fed with the state after every change (:meth:`sync`),
    also when a table is rebuilt from its stored action times, so per-game time survives a restart.
    """

    settings: ClockSettings
    players: int
    asked_since: dict[int, float] = field(default_factory=dict)
    remaining: dict[int, float] = field(default_factory=dict)
    #: The game's own timed period in progress.
    periods: PeriodTracker = field(default_factory=PeriodTracker)

    def __post_init__(self) -> None:
        if self.settings.mode == "per_game":
            self.remaining = {s: float(self.settings.seconds) for s in range(self.players)}

    def sync(self, asked: tuple[int, ...], now: float, actor: int | None = None,
             period: Period | None = None) -> None:
        """Account for a change: seats no longer asked stop their clocks; newly asked seats (and the
        seat that just acted, if still asked) start a fresh decision now. While a game period runs
        nothing is charged (see the module docstring); its start and its end restart every asked seat."""
        paused_before, paused_after = self.period is not None, period is not None
        for seat in list(self.asked_since):
            if seat not in asked or seat == actor:
                if not paused_before:
                    self._charge(seat, now)
                del self.asked_since[seat]
        if paused_before != paused_after:  # a period starts (charge what went before) or ends (start afresh)
            for seat in self.asked_since:
                if not paused_before:
                    self._charge(seat, now)
                self.asked_since[seat] = now
        for seat in asked:
            self.asked_since.setdefault(seat, now)
        self.periods.sync(period, now)

    def restart_from(self, now: float) -> None:
        """Resume after a restart: the time the server was down is not charged to anyone."""
        for seat in self.asked_since:
            self.asked_since[seat] = now
        self.periods.restart(now)

    @property
    def period(self) -> Period | None:
        """The game's timed period in progress (``None``: none runs)."""
        return self.periods.period

    def _charge(self, seat: int, now: float) -> None:
        if self.settings.mode == "per_game":
            self.remaining[seat] = max(0.0, self.remaining[seat] - (now - self.asked_since[seat]))

    @property
    def paused(self) -> bool:
        """Whether the seat clocks stand still: a game period runs (it is the clock)."""
        return self.period is not None

    def period_elapsed(self, now: float) -> float | None:
        """Seconds of the running period passed at ``now`` (``None`` when none runs)."""
        return None if self.period is None else max(0.0, now - self.periods.start)

    def seat_deadline(self, seat: int) -> float | None:
        if not self.settings.active or seat not in self.asked_since or self.paused:
            return None
        if self.settings.mode == "per_move":
            return self.asked_since[seat] + self.settings.seconds
        return self.asked_since[seat] + self.remaining[seat]

    def period_deadline(self) -> float | None:
        return self.periods.deadline()

    def next_deadline(self) -> float | None:
        times = [t for s in self.asked_since if (t := self.seat_deadline(s)) is not None]
        if (p := self.period_deadline()) is not None:
            times.append(p)
        return min(times) if times else None

    def expired_seats(self, now: float) -> list[int]:
        return sorted(s for s in self.asked_since if (t := self.seat_deadline(s)) is not None and now >= t)

    def period_over(self, now: float) -> bool:
        return self.periods.over(now)

    def remaining_at(self, now: float) -> dict[int, float]:
        """Seconds left per seat now: per_move for the seats asked, per_game for every seat."""
        if not self.settings.active:
            return {}
        if self.paused:  # standing still: per_move restarts in full once the period is over
            if self.settings.mode == "per_move":
                return {s: float(self.settings.seconds) for s in sorted(self.asked_since)}
            return dict(self.remaining)
        if self.settings.mode == "per_move":
            return {s: max(0.0, self.settings.seconds - (now - t)) for s, t in sorted(self.asked_since.items())}
        out = dict(self.remaining)
        for seat, since in self.asked_since.items():
            out[seat] = max(0.0, out[seat] - (now - since))
        return out
