"""Black Hole: Kyrum's speed, against Captain Black measured in the same run.

``.venv/bin/python benchmarks/kyrum_bench.py [--quick] [--json FILE]``

Figures, each also as a ratio to a baseline timed alongside it (interleaved rounds, best run
kept, as in :mod:`benchmarks.suite`), so the ratios hold on any machine:

* random play through the engine API: complete solo games of demo game 1 per second, uniform
  over the legal actions (:func:`benchmarks.engine_bench.engine_batch`; ``concede`` is legal at
  every turn, so these games are short), and the same with ``concede`` left out (the spec's
  RandomBot, §8, whose games run to a real end); against Captain Black 4p games per second, and
  the cost of one step against Captain Black's;
* the heuristic bot's think time: the mean time of one ``act`` over every decision of whole
  heuristic games, against Captain Black's heuristic over 4-player games;
* ISMCTS iterations per second for the first decision of a game (a fresh
  ``make_agent("ismcts", game, seed=1, iterations=N)`` per decision), against the same searcher
  on Captain Black's first decision (4 players).
"""

from __future__ import annotations

import argparse
import random
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
from benchmarks.timing import Rate, Work, measure_interleaved, pin_to_one_core

KYR = "kyrum"
CB = "captain-black"
CB_PLAYERS = 4
PLAYERS = {KYR: 1, CB: CB_PLAYERS}


def no_concede_batch(seed: int = 0) -> Callable[[], Work]:
    """A workload: one solo game per call, uniform over the legal actions except ``concede``."""
    from holotable.engine import State, load

    game = load(KYR)
    config = engine_bench.config_for(game, 1)
    rng = random.Random(seed)
    next_seed = iter(range(seed * 1_000_003, 1 << 62))

    def batch() -> Work:
        st = State.new(game, config, next(next_seed))
        steps = 0
        while not st.is_terminal():
            legal = [a for a in st.legal_actions(0) if a.verb != "concede"]
            st.apply(legal[rng.randrange(len(legal))], 0)
            steps += 1
        st.outcome()
        return Work(games=1, steps=steps)

    return batch


def run(
    *,
    seconds: float = 1.0,
    repeats: int = 5,
    iterations: int = 200,
    think_games: int = 2,
    echo: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Time random play, heuristic decisions and ISMCTS decisions in interleaved rounds; the figures."""
    uniform, careful, base = f"engine {KYR} 1p", f"engine {KYR} 1p no concede", f"engine {CB} {CB_PLAYERS}p"
    batches = {
        uniform: engine_bench.engine_batch(KYR, 1),
        careful: no_concede_batch(),
        base: engine_bench.engine_batch(CB, CB_PLAYERS),
    }
    deciders = {name: decision_timer(name, players=PLAYERS[name], iterations=iterations) for name in (KYR, CB)}
    thinkers = {name: think_timer(name, players=PLAYERS[name]) for name in (KYR, CB)}
    decisions: dict[str, list[float]] = {name: [] for name in deciders}
    thinking: dict[str, list[float]] = {name: [] for name in thinkers}

    def between(round_no: int) -> None:
        for name, decide in deciders.items():
            decisions[name].append(decide()[0])
        for name, think in thinkers.items():
            thinking[name].append(mean_think_time(think, think_games))
        echo(f"  round {round_no + 1}/{repeats} done")

    rates: dict[str, Rate] = measure_interleaved(batches, seconds=seconds, repeats=repeats, between=between)
    cb = rates[base]

    ismcts = {name: search_figures(iterations, times) for name, times in decisions.items()}
    return {
        "rates": {key: rate.to_dict() for key, rate in rates.items()},
        "random_play": play_figures(rates[uniform], cb),
        "random_play_no_concede": play_figures(rates[careful], cb),
        "heuristic": {
            "act_s_best": min(thinking[KYR]),
            "baseline_act_s_best": min(thinking[CB]),
            "act_time_vs_baseline": min(thinking[KYR]) / min(thinking[CB]),
        },
        "ismcts": {
            **ismcts[KYR],
            "baseline_iterations_per_s": ismcts[CB]["iterations_per_s"],
            "iterations_per_s_vs_baseline": ismcts[KYR]["iterations_per_s"] / ismcts[CB]["iterations_per_s"],
        },
    }


def report(figures: dict[str, Any]) -> str:
    search, think = figures["ismcts"], figures["heuristic"]
    lines = []
    for key, title in (("random_play", "uniform random play"), ("random_play_no_concede", "random play, no concede")):
        play = figures[key]
        lines += [
            f"Kyrum {title}: {play['games_per_s']:,.1f} games/s "
            f"({play['steps_per_game']:.1f} steps/game, {play['us_per_step']:.1f} µs/step)",
            f"  vs Captain Black {CB_PLAYERS}p in the same run: {play['games_per_s_vs_baseline']:.3f}x the games/s "
            f"({play['baseline_games_per_s']:,.0f}), {play['step_cost_vs_baseline']:.2f}x the cost per step",
        ]
    return "\n".join(
        [
            *lines,
            f"Kyrum heuristic: {think['act_s_best'] * 1e3:.2f} ms per decision, "
            f"{think['act_time_vs_baseline']:.1f}x Captain Black's heuristic "
            f"({think['baseline_act_s_best'] * 1e3:.3f} ms)",
            f"Kyrum ISMCTS ({search['iterations']} iterations, first decision): "
            f"{search['iterations_per_s']:,.0f} iterations/s (best decision {search['decision_s_best']:.3f} s, "
            f"median {search['decision_s_median']:.3f} s)",
            f"  vs Captain Black in the same run: {search['iterations_per_s_vs_baseline']:.3f}x "
            f"({search['baseline_iterations_per_s']:,.0f} iterations/s)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (short, fewer repeats)")
    parser.add_argument("--seconds", type=float, help="length of one timed run (default 1.0; 0.2 with --quick)")
    parser.add_argument("--repeats", type=int, help="timed rounds (default 5; 2 with --quick)")
    parser.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per decision (default 200)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU core")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if not args.no_pin:
        pin_to_one_core()
    figures = run(
        seconds=args.seconds or (0.2 if args.quick else 1.0),
        repeats=args.repeats or (2 if args.quick else 5),
        iterations=args.iterations,
    )
    print(report(figures))
    if args.json:
        write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
