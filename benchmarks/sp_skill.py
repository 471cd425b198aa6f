"""Space Pirates: how far each dexterity level's flicks land from where they were aimed.

``.venv/bin/python benchmarks/sp_skill.py [--shots 60] [--flicks 40] [--seed 1] [--quick] [--json FILE]``

A 4-player table whose seats have the four levels (``seat_dexterity=precise,casual,standard,shaky``)
is set up (random players, until the first card is chosen: the board, the ships at their bases and
the set-up transports). Then ``--shots`` shots are drawn (seeded): a transport on the map, an angle
and a strength in 0.1..0.6, kept if the flick, played without noise, leaves the token on the field.
Its resting point is the *aimed stop*. Each seat plays every shot ``--flicks`` times through the rules'
own flick (``flow.resolve_flick``: the seat's noise from ``skill.flick_noise``, then the pymunk
physics), and the distance from the aimed stop to where the token came to rest (or crossed the edge)
is its error.

The four seats draw the same random numbers for the same flick (one RNG seed per shot and flick), so
the levels are compared on the same throws: the ratios to ``standard`` are paired. Intervals are 95%
bootstrap intervals that resample whole shots (the flicks of one shot are not independent), seeded.
Nothing here is timed: the figures are distances in cm.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SP = "space-pirates"
BASELINE = "standard"
BOOTSTRAP = 2000


@dataclass(frozen=True)
class Shot:
    tid: int
    angle: float
    strength: float
    aimed: tuple[float, float]  # where the noise-free flick stops


@dataclass(frozen=True)
class Level:
    """One level's errors (cm), ``errors[shot][flick]``."""

    name: str
    noise: tuple[float, float]
    errors: tuple[tuple[float, ...], ...]
    exits: int

    @property
    def flat(self) -> list[float]:
        return [e for shot in self.errors for e in shot]


def table(seed: int) -> Any:
    """A set-up 4-player table, one dexterity level per seat (the levels in data order)."""
    from holotable.agents import make_agent, observe
    from holotable.engine import load

    game = load(SP)
    levels = tuple(game.content.constants.dexterity)
    state = game.new_state(players=len(levels), seed=seed, first_seat=0, seat_dexterity=",".join(levels))
    agents = [make_agent("random", game, seed=s) for s in range(len(levels))]
    while game.decision(state).kind != "choose_card" and not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(agents[seat].act(observe(state, seat)), seat)
    return state


def draw_shots(state: Any, count: int, rng: random.Random) -> list[Shot]:
    """``count`` shots whose noise-free flick leaves the token resting on the field."""
    from holotable.engine import Rng
    from holotable.games.space_pirates.physics import PymunkFlickResolver

    d = state.data
    tids = sorted(d.map_tokens())
    resolver = PymunkFlickResolver()
    shots: list[Shot] = []
    for _ in range(count * 20):
        if len(shots) == count:
            break
        tid = tids[rng.randrange(len(tids))]
        angle, strength = round(rng.uniform(-180.0, 180.0), 1), round(rng.uniform(0.1, 0.6), 2)
        out = resolver.resolve(d.layout, d.ship_positions(), d.map_tokens(), tid, angle, strength, Rng(0))
        if tid in out.rest:
            shots.append(Shot(tid, angle, strength, out.rest[tid]))
    if len(shots) < count:
        raise RuntimeError(f"only {len(shots)} of {count} shots stay on the field")
    return shots


def landing(state: Any, seat: int, shot: Shot, seed: int) -> tuple[tuple[float, float], bool]:
    """Where ``seat``'s flick of ``shot`` stops (or leaves the field), through the rules' own flick."""
    from holotable.engine import Rng
    from holotable.games.space_pirates import decisions as dec
    from holotable.games.space_pirates import flow

    ctx = flow.Ctx(state, state.game.content)
    ctx.rng = Rng(seed)  # the same throw for every seat: paired comparisons
    _, _, out = flow.resolve_flick(ctx, dec.Flick(seat, shot.tid, "FLICK"), shot.angle, shot.strength)
    if shot.tid in out.exits:
        return out.exits[shot.tid], True
    return out.rest[shot.tid], False


