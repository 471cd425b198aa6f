"""Every number a data override may change has a declared range (the game's ``data/limits.json``), the
shipped value lies inside it, and an override outside it is refused with the range in the message,
at the command line and at the server alike (issue 21: a table's creator could freeze the server with
``constants.physics.dt = 2e-6``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import holotable
from holotable.engine import ConfigError

GAMES = ["buccaneers", "captain-black", "council", "kyrum", "space-pirates"]


@pytest.mark.parametrize("name", GAMES)
def test_every_overridable_number_has_a_range_holding_its_shipped_value(name: str) -> None:
    catalog = holotable.load(name).spec.data
    assert catalog is not None
    assert catalog.unlimited() == []
    numbers = [k for k in catalog.keys().values() if k.kind in ("int", "float")]
    assert numbers
    for key in numbers:
        assert key.limits is not None and key.limits[0] <= key.value <= key.limits[1], key.path


@settings(max_examples=60, deadline=None)
@given(game=hs.sampled_from(GAMES), data=hs.data())
def test_an_override_outside_its_range_is_refused_naming_the_range(game: str, data: Any) -> None:
    spec = holotable.load(game).spec
    keys = [k for k in spec.data_keys().values() if k.limits is not None]
    key = data.draw(hs.sampled_from(keys))
    low, high = key.limits
    beyond = data.draw(hs.sampled_from([low - 1, high + 1, high * 1000 + 1]))
    value = int(beyond) if key.kind == "int" else float(beyond)
    with pytest.raises(ConfigError, match="takes a number from"):
        spec.make_config(spec.min_players, data={key.path: value})


def test_the_reported_attack_is_refused_and_the_shipped_step_still_plays() -> None:
    spec = holotable.load("space-pirates").spec
    with pytest.raises(ConfigError, match=r"'constants.physics.dt' takes a number from 0.0005 to 0.02"):
        spec.make_config(2, data={"constants.physics.dt": 2e-6})
    config = spec.make_config(2, data={"constants.physics.dt": 0.004})  # inside: accepted
    assert dict(config.data)["constants.physics.dt"] == 0.004
