"""Kyrum's campaign curve: a skilled bot's win rate at each of the 30 scheduled games, against the target.

``.venv/bin/python benchmarks/kyrum_campaign_curve.py [--games 200] [--histories 5] [--agent planner]
[--seed 1] [--set KEY=VALUE ...] [--out docs/reports/kyrum-campaign]``

It runs the lab's schedule simulation (the same as ``holotable simulate kyrum --schedule 1-30
--agents planner --games N --histories H --seed S``: ``H`` independent campaign histories played
by the agent, game ``k`` played ``N`` times in all, split evenly over the histories, each from its
campaign as it stands after game ``k - 1``, with the items, NP and flags it carries; the results
are pooled, so a game's figure does not hang on one random history) and writes, in ``--out``:

* ``curve.png``: the measured win rate per scheduled game with its 95% Wilson interval, the target
  curve the demo pack is tuned to and the 15% floor no scheduled game may fall below;
* ``curve.csv`` and ``curve.md``: the same numbers as a table (game, objectives, wins, rate,
  interval, target), plus a summary (distance from the target, lowest game, games under the floor).

``--set`` passes data overrides (``--set schedule.12.objectives="C L"``) to try a schedule
before editing the pack. The target (:func:`target`) is written in docs/games/kyrum.md.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import matplotlib

matplotlib.use("Agg")  # files only, no display (must precede pyplot)
import matplotlib.pyplot as plt

from holotable.sim.report import parse_settings
from holotable.sim.schedule import simulate_schedule

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "docs" / "reports" / "kyrum-campaign"
GAMES_IN_SCHEDULE = 30
#: The target: a gentle, straight fall from the first game to the last (docs/games/kyrum.md).
TARGET_FIRST, TARGET_LAST = 0.45, 0.20
#: No scheduled game may be won less often than this by the best bot.
FLOOR = 0.15


def target(game: int, length: int = GAMES_IN_SCHEDULE) -> float:
    """The win rate aimed for at scheduled game ``game`` (1-based).

    >>> round(target(1), 2), round(target(30), 2), round(target(15), 3)
    (0.45, 0.2, 0.329)
    """
    return TARGET_FIRST + (TARGET_LAST - TARGET_FIRST) * (game - 1) / (length - 1)


@dataclass(frozen=True)
class Point:
    """One scheduled game's measured win rate."""

    game: int
    objectives: str
    wins: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def target(self) -> float:
        return target(self.game)


def measure(games: int, agent: str, seed: int, settings: dict[str, str], workers: int | None,
            histories: int = 1) -> list[Point]:
    """Play every scheduled game ``games`` times over ``histories`` histories (see the module docstring)."""
    params = {"data": settings} if settings else {}
    report = simulate_schedule("kyrum", 1, games, [agent], seed, list(range(1, GAMES_IN_SCHEDULE + 1)),
                               histories=histories, workers=workers, params=params)
    points = []
    for sched, rep in report.entries:
        seat = rep.seats[0]
        points.append(Point(sched.number, sched.label, seat.wins, seat.games, *seat.win_rate_ci))
    return points


def summary(points: Sequence[Point]) -> dict[str, float]:
    """How far the curve is from the target, and its lowest game.

    >>> s = summary([Point(1, "B", 6, 10, 0.3, 0.8), Point(30, "A", 1, 10, 0.0, 0.4)])
    >>> s["mean_abs_gap"], s["lowest_rate"], s["under_floor"]
    (0.125, 0.1, 1.0)
    """
    gaps = [abs(p.rate - p.target) for p in points]
    lowest = min(points, key=lambda p: p.rate)
    return {"mean_abs_gap": round(sum(gaps) / len(gaps), 4), "max_abs_gap": round(max(gaps), 4),
            "lowest_game": float(lowest.game), "lowest_rate": lowest.rate,
            "under_floor": float(sum(1 for p in points if p.rate < FLOOR)),
            "overall": sum(p.wins for p in points) / sum(p.games for p in points)}


def write_csv(points: Sequence[Point], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["game", "objectives", "wins", "games", "win_rate", "ci_low", "ci_high", "target"])
        for p in points:
            out.writerow([p.game, p.objectives, p.wins, p.games, f"{p.rate:.4f}", f"{p.low:.4f}", f"{p.high:.4f}",
                          f"{p.target:.4f}"])


def markdown(points: Sequence[Point], command: str) -> str:
    s = summary(points)
    lines = [f"Command: `{command}`", "",
             "| # | Objectives | Won | Win rate [95% CI] | Target |", "|--:|---|--:|--:|--:|"]
    for p in points:
        lines.append(f"| {p.game} | {p.objectives} | {p.wins}/{p.games} | {p.rate:.0%} [{p.low:.0%}, {p.high:.0%}] "
                     f"| {p.target:.0%} |")
    total = sum(p.games for p in points)
    lines += ["", f"All scheduled games: {sum(p.wins for p in points)}/{total} won ({s['overall']:.1%}). "
              f"Mean distance from the target {s['mean_abs_gap']:.1%} (largest {s['max_abs_gap']:.1%}); "
              f"lowest game {int(s['lowest_game'])} at {s['lowest_rate']:.0%}; "
              f"{int(s['under_floor'])} game(s) under the {FLOOR:.0%} floor.", ""]
    return "\n".join(lines)


def plot(points: Sequence[Point], path: Path, title: str) -> None:
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=110)
    xs = [p.game for p in points]
    rates = [100 * p.rate for p in points]
    below = [100 * (p.rate - p.low) for p in points]
    above = [100 * (p.high - p.rate) for p in points]
    ax.plot(xs, [100 * target(x) for x in xs], color="#2b7bba", lw=2, label="target")
    ax.errorbar(xs, rates, yerr=[below, above], fmt="o-", color="#d9542b", ms=4, lw=1.2, capsize=2.5,
                label="measured (95% interval)")
    ax.axhline(100 * FLOOR, color="#777777", ls="--", lw=1, label=f"floor {FLOOR:.0%}")
    ax.set_xlabel("scheduled game")
    ax.set_ylabel("win rate (%)")
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs], fontsize=7)
    ax.set_ylim(0, 100)
    ax.set_xlim(0.5, len(xs) + 0.5)
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per scheduled game")
    parser.add_argument("--agent", default="planner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--histories", type=int, default=1, help="independent campaign histories, pooled")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--set", dest="settings", action="append", default=[], help="data override KEY=VALUE")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    settings = parse_settings(args.settings)
    points = measure(args.games, args.agent, args.seed, settings, args.workers, args.histories)
    args.out.mkdir(parents=True, exist_ok=True)
    extra = "".join(f" --set {k}={v!r}" for k, v in settings.items())
    command = (f"python benchmarks/kyrum_campaign_curve.py --games {args.games} --agent {args.agent} "
               f"--histories {args.histories} --seed {args.seed}{extra}")
    write_csv(points, args.out / "curve.csv")
    (args.out / "curve.md").write_text(markdown(points, command), encoding="utf-8")
    plot(points, args.out / "curve.png",
         f"Kyrum demo campaign: {args.agent} win rate per scheduled game ({args.games} games each over "
         f"{args.histories} histories, seed {args.seed})")
    print(markdown(points, command))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
