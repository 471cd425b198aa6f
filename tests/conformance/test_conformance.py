"""Every registered game, at each of its player counts, against the engine contract.

The checks live in ``holotable.testing.conformance`` (and are shown to catch broken games in
``test_checks.py``).
Seeds come from hypothesis; example counts are modest so the file stays quick on one core.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import holotable
from holotable.engine import names
from holotable.testing import conformance as checks
from holotable.testing.conformance import player_counts

CASES = [
    pytest.param(name, n, id=f"{name}-{n}p")
    for name in names()
    for n in player_counts(holotable.load(name).spec.min_players, holotable.load(name).spec.max_players)
]
SEEDS = st.integers(0, 2**63 - 1)

#: Settings the contract checks play with, on top of each game's defaults. Random Space Pirates
#: players rarely win, so a random game runs to the simulation turn cap (300 turns, SP-AMB-59);
#: 40 turns exercise every rule path the contract checks at an eighth of the cost. The 300-turn
#: default itself is tested in tests/games/space_pirates.
CHECK_PARAMS: dict[str, dict[str, Any]] = {"space-pirates": {"turn_cap": 40}}
#: The rule variants are checked on shorter games: a variant changes the set-up or every turn, and 20
#: turns of random play reach every kind of decision (the 40-turn games above check the rest).
VARIANT_PARAMS: dict[str, dict[str, Any]] = {"space-pirates": {"turn_cap": 20}}

Check = Callable[[Any, Any, int], None]


def run(check: Check, name: str, players: int, seed: int) -> None:
    game = holotable.load(name)
    check(game, game.spec.make_config(players, **CHECK_PARAMS.get(name, {})), seed)


def test_every_registered_game_is_checked() -> None:
    assert "captain-black" in names()
    assert {p.values[0] for p in CASES} == set(names())


def test_player_counts() -> None:
    assert player_counts(2, 4) == [2, 3, 4]
    assert player_counts(1, 1) == [1]
    assert player_counts(4, 8) == [4, 5, 7, 8]
    assert player_counts(3, 6) == [3, 4, 5, 6]


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=6)
@given(seed=SEEDS)
def test_random_playouts_end_with_a_valid_outcome(name: str, players: int, seed: int) -> None:
    run(checks.check_playout, name, players, seed)


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_clones_are_independent(name: str, players: int, seed: int) -> None:
    run(checks.check_clones, name, players, seed)


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_replay_is_exact(name: str, players: int, seed: int) -> None:
    run(checks.check_replay, name, players, seed)


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_views_leak_no_secret(name: str, players: int, seed: int) -> None:
    run(checks.check_views_hide_secrets, name, players, seed)


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_refused_actions_change_nothing(name: str, players: int, seed: int) -> None:
    run(checks.check_refusals, name, players, seed)


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_action_text_and_index_round_trip(name: str, players: int, seed: int) -> None:
    run(checks.check_action_forms, name, players, seed)


def variants() -> list[Any]:
    """Every non-default value of every switch-like parameter (bools and choices), one at a time."""
    out = []
    for name in names():
        spec = holotable.load(name).spec
        for param in spec.params:
            values = param.choices if param.choices is not None else (True, False) if param.kind == "bool" else ()
            out += [pytest.param(name, {param.name: v}, id=f"{name}-{param.name}={v}")
                    for v in values if v != param.default]
    return out


@pytest.mark.parametrize(("name", "params"), variants())
@settings(max_examples=2)
@given(seed=SEEDS)
def test_rule_variants_conform(name: str, params: dict[str, Any], seed: int) -> None:
    game = holotable.load(name)
    config = game.spec.make_config(**{**VARIANT_PARAMS.get(name, {}), **params})
    for check in (checks.check_playout, checks.check_views_hide_secrets, checks.check_replay):
        check(game, config, seed)


@pytest.mark.parametrize("name", names())
@settings(max_examples=60)
@given(text=st.text(max_size=30) | st.from_regex(r"[a-z]{1,8} -?[0-9]{1,12}( [a-z0-9]{1,4})?", fullmatch=True))
def test_any_text_parses_or_is_malformed(name: str, text: str) -> None:
    checks.check_parse_never_crashes(holotable.load(name), text)
