"""The sampled legal storm and transport areas agree with the rules at every sample (issue 19, point 1)."""

from __future__ import annotations

import math

import pytest
from test_sp_moves import make  # type: ignore[import-not-found]

from holotable.engine import IllegalActionError
from holotable.games.space_pirates.placement import legal_area, place_area, storm_area


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


def test_place_area_is_exactly_the_rules_legal_samples() -> None:
    """The set-up transport's area: every shaded sample is accepted, a spot next to a ship never shaded."""
    import holotable

    game = holotable.load("space-pirates")
    st = game.new_state(players=2, seed=1, first_seat=0)
    while game.decision(st).kind != "place":
        st.apply(st.legal_actions()[0])
    area = place_area(st)
    assert area is not None and area["kind"] == "place" and area["points"]
    assert area["tid"] == game.decision(st).tid and area["step"] == 2.0
    assert legal_area(st) == area and storm_area(st) is None
    pts = {tuple(p) for p in area["points"]}
    for p in list(pts)[:40]:
        st.clone().apply(f"place {p[0]} {p[1]}")
    refused = [(x, y) for x in range(0, 61, 2) for y in range(0, 61, 2) if (float(x), float(y)) not in pts]
    assert refused
    for x, y in refused[:40]:
        with pytest.raises(IllegalActionError):
            st.clone().apply(f"place {float(x)} {float(y)}")


def test_no_place_area_when_nothing_is_being_placed() -> None:
    st = make({"ships": [{"center": [20, 30], "heading": 0}, {"center": [40, 30], "heading": 0}],
               "start": {"storm": True}})
    assert place_area(st) is None and legal_area(st) == storm_area(st)
