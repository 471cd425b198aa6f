"""Data overrides (issue 9): every value of a game's data files is addressable by a dotted path,
carried by the configuration, checked up front, saved with the match and applied when the game
builds its data."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import holotable
from holotable.engine import (
    Chance,
    Config,
    ConfigError,
    DataCatalog,
    DataError,
    DataOverrideError,
    Dynamics,
    GameSpec,
    Information,
    Match,
    Param,
    State,
    split_settings,
)

# ---------------------------------------------------------------------- a catalog of its own

DOCS: dict[str, Any] = {
    "deck": {
        "_about": "a comment, never a key",
        "cards": [
            {"id": "A", "name": "Ace", "stats": [[2, 3], [3, 2]], "assumed": ["AMB-01"]},
            {"id": "B", "name": "Bee", "stats": [[5, 1]]},
        ],
    },
    "rules": {
        "bonus": {"value": 3, "record": "AMB-02", "why": "a guess"},
        "limit": 1.5,
        "strict": True,
        "order": [4, 5, 6],
        "fixed": {"box": 9},
    },
}
PARSES: list[int] = []


def _parse(docs: Any) -> dict[str, Any]:
    """A loader with one data rule: a card's value may not be negative."""
    PARSES.append(1)
    for card in docs["deck"]["cards"]:
        if card["stats"][0][0] < 0:
            raise DataError(f"deck.json: card {card['id']!r}: field 'stats': value must be >= 0")
    return {"docs": docs}


def _catalog() -> DataCatalog[dict[str, Any]]:
    return DataCatalog("Demo", lambda: DOCS, _parse, skip=("id", "name"), exclude=("rules.fixed",),
                       names={"stats": ("value", "weight")}, collapse=("cards",))


def test_paths_follow_the_files_ids_and_named_positions() -> None:
    keys = _catalog().keys()
    assert list(keys) == [
        "deck.A.stats.0.value", "deck.A.stats.0.weight", "deck.A.stats.1.value", "deck.A.stats.1.weight",
        "deck.B.stats.0.value", "deck.B.stats.0.weight",
        "rules.bonus", "rules.limit", "rules.strict", "rules.order.0", "rules.order.1", "rules.order.2",
    ]
    assert keys["deck.A.stats.1.value"].value == 3 and keys["deck.A.stats.1.value"].assumed == ("AMB-01",)
    assert keys["deck.B.stats.0.value"].assumed == ()
    assert keys["rules.bonus"].assumed == ("AMB-02",) and keys["rules.bonus"].help == "a guess"
    assert [keys[k].kind for k in ("rules.bonus", "rules.limit", "rules.strict")] == ["int", "float", "bool"]


def test_overrides_are_applied_to_a_copy_and_the_shipped_documents_stay_unchanged() -> None:
    catalog = _catalog()
    items = catalog.check({"deck.B.stats.0.weight": "4", "rules.limit": 2, "rules.strict": "false"})
    assert items == (("deck.B.stats.0.weight", 4), ("rules.limit", 2.0), ("rules.strict", False))
    built = catalog.resolve(items)["docs"]
    assert built["deck"]["cards"][1]["stats"][0] == [5, 4]
    assert built["rules"]["limit"] == 2.0 and built["rules"]["strict"] is False
    assert DOCS["deck"]["cards"][1]["stats"][0] == [5, 1] and DOCS["rules"]["strict"] is True
    assert catalog.resolve(()) is catalog.default


def test_built_data_is_cached_per_set_of_overrides() -> None:
    catalog = _catalog()
    items = catalog.check({"rules.bonus": 4})
    before = len(PARSES)
    first = catalog.resolve(items)
    assert catalog.resolve(items) is first and len(PARSES) == before
    assert catalog.resolve(catalog.check({"rules.bonus": 5})) is not first


