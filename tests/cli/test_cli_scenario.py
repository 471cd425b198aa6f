"""``holotable scenario FILE``: print the state or a seat's view, --check exit codes, bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from holotable.engine import Scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
EX01 = ROOT / "tests" / "scenarios" / "captain-black" / "cb-ex-01-rulebook-example.json"


def write(tmp_path: Path, obj: Any, name: str = "s.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def test_prints_the_full_state_as_json(cli) -> None:
    result = cli("scenario", str(EX01))
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    state, _ = run_scenario(Scenario.load(EX01))
    assert printed == json.loads(json.dumps(state.full()))
    assert printed["data"]["rounds"][0]["chests"] == [1, 3, 1, 2]  # CB-EX-01


def test_seat_prints_that_seats_view_without_others_secrets(cli) -> None:
    result = cli("scenario", str(EX01), "--seat", "2")
    assert result.exit_code == 0, result.output
    view = json.loads(result.stdout)
    state, _ = run_scenario(Scenario.load(EX01))
    assert view == json.loads(json.dumps(state.view(2)))
    assert view["seat"] == 2
    assert "chest_deck_top_first" not in json.dumps(view)


def test_a_finished_scenario_prints_its_outcome(cli) -> None:
    path = ROOT / "tests" / "scenarios" / "captain-black" / "cb-ex-04-last-coin-final-round.json"
    result = cli("scenario", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outcome"]["winners"] == [2]


def test_check_passes_with_exit_zero(cli) -> None:
    result = cli("scenario", str(EX01), "--check")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("PASS CB-EX-01")
    assert "12 expectation(s) hold" in result.stdout


def test_check_lists_each_mismatch_and_exits_one(cli, tmp_path: Path) -> None:
    obj = json.loads(EX01.read_text(encoding="utf-8"))
    obj["expect"]["data.round"] = 3
    obj["expect"]["data.rounds.0.chests"] = [1, 1, 1, 1]
    result = cli("scenario", write(tmp_path, obj), "--check")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("FAIL") and "2 of 12 expectation(s) do not hold" in lines[0]
    assert "  data.rounds.0.chests: expected [1, 1, 1, 1], got [1, 3, 1, 2]" in lines
    assert "  data.round: expected 3, got 2" in lines


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{corrupt", "is not valid JSON"),
        ('{"format": "holotable-scenario", "version": 1}', "has no 'game'"),
        ('{"format": "holotable-scenario", "version": 1, "game": "captain-black", "arrangement": {"island": 9}}',
         "'island' must be 0..7"),
        ('{"format": "holotable-scenario", "version": 1, "game": "captain-black", "players": 2, '
         '"params": {"start_seat": 0}, "actions": [{"seat": 1, "action": "draw 1"}]}', "action 0"),
    ],
)
def test_bad_files_exit_two_with_one_line(cli, tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    for extra in ([], ["--check"]):
        result = cli("scenario", str(path), *extra)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_a_missing_file_exits_two(cli, tmp_path: Path) -> None:
    result = cli("scenario", str(tmp_path / "nope.json"))
    assert result.exit_code == 2
    assert "cannot read scenario" in result.stderr


def test_a_seat_that_does_not_exist_exits_two(cli) -> None:
    result = cli("scenario", str(EX01), "--seat", "4")
    assert result.exit_code == 2
    assert "there is no seat 4" in result.stderr


def test_seat_and_check_together_exit_two(cli) -> None:
    result = cli("scenario", str(EX01), "--seat", "0", "--check")
    assert result.exit_code == 2
    assert "--check" in result.stderr
