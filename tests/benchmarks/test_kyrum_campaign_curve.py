"""The Kyrum campaign-curve script writes its plot and tables from a real schedule run (nothing timed)."""

from __future__ import annotations

import csv
import importlib
import itertools
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

curve = importlib.import_module("benchmarks.kyrum_campaign_curve")


def test_the_target_falls_gently_and_stays_above_the_floor() -> None:
    values = [curve.target(k) for k in range(1, 31)]
    steps = [a - b for a, b in itertools.pairwise(values)]
    assert all(0 < s < 0.02 for s in steps)
    assert values[0] == curve.TARGET_FIRST and abs(values[-1] - curve.TARGET_LAST) < 1e-9
    assert min(values) > curve.FLOOR


def test_one_game_per_scheduled_game_writes_plot_csv_and_table(tmp_path: Path) -> None:
    """KYR-CAMPAIGN-01: 30 rows, one per scheduled game, with the schedule's letters and the target;
    an override reaches the run (game 2 asks for P alone here)."""
    assert curve.main(["--games", "1", "--out", str(tmp_path), "--set", "schedule.2.objectives=P"]) == 0
    rows = list(csv.DictReader((tmp_path / "curve.csv").open(encoding="utf-8")))
    assert [int(r["game"]) for r in rows] == list(range(1, 31))
    assert rows[0]["objectives"] == "B F N" and rows[1]["objectives"] == "P"
    assert all(r["games"] == "1" and r["wins"] in ("0", "1") for r in rows)
    assert all(float(r["ci_low"]) <= float(r["win_rate"]) <= float(r["ci_high"]) for r in rows)
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = (tmp_path / "curve.md").read_text(encoding="utf-8")
    assert "| 30 |" in table and "--set schedule.2.objectives='P'" in table and "floor" in table
