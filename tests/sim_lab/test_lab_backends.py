"""The simulation runner: same results on any worker count or chunking, results files, resuming after an interruption.

Every comparison is between real runs of real games: a run cut short (by an exception, Ctrl-C or SIGKILL) and
then resumed must give exactly the report, and the records, of a run that was never interrupted.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from holotable.engine import ConfigError, derive_seed
from holotable.sim import backends
from holotable.sim.batch import GameRecord, SimulationReport, simulate
from holotable.sim.results import FORMAT, ResultsFile, ResultsFileError, ResultsMismatchError, run_metadata
from holotable.sim.schedule import simulate_schedule

GAME = "captain-black"


class Interrupt(Exception):
    """Raised by a progress callback to cut a run short, as Ctrl-C would."""


def stop_after(k: int):
    def progress(done: int, total: int) -> None:
        if done >= k:
            raise Interrupt(done)

    return progress


def without_timing(report: SimulationReport) -> dict[str, Any]:
    data = report.to_dict(include_games=True)
    data.pop("timing")
    return data


def saved_rows(path: Path) -> list[tuple[int, int, dict[str, Any]]]:
    with sqlite3.connect(path) as db:
        return [(part, idx, json.loads(text)) for part, idx, text in
                db.execute("SELECT part, idx, record FROM games ORDER BY part, idx")]


def saved_metadata(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as db:
        return {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM run")}


# ------------------------------------------------------------------------------------- same results everywhere


def test_records_do_not_depend_on_workers_or_chunking(monkeypatch: pytest.MonkeyPatch) -> None:
    args = (GAME, 3, 60, ["random", "heuristic"], 17)
    alone = simulate(*args, workers=1)
    assert [rec.index for rec in alone.records] == list(range(60))
    assert [rec.seed for rec in alone.records] == [derive_seed(17, "game", i) for i in range(60)]
    two = simulate(*args, workers=2)
    assert two.records == alone.records and two.workers == 2
    # Chunks of random sizes (the pool is forked, so the workers play whatever the parent hands out).
    rng = random.Random(3)
    monkeypatch.setattr(backends, "_chunk_size", lambda per_game, pending, slots: rng.randint(1, min(pending, 9)))
    for workers in (1, 3):
        assert simulate(*args, workers=workers).records == alone.records


def test_default_workers_use_every_available_core() -> None:
    report = simulate(GAME, 2, 12, ["random"], 4)
    assert report.workers == backends.available_cores()
    assert report.backend == "local" and report.to_dict()["timing"]["backend"] == "local"
    assert report.records == simulate(GAME, 2, 12, ["random"], 4, workers=1).records


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "spark"}, "no backend 'spark'"),
        ({"address": "127.0.0.1:6379"}, "use it with --backend ray"),
        ({"workers": 0}, "workers must be at least 1"),
    ],
)
def test_bad_backend_options_fail_before_any_game(tmp_path: Path, options: dict[str, Any], message: str) -> None:
    out = tmp_path / "r.sqlite"
    with pytest.raises(ConfigError, match=message):
        simulate(GAME, 2, 5, ["random"], 1, results_path=out, **options)
    assert not out.exists()


def test_ray_backend_at_an_address_nobody_listens_at_fails_fast() -> None:
    from support.services import free_port

    start = time.monotonic()
    try:
        import ray  # noqa: F401
    except ImportError:
        expected = "needs Ray"
    else:
        expected = "no Ray cluster answers at 127.0.0.1"
    with pytest.raises(ConfigError, match=expected):
        simulate(GAME, 2, 5, ["random"], 1, backend="ray", address=f"127.0.0.1:{free_port()}")
    assert time.monotonic() - start < 10


def test_importing_the_lab_and_running_locally_never_imports_ray() -> None:
    code = (
        "import sys\n"
        "import holotable.sim, holotable.sim.backends, holotable.sim.results, holotable.cli\n"
        "from holotable.cli import main\n"
        "from holotable.sim import simulate\n"
        "simulate('captain-black', 2, 6, ['random'], 1, workers=2)\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


# ------------------------------------------------------------------------------------------------ results file


def test_results_file_holds_every_record_and_the_run_metadata(tmp_path: Path) -> None:
    out = tmp_path / "results.sqlite"
    report = simulate("council", 4, 4, ["heuristic", "random"], 5, workers=2, params={"bribe_increment": 2},
                      results_path=out)
    rows = saved_rows(out)
    assert [(part, idx) for part, idx, _ in rows] == [(0, i) for i in range(4)]
    assert [GameRecord.from_dict(data) for _, _, data in rows] == report.records
    assert [data for _, _, data in rows] == [rec.to_dict() for rec in report.records]
    meta = saved_metadata(out)
    assert meta == {"format": FORMAT, "game": "council", "players": 4, "params": report.params,
                    "agents": ["heuristic", "random"], "seed": 5, "rotate": True, "schedule": None}
    assert report.records[0].seat_measures and report.records[0].measures  # the round trip kept them


def test_a_finished_file_resumes_without_playing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.sqlite"
    first = simulate(GAME, 2, 20, ["random"], 8, workers=1, results_path=out)
    monkeypatch.setattr(backends, "play_one", lambda *a: pytest.fail("a finished game was played again"))
    again = simulate(GAME, 2, 20, ["random"], 8, workers=1, results_path=out, resume=True)
    assert without_timing(again) == without_timing(first)
    assert again.resumed == 20 and again.to_dict()["timing"]["resumed_games"] == 20
    # Asking for fewer games reads back only those; the file keeps the others.
    fewer = simulate(GAME, 2, 7, ["random"], 8, workers=1, results_path=out, resume=True)
    assert fewer.records == first.records[:7]
    assert len(saved_rows(out)) == 20


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupted_run_resumes_to_the_uninterrupted_report(tmp_path: Path, workers: int) -> None:
    args = (GAME, 3, 600, ["random"], 21)
    whole = simulate(*args, workers=workers)
    out = tmp_path / "r.sqlite"
    with pytest.raises(Interrupt) as stopped:
        simulate(*args, workers=workers, progress=stop_after(40), results_path=out)
    done_at_stop = stopped.value.args[0]
    rows = saved_rows(out)
    # Every game reported finished is in the file, and nothing else: the file is never ahead of the progress.
    assert len(rows) == done_at_stop < 600
    assert [GameRecord.from_dict(data) for _, _, data in rows] == [whole.records[idx] for _, idx, _ in rows]

    calls: list[tuple[int, int]] = []
    resumed = simulate(*args, workers=workers, progress=lambda d, t: calls.append((d, t)), results_path=out,
                       resume=True)
    assert without_timing(resumed) == without_timing(whole)
    assert resumed.resumed == done_at_stop
    assert calls[0] == (done_at_stop, 600) and calls[-1] == (600, 600)
    assert len(saved_rows(out)) == 600


def test_resume_plays_only_the_missing_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.sqlite"
    with pytest.raises(Interrupt):
        simulate(GAME, 2, 50, ["random"], 2, workers=1, progress=stop_after(10), results_path=out)
    saved = {idx for _, idx, _ in saved_rows(out)}
    played: list[int] = []
    real = backends.play_one

    def counting(game: Any, config: Any, seed: int, index: int, names: tuple[str, ...]) -> GameRecord:
        played.append(index)
        return real(game, config, seed, index, names)

    monkeypatch.setattr(backends, "play_one", counting)
    simulate(GAME, 2, 50, ["random"], 2, workers=1, results_path=out, resume=True)
    assert sorted(played) == sorted(set(range(50)) - saved)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"seed": 2}, "seed"),
        ({"agents": ["heuristic"]}, "agents"),
        ({"players": 3}, "players"),
        ({"params": {"max_handful": 2}}, "params"),
        ({"rotate": False}, "rotate"),
        ({"game_name": "buccaneers", "players": 3}, "game"),
    ],
)
def test_resume_refuses_a_file_of_another_run(tmp_path: Path, change: dict[str, Any], key: str) -> None:
    out = tmp_path / "r.sqlite"
    run: dict[str, Any] = {"game_name": GAME, "players": 2, "games": 6, "agents": ["random"], "seed": 1,
                           "workers": 1}
    simulate(**run, results_path=out)
    before = out.read_bytes()
    with pytest.raises(ResultsMismatchError, match=rf"holds another run: .*{key} is .* there, .* here"):
        simulate(**{**run, **change}, results_path=out, resume=True)
    assert out.read_bytes() == before


def test_an_existing_file_needs_resume_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.sqlite"
    simulate(GAME, 2, 3, ["random"], 1, workers=1, results_path=out)
    with pytest.raises(ResultsFileError, match="already holds a simulation run; pass --resume"):
        simulate(GAME, 2, 3, ["random"], 1, workers=1, results_path=out)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(ResultsFileError, match="not a holotable results file"):
        simulate(GAME, 2, 3, ["random"], 1, workers=1, results_path=other, resume=True)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(ResultsFileError, match="not a holotable results file"):
        simulate(GAME, 2, 3, ["random"], 1, workers=1, results_path=junk, resume=True)
    assert junk.read_bytes() == b"this is not a database at all" * 100


def test_metadata_compares_normalised_parameters(tmp_path: Path) -> None:
    """``--param max_handful=5`` (text) and ``max_handful=5`` (a number) are the same run."""
    out = tmp_path / "r.sqlite"
    simulate(GAME, 2, 3, ["random"], 1, workers=1, params={"max_handful": "5"}, results_path=out)
    again = simulate(GAME, 2, 3, ["random"], 1, workers=1, params={"max_handful": 5}, results_path=out, resume=True)
    assert again.resumed == 3
    meta = run_metadata(GAME, 2, again.params, ["random"], 1, rotate=True)
    with ResultsFile.open(out, meta, resume=True) as store:
        assert store.count() == 3


def test_schedule_run_resumes_each_scheduled_game(tmp_path: Path) -> None:
    args = ("kyrum", 1, 6, ["heuristic"], 9, [2, 3])
    whole = simulate_schedule(*args, carry="fresh", workers=2)
    out = tmp_path / "k.sqlite"
    with pytest.raises(Interrupt):
        simulate_schedule(*args, carry="fresh", workers=2, progress=stop_after(8), results_path=out)
    assert 8 <= len(saved_rows(out)) < 12
    resumed = simulate_schedule(*args, carry="fresh", workers=2, results_path=out, resume=True)
    assert [sched.number for sched, _ in resumed.entries] == [2, 3]
    for (_, mine), (_, theirs) in zip(resumed.entries, whole.entries, strict=True):
        assert mine.records == theirs.records
    assert sum(rep.resumed for _, rep in resumed.entries) >= 8
    assert {part for part, _, _ in saved_rows(out)} == {2, 3}
    assert saved_metadata(out)["schedule"] == {"carry": "fresh"}
    with pytest.raises(ResultsMismatchError, match="schedule"):
        simulate_schedule(*args, carry="played", workers=1, results_path=out, resume=True)


# ------------------------------------------------------------------------------- a real process, really killed


def _count_rows(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0  # not created yet


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_cli_run_killed_mid_run_resumes_to_the_same_report(tmp_path: Path, run_holotable, how: int) -> None:
    out = tmp_path / "killed.sqlite"
    games = 2000
    args = ["simulate", GAME, "--players", "3", "--games", str(games), "--agents", "random", "--seed", "13",
            "--workers", "2", "--json"]
    process = subprocess.Popen([sys.executable, "-m", "holotable", *args, "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while _count_rows(out) < 200 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert process.poll() is None, "the run ended before it could be interrupted"
        # The whole process group, as a terminal's Ctrl-C would (SIGINT) or as `kill -9 -PGID` does.
        os.killpg(process.pid, how)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if how == signal.SIGINT:
        assert process.returncode == 130, stderr
        assert "interrupted" in stderr and "--resume" in stderr and "Traceback" not in stderr
    else:
        assert process.returncode == -signal.SIGKILL
    saved = _count_rows(out)
    assert 200 <= saved < games

    result = run_holotable(*args, "--out", str(out), "--resume")
    assert result.returncode == 0, result.stderr
    resumed = json.loads(result.stdout)
    assert resumed["timing"]["resumed_games"] == saved
    whole = simulate(GAME, 3, games, ["random"], 13, workers=2)
    whole_json = whole.to_dict()
    resumed.pop("timing")
    whole_json.pop("timing")
    assert resumed == whole_json
    assert [GameRecord.from_dict(data) for _, _, data in saved_rows(out)] == whole.records


# ------------------------------------------------------------------------------------------ the benchmark script


def test_throughput_benchmark_measures_and_replaces_its_doc_section(tmp_path: Path) -> None:
    """`benchmarks/sim_throughput.py` still runs (a smoke run: nothing here checks a speed)."""
    root = Path(__file__).resolve().parents[2]
    doc = tmp_path / "performance.md"
    doc.write_text("# Performance\n\nIntro.\n\n## Other figures\n\nKept.\n", encoding="utf-8")
    figures = tmp_path / "sim.json"
    command = [sys.executable, str(root / "benchmarks" / "sim_throughput.py"), "--quick", "--game", GAME, "--no-ray",
               "--json", str(figures), "--doc", str(doc)]
    for _ in range(2):  # the second run replaces the section instead of adding another
        result = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=root)
        assert result.returncode == 0, result.stderr
    data = json.loads(figures.read_text(encoding="utf-8"))
    (row,) = data["figures"]
    assert row["game"] == GAME and row["games"] >= 12
    assert set(row["games_per_s"]) == {"local-1", "local-2"} and min(row["games_per_s"].values()) > 0
    assert row["ratio_vs_1_worker"]["local-2"] == row["games_per_s"]["local-2"] / row["games_per_s"]["local-1"]
    text = doc.read_text(encoding="utf-8")
    assert text.count("## Simulation throughput") == 1
    assert "## Other figures\n\nKept." in text and "Load before: `" in text
    assert f"| {GAME} | 4 | {row['games']} |" in text


# ----------------------------------------------------------------------------------------- lineups chosen by hand


def test_lineups_seat_each_game_as_given(tmp_path: Path) -> None:
    agents = ["random", "heuristic"]
    rng = random.Random(4)
    lineups = [tuple(rng.choice(agents) for _ in range(3)) for _ in range(30)]
    out = tmp_path / "l.sqlite"
    report = simulate(GAME, 3, 30, agents, 6, workers=2, lineups=lineups, results_path=out)
    assert [rec.agents for rec in report.records] == lineups
    assert [rec.seed for rec in report.records] == [derive_seed(6, "game", i) for i in range(30)]
    assert simulate(GAME, 3, 30, agents, 6, workers=1, lineups=lineups).records == report.records
    assert saved_metadata(out)["lineups"] == [list(names) for names in lineups]
    changed = [*lineups[:-1], ("random", "random", "random")]
    with pytest.raises(ResultsMismatchError, match="lineups"):
        simulate(GAME, 3, 30, agents, 6, workers=1, lineups=changed, results_path=out, resume=True)


@pytest.mark.parametrize(
    ("lineups", "message"),
    [
        ([("random", "random")] * 4, "4 lineups given for 5 games"),
        ([("random", "random")] * 4 + [("random",)], "lineup 4 names 1 agents for 2 seats"),
        ([("random", "random")] * 4 + [("random", "heuristic")], "lineup 4 names agents not among"),
    ],
)
def test_bad_lineups_fail_before_any_game(lineups: list[tuple[str, ...]], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        simulate(GAME, 2, 5, ["random"], 1, workers=1, lineups=lineups)


def test_a_damaged_row_is_reported_not_replayed_silently(tmp_path: Path) -> None:
    out = tmp_path / "r.sqlite"
    simulate(GAME, 2, 4, ["random"], 1, workers=1, results_path=out)
    with sqlite3.connect(out) as db:
        db.execute("UPDATE games SET record = '{\"index\": 2' WHERE idx = 2")
    with pytest.raises(ResultsFileError, match="the saved game 2 cannot be read back"):
        simulate(GAME, 2, 4, ["random"], 1, workers=1, results_path=out, resume=True)
