"""Black Hole Council's speed, against Captain Black measured in the same run.

``.venv/bin/python benchmarks/council_bench.py [--quick] [--json FILE]``

Three figures, each with a baseline timed alongside it (interleaved rounds, best run kept,
as in :mod:`benchmarks.suite`), so the ratios hold on any machine:

* random play at 5 players through the engine API (:func:`benchmarks.engine_bench.engine_batch`):
  complete Council games per second, against Captain Black 4p games per second; and the cost
  of one step (one seat's decision) against Captain Black's;
* the heuristic bot's think time (if ``heuristic`` is registered for the game): the mean time
  of one ``act`` over every decision of all-heuristic 5-player games, against Captain Black's
  heuristic over 4-player games;
* ISMCTS iterations per second for the first decision of a 5-player game (the first seat
  asked in the live negotiation), each decision by a fresh
  ``make_agent("ismcts", game, seed=1, iterations=N)``, against the same searcher on
  Captain Black's first decision. Both games' searchers use their registered rollouts (the
  Council's stops at the end of the round; without it a rollout is a whole random game of
  about 950 decisions, mostly table talk, and ISMCTS manages under 10 iterations per second).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import engine_bench
from benchmarks.game_timers import (
    decision_timer,
    mean_think_time,
    play_figures,
    search_figures,
    think_timer,
    write_json,
)
from benchmarks.timing import Rate, measure_interleaved, pin_to_one_core

BHC = "council"
CB = "captain-black"
PLAYERS = 5
CB_PLAYERS = 4


def run(
    *,
    seconds: float = 1.0,
    repeats: int = 5,
    iterations: int = 200,
    baseline_iterations: int = 200,
    think_games: int = 2,
    echo: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Time both games' random play, heuristic decisions and ISMCTS decisions in interleaved rounds."""
    batches = {
        f"engine {BHC} {PLAYERS}p": engine_bench.engine_batch(BHC, PLAYERS),
        f"engine {CB} {CB_PLAYERS}p": engine_bench.engine_batch(CB, CB_PLAYERS),
    }
    deciders = {
        BHC: decision_timer(BHC, players=PLAYERS, iterations=iterations),
        CB: decision_timer(CB, players=CB_PLAYERS, iterations=baseline_iterations),
    }
    thinkers = {BHC: think_timer(BHC, players=PLAYERS), CB: think_timer(CB, players=CB_PLAYERS)}
    decisions: dict[str, list[float]] = {name: [] for name in deciders}
    thinking: dict[str, list[float]] = {name: [] for name in thinkers}

    def between(round_no: int) -> None:
        for name, decide in deciders.items():
            decisions[name].append(decide()[0])
        for name, think in thinkers.items():
            if think is None:
                continue
            thinking[name].append(mean_think_time(think, think_games))
        echo(f"  round {round_no + 1}/{repeats} done")

    rates: dict[str, Rate] = measure_interleaved(batches, seconds=seconds, repeats=repeats, between=between)
    bhc, cb = rates[f"engine {BHC} {PLAYERS}p"], rates[f"engine {CB} {CB_PLAYERS}p"]
    counts = {BHC: iterations, CB: baseline_iterations}
    ismcts = {name: search_figures(counts[name], times) for name, times in decisions.items()}
    heuristic: dict[str, Any] | None = None
    if thinking[BHC]:
        heuristic = {
            "us_per_decision_best": 1e6 * min(thinking[BHC]),
            "us_per_decision_median": 1e6 * statistics.median(thinking[BHC]),
            "baseline_us_per_decision": 1e6 * min(thinking[CB]) if thinking[CB] else None,
        }
        if thinking[CB]:
            heuristic["think_time_vs_baseline"] = min(thinking[BHC]) / min(thinking[CB])
    return {
        "rates": {key: rate.to_dict() for key, rate in rates.items()},
        "random_play": play_figures(bhc, cb),
        "heuristic": heuristic,
        "ismcts": {
            **ismcts[BHC],
            "baseline_iterations": baseline_iterations,
            "baseline_iterations_per_s": ismcts[CB]["iterations_per_s"],
            "iterations_per_s_vs_baseline": ismcts[BHC]["iterations_per_s"] / ismcts[CB]["iterations_per_s"],
        },
    }


def report(figures: dict[str, Any]) -> str:
    play, search, heuristic = figures["random_play"], figures["ismcts"], figures["heuristic"]
    lines = [
        f"Council {PLAYERS}p random play: {play['games_per_s']:,.2f} games/s "
        f"({play['steps_per_game']:.0f} steps/game, {play['us_per_step']:.1f} µs/step)",
        f"  vs Captain Black {CB_PLAYERS}p in the same run: {play['games_per_s_vs_baseline']:.4f}x the games/s "
        f"({play['baseline_games_per_s']:,.0f}), {play['step_cost_vs_baseline']:.2f}x the cost per step",
    ]
    if heuristic is None:
        lines.append("Council heuristic: not registered (no think time)")
    else:
        base = heuristic.get("baseline_us_per_decision")
        lines.append(
            f"Council heuristic think time: {heuristic['us_per_decision_best']:,.1f} µs/decision "
            f"(median round {heuristic['us_per_decision_median']:,.1f} µs)"
        )
        if base is not None:
            lines.append(
                f"  vs Captain Black's heuristic in the same run: {heuristic['think_time_vs_baseline']:.2f}x "
                f"({base:,.1f} µs/decision)"
            )
    lines += [
        f"Council ISMCTS ({search['iterations']} iterations, first decision): "
        f"{search['iterations_per_s']:,.1f} iterations/s (best decision {search['decision_s_best']:.3f} s, "
        f"median {search['decision_s_median']:.3f} s)",
        f"  vs Captain Black ({search['baseline_iterations']} iterations) in the same run: "
        f"{search['iterations_per_s_vs_baseline']:.4f}x ({search['baseline_iterations_per_s']:,.0f} iterations/s)",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (short, fewer repeats)")
    parser.add_argument("--seconds", type=float, help="length of one timed run (default 1.0; 0.3 with --quick)")
    parser.add_argument("--repeats", type=int, help="timed rounds (default 5; 2 with --quick)")
    parser.add_argument("--iterations", type=int, default=200, help="Council ISMCTS iterations per decision (200)")
    parser.add_argument("--baseline-iterations", type=int, default=200, help="Captain Black's (default 200)")
    parser.add_argument("--think-games", type=int, default=2, help="all-heuristic games per round (default 2)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU core")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if not args.no_pin:
        pin_to_one_core()
    figures = run(
        seconds=args.seconds or (0.3 if args.quick else 1.0),
        repeats=args.repeats or (2 if args.quick else 5),
        iterations=args.iterations,
        baseline_iterations=args.baseline_iterations,
        think_games=1 if args.quick else args.think_games,
    )
    print(report(figures))
    if args.json:
        write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
