"""Run every holotable benchmark: ``.venv/bin/python benchmarks/run_all.py [--quick] [--json FILE]``.

First the engine suite (benchmarks/suite.py: engine speed against OpenSpiel and a hand-written loop,
the PettingZoo adapter, ISMCTS), then each game's own figures (benchmarks/games_bench.py). The options
go to the suite; the timing ones (``--quick``, ``--seconds``, ``--repeats``, ``--no-pin``) to the
game benchmarks too. The figures and what they mean are in docs/performance.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

_TIMING_FLAGS = {"--quick": 0, "--no-pin": 0, "--seconds": 1, "--repeats": 1}


def timing_args(argv: list[str]) -> list[str]:
    """The options of ``argv`` that the game benchmarks share with the suite."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arity = _TIMING_FLAGS.get(argv[i])
        if arity is not None:
            out += argv[i:i + 1 + arity]
            i += arity
        i += 1
    return out


def main() -> int:
    # Run as a script, this folder is on sys.path but the repository root is not.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.games_bench import main as run_games
    from benchmarks.suite import main as run_suite

    status = run_suite(sys.argv[1:])
    return status or run_games(timing_args(sys.argv[1:]))


if __name__ == "__main__":
    raise SystemExit(main())