@pytest.mark.parametrize(("overrides", "message"), [
    ({"deck.A.stats.0.valu": 1}, "no data value 'deck.A.stats.0.valu'; closest: deck.A.stats.0.value"),
    ({"rules.fixed.box": 1}, "no data value 'rules.fixed.box'"),
    ({"deck.A.name": "x"}, "no data value 'deck.A.name'"),
    ({"rules.bonus": "three"}, "data 'rules.bonus' expects int (shipped value 3), got 'three'"),
    ({"rules.bonus": 2.5}, "expects int"),
    ({"rules.bonus": True}, "expects int"),
    ({"rules.strict": 3}, "data 'rules.strict' expects bool"),
    ({"rules.limit": None}, "expects float"),
])
def test_unknown_paths_and_wrong_types_are_refused_naming_the_path(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        _catalog().check(overrides)
    assert message in str(err.value)
    assert not isinstance(err.value, DataOverrideError)


def test_an_override_that_breaks_a_data_rule_gets_the_loaders_message() -> None:
    with pytest.raises(DataOverrideError) as err:
        _catalog().check({"deck.B.stats.0.value": -1})
    assert isinstance(err.value, ConfigError) and isinstance(err.value, DataError)
    assert "deck.B.stats.0.value=-1" in str(err.value)
    assert "deck.json: card 'B': field 'stats': value must be >= 0" in str(err.value)


# ---------------------------------------------------------------------- configs, specs, matches

def _spec(catalog: DataCatalog[Any] | None) -> GameSpec:
    return GameSpec("demo", "Demo", 1, 2, Dynamics.SEQUENTIAL, Chance.DETERMINISTIC, Information.PERFECT,
                    params=(Param("rounds", 3, "int", minimum=1),), data=catalog)


def test_a_config_carries_sorted_overrides_and_round_trips_through_params_and_dicts() -> None:
    spec = _spec(_catalog())
    config = spec.make_config(2, rounds=4, data={"rules.limit": "2.5", "deck.A.stats.0.value": 7})
    assert config.data == (("deck.A.stats.0.value", 7), ("rules.limit", 2.5))
    assert config.params == {"rounds": 4, "data": {"deck.A.stats.0.value": 7, "rules.limit": 2.5}}
    assert spec.make_config(2, **config.params) == config
    assert spec.config_from_dict(json.loads(json.dumps(config.to_dict()))) == config
    assert hash(config) == hash(spec.make_config(2, rounds=4, data=dict(config.data)))
    assert config != spec.make_config(2, rounds=4)


def test_default_configs_have_no_overrides_and_unchanged_dicts() -> None:
    config = _spec(_catalog()).make_config(1)
    assert config.data == () and "data" not in config.params
    assert config.to_dict() == {"game": "demo", "players": 1, "params": {"rounds": 3}}
    assert _spec(_catalog()).make_config(1, data={}) == config
    assert Config("demo", 1, (("rounds", 3),)) == config


def test_a_game_without_data_values_refuses_overrides() -> None:
    with pytest.raises(ConfigError, match="demo has no addressable data values"):
        _spec(None).make_config(1, data={"x": 1})
    assert _spec(None).data_keys() == {}


def test_data_is_a_reserved_name() -> None:
    with pytest.raises(ValueError, match="reserved"):
        GameSpec("bad", "Bad", 1, 1, Dynamics.SEQUENTIAL, Chance.DETERMINISTIC, Information.PERFECT,
                 params=(Param("data", 1),))


def test_split_settings_sorts_parameters_from_data_paths_and_names_close_matches() -> None:
    spec = _spec(_catalog())
    params, data = split_settings(spec, {"rounds": "5", "rules.bonus": "4"})
    assert params == {"rounds": "5"} and data == {"rules.bonus": "4"}
    with pytest.raises(ConfigError) as err:
        split_settings(spec, {"round": 2})
    assert "no parameter or data value 'round'; closest: rounds" in str(err.value)
    with pytest.raises(ConfigError, match=r"closest: rules\.bonus"):
        split_settings(spec, {"rules.bonis": 2})
    game = holotable.load("council")
    assert split_settings(game, {"first_leader": 1, "intrigue.tax": 3}) == ({"first_leader": 1}, {"intrigue.tax": 3})


#: Every shipped game that declares data values, with a numeric one to change.
CHANGES = {
    "captain-black": ("components.gold_coins", 30),
    "buccaneers": ("black_holes.BH-M1.threshold", 20),
    "council": ("planets.RED-F.points", 2),
    "kyrum": ("rules.gauges.fuel.start", 12),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_save_load_and_replay_keep_the_overrides(name: str) -> None:
    game = holotable.load(name)
    path, value = CHANGES[name]
    match = Match(game, game.spec.make_config(data={path: value}), seed=5)
    for _ in range(12):
        st = match.state
        if st.is_terminal():
            break
        seat = st.to_move()[0]
        match.play(st.legal_actions(seat)[0], seat)
    again = Match.from_json(match.to_json())
    assert again.config == match.config and again.config.data == ((path, value),)
    assert again.state.fingerprint() == match.state.fingerprint()
    assert json.loads(match.to_json())["config"]["params"]["data"] == {path: value}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_refused_override_changes_nothing(name: str) -> None:
    game = holotable.load(name)
    keys = game.spec.data_keys()
    shipped = {k: v.value for k, v in keys.items()}
    default = State.new(game, game.spec.make_config(), 3).fingerprint()
    path = CHANGES[name][0]
    for bad in ({path + "x": 1}, {path: "lots"}, {path: -10_000}):
        with pytest.raises(ConfigError):
            game.spec.make_config(data=bad)
    assert {k: v.value for k, v in game.spec.data_keys().items()} == shipped
    assert State.new(game, game.spec.make_config(), 3).fingerprint() == default


def test_every_game_declares_its_data_values_with_assumed_records() -> None:
    for name in CHANGES:
        keys = holotable.load(name).spec.data_keys()
        assert keys, name
        assert all(k.path == path and k.kind in ("int", "float", "bool", "str") for path, k in keys.items())
    assumed = [k for k in holotable.load("buccaneers").spec.data_keys().values() if k.assumed]
    assert len(assumed) > 100  # every junk card value, black hole and scoring card (AMB-nn)


@st.composite
def _numeric_overrides(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(CHANGES)))
    keys = [k for k in holotable.load(name).spec.data_keys().values() if k.kind == "int"]
    chosen = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3, unique_by=lambda k: k.path))
    return name, {k.path: k.value + draw(st.integers(-3, 3)) for k in chosen}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_numeric_overrides(), st.integers(0, 2**16))
