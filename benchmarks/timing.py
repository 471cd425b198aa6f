"""Timing helpers: repeat a workload, keep the best run, describe the machine.

Best-of-N is used because on a shared machine noise only ever makes a run
slower; the fastest run is the closest estimate of what the code costs.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Work:
    """What one call of a workload did: complete games and engine steps."""

    games: int = 0
    steps: int = 0


@dataclass
class Rate:
    """The best of several timed runs of one workload."""

    name: str
    games_per_s: float
    steps_per_s: float
    seconds: float  # duration of the best run
    runs: int
    all_steps_per_s: list[float] = field(default_factory=list)

    @property
    def us_per_step(self) -> float:
        return 1e6 / self.steps_per_s if self.steps_per_s else float("inf")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["us_per_step"] = self.us_per_step
        return out


def measure(name: str, batch: Callable[[], Work], *, seconds: float = 1.0, repeats: int = 5) -> Rate:
    """Call ``batch`` repeatedly for about ``seconds`` per run, ``repeats`` runs; keep the fastest."""
    return measure_interleaved({name: batch}, seconds=seconds, repeats=repeats)[name]


def measure_interleaved(
    batches: dict[str, Callable[[], Work]],
    *,
    seconds: float = 1.0,
    repeats: int = 5,
    between: Callable[[int], None] | None = None,
) -> dict[str, Rate]:
    """Time every workload in rounds: round ``r`` runs each workload once for about ``seconds``.

    Interleaving matters on a shared machine: when load comes and goes, every
    workload (baselines included) sees the same quiet and busy spells, so the
    ratios between them stay fair. Each workload keeps its fastest run (noise
    only ever slows a run down). One short warm-up per workload comes first
    (imports, caches, interned objects). ``between(r)`` runs after each round.
    """
    for batch in batches.values():
        _run_for(batch, min(0.2, seconds))
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in batches}
    for round_no in range(repeats):
        for name, batch in batches.items():
            runs[name].append(_run_for(batch, seconds))
        if between is not None:
            between(round_no)
    rates = {}
    for name, done in runs.items():
        games, steps, elapsed = max(done, key=lambda run: (run[1] / run[2], run[0] / run[2]))
        all_rates = [s / e for _, s, e in done]
        rates[name] = Rate(name, games / elapsed, steps / elapsed, elapsed, repeats, all_rates)
    return rates


def _run_for(batch: Callable[[], Work], seconds: float) -> tuple[float, float, float]:
    games = steps = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        work = batch()
        games += work.games
        steps += work.steps
        now = clock()
        if now >= deadline:
            return games, steps, now - start




def pin_to_one_core() -> int | None:
    """Pin this process to one CPU (the lowest allowed) so runs are not migrated; None where unsupported."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = os.sched_getaffinity(0)
    core = min(allowed)
    os.sched_setaffinity(0, {core})
    return core


def machine() -> dict[str, Any]:
    """The facts a reader needs to compare figures: CPU, cores, Python, load."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": model,
        "nproc": os.cpu_count(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


class CpuMeter:
    """How much CPU other processes used while the benchmark ran (Linux /proc/stat only).

    Figures from a busy machine are pessimistic; this says how busy it was.
    """

    def __init__(self) -> None:
        self._start = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float, float] | None:
        try:
            with open("/proc/stat", encoding="utf-8") as fh:
                fields = [int(x) for x in fh.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        tick = os.sysconf("SC_CLK_TCK")
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        busy = (sum(fields[:8]) - idle) / tick  # user..steal; guest time is already in user
        own = os.times()
        return time.perf_counter(), busy, own.user + own.system

    def report(self) -> dict[str, float] | None:
        end = self._sample()
        if self._start is None or end is None:
            return None
        wall = end[0] - self._start[0]
        others = max(0.0, (end[1] - self._start[1]) - (end[2] - self._start[2]))
        return {"wall_s": wall, "other_cpu_s": others, "other_cores_busy": others / wall if wall else 0.0}
