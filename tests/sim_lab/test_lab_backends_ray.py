"""The Ray backend on a real local Ray cluster (head node on 127.0.0.1, 2 CPUs): exactly the local results.

``holotable simulate --backend ray`` runs in a subprocess, so Ray's driver lives and dies with it and never
touches the test process. Skips locally without Ray; fails under CI, where the ``dev`` extra installs it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from holotable.sim.batch import GameRecord, simulate


def records_in(path: Path) -> list[GameRecord]:
    with sqlite3.connect(path) as db:
        return [GameRecord.from_dict(json.loads(text)) for (text,) in
                db.execute("SELECT record FROM games WHERE part = 0 ORDER BY idx")]


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in report.items() if key != "timing"}


def test_ray_cluster_plays_exactly_the_local_games(ray_cluster, run_holotable, tmp_path: Path) -> None:
    """Every GameRecord and the whole report (timing aside) equal a local run's, measures included; a run
    resumed and extended on Ray, found with ``--address auto``, equals one uninterrupted local run."""
    # Council: game measures and per-seat measures travel back from Ray's workers too.
    out = tmp_path / "council.sqlite"
    result = run_holotable("simulate", "council", "--players", "4", "--agents", "heuristic,random", "--seed", "5",
                           "--games", "6", "--json", "--backend", "ray", "--address", ray_cluster.address,
                           "--out", str(out), env=ray_cluster.env)
    assert result.returncode == 0, f"{result.stderr}\n--- ray head node ---\n{ray_cluster.log()}"
    on_ray = json.loads(result.stdout)
    assert on_ray["timing"]["backend"] == "ray" and on_ray["timing"]["workers"] == ray_cluster.cpus
    local = simulate("council", 4, 6, ["heuristic", "random"], 5, workers=1)
    assert records_in(out) == local.records
    assert without_timing(on_ray) == without_timing(local.to_dict())

    # 30 games at the cluster's address, then 30 more found through RAY_ADDRESS (`--address auto`).
    out = tmp_path / "grow.sqlite"
    args = ["simulate", "captain-black", "--players", "3", "--agents", "random,heuristic", "--seed", "11", "--json",
            "--backend", "ray", "--out", str(out)]
    first = run_holotable(*args, "--games", "30", "--address", ray_cluster.address, env=ray_cluster.env)
    assert first.returncode == 0, first.stderr
    env = {**ray_cluster.env, "RAY_ADDRESS": ray_cluster.address}
    grown = run_holotable(*args, "--games", "60", "--address", "auto", "--resume", env=env)
    assert grown.returncode == 0, f"{grown.stderr}\n--- ray head node ---\n{ray_cluster.log()}"
    report = json.loads(grown.stdout)
    assert report["timing"]["resumed_games"] == 30 and report["timing"]["backend"] == "ray"
    local = simulate("captain-black", 3, 60, ["random", "heuristic"], 11, workers=2)
    assert records_in(out) == local.records
    assert without_timing(report) == without_timing(local.to_dict())
