"""Space Pirates' speed, against Captain Black measured in the same run.

``.venv/bin/python benchmarks/space_pirates_bench.py [--quick] [--json FILE]``

Three figures, each with a ratio to a baseline timed alongside it (interleaved rounds, best run
kept, as in :mod:`benchmarks.suite`), so the ratios hold on any machine:

* **one flick**: the pymunk resolver (``PymunkFlickResolver.resolve``) on the table of a 3-player
  game after its set-up (elements, bases, ships, the set-up transports), a fixed set of angles and
  strengths; against one engine step of a random Captain Black game;
* **bot think time**: the mean time of one heuristic ``act`` over every decision of 2-player
  heuristic-vs-heuristic games (default turn cap), against Captain Black's heuristic per decision;
* **random play**: complete 2-player games per second through the engine API with uniformly
  random legal actions (the default 40-turn cap ends most of them), against Captain Black 2p.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import engine_bench
from benchmarks.game_timers import mean_think_time, think_timer, write_json
from benchmarks.timing import Rate, Work, measure_interleaved, pin_to_one_core

SP = "space-pirates"
CB = "captain-black"
PLAYERS = 2


def flick_batch(players: int = 3, seed: int = 1) -> Callable[[], Work]:
    """A workload: one flick simulation per call on a set-up table (Work.steps counts flicks)."""
    from holotable.agents import make_agent, observe
    from holotable.engine import Rng, load
    from holotable.games.space_pirates.physics import PymunkFlickResolver

    game = load(SP)
    state = game.new_state(players=players, seed=seed, first_seat=0)
    agents = [make_agent("random", game, seed=s) for s in range(players)]
    while game.decision(state).kind != "choose_card" and not state.is_terminal():  # type: ignore[attr-defined]
        seat = state.to_move()[0]
        state.apply(agents[seat].act(observe(state, seat)), seat)
    d = state.data
    tokens = d.map_tokens()
    ships = d.ship_positions()
    tids = sorted(tokens)
    resolver = PymunkFlickResolver()
    shots = [(float(a), s) for a in range(0, 360, 30) for s in (0.1, 0.3, 0.6)]
    counter = [0]

    def batch() -> Work:
        i = counter[0]
        counter[0] += 1
        angle, strength = shots[i % len(shots)]
        resolver.resolve(d.layout, ships, tokens, tids[i % len(tids)], angle, strength, Rng(i))
        return Work(games=0, steps=1)

    return batch


def _think(name: str, games: int) -> float:
    play = think_timer(name, players=PLAYERS)
    assert play is not None, f"{name} has no heuristic bot"
    return mean_think_time(play, games)


def run(*, seconds: float = 1.0, repeats: int = 5, think_games: int = 2,
        echo: Callable[[str], None] = print) -> dict[str, Any]:
    batches = {
        "flick": flick_batch(),
        f"engine {SP} {PLAYERS}p": engine_bench.engine_batch(SP, PLAYERS),
        f"engine {CB} {PLAYERS}p": engine_bench.engine_batch(CB, PLAYERS),
    }
    thinking: dict[str, list[float]] = {SP: [], CB: []}

    def between(round_no: int) -> None:
        for name in thinking:
            start = time.perf_counter()
            thinking[name].append(_think(name, think_games if name == SP else 20))
            echo(f"  {name} heuristic games: {time.perf_counter() - start:.1f} s")
        echo(f"  round {round_no + 1}/{repeats} done")

    rates: dict[str, Rate] = measure_interleaved(batches, seconds=seconds, repeats=repeats, between=between)
    flick = rates["flick"]
    sp, cb = rates[f"engine {SP} {PLAYERS}p"], rates[f"engine {CB} {PLAYERS}p"]
    flick_s = 1.0 / flick.steps_per_s
    cb_step_s = cb.us_per_step / 1e6
    return {
        "rates": {key: rate.to_dict() for key, rate in rates.items()},
        "flick": {
            "ms_per_flick": flick_s * 1e3,
            "baseline_us_per_step": cb.us_per_step,
            "flick_vs_baseline_step": flick_s / cb_step_s,
        },
        "random_play": {
            "games_per_s": sp.games_per_s,
            "steps_per_game": sp.steps_per_s / sp.games_per_s if sp.games_per_s else 0.0,
            "us_per_step": sp.us_per_step,
            "baseline_games_per_s": cb.games_per_s,
            "games_per_s_vs_baseline": sp.games_per_s / cb.games_per_s,
            "step_cost_vs_baseline": sp.us_per_step / cb.us_per_step,
        },
        "heuristic": {
            "act_s_best": min(thinking[SP]),
            "baseline_act_s_best": min(thinking[CB]),
            "act_time_vs_baseline": min(thinking[SP]) / min(thinking[CB]),
        },
    }


def report(figures: dict[str, Any]) -> str:
    flick, play, think = figures["flick"], figures["random_play"], figures["heuristic"]
    return "\n".join([
        f"Space Pirates flick (pymunk, set-up table): {flick['ms_per_flick']:.2f} ms per flick, "
        f"{flick['flick_vs_baseline_step']:,.0f}x one Captain Black engine step "
        f"({flick['baseline_us_per_step']:.1f} µs)",
        f"Space Pirates {PLAYERS}p random play: {play['games_per_s']:.2f} games/s "
        f"({play['steps_per_game']:.0f} steps/game, {play['us_per_step']:,.0f} µs/step)",
        f"  vs Captain Black {PLAYERS}p in the same run: {play['games_per_s_vs_baseline']:.5f}x the games/s "
        f"({play['baseline_games_per_s']:,.0f}), {play['step_cost_vs_baseline']:,.0f}x the cost per step",
        f"Space Pirates heuristic: {think['act_s_best'] * 1e3:.1f} ms per decision, "
        f"{think['act_time_vs_baseline']:,.0f}x Captain Black's heuristic "
        f"({think['baseline_act_s_best'] * 1e3:.3f} ms)",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (short, fewer repeats)")
    parser.add_argument("--seconds", type=float, help="length of one timed run (default 2.0; 0.5 with --quick)")
    parser.add_argument("--repeats", type=int, help="timed rounds (default 3; 1 with --quick)")
    parser.add_argument("--think-games", type=int, default=2, help="heuristic games per round (default 2)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU core")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if not args.no_pin:
        pin_to_one_core()
    figures = run(
        seconds=args.seconds or (0.5 if args.quick else 2.0),
        repeats=args.repeats or (1 if args.quick else 3),
        think_games=1 if args.quick else args.think_games,
    )
    print(report(figures))
    if args.json:
        write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
