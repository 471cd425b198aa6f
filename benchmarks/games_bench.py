"""Every game's own benchmark in one run: ``.venv/bin/python benchmarks/games_bench.py [--quick]``.

Each game module (``buccaneers_bench``, ``council_bench``, ``kyrum_bench``, ``space_pirates_bench``)
times its workloads against Captain Black measured in the same run and returns its figures from
``run(seconds=, repeats=, echo=)``; ``report(figures)`` turns them into lines of text. This script
runs them one after another (``--game NAME`` picks some), prints the reports, and can keep the figures
as JSON and the reports as Markdown. ``benchmarks/run_all.py`` calls it after the engine suite.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import pin_to_one_core

GAME_MODULES = {
    "buccaneers": "benchmarks.buccaneers_bench",
    "council": "benchmarks.council_bench",
    "kyrum": "benchmarks.kyrum_bench",
    "space-pirates": "benchmarks.space_pirates_bench",
}


def run_games(names: list[str], *, seconds: float, repeats: int, echo: Any = print) -> dict[str, Any]:
    """Each named game's figures and report text, in order."""
    results: dict[str, Any] = {}
    for name in names:
        module = importlib.import_module(GAME_MODULES[name])
        echo(f"{name}:")
        figures = module.run(seconds=seconds, repeats=repeats, echo=echo)
        results[name] = {"figures": figures, "report": module.report(figures)}
    return results


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=sorted(GAME_MODULES), help="only this game (repeatable)")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (short, fewer repeats)")
    parser.add_argument("--seconds", type=float, help="length of one timed run (default 1.0; 0.2 with --quick)")
    parser.add_argument("--repeats", type=int, help="timed rounds (default 5; 2 with --quick)")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write the reports as Markdown to FILE")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU core")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not args.no_pin:
        pin_to_one_core()
    names = args.game or list(GAME_MODULES)
    results = run_games(
        names,
        seconds=args.seconds or (0.2 if args.quick else 1.0),
        repeats=args.repeats or (2 if args.quick else 5),
    )
    for name, result in results.items():
        print(f"\n## {name}\n{result['report']}")
    if args.json:
        Path(args.json).write_text(json.dumps({n: r["figures"] for n, r in results.items()}, indent=2))
    if args.markdown:
        text = "".join(f"### {n}\n\n```\n{r['report']}\n```\n\n" for n, r in results.items())
        Path(args.markdown).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
