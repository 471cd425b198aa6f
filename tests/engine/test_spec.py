"""GameSpec, Param and Config: every bad configuration is a ConfigError that says what is wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holotable.engine import Chance, Config, ConfigError, Dynamics, GameSpec, Information, Param

SPEC = GameSpec(
    name="test-spec",
    title="Spec Test",
    min_players=2,
    max_players=5,
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    default_players=3,
    params=(
        Param("rounds", 3, "int", minimum=1, maximum=10),
        Param("ratio", 0.5, "float", minimum=0.0, maximum=1.0),
        Param("open", False, "bool"),
        Param("variant", "basic", "str", choices=("basic", "expert")),
        Param("values", (1, 2, 3), "list"),
        Param("cap", None, "int", optional=True, minimum=1),
    ),
)


def test_defaults_fill_every_parameter() -> None:
    config = SPEC.make_config()
    assert config.players == 3  # default_players
    assert config.params == {"rounds": 3, "ratio": 0.5, "open": False, "variant": "basic", "values": [1, 2, 3],
                             "cap": None}
    assert config["rounds"] == 3
    assert config.get("missing", "x") == "x"
    with pytest.raises(KeyError):
        config["missing"]


def test_min_players_is_the_default_without_default_players() -> None:
    spec = GameSpec("test-two", "Two", 2, 4, Dynamics.SEQUENTIAL, Chance.DETERMINISTIC, Information.PERFECT)
    assert spec.make_config().players == 2


@pytest.mark.parametrize("players", [0, 1, 6, -3])
def test_player_count_outside_the_range_is_refused(players: int) -> None:
    with pytest.raises(ConfigError, match=f"Spec Test takes 2-5 players, not {players}"):
        SPEC.make_config(players)


@pytest.mark.parametrize("players", ["3", 3.0, True])
def test_player_count_must_be_an_int(players: Any) -> None:
    with pytest.raises(ConfigError, match="players must be an integer"):
        SPEC.make_config(players)


def test_unknown_parameters_are_named_with_the_known_ones() -> None:
    with pytest.raises(ConfigError) as err:
        SPEC.make_config(3, roundz=2, colour="red")
    message = str(err.value)
    assert "colour, roundz" in message
    assert "known: cap, open, ratio, rounds, values, variant" in message


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("rounds", "4", 4),
        ("rounds", 4.0, 4),
        ("ratio", 1, 1.0),
        ("ratio", "0.25", 0.25),
        ("open", "yes", True),
        ("open", "FALSE", False),
        ("open", True, True),
        ("values", "4, 5 6", (4, 5, 6)),
        ("values", [1, 2.5], (1, 2.5)),
        ("values", [2.0], (2,)),
        ("cap", None, None),
        ("cap", 7, 7),
        ("variant", "expert", "expert"),
    ],
)
def test_values_are_normalised(name: str, value: Any, expected: Any) -> None:
    assert SPEC.make_config(3, **{name: value})[name] == expected


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("rounds", "three", "parameter 'rounds' expects int, got 'three'"),
        ("rounds", 2.5, "parameter 'rounds' expects int, got 2.5"),
        ("rounds", True, "parameter 'rounds' expects int, got True"),
        ("rounds", [3], "parameter 'rounds' expects int"),
        ("rounds", 0, "parameter 'rounds' must be >= 1, got 0"),
        ("rounds", 11, "parameter 'rounds' must be <= 10, got 11"),
        ("rounds", None, "parameter 'rounds' may not be empty"),
        ("ratio", "half", "parameter 'ratio' expects float"),
        ("ratio", False, "parameter 'ratio' expects float"),
        ("ratio", 1.5, "parameter 'ratio' must be <= 1.0"),
        ("open", 1, "parameter 'open' expects bool, got 1"),
        ("open", "maybe", "parameter 'open' expects bool"),
        ("variant", 3, "parameter 'variant' expects str"),
        ("variant", "easy", "parameter 'variant' must be one of ('basic', 'expert'), got 'easy'"),
        ("values", "1, x", "parameter 'values' expects list"),
        ("values", [None], "parameter 'values' expects list"),
        ("values", 5, "parameter 'values' expects list"),
        ("cap", 0, "parameter 'cap' must be >= 1"),
    ],
)
def test_bad_values_are_refused_with_the_reason(name: str, value: Any, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        SPEC.make_config(3, **{name: value})
    assert message in str(err.value)


def test_param_lookup() -> None:
    assert SPEC.param("ratio").kind == "float"
    with pytest.raises(ConfigError, match="test-spec has no parameter 'speed'"):
        SPEC.param("speed")


def test_config_is_hashable_and_equal_by_value() -> None:
    a = SPEC.make_config(4, rounds=5, values=[7, 8])
    b = SPEC.make_config(4, values="7 8", rounds="5")
    assert a == b
    assert hash(a) == hash(b)
    assert a != SPEC.make_config(4, rounds=6)
    assert len({a, b}) == 1


configs = st.builds(
    lambda players, rounds, ratio, is_open, variant, values, cap: SPEC.make_config(
        players, rounds=rounds, ratio=ratio, open=is_open, variant=variant, values=values, cap=cap
    ),
    st.integers(2, 5),
    st.integers(1, 10),
    st.floats(0.0, 1.0),
    st.booleans(),
    st.sampled_from(["basic", "expert"]),
    st.lists(st.integers(-1000, 1000) | st.floats(-1e6, 1e6, allow_nan=False).filter(lambda f: not f.is_integer())),
    st.none() | st.integers(1, 100),
)


@given(configs)
def test_config_round_trips_through_json(config: Config) -> None:
    text = json.dumps(config.to_dict())
    again = SPEC.config_from_dict(json.loads(text))
    assert again == config
    assert again.to_dict() == config.to_dict()


def test_config_from_dict_refuses_what_is_not_a_config() -> None:
    with pytest.raises(ConfigError, match="a config must be a mapping"):
        SPEC.config_from_dict([3])  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="config is for 'chess', not 'test-spec'"):
        SPEC.config_from_dict({"game": "chess", "players": 3})
    with pytest.raises(ConfigError, match="unexpected config keys: colour, speed"):
        SPEC.config_from_dict({"players": 3, "speed": 1, "colour": 2})
    with pytest.raises(ConfigError, match="config 'params' must be a mapping"):
        SPEC.config_from_dict({"players": 3, "params": [1, 2]})
    with pytest.raises(ConfigError, match="no parameter"):
        SPEC.config_from_dict({"players": 3, "params": {"speed": 1}})
    with pytest.raises(ConfigError, match="takes 2-5 players"):
        SPEC.config_from_dict({"players": 9})


def test_spec_to_dict_is_json_ready() -> None:
    data = SPEC.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["dynamics"] == "sequential"
    assert [p["name"] for p in data["params"]] == ["rounds", "ratio", "open", "variant", "values", "cap"]
    rounds, _, _, variant, values, cap = data["params"]
    assert (rounds["minimum"], rounds["maximum"], rounds["optional"]) == (1, 10, False)
    assert variant["choices"] == ["basic", "expert"]
    assert values["default"] == [1, 2, 3]
    assert cap["optional"] is True