def measure(shots: int, flicks: int, seed: int, echo: Callable[[str], None] = lambda s: None) -> list[Level]:
    from holotable.games.space_pirates import skill

    state = table(seed)
    rng = random.Random(seed)
    chosen = draw_shots(state, shots, rng)
    levels = []
    for seat in range(state.data.n):
        name = skill.skill_name(state.config, seat)
        errors, exits = [], 0
        for i, shot in enumerate(chosen):
            row = []
            for k in range(flicks):
                p, left = landing(state, seat, shot, seed * 1_000_003 + i * 1009 + k)
                exits += left
                row.append(math.dist(p, shot.aimed))
            errors.append(tuple(row))
        levels.append(Level(name, skill.flick_noise(state.config, seat), tuple(errors), exits))
        echo(f"  {name}: done")
    return levels


def bootstrap(levels: Sequence[Level], seed: int, rounds: int = BOOTSTRAP) -> dict[str, dict[str, float]]:
    """Per level: mean and median error with 95% intervals, and the paired ratio of means to standard."""
    base = next(lv for lv in levels if lv.name == BASELINE)
    n = len(base.errors)
    rng = random.Random(seed)
    samples: dict[str, dict[str, list[float]]] = {lv.name: {"mean": [], "median": [], "ratio": []} for lv in levels}
    for _ in range(rounds):
        pick = [rng.randrange(n) for _ in range(n)]
        base_mean = statistics.fmean(e for i in pick for e in base.errors[i])
        for lv in levels:
            flat = [e for i in pick for e in lv.errors[i]]
            mean = statistics.fmean(flat)
            samples[lv.name]["mean"].append(mean)
            samples[lv.name]["median"].append(statistics.median(flat))
            samples[lv.name]["ratio"].append(mean / base_mean)
    out = {}
    base_point = statistics.fmean(base.flat)
    for lv in levels:
        s = samples[lv.name]
        point = statistics.fmean(lv.flat)
        out[lv.name] = {
            "angle_sd": lv.noise[0], "strength_sd": lv.noise[1], "flicks": len(lv.flat), "exits": lv.exits,
            "mean": point, "mean_low": _q(s["mean"], 0.025), "mean_high": _q(s["mean"], 0.975),
            "median": statistics.median(lv.flat), "median_low": _q(s["median"], 0.025),
            "median_high": _q(s["median"], 0.975), "p90": _q(lv.flat, 0.9),
            "ratio": point / base_point, "ratio_low": _q(s["ratio"], 0.025), "ratio_high": _q(s["ratio"], 0.975),
        }
    return out


def _q(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def markdown(result: dict[str, dict[str, float]], shots: int, flicks: int, seed: int) -> str:
    lines = [f"{shots} shots x {flicks} flicks per level, seed {seed}; errors in cm from the aimed stop "
             "(95% bootstrap intervals over shots)", "",
             "| level | noise (angle sd, strength sd) | mean | median | 90% within | vs standard (mean) "
             "| left the field |",
             "|---|---|---|---|---|---|---|"]
    for name, r in result.items():
        lines.append(
            f"| {name} | {r['angle_sd']:g} deg, {100 * r['strength_sd']:g}% | "
            f"{r['mean']:.2f} ({r['mean_low']:.2f}-{r['mean_high']:.2f}) | "
            f"{r['median']:.2f} ({r['median_low']:.2f}-{r['median_high']:.2f}) | {r['p90']:.2f} | "
            f"{r['ratio']:.2f} ({r['ratio_low']:.2f}-{r['ratio_high']:.2f}) | "
            f"{int(r['exits'])} of {int(r['flicks'])} |")
    return "\n".join(lines)


def run(shots: int = 60, flicks: int = 40, seed: int = 1,
        echo: Callable[[str], None] = print) -> dict[str, dict[str, float]]:
    echo(f"Space Pirates flick error per dexterity level ({shots} shots x {flicks} flicks, seed {seed})")
    levels = measure(shots, flicks, seed, echo)
    result = bootstrap(levels, seed)
    echo(markdown(result, shots, flicks, seed))
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--shots", type=int, default=60, help="different shots (token, angle, strength)")
    parser.add_argument("--flicks", type=int, default=40, help="flicks of each shot per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="8 shots x 5 flicks, a smoke run")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    shots, flicks = (8, 5) if args.quick else (args.shots, args.flicks)
    if shots < 1 or flicks < 1:
        parser.error("--shots and --flicks must be at least 1")
    result = run(shots, flicks, args.seed)
    if args.json:
        args.json.write_text(json.dumps({"shots": shots, "flicks": flicks, "seed": args.seed, "levels": result},
                                        indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
