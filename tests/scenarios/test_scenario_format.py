"""The scenario format (engine/scenario.py): parsing errors, paths, expectations, refused actions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import holotable
from holotable.engine import HolotableError, Scenario, ScenarioError, run_scenario
from holotable.engine.scenario import check_expectations, resolve_path, same_json
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import Nim


def base(**changes: Any) -> dict[str, Any]:
    """A valid two-player Captain Black scenario, with ``changes`` applied (None deletes a key)."""
    obj: dict[str, Any] = {
        "format": "holotable-scenario",
        "version": 1,
        "game": "captain-black",
        "players": 2,
        "params": {"start_seat": 0},
        "seed": 3,
        "arrangement": {"bag": {"gold": 40, "black": 8}, "boxes": [2, 0]},
        "actions": [{"seat": 0, "action": "draw 1"}],
        "expect": {"ply": 1},
    }
    for key, value in changes.items():
        if value is None:
            obj.pop(key)
        else:
            obj[key] = value
    return obj


def test_scenario_error_is_a_holotable_value_error() -> None:
    assert issubclass(ScenarioError, HolotableError)
    assert issubclass(ScenarioError, ValueError)


def test_a_valid_scenario_runs() -> None:
    state, mismatches = run_scenario(Scenario.from_json(base()))
    assert mismatches == []
    assert state.ply == 1
    assert state.history[0][0] == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "holotable-match"}, "'format' must be 'holotable-scenario'"),
        ({"format": None}, "has no 'format'"),
        ({"version": 2}, "'version' 2 is not supported"),
        ({"version": True}, "'version' True is not supported"),
        ({"game": None}, "has no 'game'"),
        ({"game": 7}, "'game' must be a string, got a number"),
        ({"players": "4"}, "'players' must be an integer, got a string"),
        ({"players": True}, "'players' must be an integer, got a boolean"),
        ({"seed": 1.5}, "'seed' must be an integer, got a number"),
        ({"params": []}, "'params' must be an object, got a list"),
        ({"arrangement": "x"}, "'arrangement' must be an object, got a string"),
        ({"actions": {}}, "'actions' must be a list, got an object"),
        ({"actions": [7]}, "actions[0] must be an object"),
        ({"actions": [{"seat": 0}]}, "actions[0] has no 'action'"),
        ({"actions": [{"seat": 0, "action": "draw 1", "by": 1}]}, "actions[0] has unknown key(s) ['by']"),
        ({"actions": [{"seat": "0", "action": "draw 1"}]}, "actions[0].seat must be an integer"),
        ({"actions": [{"seat": 0, "action": [1]}]}, "actions[0].action must be text or an action index"),
        ({"expect": [1]}, "'expect' must be an object, got a list"),
        ({"rules": "CB-EX-01"}, "'rules' must be a list"),
        ({"rules": [1]}, "'rules' must be a list of rule IDs"),
        ({"title": 1}, "'title' must be a string"),
        ({"extra": 1}, "unknown scenario key(s) ['extra']"),
    ],
)
def test_each_malformed_field_is_named(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        Scenario.from_json(base(**changes))
    assert message in str(info.value)


def test_a_scenario_must_be_an_object() -> None:
    with pytest.raises(ScenarioError, match="must be a JSON object, got a list"):
        Scenario.from_json([base()])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "no-such-game"}, "cannot set up the game: no game"),
        ({"players": 9}, "cannot set up the game"),
        ({"params": {"max_handful": 0}}, "cannot set up the game"),
        ({"params": {"nonsense": 1}}, "cannot set up the game"),
        ({"arrangement": {"boxes": [2, 1]}}, "but there are 42 gold coins"),
        ({"arrangement": {"rounds": []}}, "unknown arrangement key(s) ['rounds']"),
    ],
)
def test_set_up_and_arrangement_errors_are_scenario_errors(changes: dict[str, Any], message: str) -> None:
    scenario = Scenario.from_json(base(**changes))
    with pytest.raises(ScenarioError) as info:
        run_scenario(scenario)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([{"seat": 1, "action": "draw 1"}], "action 0 ('draw 1' by seat 1) was refused: seat 1 is not asked"),
        ([{"seat": 0, "action": "draw 1"}, {"seat": 1, "action": "draw 99"}], "action 1 ('draw 99' by seat 1)"),
        (["fly away"], "action 0 ('fly away' by the seat to move) was refused"),
        ([{"seat": 0, "action": 50}], "action 0 (50 by seat 0) was refused: action index must be 0..49"),
    ],
)
def test_a_refused_action_names_its_index_and_the_reason(actions: list[Any], message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        run_scenario(Scenario.from_json(base(actions=actions)))
    assert message in str(info.value)


def test_a_refused_draw_carries_the_rule_id() -> None:
    with pytest.raises(ScenarioError, match=r"CB-DRAW-02"):
        run_scenario(Scenario.from_json(base(actions=[{"seat": 0, "action": "draw 49"}])))


def test_actions_take_text_indices_and_the_shorthand() -> None:
    scenario = Scenario.from_json(base(actions=["draw 1", {"seat": 1, "action": 0}], expect={"ply": 2}))
    state, mismatches = run_scenario(scenario)
    assert mismatches == []
    assert [(seat, a.k) for seat, a in state.history] == [(0, 1), (1, 1)]


def test_a_game_without_arrange_refuses_an_arrangement() -> None:
    with temporarily_registered(Nim()):
        scenario = Scenario.from_json(base(game="test-nim", params={}, arrangement={"pile": 3}, actions=[]))
        with pytest.raises(ScenarioError, match="test-nim does not support arranged starts"):
            run_scenario(scenario)
        # Without an arrangement the same game runs a scenario fine.
        plain = Scenario.from_json(base(game="test-nim", params={}, arrangement=None, actions=["take 2"], expect=None))
        state, mismatches = run_scenario(plain)
        assert state.data.pile == 13 and mismatches == []


def test_only_a_fresh_state_can_be_arranged() -> None:
    state = holotable.load("captain-black").new_state(players=2, seed=1, start_seat=0)
    state.apply("draw 1")
    before = state.fingerprint()
    with pytest.raises(ScenarioError, match="freshly set-up"):
        state.arrange({"island": 1})
    assert state.fingerprint() == before


# ---------------------------------------------------------------------- files
def test_load_names_the_file_for_each_kind_of_corruption(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    with pytest.raises(ScenarioError, match="cannot read scenario"):
        Scenario.load(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"broken\.json is not valid JSON"):
        Scenario.load(broken)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(base(version=3)), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"wrong.json: 'version' 3"):
        Scenario.load(wrong)


def test_to_json_round_trips(tmp_path: Path) -> None:
    scenario = Scenario.from_json(base(title="t", description="d", rules=["CB-EX-02"], actions=["draw 1"]))
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario.to_json()), encoding="utf-8")
    assert Scenario.load(path) == scenario


# ---------------------------------------------------------------------- paths and expectations
def test_dotted_paths_follow_dicts_and_list_indices() -> None:
    data = {"data": {"chests": [["filled"], ["empty", "filled"]], "bag": {"gold": 3}}}
    assert resolve_path(data, ["data", "chests", "1", "1"]) == "filled"
    assert resolve_path(data, ["data", "chests", "-1", "0"]) == "empty"
    assert resolve_path(data, ["data", "bag"]) == {"gold": 3}
    assert resolve_path(data, []) is data


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("data.nothing", "data has no key 'nothing'"),
        ("data.chests.2", "data.chests has 2 items; there is no index 2"),
        ("data.chests.first", "data.chests is a list; 'first' is not an index"),
        ("data.bag.gold.more", "data.bag.gold is 3, which has no 'more'"),
        ("nothing", "the state has no key 'nothing'"),
    ],
)
def test_a_broken_path_says_where_it_ends(path: str, message: str) -> None:
    data = {"data": {"chests": [["filled"], ["empty"]], "bag": {"gold": 3}}}
    with pytest.raises(LookupError) as info:
        resolve_path(data, path.split("."))
    assert info.value.args[0] == message


def test_failing_expectations_are_reported_not_raised() -> None:
    expect = {
        "ply": 1,  # holds
        "data.boxes": [0, 0],  # wrong: arranged with 2 gold in seat 0's box
        "data.chests.5": [],  # no such seat
        "outcome.ranks": [1, 2],  # the game is not over
        "terminal": 0,  # false is not 0
    }
    state, mismatches = run_scenario(Scenario.from_json(base(expect=expect)))
    assert [m.path for m in mismatches] == ["data.boxes", "data.chests.5", "outcome.ranks", "terminal"]
    boxes = mismatches[0]
    assert boxes.expected == [0, 0] and boxes.actual == state.full()["data"]["boxes"]
    assert str(boxes) == f"data.boxes: expected [0, 0], got {json.dumps(boxes.actual)}"
    assert "no index 5" in str(mismatches[1])
    assert "the game is not over" in str(mismatches[2])


def test_outcome_paths_read_the_outcome_of_a_finished_game() -> None:
    state = holotable.load("captain-black").new_state(players=2, seed=4, start_seat=0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    outcome = state.outcome()
    good = {"outcome.ranks": list(outcome.ranks), "outcome.winners.0": outcome.winners[0], "terminal": True}
    assert check_expectations(state, good) == []
    bad = {"outcome.ranks": [r + 1 for r in outcome.ranks]}
    assert [m.path for m in check_expectations(state, bad)] == ["outcome.ranks"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=8,
)


@given(json_values)
def test_same_json_is_equality_after_a_json_round_trip(value: Any) -> None:
    assert same_json(value, json.loads(json.dumps(value)))


def test_same_json_keeps_booleans_apart_from_numbers() -> None:
    assert same_json([5, (1, 2)], [5.0, [1, 2]])
    assert not same_json(True, 1)
    assert not same_json(0, False)
    assert not same_json([1], {"0": 1})
    assert not same_json("1", 1)
    assert not same_json(None, 0)
