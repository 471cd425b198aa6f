"""Simulating a campaign game's schedule: every scheduled game played many times, side by side.

A game with a schedule (see :mod:`holotable.sim.hooks`; Kyrum's 30 scheduled games) tells how
each scheduled game starts; :func:`simulate_schedule` runs :func:`holotable.sim.batch.simulate`
for each, so one table shows whether the difficulty rises sensibly along the schedule.
Scheduled game ``k`` uses the master seed ``derive_seed(seed, "schedule", k)``, so its figures
do not depend on which other games were asked for. A results file (``results_path``) keeps every
scheduled game's results apart (its ``part`` is the game's number), so one file resumes the whole schedule.

``histories`` (default 1) asks a game whose scheduled games start from a played history (Kyrum's
``carry played``) for that many independent histories: scheduled game ``k``'s games are split
evenly over them (the first histories take one more when they do not divide) and pooled into one
report, so its win rate and 95% interval cover every start, not one random draw of it. History 1
is the one a single-history run plays, and each history's games keep their own game indices
(history 2's follow history 1's), so ``histories=1`` is exactly a single-history run.

>>> split_games(10, 3), split_games(200, 1)
([4, 3, 3], [200])

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


def split_games(games: int, histories: int) -> list[int]:
    """``games`` spread as evenly as they go over ``histories`` parts, the larger parts first."""
    if histories < 1:
        raise ConfigError(f"the number of histories must be at least 1, got {histories}")
    if games < histories:
        raise ConfigError(f"{games} game(s) cannot be split over {histories} histories; ask for at least as many")
    share, extra = divmod(games, histories)
    return [share + (1 if h < extra else 0) for h in range(histories)]


@dataclass
class ScheduleReport:
    """One :class:`SimulationReport` per scheduled game, in schedule order."""

    game: str
    seed: int
    carry: str | None
    entries: list[tuple[ScheduledGame, SimulationReport]]
    #: Independent campaign histories each scheduled game's games were split over (pooled in ``entries``).
    histories: int = 1
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
        return {"game": self.game, "seed": self.seed, "carry": self.carry, "histories": self.histories,
                "params": params,
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
    histories: int = 1,
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
    ``histories`` is described in the module docstring.
    """
    game = load(game_name)
    fn = schedule_for(game)
    if fn is None:
        raise ConfigError(f"{game.spec.name} has no schedule of games; --schedule is for campaign games")
    if not agents:
        raise ConfigError("name at least one agent")
    if games < 1:
        raise ConfigError(f"the number of games must be at least 1, got {games}")
    shares = split_games(games, histories)
    check_backend(backend, address, workers)
    base = dict(params or {})
    config = game.spec.make_config(players, **base)
    check_agents(game, agents, config.players)
    with ExitStack() as stack:
        store = None
        if results_path is not None:
            meta = run_metadata(game.spec.name, config.players, config.params, agents, seed, rotate=True,
                                schedule={"carry": carry, **({"histories": histories} if histories > 1 else {})})
            store = stack.enter_context(ResultsFile.open(results_path, meta, resume=resume))
        start = time.perf_counter()
        starts = [fn(config, numbers, agent=agents[0], seed=history_seed(seed, h), carry=carry)
                  for h in range(histories)]
        setup = time.perf_counter() - start
        runner = stack.enter_context(open_backend(backend, address, workers))
        total = games * len(starts[0])
        entries = []
        for done, sched in enumerate(starts[0]):
            parts = []
            for h, share in enumerate(shares):
                step = None if progress is None else _offset(progress, done * games + sum(shares[:h]), total)
                sched_config = game.spec.make_config(players, **{**base, **starts[h][done].params})
                parts.append(run(game, sched_config, share, agents, derive_seed(seed, "schedule", sched.number),
                                 runner, step, store=store, part=sched.number, first=sum(shares[:h])))
            entries.append((sched, parts[0] if len(parts) == 1 else pooled(parts)))
    return ScheduleReport(game.spec.name, seed, carry, entries, histories, setup)


def history_seed(seed: int, history: int) -> int:
    """The seed history ``history`` (0-based) is played from: the master seed for the first, so one
    history is today's single run; ``derive_seed(seed, "history", h)`` for the others."""
    return seed if history == 0 else derive_seed(seed, "history", history)


def pooled(parts: Sequence[SimulationReport]) -> SimulationReport:
    """One report over the games of every history (win rates and intervals over all of them)."""
    first = parts[0]
    return SimulationReport(
        game=first.game, players=first.players, seed=first.seed, agents=first.agents, rotate=first.rotate,
        params=first.params, records=[rec for rep in parts for rec in rep.records],
        workers=max(rep.workers for rep in parts), wall_time=sum(rep.wall_time for rep in parts),
        resumed=sum(rep.resumed for rep in parts), backend=first.backend)


def _offset(progress: ProgressCallback, before: int, total: int) -> ProgressCallback:
    def report(done: int, _total: int) -> None:
        progress(before + done, total)

    return report
