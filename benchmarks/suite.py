"""The whole benchmark: measure every workload, print the table, check the goals, write JSON.

Run it with ``make bench`` or ``.venv/bin/python benchmarks/run_all.py [--quick] [--json FILE]``.
Workloads whose code is missing (OpenSpiel not installed, an adapter not yet
written) are skipped with the reason, and the goals that need them say SKIP.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import engine_bench, handwritten, ismcts_bench, openspiel_baselines, pettingzoo_bench
from .timing import CpuMeter, Rate, Work, machine, measure_interleaved, pin_to_one_core

CB = "captain-black"
CB_PLAYERS = 4
GOOFSPIEL_KEY = "openspiel goofspiel (C++)"
KUHN_KEY = "openspiel python_kuhn_poker (Python)"
ISMCTS_KEY = f"ismcts {CB} {CB_PLAYERS}p"

# The goals' limits; each goal is checked against figures measured in the same run.
MIN_CB_GAMES_PER_S = 1000.0
MAX_SLOWDOWN_VS_HANDWRITTEN = 6.0
MAX_STEP_COST_VS_GOOFSPIEL = 5.0
MAX_ADAPTER_OVERHEAD = 2.0
MAX_ISMCTS_DECISION_S = 1.0
ISMCTS_ITERATIONS = 1000


@dataclass
class Goal:
    text: str
    status: str  # PASS, FAIL or SKIP
    figure: str

    def to_dict(self) -> dict[str, str]:
        return {"goal": self.text, "status": self.status, "figure": self.figure}


@dataclass
class Settings:
    seconds: float
    repeats: int
    ismcts_per_round: int


class Suite:
    """Builds every workload, then times them together; one that cannot be built is recorded as skipped."""

    def __init__(self, settings: Settings, echo: Callable[[str], None]) -> None:
        self.settings = settings
        self.echo = echo
        self.batches: dict[str, Callable[[], Work]] = {}
        self.rates: dict[str, Rate] = {}
        self.skipped: dict[str, str] = {}
        self.ismcts: dict[str, Any] | None = None
        self._decide: Callable[[], tuple[float, Any]] | None = None
        self._decisions: list[tuple[float, Any]] = []

    def add(self, key: str, make: Callable[[], Callable[[], Work]]) -> None:
        try:
            self.batches[key] = make()
        except Exception as exc:  # a workload that cannot even be built is reported, not fatal
            self.skipped[key] = f"{type(exc).__name__}: {exc}"
            self.echo(f"  skip {key}: {self.skipped[key]}")

    def add_ismcts(self) -> None:
        try:
            self._decide = ismcts_bench.decision_timer(players=CB_PLAYERS, iterations=ISMCTS_ITERATIONS)
        except ismcts_bench.SearcherUnavailable as exc:
            self.skipped[ISMCTS_KEY] = str(exc)
            self.echo(f"  skip {ISMCTS_KEY}: {exc}")

    def measure(self) -> None:
        """Every workload once per round, one ISMCTS decision after each round (see measure_interleaved)."""
        n = self.settings.repeats
        self.echo(f"timing {len(self.batches)} workloads in {n} interleaved rounds of {self.settings.seconds:g} s each")

        def between(round_no: int) -> None:
            if self._decide is not None:
                for _ in range(self.settings.ismcts_per_round):
                    self._decisions.append(self._decide())
            self.echo(f"  round {round_no + 1}/{n} done")

        self.rates = measure_interleaved(self.batches, seconds=self.settings.seconds, repeats=n, between=between)
        if self._decisions:
            seconds = [t for t, _ in self._decisions]
            best = min(seconds)
            self.ismcts = {
                "iterations": ISMCTS_ITERATIONS,
                "decision_s_best": best,
                "decision_s_median": statistics.median(seconds),
                "decision_s_all": seconds,
                "iterations_per_s": ISMCTS_ITERATIONS / best,
                "moves": sorted({str(m) for _, m in self._decisions}),
            }


def build_all(suite: Suite) -> None:
    suite.add(GOOFSPIEL_KEY, lambda: openspiel_baselines.random_play_batch(openspiel_baselines.GOOFSPIEL))
    suite.add(KUHN_KEY, lambda: openspiel_baselines.random_play_batch(openspiel_baselines.KUHN))
    suite.add(f"hand-written {CB} {CB_PLAYERS}p", lambda: handwritten.random_play_batch(CB_PLAYERS))
    for name in engine_bench.game_names():
        players = CB_PLAYERS if name == CB else None
        tag = f"{name} {players}p" if players else name
        suite.add(f"engine {tag}", partial(engine_bench.engine_batch, name, players))
        suite.add(f"play_game {tag}", partial(engine_bench.runner_batch, name, players))
        suite.add(f"pettingzoo {tag}", partial(pettingzoo_bench.adapter_batch, name, players))
        suite.add(f"pettingzoo wrapped {tag}", partial(pettingzoo_bench.adapter_batch, name, players, wrapped=True))
    suite.add_ismcts()


def check_goals(suite: Suite) -> list[Goal]:
    r = suite.rates
    engine = r.get(f"engine {CB} {CB_PLAYERS}p")
    hand = r.get(f"hand-written {CB} {CB_PLAYERS}p")
    goof = r.get(GOOFSPIEL_KEY)
    adapter = r.get(f"pettingzoo {CB} {CB_PLAYERS}p")
    goals: list[Goal] = []

    def add(text: str, ok: bool | None, figure: str) -> None:
        goals.append(Goal(text, "SKIP" if ok is None else ("PASS" if ok else "FAIL"), figure))

    text = f"Captain Black {CB_PLAYERS}p: >= {MIN_CB_GAMES_PER_S:,.0f} complete games/s (engine API)"
    if engine:
        add(text, engine.games_per_s >= MIN_CB_GAMES_PER_S, f"{engine.games_per_s:,.0f} games/s")
    else:
        add(text, None, "engine figure missing")

    text = f"Captain Black {CB_PLAYERS}p: no slower than {MAX_SLOWDOWN_VS_HANDWRITTEN:g}x the hand-written loop"
    if engine and hand:
        slowdown = hand.games_per_s / engine.games_per_s
        add(text, slowdown <= MAX_SLOWDOWN_VS_HANDWRITTEN, f"{slowdown:.2f}x slower")
    else:
        add(text, None, "engine or hand-written figure missing")

    text = f"Captain Black step within {MAX_STEP_COST_VS_GOOFSPIEL:g}x OpenSpiel goofspiel's per-step cost"
    if engine and goof:
        cost = engine.us_per_step / goof.us_per_step
        add(text, cost <= MAX_STEP_COST_VS_GOOFSPIEL, _cost(cost, engine, goof))
    else:
        add(text, None, "engine or goofspiel figure missing")

    text = f"PettingZoo adapter at most {MAX_ADAPTER_OVERHEAD:g}x the raw engine per step"
    if engine and adapter:
        cost = adapter.us_per_step / engine.us_per_step
        add(text, cost <= MAX_ADAPTER_OVERHEAD, _cost(cost, adapter, engine))
    else:
        add(text, None, "adapter or engine figure missing")

    text = f"ISMCTS {ISMCTS_ITERATIONS}-iteration decision (CB {CB_PLAYERS}p, start) under {MAX_ISMCTS_DECISION_S:g} s"
    if suite.ismcts:
        best = suite.ismcts["decision_s_best"]
        add(text, best < MAX_ISMCTS_DECISION_S, f"{best:.3f} s (median {suite.ismcts['decision_s_median']:.3f} s)")
    else:
        add(text, None, "ISMCTS figure missing")
    return goals


def _cost(ratio: float, ours: Rate, base: Rate) -> str:
    return f"{ratio:.2f}x ({ours.us_per_step:.2f} vs {base.us_per_step:.2f} µs per step)"


def table(suite: Suite) -> list[dict[str, Any]]:
    """One row per workload with ratios against the baselines of the same run."""
    goof = suite.rates.get(GOOFSPIEL_KEY)
    kuhn = suite.rates.get(KUHN_KEY)
    hand = suite.rates.get(f"hand-written {CB} {CB_PLAYERS}p")
    rows = []
    for key, rate in suite.rates.items():
        row: dict[str, Any] = {
            "workload": key,
            "games_per_s": rate.games_per_s,
            "steps_per_s": rate.steps_per_s,
            "us_per_step": rate.us_per_step,
            "steps_per_game": rate.steps_per_s / rate.games_per_s if rate.games_per_s else None,
            "step_cost_vs_goofspiel": rate.us_per_step / goof.us_per_step if goof else None,
            "step_cost_vs_kuhn": rate.us_per_step / kuhn.us_per_step if kuhn else None,
            "game_time_vs_handwritten": hand.games_per_s / rate.games_per_s if hand and CB in key else None,
        }
        rows.append(row)
    return rows


def _ratio(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}x"


def format_table(rows: list[dict[str, Any]]) -> str:
    head = ("workload", "games/s", "steps/s", "µs/step", "steps/game", "÷goofspiel", "÷kuhn", "÷hand-written")
    lines = [head]
    for row in rows:
        lines.append((
            row["workload"],
            f"{row['games_per_s']:,.0f}",
            f"{row['steps_per_s']:,.0f}",
            f"{row['us_per_step']:.2f}",
            f"{row['steps_per_game']:.1f}" if row["steps_per_game"] else "",
            _ratio(row["step_cost_vs_goofspiel"]),
            _ratio(row["step_cost_vs_kuhn"]),
            _ratio(row["game_time_vs_handwritten"]),
        ))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = []
    for n, line in enumerate(lines):
        cells = [line[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(line[1:], widths[1:], strict=True)]
        out.append("  ".join(cells))
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def format_markdown(rows: list[dict[str, Any]], goals: list[Goal], suite: Suite) -> str:
    """The figures as the Markdown tables of docs/performance.md."""
    out = [
        "| workload | games/s | steps/s | µs/step | steps/game | step cost ÷ goofspiel | step cost ÷ kuhn "
        "| game time ÷ hand-written |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        out.append(
            f"| {row['workload']} | {row['games_per_s']:,.0f} | {row['steps_per_s']:,.0f} | {row['us_per_step']:.2f} "
            f"| {row['steps_per_game']:.1f} | {_ratio(row['step_cost_vs_goofspiel'])} "
            f"| {_ratio(row['step_cost_vs_kuhn'])} | {_ratio(row['game_time_vs_handwritten'])} |"
        )
    if suite.ismcts:
        out += [
            "",
            "| ISMCTS, Captain Black 4p, first decision | best | median | iterations/s (best) |",
            "|---|--:|--:|--:|",
            f"| {ISMCTS_ITERATIONS} iterations, {len(suite.ismcts['decision_s_all'])} fresh decisions "
            f"| {suite.ismcts['decision_s_best']:.3f} s | {suite.ismcts['decision_s_median']:.3f} s "
            f"| {suite.ismcts['iterations_per_s']:,.0f} |",
        ]
    out += ["", "| goal | figure | result |", "|---|---|---|"]
    out += [f"| {g.text} | {g.figure} | **{g.status}** |" for g in goals]
    return "\n".join(out) + "\n"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (short, fewer repeats)")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    parser.add_argument("--seconds", type=float, help="length of one timed run (default 1.0; 0.2 with --quick)")
    parser.add_argument("--repeats", type=int, help="timed runs per workload, best kept (default 5; 2 with --quick)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the tables as Markdown to FILE")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when a goal fails")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU core")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    settings = Settings(
        seconds=args.seconds or (0.2 if args.quick else 1.0),
        repeats=args.repeats or (2 if args.quick else 5),
        ismcts_per_round=1,
    )
    core = None if args.no_pin else pin_to_one_core()
    info = machine()
    echo = print
    echo(f"holotable benchmarks: {info['cpu']}, {info['nproc']} CPUs, Python {info['python']}, "
         f"pinned to core {core}; best of {settings.repeats} runs of {settings.seconds:g} s")
    meter = CpuMeter()
    suite = Suite(settings, echo)
    build_all(suite)
    suite.measure()
    load = meter.report()
    rows = table(suite)
    goals = check_goals(suite)
    echo("")
    echo(format_table(rows))
    echo("")
    if suite.ismcts:
        echo(f"ISMCTS: {ISMCTS_ITERATIONS} iterations in {suite.ismcts['decision_s_best']:.3f} s "
             f"(best of {len(suite.ismcts['decision_s_all'])}), {suite.ismcts['iterations_per_s']:,.0f} iterations/s")
    for goal in goals:
        echo(f"[{goal.status}] {goal.text}: {goal.figure}")
    for key, why in suite.skipped.items():
        echo(f"[skipped] {key}: {why}")
    if load:
        echo(f"other processes used {load['other_cpu_s']:.1f} CPU-s during {load['wall_s']:.1f} s "
             f"({load['other_cores_busy']:.2f} cores busy on average)")
    if args.json:
        report = {
            "machine": info,
            "pinned_core": core,
            "settings": settings.__dict__,
            "other_load": load,
            "rows": rows,
            "rates": {k: r.to_dict() for k, r in suite.rates.items()},
            "ismcts": suite.ismcts,
            "goals": [g.to_dict() for g in goals],
            "skipped": suite.skipped,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
        echo(f"wrote {args.json}")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(format_markdown(rows, goals, suite))
        echo(f"wrote {args.markdown}")
    return 1 if args.strict and any(g.status == "FAIL" for g in goals) else 0
