"""The server load benchmark (benchmarks/server_load.py) still runs: 1 and 2 real `holotable serve` processes
on a real PostgreSQL, a handful of tables, sockets and moves, the probe, the report.

Correctness only: nothing here is timed and no figure is compared with a goal. It uses this process's
PostgreSQL (the `postgres_server` fixture, so it is marked `postgres` and skips, or fails under CI, without
the server binaries); the benchmark makes its own database per scenario and stops its servers.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

server_load = importlib.import_module("benchmarks.server_load")


def test_quick_run_plays_on_one_and_two_processes_without_errors(
        postgres_server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, md = tmp_path / "load.json", tmp_path / "load.md"
    status = server_load.main(["--quick", "--tables", "4", "--sockets-per-table", "2", "--warmup", "0.5",
                               "--seconds", "1", "--move-every", "0.5", "--json", str(out), "--markdown", str(md)],
                              postgres=postgres_server)
    assert status == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [s["processes"] for s in report["scenarios"]] == [1, 2]
    for scenario in report["scenarios"]:
        assert scenario["errors"]["total"] == 0, scenario["errors"]
        assert scenario["reached"] == {"tables": 4 * scenario["processes"], "sockets": 8 * scenario["processes"]}
        assert [p["phase"] for p in scenario["phases"]] == ["paced", "flat out"]
        for phase in scenario["phases"]:
            assert phase["moves"] > 0 and phase["frames_per_s"] > 0
            assert phase["probe"]["get_ms"]["n"] > 0 and phase["probe"]["move_ms"]["n"] > 0
            assert phase["probe"]["all_ms"]["p99"] >= phase["probe"]["all_ms"]["p50"] > 0
            cpu = phase["cpu"]
            assert len(cpu["server_ms_per_request"]) == scenario["processes"]
            assert all(v is None or v >= 0 for v in cpu["server_ms_per_request"])
            assert cpu["loadgen_cores"] >= 0 and cpu["other_cores"] >= 0
    goals = {g["goal"]: g["status"] for g in report["goals"]}
    assert len(goals) == 4 and goals["0 errors"] == "PASS"
    # Four tables are not the goal's 200: the latency goals say SKIP rather than pass.
    assert [status for text, status in goals.items() if "p99" in text] == ["SKIP", "SKIP"]
    assert "| goal | figure | result |" in md.read_text(encoding="utf-8")
    assert "0 errors" in capsys.readouterr().out
