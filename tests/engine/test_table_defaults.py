"""Table-only defaults: ``Param.table_default`` and ``GameSpec.make_config(..., table=True)``.

A parameter may default differently at a human table than in simulations, tests and RL (a turn
cap that ends endless bot games, say). Everything here is additive: without ``table=True``, or for a
parameter without a table default, configurations are exactly what they were.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import holotable
from holotable.cli import app
from holotable.cli.common import load_match
from holotable.engine import Chance, ConfigError, Dynamics, GameSpec, Information, Param, names
from holotable.engine.spec import UNSET

SPEC = GameSpec(
    name="test-table-defaults",
    title="Table Defaults Test",
    min_players=2,
    max_players=4,
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.SAMPLED,
    information=Information.IMPERFECT,
    params=(
        Param("turn_cap", 300, "int", minimum=0, table_default=0),
        Param("limit", 5, "int", optional=True, minimum=1, table_default=None),
        Param("speed", "fast", "str", choices=("fast", "slow"), table_default="slow"),
        Param("rounds", 3, "int", minimum=1),
    ),
)


def test_without_table_the_plain_defaults_apply() -> None:
    config = SPEC.make_config(2)
    assert config.params == {"turn_cap": 300, "limit": 5, "speed": "fast", "rounds": 3}


def test_a_table_uses_the_table_defaults_where_set() -> None:
    config = SPEC.make_config(2, table=True)
    # None is a real table default for an optional parameter, not "unset"
    assert config.params == {"turn_cap": 0, "limit": None, "speed": "slow", "rounds": 3}


def test_given_values_beat_table_defaults() -> None:
    config = SPEC.make_config(3, table=True, turn_cap=40, speed="fast", rounds=7)
    assert config.params == {"turn_cap": 40, "limit": None, "speed": "fast", "rounds": 7}
    assert config.players == 3


def test_table_configs_are_checked_like_any_other() -> None:
    with pytest.raises(ConfigError, match="turn_cap"):
        SPEC.make_config(2, table=True, turn_cap=-1)
    with pytest.raises(ConfigError, match="no parameter"):
        SPEC.make_config(2, table=True, nonsense=1)
    bad = GameSpec(SPEC.name, SPEC.title, 2, 4, SPEC.dynamics, SPEC.chance, SPEC.information,
                   params=(Param("speed", "fast", "str", choices=("fast", "slow"), table_default="warp"),))
    assert bad.make_config(2).params == {"speed": "fast"}
    with pytest.raises(ConfigError, match="must be one of"):
        bad.make_config(2, table=True)


def test_table_value_and_to_dict() -> None:
    cap, limit, speed, rounds = SPEC.params
    assert (cap.table_value, limit.table_value, speed.table_value, rounds.table_value) == (0, None, "slow", 3)
    data = SPEC.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert [(p["default"], p["table_default"]) for p in data["params"]] == [
        (300, 0), (5, None), ("fast", "slow"), (3, 3)]
    assert Param("values", (1, 2), "list").to_dict()["table_default"] == [1, 2]


def test_a_table_config_round_trips_through_its_dict() -> None:
    """A saved table stores every value, so reloading it (without ``table``) gives the same config."""
    config = SPEC.make_config(2, table=True)
    assert SPEC.config_from_dict(config.to_dict()) == config
    assert config != SPEC.make_config(2)


@given(cap=st.integers(0, 10_000), rounds=st.integers(1, 50), table=st.booleans())
def test_explicit_values_never_depend_on_table(cap: int, rounds: int, table: bool) -> None:
    given_values = {"turn_cap": cap, "limit": 2, "speed": "fast", "rounds": rounds}
    assert SPEC.make_config(2, table=table, **given_values).params == given_values


@pytest.mark.parametrize("name", names())
def test_registered_games_differ_only_where_a_table_default_is_set(name: str) -> None:
    spec = holotable.load(name).spec
    plain, table = spec.make_config().params, spec.make_config(table=True).params
    for p in spec.params:
        if p.table_default is UNSET:
            assert table[p.name] == plain[p.name], p.name
        else:
            expected = p.check(p.table_default)
            assert table[p.name] == (list(expected) if isinstance(expected, tuple) else expected), p.name


def test_space_pirates_has_no_turn_cap_at_a_table() -> None:
    """assumed:SP-AMB-59 -- the cap is for simulations; a human table plays without one."""
    spec = holotable.load("space-pirates").spec
    assert spec.make_config(2)["turn_cap"] == 300
    assert spec.make_config(2, table=True)["turn_cap"] == 0
    assert spec.make_config(2, table=True, turn_cap=50)["turn_cap"] == 50


@pytest.mark.parametrize(("extra", "cap"), [((), 0), (("--param", "turn_cap=50"), 50)])
def test_the_terminal_builds_a_table_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            extra: tuple[str, ...], cap: int) -> None:
    """`holotable play` is a human table: its saved match carries the table defaults unless overridden."""
    monkeypatch.setenv("HOLOTABLE_PNG_DIR", "off")
    save = tmp_path / "m.json"
    args = ["play", "space-pirates", "-n", "2", "--humans", "1", "--bots", "random", "--seed", "3",
            "--param", "first_seat=0", *extra, "--save", str(save)]
    result = CliRunner().invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert load_match(save).config["turn_cap"] == cap
