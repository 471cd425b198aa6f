"""The Council benchmark still runs and reports real figures (nothing here is timed or compared)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parents[3]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))


def test_council_bench_runs_and_reports_every_figure() -> None:
    bench: Any = importlib.import_module("benchmarks.council_bench")
    lines: list[str] = []
    figures = bench.run(seconds=0.05, repeats=1, iterations=2, baseline_iterations=5, think_games=1, echo=lines.append)
    play, search = figures["random_play"], figures["ismcts"]
    assert play["games_per_s"] > 0 and play["steps_per_game"] > 50  # whole games of many decisions
    assert play["games_per_s_vs_baseline"] == play["games_per_s"] / play["baseline_games_per_s"]
    assert search["iterations"] == 2 and search["iterations_per_s"] > 0
    assert lines == ["  round 1/1 done"]
    text = bench.report(figures)
    assert "Council 5p random play" in text and "Council ISMCTS (2 iterations" in text
    from holotable.agents import agent_names

    if "heuristic" in agent_names("council"):
        assert figures["heuristic"]["us_per_decision_best"] > 0
        assert "Council heuristic think time" in text
    else:
        assert figures["heuristic"] is None and "not registered" in text
