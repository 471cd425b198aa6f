"""Scripted chance (engine/chance.py): outcomes a scenario fixes, carried by the state."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.engine import Rng, Scenario, ScenarioError, State, run_scenario
from holotable.engine import chance as chances


def cb(seed: int = 1, **chance: list[Any]) -> State[Any, Any]:
    st = holotable.load("captain-black").new_state(players=2, seed=seed, start_seat=0)
    if chance:
        st.script_chance(chance)
    return st


@pytest.mark.parametrize(
    ("chance", "message"),
    [
        ({"dice": [1]}, "unknown event\\(s\\) \\['dice'\\]; this game scripts \\['draw', 'shuffle'\\]"),
        ({"draw": 1}, "chance.draw must be a list"),
        ({"draw": [0, -1]}, "chance.draw\\[1\\]: expected an integer >= 0"),
        ({"draw": [True]}, "chance.draw\\[0\\]"),
        ({"shuffle": [3]}, "chance.shuffle\\[0\\]: expected the shuffled order as a list"),
    ],
)
def test_a_bad_chance_entry_is_refused_and_changes_nothing(chance: dict[str, Any], message: str) -> None:
    st = cb(draw=[1])
    with pytest.raises(ScenarioError, match=message):
        st.script_chance(chance)
    assert dict(st.script) == {"draw": (1,)}


def test_a_game_without_chance_events_refuses_any() -> None:
    st = holotable.load("council").new_state(players=4, seed=0)
    with pytest.raises(ScenarioError, match="no chance events to script"):
        st.script_chance({"die": [1]})


def test_outcomes_are_taken_in_order_then_the_rng_takes_over_with_its_usual_draws() -> None:
    scripted, plain = cb(draw=[0, 1]), cb()
    scripted.apply("draw 5")
    scripted.apply("draw 3")
    assert scripted.data.boxes == [5, 0] and scripted.data.island == 1 and not scripted.script
    # the script drew nothing from the RNG, so from here both states draw alike
    plain.rng = scripted.rng.clone()
    plain.data = scripted.game.copy_data(scripted.data)
    for k in (2, 4, 1):
        scripted.apply(f"draw {k}")
        plain.apply(f"draw {k}")
    assert scripted.data.to_dict() == plain.data.to_dict()


def test_an_unused_script_leaves_every_draw_as_it_was() -> None:
    """A script for an event that never happens changes nothing: the same draws, the same state."""
    scripted, plain = cb(shuffle=[[1, 2, 3]]), cb()
    for k in (3, 2, 5, 1, 4):
        scripted.apply(f"draw {k}")
        plain.apply(f"draw {k}")
    assert scripted.data.to_dict() == plain.data.to_dict() and scripted.rng.fingerprint() == plain.rng.fingerprint()


def test_an_impossible_scripted_outcome_fails_loudly() -> None:
    st = cb(draw=[2])
    with pytest.raises(ScenarioError, match=r"chance.draw: 2 black coin\(s\) in a draw of 1"):
        st.apply("draw 1")


def test_a_clone_takes_its_own_outcomes() -> None:
    st = cb(draw=[1, 0])
    other = st.clone()
    other.apply("draw 2")
    assert dict(other.script) == {"draw": (0,)} and dict(st.script) == {"draw": (1, 0)}


def test_determinisation_forgets_the_scripted_future() -> None:
    st = cb(draw=[1])
    assert dict(st.determinize(0, Rng(5)).script) == {}
    assert dict(st.script) == {"draw": (1,)}


def test_a_refused_arrangement_keeps_the_script_and_an_accepted_one_too() -> None:
    st = cb(draw=[1])
    with pytest.raises(ScenarioError):
        st.arrange({"island": 99})
    st.arrange({"island": 1, "bag": {"gold": 42, "black": 7}})
    assert dict(st.script) == {"draw": (1,)}


def test_pick_and_shuffle_check_the_scripted_outcome() -> None:
    st = cb()
    st.script = {"x": ("b",), "s": ((3, 1, 2),)}
    assert chances.pick(st, "x", ["a", "b"]) == "b"
    items = [1, 2, 3]
    chances.shuffle(st, "s", items)
    assert items == [3, 1, 2] and not st.script
    st.script = {"x": ("c",), "s": ((1, 1, 2),)}
    with pytest.raises(ScenarioError, match=r"chance.x: the scripted 'c' is not possible now"):
        chances.pick(st, "x", ["a", "b"])
    with pytest.raises(ScenarioError, match="is not an order of"):
        chances.shuffle(st, "s", [1, 2, 3])


def test_a_scenario_scripts_before_it_arranges_and_round_trips_its_chance() -> None:
    obj = {"format": "holotable-scenario", "version": 1, "game": "captain-black", "players": 2,
           "params": {"start_seat": 0}, "chance": {"draw": [1]}, "actions": ["draw 4"],
           "expect": {"data.last_draw.black": 1, "data.island": 1}}
    scenario = Scenario.from_json(obj)
    assert Scenario.from_json(scenario.to_json()) == scenario
    _, mismatches = run_scenario(scenario)
    assert mismatches == []
    with pytest.raises(ScenarioError, match="'chance' must be an object"):
        Scenario.from_json({**obj, "chance": [1]})


def test_the_fingerprint_tells_scripted_futures_apart() -> None:
    """Equal fingerprints mean equal futures, and a script is part of the future."""
    assert len({cb(draw=[1]).fingerprint(), cb().fingerprint(), cb(draw=[0]).fingerprint()}) == 3
    assert cb(draw=[1]).fingerprint() == cb(draw=[1]).clone().fingerprint()
