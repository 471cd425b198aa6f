"""Space Pirates: the search bot against the heuristic, in 2-player games.

``.venv/bin/python benchmarks/sp_search.py [--seeds 50] [--first-seed 1000] [--workers 2] [--bot search]
[--rival heuristic] [--json FILE]``

Each seed is played twice, the bot in seat 0 and then in seat 1, against the same board, bag and
dealing (the game seed), so neither seat's first move decides the figure. Reported: the bot's wins of
all games with a 95% Wilson interval, per seat, the game length, and the seconds per decision the bot
spent where it searched (mean and the slowest; its ``time_limit`` caps each search). These are the
only timings, and they are the bot's own budget, not a speed figure: the win rate is the result.
Games run in ``--workers`` processes (each game is seeded, so the figures do not depend on them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SP = "space-pirates"


def play_one(args: tuple[str, str, int, int, int | None]) -> dict[str, Any]:
    """One game: ``bot`` in ``seat`` against ``rival``, game seed ``seed``; who won and how the bot thought."""
    import holotable
    from holotable.agents.base import make_agent, observe
    from holotable.engine import State

    bot_spec, rival_spec, seed, seat, turn_cap = args
    game = holotable.load(SP)
    config = game.spec.make_config(2, **({} if turn_cap is None else {"turn_cap": turn_cap}))
    agents = [make_agent(bot_spec if s == seat else rival_spec, game, seed=seed * 2 + s) for s in range(2)]
    st = State.new(game, config, seed)
    searched: list[float] = []
    steps = 0
    while not game.is_terminal(st):
        for s in st.to_move():
            obs = observe(st, s)
            kind = obs.view["decision"]["kind"]
            started = time.perf_counter()
            action = agents[s].act(obs)
            if s == seat and kind in ("ruler", "choose_card", "flick", "wind_dir") and len(obs.legal) > 1:
                searched.append(time.perf_counter() - started)
            st.apply(action, s)
            steps += 1
        if steps > game.spec.max_game_length:
            raise RuntimeError(f"seed {seed}: the game did not end")
    return {"seed": seed, "seat": seat, "winner": st.data.winner, "turns": st.data.turn,
            "mc": list(st.data.mc), "searched": searched}


def run(bot: str, rival: str, seeds: int, first_seed: int, workers: int,
        turn_cap: int | None = None) -> dict[str, Any]:
    from holotable.sim.stats import wilson_interval

    jobs = [(bot, rival, first_seed + i, seat, turn_cap) for i in range(seeds) for seat in (0, 1)]
    started = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            games = list(pool.map(play_one, jobs))
    else:
        games = [play_one(j) for j in jobs]
    wins = sum(g["winner"] == g["seat"] for g in games)
    low, high = wilson_interval(wins, len(games))
    per_seat = {}
    for seat in (0, 1):
        mine = [g for g in games if g["seat"] == seat]
        w = sum(g["winner"] == seat for g in mine)
        per_seat[seat] = {"wins": w, "games": len(mine), "interval": list(wilson_interval(w, len(mine)))}
    times = [t for g in games for t in g["searched"]]
    return {"bot": bot, "rival": rival, "games": len(games), "wins": wins, "rate": wins / len(games),
            "interval": [low, high], "per_seat": per_seat,
            "turns_mean": sum(g["turns"] for g in games) / len(games),
            "decision_seconds_mean": sum(times) / len(times) if times else 0.0,
            "decision_seconds_max": max(times, default=0.0), "decisions": len(times),
            "seconds": time.perf_counter() - started, "first_seed": first_seed,
            "results": [{k: v for k, v in g.items() if k != "searched"} for g in games]}


def report(f: dict[str, Any]) -> str:
    lo, hi = f["interval"]
    lines = [f"{f['bot']} against {f['rival']}, 2 players, {f['games']} games (seeds {f['first_seed']}.."
             f"{f['first_seed'] + f['games'] // 2 - 1}, each with the bot in both seats)", "",
             "| | wins | rate | 95% interval |", "|---|---|---|---|",
             f"| all | {f['wins']}/{f['games']} | {100 * f['rate']:.0f}% | [{100 * lo:.0f}%, {100 * hi:.0f}%] |"]
    for seat, r in f["per_seat"].items():
        a, b = r["interval"]
        lines.append(f"| bot in seat {seat} | {r['wins']}/{r['games']} | {100 * r['wins'] / max(1, r['games']):.0f}% "
                     f"| [{100 * a:.0f}%, {100 * b:.0f}%] |")
    lines += ["", f"Turns per game: {f['turns_mean']:.1f}. Seconds per searched decision (ruler, card, flick, "
              f"wind; {f['decisions']} of them): mean {f['decision_seconds_mean']:.2f}, slowest "
              f"{f['decision_seconds_max']:.2f}."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=50, help="game seeds; each is played with the bot in both seats")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default="search")
    parser.add_argument("--rival", default="heuristic")
    parser.add_argument("--turn-cap", type=int, help="end games after this many turns (a smoke run; default none)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.workers < 1:
        parser.error("--seeds and --workers must be at least 1")
    figures = run(args.bot, args.rival, args.seeds, args.first_seed, args.workers, args.turn_cap)
    print(report(figures))
    print(f"\n({figures['seconds']:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