def test_random_numeric_overrides_are_refused_cleanly_or_set_up_and_play(
    case: tuple[str, dict[str, Any]], seed: int
) -> None:
    """Invariant: an override is either refused with a ConfigError up front, or the game sets up
    and plays random legal moves without an error."""
    name, overrides = case
    game = holotable.load(name)
    try:
        config = game.spec.make_config(data=overrides)
    except ConfigError:
        return
    st_ = State.new(game, config, seed)
    rng = holotable.engine.Rng(seed)
    for _ in range(40):
        if st_.is_terminal():
            break
        seat = st_.to_move()[0]
        st_.apply(rng.choice(list(st_.legal_actions(seat))), seat)
    for seat in range(config.players):
        json.dumps(st_.view(seat))


def test_numbers_only_keeps_the_text_its_patterns_name() -> None:
    """A numbers-only catalog still offers the text values a ``text`` pattern names, and only those."""
    catalog: DataCatalog[Any] = DataCatalog("Demo", lambda: DOCS, lambda docs: docs, numbers_only=True,
                                            text=("deck.cards.*.name",))
    keys = catalog.keys()
    assert keys["deck.cards.A.name"].kind == "str" and keys["deck.cards.A.name"].value == "Ace"
    plain = DataCatalog("Demo", lambda: DOCS, lambda docs: docs, numbers_only=True).keys()
    assert "deck.cards.A.name" not in plain
    assert {k for k in keys if k not in plain} == {"deck.cards.A.name", "deck.cards.B.name"}
    assert catalog.resolve(catalog.check({"deck.cards.B.name": "Wasp"}))["deck"]["cards"][1]["name"] == "Wasp"
