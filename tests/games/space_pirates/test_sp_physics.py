"""SP-PHYS: real pymunk runs (spec §6.8-6.9, T-SP-43, T-SP-44) and the flick's consequences."""

from __future__ import annotations

import random
import time

import pytest

import holotable
from holotable.games.space_pirates import geometry as geo
from holotable.games.space_pirates.physics import PymunkFlickResolver, apply_noise

GAME = holotable.load("space-pirates")
EMPTY = geo.build_layout((60.0, 60.0, (), (), 0))
WIDE = geo.build_layout((120.0, 60.0, (), (), 0))
RES = PymunkFlickResolver()


@pytest.mark.parametrize("s", [0.2, 0.4, 0.6])
def test_SP_PHYS_01_lone_token_slides_strength_times_dmax(s: float) -> None:
    """SP-PHYS-01, SP-PHYS-07, SP-FLICK-01, SP-FLICK-03 (T-SP-43): friction stops the token at s·100 cm ± 1 %."""
    out = RES.resolve(WIDE, {}, {0: (5.0, 30.0)}, 0, 0.0, s, random.Random(0))
    x, y = out.rest[0]
    assert x - 5.0 == pytest.approx(100 * s, rel=0.01)
    assert y == pytest.approx(30.0, abs=0.01)
    assert out.contacts == [] and out.exits == {} and out.sim_time < 12.0


def test_T_SP_43_example() -> None:
    """SP-PHYS-01 (T-SP-43): token at (10, 30), angle 0, strength 0.4 rests at x = 50 ± 0.4."""
    out = RES.resolve(EMPTY, {}, {0: (10.0, 30.0)}, 0, 0.0, 0.4, random.Random(0))
    assert out.rest[0][0] == pytest.approx(50.0, abs=0.4)


def test_T_SP_44_ship_contact_recorded_and_ship_does_not_move() -> None:
    """SP-PHYS-02, SP-PHYS-06 (T-SP-44): exactly one ship contact, impact speed > 100 cm/s, it bounces back."""
    out = RES.resolve(EMPTY, {1: (50.0, 20.0)}, {0: (10.0, 20.0)}, 0, 0.0, 0.9, random.Random(0))
    ship = [c for c in out.contacts if c.kind == "ship"]
    assert len(ship) == 1 and ship[0].other == "1" and ship[0].speed > 100
    assert out.rest[0][0] < 50.0 - 1.5 - 1.25 + 0.01  # bounced, ship static


def test_SP_PHYS_03_exit_recorded_at_crossing_point() -> None:
    """SP-PHYS-03: leaving the table is recorded at the border crossing and the token is removed."""
    out = RES.resolve(EMPTY, {}, {0: (40.0, 22.0)}, 0, 0.0, 1.0, random.Random(0))
    assert 0 not in out.rest
    assert out.exits[0][0] == pytest.approx(60.0) and out.exits[0][1] == pytest.approx(22.0, abs=1e-6)


def test_SP_PHYS_02_bounce_off_element_and_token_push() -> None:
    """SP-PHYS-02, SP-FLICK-03, SP-GEO-01: tokens bounce off elements (non-convex pieces too) and push tokens."""
    lay = geo.build_layout((60.0, 60.0, (), (("E08", 40.0, 30.0, 90.0),), 0))  # twin moons: non-convex
    out = RES.resolve(lay, {}, {0: (10.0, 30.0), 1: (20.0, 30.0)}, 0, 0.0, 0.9, random.Random(0))
    kinds = {(c.token, c.kind) for c in out.contacts}
    assert (0, "token") in kinds and (1, "token") in kinds
    assert (1, "element") in kinds  # the pushed token reached the element and bounced
    assert out.rest[1][0] < 38.0


def test_SP_PHYS_08_identical_inputs_identical_outcome_and_fast() -> None:
    """SP-PHYS-08, SP-PHYS-04: the same inputs and RNG state give the same outcome, flips included."""
    lay = geo.build_layout((60.0, 60.0, (), (("E09", 40.0, 32.0, 20.0),), 0))
    args = (lay, {0: (30.0, 50.0)}, {0: (10.0, 30.0), 1: (25.0, 31.0), 2: (12.0, 45.0)}, 0, 10.0, 0.95)
    t0 = time.perf_counter()
    a = RES.resolve(*args, random.Random(9))
    elapsed = time.perf_counter() - t0
    b = RES.resolve(*args, random.Random(9))
    assert a.rest == b.rest and a.contacts == b.contacts and a.turned_over == b.turned_over
    assert a.flip_events == b.flip_events
    assert elapsed < 0.5


def test_SP_PHYS_04_flip_probabilities_follow_the_model() -> None:
    """SP-PHYS-04 / assumed:SP-AMB-14: launch flips happen with p = 0.01 + 0.04 s²; odd counts turn over."""
    flips = sum(bool(RES.resolve(EMPTY, {}, {0: (5.0, 30.0)}, 0, 0.0, 0.1, random.Random(i)).turned_over)
                for i in range(400))
    assert 0 < flips < 20  # p = 0.0104 -> about 4 in 400


def test_SP_PHYS_05_noise() -> None:
    """SP-PHYS-05 / assumed:SP-AMB-55: precise adds nothing; standard perturbs angle and strength."""
    assert apply_noise(10.0, 0.5, (0.0, 0.0), random.Random(1)) == (10.0, 0.5)
    a, s = apply_noise(10.0, 0.5, (3.0, 0.06), random.Random(1))
    assert a != 10.0 and s != 0.5 and 0.0 <= s <= 1.0
    rng = random.Random(2)
    samples = [apply_noise(0.0, 0.5, (3.0, 0.06), rng)[0] for _ in range(2000)]
    mean = sum(samples) / len(samples)
    sd = (sum((x - mean) ** 2 for x in samples) / len(samples)) ** 0.5
    assert abs(mean) < 0.3 and 2.7 < sd < 3.3


def test_flick_action_in_the_game_stores_rounded_rest_positions() -> None:
    """SP-FLICK-01, SP-PHYS-08: a real flick through the engine; positions round-trip through text exactly."""
    st = GAME.new_state(players=2, seed=5, first_seat=0)
    while GAME.decision(st).kind != "flick":
        st.apply(st.legal_actions(st.to_move()[0])[0], st.to_move()[0])
    seat = st.to_move()[0]
    tid = GAME.decision(st).tid
    again = st.clone()
    st.apply("flick 45.0 0.3", seat)
    again.apply(GAME.parse_action(str(GAME.parse_action("flick 45.0 0.3"))), seat)
    assert st.fingerprint() == again.fingerprint()
    p = st.data.pos[tid]
    assert p is not None and all(float(repr(v)) == v and round(v, 3) == v for v in p)


def test_SP_GEO_04_fast_rectangle_distance_agrees_with_shapely() -> None:
    """SP-GEO-04 / assumed:SP-AMB-60: the hand-written ruler distance equals shapely's on the same inputs."""
    rng = random.Random(3)
    c = EMPTY.c
    for _ in range(300):
        a = (rng.uniform(0, 60), rng.uniform(0, 60))
        theta = rng.uniform(-180, 180)
        p = (rng.uniform(0, 60), rng.uniform(0, 60))
        fast = geo.rect_point_distance(p, a, theta, c.ruler_length, c.ruler_width / 2)
        slow = float(geo.Point(p).distance(geo.ruler_rect(a, theta, c)))
        assert fast == pytest.approx(slow, abs=1e-9)
