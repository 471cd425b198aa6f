"""The terminal's look-ahead (games/space_pirates/preview.py): a flick preview runs the rules' own
physics, so a precise hand lands where it says and a shaky one lands inside its spread; a ruler preview
agrees with the rules' legality; a preview reads only the public table and never the game's chances.

Every state here reaches its flick through the real game: a turn, a card with the transport symbol,
the adventure, the target, then the flick decision.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import holotable
from holotable.engine import IllegalActionError, Rng, State
from holotable.games.space_pirates import preview as pv
from holotable.games.space_pirates.terminal_commands import report_lines

GAME = holotable.load("space-pirates")
LAB = {"field": [60, 60], "bases": [["B1", 30.0, 6.5, 90.0], ["B2", 6.5, 30.0, 0.0], ["B3", 53.5, 30.0, 180.0]],
       "elements": [], "inhabited": 3}
ORE, SPICE = 0, 6  # the lowest token ids of those faces, which arrange gives the tokens below


def at_flick(dexterity: str = "precise", seed: int = 5, *, target: int = ORE,
             tokens: tuple[tuple[str, float, float], ...] = (("ORE", 20.0, 30.0), ("SPICE", 35.0, 30.0)),
             ships: list[dict[str, Any]] | None = None) -> State[Any, Any]:
    """Seat 0 plays E1-1 (transport, new transport), chooses the transport adventure and ``target``:
    the state waits for its flick."""
    st = GAME.new_state(players=2, seed=seed, first_seat=0, dexterity=dexterity, record=True)
    st.arrange({"layout": LAB, "ships": ships or [{"center": [10.0, 50.0], "heading": 0.0}, {"base": 2}],
                "tokens": [{"identity": i, "pos": [x, y]} for i, x, y in tokens],
                "hands": [["E1-1"], []], "active": 0})
    for text in ("card E1-1", "adv FLICK", f"target {target}"):
        st.apply(text, 0)
    dec = GAME.decision(st)
    assert dec.kind == "flick" and dec.tid == target
    return st


@settings(max_examples=12, deadline=None)
@given(hst.floats(-180, 180), hst.floats(0.15, 0.9))
def test_a_precise_flick_stops_where_the_preview_says(angle: float, strength: float) -> None:
    """SP-PHYS-05 (precise: no noise) with SP-PHYS-01..08: the preview's stop is the rules' stop, to the
    stored precision, wherever the flick goes (a bounce off the other token included)."""
    st = at_flick()
    before = st.fingerprint()
    p = pv.flick_preview(st, 0, angle, strength, samples=5)
    assert st.fingerprint() == before  # nothing played, the game's generator untouched
    assert p.noise == (0.0, 0.0) and p.skill == "precise"
    st.apply(f"flick {angle!r} {strength!r}", 0)
    rest = next(e for e in st.log_for(0) if e.kind == "flick").data["rest"]
    if ORE in st.data.last_flick["exits"]:
        assert p.stop is None and p.exit is not None and p.exits == p.samples
    else:
        assert p.stop == tuple(rest[str(ORE)])
        assert all(q == p.stop for q in p.stops) and p.radius == pytest.approx(0.0, abs=1e-9)
    start = [20.0, 30.0]  # the flicked token is always in the rules' list; the preview names it only if it moved
    assert p.moved == {int(t): tuple(q) for t, q in rest.items() if int(t) != ORE or q != start}


def test_the_preview_names_the_token_it_hits_and_the_report_says_where_it_went() -> None:
    """A flick straight at the spice token: the preview says it touches token 6 and pushes it, and after
    the real flick the report names token 6 as pushed, where the rules left it."""
    st = at_flick()
    p = pv.flick_preview(st, 0, 0.0, 0.4, samples=10)
    assert "token 6" in p.touches and SPICE in p.moved
    assert p.hits["token 6"] == 10
    st.apply("flick 0.0 0.4", 0)
    x, y = st.data.pos[SPICE]
    assert (x, y) == p.moved[SPICE]
    lines = report_lines(st, 1)  # the other seat reads the same report
    assert f"  token 6 (pushed) stopped at ({x:.1f}, {y:.1f})" in lines
    assert lines[0].startswith("Seat 1 flicks token 0: aimed 0° at 0.4")


def test_the_spread_holds_the_real_noisy_flicks() -> None:
    """SP-PHYS-05 under the standard hand (3°, 6 %): 30 real flicks, each with its own game seed, land
    around the preview's centre and mostly inside its 90 % radius."""
    st = at_flick("standard", tokens=(("ORE", 15.0, 30.0),))
    p = pv.flick_preview(st, 0, 0.0, 0.3, samples=60)
    assert p.centre is not None and 1.0 < p.radius < 6.0
    stops = []
    for seed in range(30):
        real = at_flick("standard", seed, tokens=(("ORE", 15.0, 30.0),))
        real.apply("flick 0.0 0.3", 0)
        stops.append(real.data.pos[ORE])
    mx, my = sum(s[0] for s in stops) / 30, sum(s[1] for s in stops) / 30
    assert math.hypot(mx - p.centre[0], my - p.centre[1]) < 1.5
    inside = sum(math.hypot(s[0] - p.centre[0], s[1] - p.centre[1]) <= p.radius + 0.3 for s in stops)
    assert inside >= 22  # 90 % expected; fewer than 22 of 30 is far below one chance in a thousand


