"""The dexterity benchmark (benchmarks/sp_skill.py) runs on a tiny seeded sample and ranks the levels.

Nothing is timed: the figures are distances. The assertions can fail: were a seat's level not the one
``seat_dexterity`` gives it, the precise seat's flicks would stray and the order would break.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

sp_skill = importlib.import_module("benchmarks.sp_skill")


def test_skilled_flicks_land_closer_than_shaky_ones() -> None:
    """SP-PHYS-05: on the same throws, precise lands on the aimed stop and shaky farthest. assumed:SP-AMB-55"""
    levels = sp_skill.measure(shots=6, flicks=4, seed=3)
    assert [lv.name for lv in levels] == ["precise", "casual", "standard", "shaky"]
    result = sp_skill.bootstrap(levels, seed=3, rounds=50)
    assert result["precise"]["mean"] == 0.0
    medians = [result[name]["median"] for name in ("casual", "standard", "shaky")]
    assert 0.0 < medians[0] < medians[1] < medians[2]
    assert result["shaky"]["ratio"] > 1.2 and result["standard"]["ratio"] == 1.0
    for r in result.values():
        assert r["mean_low"] <= r["mean"] <= r["mean_high"] and r["flicks"] == 24


def test_the_command_writes_the_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "skill.json"
    assert sp_skill.main(["--shots", "3", "--flicks", "2", "--seed", "2", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["shots"] == 3 and set(data["levels"]) == {"precise", "casual", "standard", "shaky"}
    printed = capsys.readouterr().out
    assert "| shaky | 6 deg, 12% |" in printed
