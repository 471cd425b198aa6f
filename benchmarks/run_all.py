"""Run every holotable benchmark: ``.venv/bin/python benchmarks/run_all.py [--quick] [--json FILE]``.

The figures and what they mean are in docs/performance.md; the code is in
benchmarks/suite.py and the workload modules next to it.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> int:
    # Run as a script, this folder is on sys.path but the repository root is not.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.suite import main as run

    return run(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
