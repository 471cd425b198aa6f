"""The shipped data file and its validation (components CB-COMP-01..04, ASSUMED values CB-AMB-nn)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from holotable.engine import DataError
from holotable.games.captain_black.data import load_default, parse


def _shipped() -> dict[str, Any]:
    text = resources.files("holotable.games.captain_black").joinpath("data", "captain-black.json").read_text()
    raw: dict[str, Any] = json.loads(text)
    return raw


def test_shipped_file_parses_with_the_rulebook_components() -> None:
    data = load_default()
    c = data.components
    assert (c.gold_coins, c.black_coins) == (42, 8)  # CB-COMP-01, CB-COMP-02
    assert (c.chest_filled, c.chest_empty, c.chest_cards) == (35, 5, 40)  # CB-COMP-03
    assert c.parrot_cards == 13 and c.coins == 50  # CB-COMP-04
    assert data.default("parrot_values") == [1] * 6 + [2] * 4 + [3] * 3
    assert parse(_shipped()).components == c


def test_every_assumed_value_cites_an_ambiguity_record() -> None:
    for name, (_value, record, _choices) in load_default().assumed.items():
        assert record.startswith("CB-AMB-"), name


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = raw
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = raw
        for key in parents:
            node = node[key]
        del node[last]

    return change


BROKEN = [
    ("components", _drop("components"), "missing 'components'"),
    ("gold negative", _set("components.gold_coins", -1), "'gold_coins' must be an integer >= 1"),
    ("gold zero", _set("components.gold_coins", 0), "'gold_coins'"),
    ("black as text", _set("components.black_coins", "8"), "'black_coins'"),
    ("chest as bool", _set("components.chest_filled", True), "'chest_filled'"),
    ("parrot count float", _set("components.parrot_cards", 13.0), "'parrot_cards'"),
    ("assumed", _drop("assumed"), "missing 'assumed'"),
    ("assumed entry", _drop("assumed.min_draw"), "assumed.min_draw needs a 'value' and a 'record'"),
    ("record missing", _drop("assumed.final_tie.record"), "assumed.final_tie needs"),
    ("value missing", _drop("assumed.island_fields.value"), "assumed.island_fields needs"),
    ("choice", _set("assumed.final_tie.value", "youngest"), "assumed.final_tie value must be one of its choices"),
    ("choices type", _set("assumed.parrot_exhaustion.choices", "reshuffle"), "assumed.parrot_exhaustion"),
    ("parrots short", _set("assumed.parrot_values.value", [1] * 12), "parrot_values must list 13"),
    ("parrots negative", _set("assumed.parrot_values.value", [-1] + [1] * 12), "parrot_values"),
    ("parrots bool", _set("assumed.parrot_values.value", [True] * 13), "parrot_values"),
    ("parrots not list", _set("assumed.parrot_values.value", 23), "parrot_values"),
    ("island too many", _set("assumed.island_fields.value", 9), "island_fields must be 1..8"),
    ("island zero", _set("assumed.island_fields.value", 0), "island_fields"),
    ("players inverted", _set("assumed.min_players.value", 5), "min_players/max_players"),
    ("players text", _set("assumed.max_players.value", "4"), "min_players/max_players"),
    ("min draw zero", _set("assumed.min_draw.value", 0), "assumed.min_draw must be an integer >= 1"),
    ("min draw null", _set("assumed.min_draw.value", None), "assumed.min_draw"),
    ("handful zero", _set("assumed.max_handful.value", 0), "assumed.max_handful must be an integer >= 1 or null"),
    ("chest cap text", _set("assumed.max_chests_per_round.value", "4"), "assumed.max_chests_per_round"),
    ("timeout float", _set("assumed.timeout_draw.value", 1.5), "assumed.timeout_draw"),
    ("start seat negative", _set("assumed.start_seat.value", -1), "assumed.start_seat"),
    ("tally text", _set("assumed.public_tally.value", "yes"), "assumed.public_tally must be true or false"),
]


@pytest.mark.parametrize(("label", "change", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_data_raises_a_clear_data_error(label: str, change: Callable[[dict[str, Any]], None],
                                               message: str) -> None:
    raw = copy.deepcopy(_shipped())
    change(raw)
    with pytest.raises(DataError) as err:
        parse(raw, where="test.json")
    assert message in str(err.value)
    assert str(err.value).startswith("test.json:")


@pytest.mark.parametrize("raw", [None, [], "components", 42])
def test_top_level_must_be_an_object(raw: Any) -> None:
    with pytest.raises(DataError, match="top level must be an object"):
        parse(raw)


def test_a_variant_data_file_is_accepted() -> None:
    raw = copy.deepcopy(_shipped())
    raw["assumed"]["island_fields"]["value"] = 7  # the CB-AMB-03 alternative
    raw["assumed"]["parrot_values"]["value"] = [2] * 13
    raw["assumed"]["max_handful"]["value"] = 10  # CB-AMB-05 with a physical hand
    raw["assumed"]["start_seat"]["value"] = 0
    data = parse(raw)
    assert data.default("island_fields") == 7
    assert data.default("parrot_values") == [2] * 13
