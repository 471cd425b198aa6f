"""Simulating a campaign game's schedule: every scheduled game played many times, side by side.

A game with a schedule (see :mod:`holotable.sim.hooks`; Kyrum's 30 scheduled games) tells how
each scheduled game starts; :func:`simulate_schedule` runs :func:`holotable.sim.batch.simulate`
for each, so one table shows whether the difficulty rises sensibly along the schedule.
Scheduled game ``k`` uses the master seed ``derive_seed(seed, "schedule", k)``, so its figures
do not depend on which other games were asked for. A results file (``results_path``) keeps every
scheduled game's results apart (its ``part`` is the game's number), so one file resumes the whole schedule.

>>> parse_numbers("1-3,7"), parse_numbers("all")
([1, 2, 3, 7], None)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holotable.engine import ConfigError, derive_seed, load

from .backends import check_backend, open_backend
from .batch import ProgressCallback, SimulationReport, check_agents, run
from .hooks import ScheduledGame, schedule_for
from .results import ResultsFile, run_metadata


def parse_numbers(text: str) -> list[int] | None:
    """``"all"`` -> ``None``; ``"1-30"``, ``"4"``, ``"1,5,9-12"`` -> the sorted game numbers."""
    text = text.strip().lower()
    if text == "all":
        return None
    numbers: set[int] = set()
    try:
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            first, last = int(lo), int(hi) if sep else int(lo)
            if first < 1 or last < first:
                raise ValueError(part)
            numbers.update(range(first, last + 1))
    except ValueError:
        raise ConfigError(f"cannot read {text!r} as game numbers; e.g. 'all', '1-30', '1,5,9-12'") from None
    return sorted(numbers)


@dataclass
class ScheduleReport:
    """One :class:`SimulationReport` per scheduled game, in schedule order."""

    game: str
    seed: int
    carry: str | None
    entries: list[tuple[ScheduledGame, SimulationReport]]
    #: Seconds spent building the scheduled games' starting points (a ``played`` history).
    setup_time: float = 0.0

    @property
    def wall_time(self) -> float:
        return self.setup_time + sum(rep.wall_time for _, rep in self.entries)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; each scheduled game's report without the parameters that start it."""
        rows = []
        for sched, rep in self.entries:
            full = rep.to_dict()
            full.pop("params", None)
            full.pop("timing", None)
            rows.append({"number": sched.number, "label": sched.label, **full})
        first = self.entries[0][1] if self.entries else None
        params = {k: v for k, v in (first.params if first else {}).items()
                  if not any(k in sched.params for sched, _ in self.entries)}
        return {"game": self.game, "seed": self.seed, "carry": self.carry, "params": params,
                "schedule": rows, "timing": {"wall_time_s": self.wall_time, "setup_time_s": self.setup_time}}


def simulate_schedule(
    game_name: str,
    players: int | None,
    games: int,
    agents: Sequence[str],
    seed: int,
    numbers: Sequence[int] | None = None,
    *,
    carry: str | None = None,
    workers: int | None = None,
    params: Mapping[str, Any] | None = None,
    progress: ProgressCallback | None = None,
    backend: str = "local",
    address: str | None = None,
    results_path: str | Path | None = None,
    resume: bool = False,
) -> ScheduleReport:
    """Play each scheduled game (``numbers``, default all) ``games`` times with ``agents``.

    ``workers``, ``backend``, ``address``, ``results_path`` and ``resume`` are as for
    :func:`~holotable.sim.batch.simulate`; one backend and one results file serve every scheduled game.
    """
    game = load(game_name)
    fn = schedule_for(game)
    if fn is None:
        raise ConfigError(f"{game.spec.name} has no schedule of games; --schedule is for campaign games")
    if not agents:
        raise ConfigError("name at least one agent")
    if games < 1:
        raise ConfigError(f"the number of games must be at least 1, got {games}")
    check_backend(backend, address, workers)
    base = dict(params or {})
    config = game.spec.make_config(players, **base)
    check_agents(game, agents, config.players)
    with ExitStack() as stack:
        store = None
        if results_path is not None:
            meta = run_metadata(game.spec.name, config.players, config.params, agents, seed, rotate=True,
                                schedule={"carry": carry})
            store = stack.enter_context(ResultsFile.open(results_path, meta, resume=resume))
        start = time.perf_counter()
        scheduled = fn(config, numbers, agent=agents[0], seed=seed, carry=carry)
        setup = time.perf_counter() - start
        runner = stack.enter_context(open_backend(backend, address, workers))
        total = games * len(scheduled)
        entries = []
        for done, sched in enumerate(scheduled):
            step = None if progress is None else _offset(progress, done * games, total)
            sched_config = game.spec.make_config(players, **{**base, **sched.params})
            rep = run(game, sched_config, games, agents, derive_seed(seed, "schedule", sched.number), runner, step,
                      store=store, part=sched.number)
            entries.append((sched, rep))
    return ScheduleReport(game.spec.name, seed, carry, entries, setup)


def _offset(progress: ProgressCallback, before: int, total: int) -> ProgressCallback:
    def report(done: int, _total: int) -> None:
        progress(before + done, total)

    return report
