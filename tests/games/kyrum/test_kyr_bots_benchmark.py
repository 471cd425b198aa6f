"""benchmarks/kyrum_planner.py still runs: its --fast mode plays real games of both planners and of every bot."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the benchmarks live outside the package, at the repository root
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import kyrum_planner  # noqa: E402


def test_fast_benchmark_reports_both_planners_and_every_bots_scripts() -> None:
    figures = kyrum_planner.run(True, 0, [], 0, seed=0)
    rows = figures["per_game"]
    assert [r["game"] for r in rows] == [1, 12]
    assert rows[1]["objectives"] == " ".join(kyrum_planner.PACK.game_entry(12)["objectives"])
    for row in rows:
        for tag in ("new", "old"):
            r = row[tag]
            assert r["games"] == 3 and 0 <= r["wins"] <= 3 and r["low"] <= r["rate"] <= r["high"]
    scripts = figures["scripts"]
    assert scripts["main_scripts_total"] == len(kyrum_planner.PACK.main_codes())
    length = int(kyrum_planner.PACK.schedule["length"])
    for name in ("heuristic", "planner", "hunter", "random"):
        f = scripts[name]
        assert f["games"] == length
        assert 0 < f["per_campaign_min"] <= f["per_campaign_max"] <= scripts["main_scripts_total"]
    text = kyrum_planner.report(figures)
    assert f"| 12 | {rows[1]['objectives']} |" in text and "| hunter |" in text and text.count("\n| ") >= 8


def test_schedule_numbers_parse_like_the_simulate_option() -> None:
    assert kyrum_planner.parse_numbers("1-3,12,16-16") == [1, 2, 3, 12, 16]