def test_a_shaky_hand_spreads_wider_than_a_standard_one() -> None:
    std = pv.flick_preview(at_flick("standard", tokens=(("ORE", 15.0, 30.0),)), 0, 0.0, 0.3)
    shaky = pv.flick_preview(at_flick("shaky", tokens=(("ORE", 15.0, 30.0),)), 0, 0.0, 0.3)
    assert shaky.noise[0] > std.noise[0] and shaky.radius > std.radius


def test_a_preview_ignores_hidden_faces_and_the_game_seed() -> None:
    """SP-INFO-06: two games that differ only in what seat 0 cannot see (the faces, the seed, the
    generator) give seat 0 the same preview."""
    st = at_flick("standard")
    hidden = st.determinize(0, Rng(99))
    assert pv.flick_preview(st, 0, 10.0, 0.5) == pv.flick_preview(hidden, 0, 10.0, 0.5)
    other_seed = at_flick("standard", seed=77)
    assert pv.flick_preview(st, 0, 10.0, 0.5) == pv.flick_preview(other_seed, 0, 10.0, 0.5)


def test_bad_flick_previews_say_why() -> None:
    st = at_flick()
    with pytest.raises(pv.PreviewError, match="between 0 and 1"):
        pv.flick_preview(st, 0, 0.0, 1.5)
    with pytest.raises(pv.PreviewError, match="no flick is asked of you"):
        pv.flick_preview(st, 1, 0.0, 0.5)
    with pytest.raises(pv.PreviewError, match="not on the map"):
        pv.flick_preview(st, 1, 0.0, 0.5, tid=3)
    assert pv.flick_preview(st, 1, 0.0, 0.5, tid=SPICE).tid == SPICE  # anyone may try any token on the map


def at_move(tokens: list[dict[str, Any]] | None = None, **params: Any) -> State[Any, Any]:
    st = GAME.new_state(players=2, seed=1, first_seat=0, dexterity="precise", record=True, **params)
    st.arrange({"ships": [{"center": [20.0, 30.0], "heading": 0.0}, {"base": 1}], "active": 0,
                "start": {"move": 2}, "layout": LAB, "tokens": tokens or []})
    return st


def test_a_ruler_preview_agrees_with_the_rules() -> None:
    """SP-MOVE-02: the refused angle gets the rules' own reason; the legal one ends the ship where the
    rules put it, and the token it passes over is offered for capture (SP-CAPTURE-01). Under the spec's
    reading of the first ruler (within 90 degrees of the heading, SP-AMB-04) 120 degrees is refused."""
    st = at_move([{"identity": "TECH", "pos": [24.0, 35.0]}], first_ruler="within_90")
    bad = pv.ruler_preview(st, 0, "ruler 120")
    with pytest.raises(IllegalActionError) as info:
        st.apply("ruler 120", 0)
    assert not bad.legal and bad.reason == info.value.reason
    good = pv.ruler_preview(st, 0, "ruler 60")
    tech = st.data.map_tokens()
    assert good.legal and good.captures == tuple(tech)
    st.apply("ruler 60", 0)
    assert st.data.ships[0].center == pytest.approx(good.ship_end, abs=1e-3)
    offer = GAME.decision(st)
    assert (offer.kind, offer.tid) == ("capture_offer", good.captures[0])
    with pytest.raises(pv.PreviewError, match="not what the game asks"):
        pv.ruler_preview(st, 0, "drift 10")
    with pytest.raises(pv.PreviewError, match="no move is asked"):
        pv.ruler_preview(st, 1, "ruler 10")
