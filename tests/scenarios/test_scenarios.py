"""Every scenario file under tests/scenarios/ runs and meets its expectations.

The Captain Black files pin down the spec's worked examples: CB-EX-01 (the rulebook's
four-player example: parrots for the fewest, then chests by dense rank) and CB-EX-04
(the 8th black coin ends the round at once; in the final round it ends the game).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from holotable.engine import GameOverError, Scenario, ScenarioError, run_scenario

HERE = Path(__file__).parent
FILES = sorted(HERE.rglob("*.json"))


def test_there_are_scenario_files() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(HERE)))
def test_scenario_meets_its_expectations(path: Path) -> None:
    scenario = Scenario.load(path)
    assert scenario.expect, "a scenario file in the test suite must expect something"
    assert scenario.rules, "a scenario file in the test suite must cite the rule IDs it covers"
    _, mismatches = run_scenario(scenario)
    assert mismatches == [], "\n".join(map(str, mismatches))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(HERE)))
def test_scenario_file_round_trips(path: Path) -> None:
    scenario = Scenario.load(path)
    assert Scenario.from_json(json.loads(json.dumps(scenario.to_json()))) == scenario


SCRIPTED = [p for p in FILES if Scenario.load(p).chance]


def test_there_are_files_with_scripted_chance() -> None:
    assert {p.parent.name for p in SCRIPTED} >= {"captain-black", "buccaneers", "kyrum", "space-pirates"}


@pytest.mark.parametrize("path", SCRIPTED, ids=lambda p: str(p.relative_to(HERE)))
def test_scripted_chance_is_what_the_file_depends_on(path: Path) -> None:
    """Without its ``chance`` entry every such file fails (a mismatch or a refused action), so the
    scripted outcomes are really taken, and every one of them is used up by the end."""
    scenario = Scenario.load(path)
    state, _ = run_scenario(scenario)
    assert dict(state.script) == {}, f"scripted outcomes never taken: {dict(state.script)}"
    try:
        _, mismatches = run_scenario(replace(scenario, chance={}))
    except ScenarioError:
        return
    assert mismatches


def test_cb_ex_01_parrots_go_only_to_the_fewest_before_parrots() -> None:
    """CB-EX-01 / CB-PARROT-03: Pia ties Jakob's total after parrots but gets none herself."""
    state, _ = run_scenario(Scenario.load(HERE / "captain-black" / "cb-ex-01-rulebook-example.json"))
    record = state.full()["data"]["rounds"][0]
    assert record["totals"][0] == record["totals"][2] == 10
    assert "0" not in record["parrots"]


def test_cb_ex_04_no_draw_is_accepted_after_the_final_round_ends() -> None:
    """CB-EX-04: after the round-ending draw of the last round, a Draw from any seat is rejected."""
    state, _ = run_scenario(Scenario.load(HERE / "captain-black" / "cb-ex-04-last-coin-final-round.json"))
    before = state.fingerprint()
    for seat in range(state.players):
        with pytest.raises(GameOverError):
            state.apply("draw 1", seat)
    assert state.fingerprint() == before


def test_cb_ex_04_a_draw_of_six_without_the_black_coin_would_not_end_the_round() -> None:
    """CB-EX-04's file depends on its seed drawing the black coin; the check is not vacuous."""
    scenario = Scenario.load(HERE / "captain-black" / "cb-ex-04-round-end.json")
    ended = []
    for seed in range(12):
        state, mismatches = run_scenario(replace(scenario, seed=seed))
        black = state.full()["data"]["last_draw"]["black"]
        ended.append(black == 1)
        assert (mismatches == []) == (black == 1)
    assert any(ended) and not all(ended)


DOC = HERE.parents[1] / "docs" / "scenarios.md"


def test_the_documented_example_is_the_cb_ex_01_file() -> None:
    """docs/scenarios.md shows the CB-EX-01 file verbatim, so the documented example is tested."""
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks == [(HERE / "captain-black" / "cb-ex-01-rulebook-example.json").read_text(encoding="utf-8")]


def test_the_documented_python_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(HERE.parents[1])
    for block in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        exec(compile(block, "scenarios.md", "exec"), {"__name__": "docs_example"})
    assert capsys.readouterr().out == ""  # the example file meets all its expectations
