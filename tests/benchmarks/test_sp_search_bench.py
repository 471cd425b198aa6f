"""The search bot's benchmark (benchmarks/sp_search.py) plays seeded games with the bot in both seats.

Nothing is timed here: a tiny run (one seed, a turn cap) checks that both seats are played on the same
game seed, that the wins counted are the games' winners, and that the command writes its figures.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

sp_search = importlib.import_module("benchmarks.sp_search")
SMALL = "search:time_limit=0:candidates=2:next_beam=1:next_depth=1:flick_top=2:flick_samples=1"
QUICK = "heuristic:beam=2:flick_top=2:flick_samples=1:wind_step=60"


def test_the_bot_plays_both_seats_of_each_seed_and_the_command_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "search.json"
    assert sp_search.main(["--seeds", "1", "--first-seed", "7", "--workers", "1", "--turn-cap", "6",
                           "--bot", SMALL, "--rival", QUICK, "--json", str(out)]) == 0
    f = json.loads(out.read_text(encoding="utf-8"))
    assert f["games"] == 2 and [(g["seed"], g["seat"]) for g in f["results"]] == [(7, 0), (7, 1)]
    assert f["wins"] == sum(g["winner"] == g["seat"] for g in f["results"])
    assert f["interval"][0] <= f["rate"] <= f["interval"][1]
    assert f["decisions"] > 0 and all(g["turns"] <= 7 for g in f["results"])
    assert "search" in sp_search.report(f) and f"{f['wins']}/2" in sp_search.report(f)
