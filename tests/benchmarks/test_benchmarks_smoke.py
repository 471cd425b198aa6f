"""The benchmark workloads still run and still play real, complete games.

Correctness only: nothing here is timed. The OpenSpiel baselines are skipped when
pyspiel is not installed; the adapter and ISMCTS workloads when their modules are missing.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import holotable
from holotable.engine import names

# The benchmarks live outside the package, at the repository root.
_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))


def bench(module: str) -> Any:
    return importlib.import_module(f"benchmarks.{module}")


def test_hand_written_loop_plays_complete_games() -> None:
    handwritten = bench("handwritten")
    rng = random.Random(5)
    for players in (2, 3, 4):
        for _ in range(20):
            steps, winners = handwritten.play_random(players, rng)
            # Each of the `players` rounds needs at least 8 draws (one black coin per failed draw).
            assert steps >= 8 * players
            assert winners and set(winners) <= set(range(players))


def test_hand_written_loop_matches_the_engine_in_game_length() -> None:
    # Same rules and policy, so the mean length agrees; 400 games keep the standard error near 0.5 step.
    handwritten, engine_bench = bench("handwritten"), bench("engine_bench")
    rng = random.Random(11)
    hand = [handwritten.play_random(4, rng)[0] for _ in range(400)]
    game = holotable.load("captain-black")
    config = engine_bench.config_for(game, 4)
    eng = [engine_bench.play_random(game, config, seed, rng) for seed in range(400)]
    assert abs(sum(hand) / 400 - sum(eng) / 400) < 4


@pytest.mark.parametrize("name", names())
def test_engine_and_runner_workloads(name: str) -> None:
    engine_bench = bench("engine_bench")
    for make in (engine_bench.engine_batch, engine_bench.runner_batch):
        batch = make(name)
        works = [batch() for _ in range(3)]
        assert all(w.games == 1 and w.steps > 0 for w in works)


def test_measure_reports_rates() -> None:
    timing, engine_bench = bench("timing"), bench("engine_bench")
    rate = timing.measure("cb", engine_bench.engine_batch("captain-black", 4), seconds=0.01, repeats=2)
    assert rate.games_per_s > 0 and rate.steps_per_s > rate.games_per_s
    assert len(rate.all_steps_per_s) == 2


@pytest.mark.parametrize("name", ["goofspiel", "python_kuhn_poker"])
def test_openspiel_baselines(name: str) -> None:
    pytest.importorskip("pyspiel")
    baselines = bench("openspiel_baselines")
    game = baselines.load(name)
    steps, decisions = baselines.play_random(game, random.Random(1))
    assert steps > 0 and decisions > 0


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("name", names())
def test_pettingzoo_workload(name: str, wrapped: bool) -> None:
    pettingzoo_bench = bench("pettingzoo_bench")
    try:
        batch = pettingzoo_bench.adapter_batch(name, wrapped=wrapped)
    except pettingzoo_bench.AdapterUnavailable as exc:
        pytest.skip(str(exc))
    assert all(batch().steps > 0 for _ in range(2))


def test_ismcts_workload() -> None:
    ismcts_bench = bench("ismcts_bench")
    try:
        seconds, moves = ismcts_bench.time_decisions(1, iterations=20)
    except ismcts_bench.SearcherUnavailable as exc:
        pytest.skip(str(exc))
    state = holotable.load("captain-black").new_state(players=4, seed=1)
    assert len(seconds) == 1 and moves[0] in state.legal_actions()


def test_run_all_quick_writes_json_and_markdown(tmp_path: Path) -> None:
    suite = bench("suite")
    out = tmp_path / "bench.json"
    md = tmp_path / "bench.md"
    args = ["--quick", "--seconds", "0.01", "--repeats", "1", "--no-pin", "--json", str(out), "--markdown", str(md)]
    rc = suite.main(args)
    report = json.loads(out.read_text())
    assert "| engine captain-black 4p |" in md.read_text()
    assert rc == 0
    assert {g["status"] for g in report["goals"]} <= {"PASS", "FAIL", "SKIP"}
    assert any(row["workload"] == "engine captain-black 4p" for row in report["rows"])


def test_games_bench_runs_every_game_module_and_reports(tmp_path: Path) -> None:
    games = bench("games_bench")
    out = tmp_path / "games.json"
    md = tmp_path / "games.md"
    rc = games.main(["--seconds", "0.01", "--repeats", "1", "--no-pin", "--game", "buccaneers",
                     "--json", str(out), "--markdown", str(md)])
    assert rc == 0
    figures = json.loads(out.read_text())
    assert set(figures) == {"buccaneers"}
    assert figures["buccaneers"]["random_play"]["games_per_s"] > 0
    assert "### buccaneers" in md.read_text()
    assert set(games.GAME_MODULES) == {"buccaneers", "council", "kyrum", "space-pirates"}


def test_run_all_passes_only_the_timing_options_to_the_game_benchmarks() -> None:
    run_all = bench("run_all")
    argv = ["--quick", "--json", "x.json", "--seconds", "0.5", "--strict", "--repeats", "2", "--no-pin"]
    assert run_all.timing_args(argv) == ["--quick", "--seconds", "0.5", "--repeats", "2", "--no-pin"]
