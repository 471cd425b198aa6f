"""``holotable balance``: the report's files, their numbers against the simulation's records, sweeps,
a campaign schedule, indicator families and bad input."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from holotable.cli import app
from holotable.sim import GameRecord, simulate
from holotable.sim.report.tables import category_win_rows, indicator_families
from holotable.sim.schedule import simulate_schedule


def run(*args: str) -> tuple[int, str, str]:
    """``holotable args`` in-process, one game at a time unless the test asks for workers."""
    extra = [] if "--workers" in args else ["--workers", "1"]
    result = CliRunner().invoke(app, [*args, *extra])
    return result.exit_code, result.stdout, result.stderr


def read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_report_files_hold_the_simulations_numbers(tmp_path: Path) -> None:
    out = tmp_path / "cb"
    code, stdout, stderr = run("balance", "captain-black", "-g", "8", "-n", "3", "-a", "heuristic,random",
                               "--seed", "4", "--out", str(out))
    assert code == 0, stderr
    assert "report.html" in stdout
    for name in ("report.html", "games.csv", "seats.csv", "seat_advantage.csv", "agents.csv",
                 "score_distribution.csv", "measures.csv", "category_wins.csv", "endings.csv"):
        assert (out / name).is_file(), name
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") >= 5
    assert not re.search(r"""(src|href)=['"](https?:|//)""", page)  # self-contained: no external assets
    report = simulate("captain-black", 3, 8, ["heuristic", "random"], seed=4, workers=1)
    seats = read(out / "seats.csv")
    assert len(seats) == 8 * 3
    for row in seats:
        rec = report.records[int(row["game"])]
        seat = int(row["seat"])
        assert row["agent"] == rec.agents[seat]
        assert float(row["score"]) == rec.scores[seat] and int(row["rank"]) == rec.ranks[seat]
        assert int(row["won"]) == (seat in rec.winners)
        for name, value in rec.seat_measures[seat]:
            assert float(row[name]) == value
    games = read(out / "games.csv")
    assert [int(g["seed"]) for g in games] == [rec.seed for rec in report.records]
    assert [int(g["steps"]) for g in games] == [rec.steps for rec in report.records]
    assert all(float(g[name]) == value for g, rec in zip(games, report.records, strict=True)
               for name, value in rec.measures)
    advantage = read(out / "seat_advantage.csv")
    for row, stats in zip(advantage, report.seats, strict=True):
        assert int(row["wins"]) == stats.wins and float(row["win_rate_lo"]) == stats.win_rate_ci[0]
    measures = {(r["scope"], r["measure"]): r for r in read(out / "measures.csv")}
    mean_draw = measures[("agent heuristic", "mean_draw")]
    values = [dict(rec.seat_measures[s])["mean_draw"] for rec in report.records
              for s, a in enumerate(rec.agents) if a == "heuristic"]
    assert math.isclose(float(mean_draw["mean"]), sum(values) / len(values))
    assert int(mean_draw["n"]) == len(values) == 16


def test_a_sweep_writes_one_row_per_value(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, _, stderr = run("balance", "captain-black", "-g", "4", "-n", "2", "--sweep", "island_fields=5,6,8",
                          "--set", "max_chests_per_round=3", "--out", str(out))
    assert code == 0, stderr
    rows = read(out / "sweep.csv")
    assert [r["island_fields"] for r in rows] == ["5", "6", "8"]
    for row in rows:
        rep = simulate("captain-black", 2, 4, ["heuristic"], seed=0, workers=1,
                       params={"island_fields": row["island_fields"], "max_chests_per_round": "3"})
        assert float(row["seat0_win_rate"]) == rep.seats[0].win_rate
        assert float(row["mean_length"]) == rep.length.mean
    seats = read(out / "seats.csv")
    assert {r["island_fields"] for r in seats} == {"5", "6", "8"} and len(seats) == 3 * 4 * 2
    assert "Against island_fields" in (out / "report.html").read_text(encoding="utf-8")


def test_a_campaign_game_reports_each_scheduled_game_and_its_defeats(tmp_path: Path) -> None:
    out = tmp_path / "kyrum"
    code, _, stderr = run("balance", "kyrum", "-g", "3", "--schedule", "1-2", "--seed", "1", "--out", str(out))
    assert code == 0, stderr
    rows = read(out / "schedule.csv")
    expected = simulate_schedule("kyrum", None, 3, ["heuristic"], 1, [1, 2], workers=1)
    assert [int(r["number"]) for r in rows] == [1, 2]
    for row, (_, rep) in zip(rows, expected.entries, strict=True):
        assert int(row["wins"]) == rep.seats[0].wins and int(row["games"]) == 3
    defeats = read(out / "defeats.csv")
    lost = sum(1 for _, rep in expected.entries for rec in rep.records if not rec.winners)
    assert sum(int(r["games"]) for r in defeats) == lost


def test_indicator_families_give_the_win_rate_by_category() -> None:
    def rec(index: int, agendas: tuple[str, str], winner: int) -> GameRecord:
        seat_measures = tuple(((f"agenda:{a}", 1.0), (f"agenda:{b}", 0.0), ("coins", 3.0))
                              for a, b in (agendas, agendas[::-1]))
        return GameRecord(index, index, ("x", "y"), (1.0, 0.0), (1, 2) if winner == 0 else (2, 1), (winner,), 5,
                          seat_measures=seat_measures)

    records = [rec(0, ("tax", "mine"), 0), rec(1, ("tax", "mine"), 0), rec(2, ("mine", "tax"), 1)]
    assert indicator_families(records) == ["agenda"]
    rows = {r["category"]: r for r in category_win_rows(records)}
    assert rows["tax"]["seat_games"] == 3 and rows["tax"]["wins"] == 3 and rows["tax"]["win_rate"] == 1.0
    assert rows["mine"]["seat_games"] == 3 and rows["mine"]["wins"] == 0
    assert rows["tax"]["rate"] == 0.5 and rows["tax"]["win_rate_lo"] > 0.0


def test_council_report_gives_win_rate_by_agenda(tmp_path: Path) -> None:
    out = tmp_path / "council"
    code, _, stderr = run("balance", "council", "-g", "3", "-n", "4", "-a", "heuristic,random", "--seed", "2",
                          "--out", str(out))
    assert code == 0, stderr
    wins = [r for r in read(out / "category_wins.csv") if r["family"] == "agenda"]
    report = simulate("council", 4, 3, ["heuristic", "random"], seed=2, workers=1)
    held = [next(n.removeprefix("agenda:") for n, v in rec.seat_measures[s] if n.startswith("agenda:") and v == 1.0)
            for rec in report.records for s in range(4)]
    assert sum(int(r["seat_games"]) for r in wins) == len(held) == 12
    for row in wins:
        assert int(row["seat_games"]) == held.count(row["category"])


@pytest.mark.parametrize(("args", "message"), [
    (["captain-black", "--sweep", "island_fields"], "--sweep expects"),
    (["captain-black", "--sweep", "island_fields=6,6"], "repeated"),
    (["captain-black", "--sweep", "island_fields=6,99"], "island_fields"),
    (["captain-black", "--set", "nothing_like_this=1"], "nothing_like_this"),
    (["captain-black", "--set", "island_fields"], "--set expects"),
    (["captain-black", "--schedule", "1-3"], "no schedule"),
    (["kyrum", "--sweep", "partner=true,false"], "--sweep is for games without a schedule"),
    (["captain-black", "-a", "nobody"], "no agent 'nobody'"),
    (["captain-black", "-g", "0"], "at least 1"),
    (["captain-black", "--backend", "nope"], "no backend 'nope'"),
])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    code, out, err = run("balance", *args, "--out", str(tmp_path / "r"))
    assert code == 2, out + err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()  # nothing written


def test_a_data_value_set_reaches_every_game_whatever_the_workers(tmp_path: Path) -> None:
    out = tmp_path / "data"
    code, _, stderr = run("balance", "captain-black", "-g", "4", "-n", "2", "-a", "random", "--set",
                          "components.gold_coins=20", "--workers", "2", "--out", str(out))
    assert code == 0, stderr
    report = simulate("captain-black", 2, 4, ["random"], seed=0, workers=1,
                      params={"data": {"components.gold_coins": 20}})
    default = simulate("captain-black", 2, 4, ["random"], seed=0, workers=1)
    steps = [int(row["steps"]) for row in read(out / "games.csv")]
    assert steps == [rec.steps for rec in report.records]
    assert steps != [rec.steps for rec in default.records]  # the setting changed the games


def test_interval_whiskers_are_clipped_to_where_a_familys_mean_can_lie() -> None:
    from holotable.sim.report.output import family_bounds

    records = [GameRecord(i, i, ("x",), (0.0,), (1,), (0,), 3, measures=(("share:a", v), ("coins", 2.0 * i),
                                                                         ("delta", i - 1.0)))
               for i, v in enumerate((0.0, 1.0, 0.5))]
    bounds = family_bounds(records, per_seat=False)
    assert bounds["share"] == (0.0, 1.0)
    assert bounds["coins"] == (0.0, math.inf)
    assert bounds["delta"] == (-math.inf, math.inf)
