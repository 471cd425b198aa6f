"""The sampled legal storm area agrees with the rules at every sample (issue 19, point 1)."""

from __future__ import annotations

import math

import pytest
from test_sp_moves import make  # type: ignore[import-not-found]

from holotable.engine import IllegalActionError
from holotable.games.space_pirates.placement import storm_area


def test_storm_area_is_exactly_the_rules_legal_samples() -> None:
    st = make({"ships": [{"center": [20, 30], "heading": 0}, {"center": [40, 30], "heading": 0}],
               "start": {"storm": True}})
    area = storm_area(st)
    assert area is not None and area["kind"] == "storm" and area["points"]
    pts = {tuple(p) for p in area["points"]}
    assert not any(math.dist(p, (40, 30)) < 1.0 for p in pts)  # never over the other ship
    for p in list(pts)[:40]:
        st.clone().apply(f"storm {p[0]} {p[1]}")  # each shaded sample is accepted
    with pytest.raises(IllegalActionError):
        st.clone().apply("storm 40.0 30.0")
    assert (40.0, 30.0) not in pts


def test_no_area_when_no_storm_is_being_placed() -> None:
    st = make({"ships": [{"center": [20, 30], "heading": 0}, {"center": [40, 30], "heading": 0}]})
    assert storm_area(st) is None
