"""Flick simulation with pymunk (spec §6.8, SP-PHYS-01..08) and dexterity noise (§6.9).

A flick gives one token an initial velocity (angle, strength -> nominal sliding distance
``strength * d_max``); every token on the map is a dynamic disc with Coulomb table friction,
elements and bases are static polygons, ships in space are static discs. The border is open:
a token whose centre leaves the field is recorded at the crossing point and removed (SP-AMB-15).
Flip events are drawn afterwards, in chronological order, from the game's RNG (SP-AMB-14).

The resolver returns a :class:`FlickOutcome` whose positions are rounded to a fixed precision;
that rounded outcome is what the game state stores, so replays never depend on float drift.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import pymunk
import pymunk.autogeometry

from .geometry import XY, Layout, edge_crossing, rnd, unit

CT_TOKEN, CT_ELEMENT, CT_BASE, CT_SHIP, CT_WALL = 1, 2, 3, 4, 5
KIND = {CT_ELEMENT: "element", CT_BASE: "base", CT_SHIP: "ship", CT_TOKEN: "token", CT_WALL: "wall"}


@dataclass(frozen=True)
class Contact:
    """A first contact (pymunk ``begin``) of a moving token (SP-PHYS-02)."""

    time: float
    token: int
    kind: str  # element | base | ship | token
    other: str  # element id, base index, ship seat or token id, as text
    speed: float
    point: XY | None = None  # for base contacts (SP-FLICK-12): the token's point inside the base
    #: for base contacts: where the token's leading point crossed the outline, traced back along its
    #: velocity from ``point`` (a fast token coming in at a slant is up to 0.4 cm further along the
    #: edge by the time the step sees it: near a gate's end that decides gate or wall)
    struck: XY | None = None


@dataclass
class FlickOutcome:
    rest: dict[int, XY]  # final positions of tokens still on the field
    exits: dict[int, XY]  # tokens that left the field -> crossing point (SP-PHYS-03)
    contacts: list[Contact]
    turned_over: set[int]
    flip_events: dict[int, int] = field(default_factory=dict)
    sim_time: float = 0.0
    trajectory: list[dict[int, XY]] = field(default_factory=list)


class FlickResolver(Protocol):
    def resolve(self, lay: Layout, ships: Mapping[int, XY], tokens: Mapping[int, XY], tid: int,
                angle: float, strength: float, rng: random.Random, *, walled: bool = False) -> FlickOutcome: ...


def apply_noise(angle: float, strength: float, level: tuple[float, float], rng: random.Random) -> tuple[float, float]:
    """SP-PHYS-05 / §6.9: θ' = θ + N(0, σθ), s' = clamp(s·(1 + N(0, σs)), 0, 1); precise adds nothing."""
    s_theta, s_s = level
    if s_theta == 0 and s_s == 0:
        return angle, strength
    a = angle + rng.gauss(0.0, s_theta)
    s = min(1.0, max(0.0, strength * (1.0 + rng.gauss(0.0, s_s))))
    return a, s


def _clamp01(v: float) -> float:
    return min(1.0, max(0.0, v))


class PymunkFlickResolver:
    """The production resolver (spec §6.8)."""

    def __init__(self, record_trajectory: bool = False) -> None:
        self.record_trajectory = record_trajectory

    def resolve(self, lay: Layout, ships: Mapping[int, XY], tokens: Mapping[int, XY], tid: int,
                angle: float, strength: float, rng: random.Random, *, walled: bool = False) -> FlickOutcome:
        """Simulate one flick. ``walled``: the game box on its side as a bouncing border (SP-AMB-15)."""
        c = lay.c
        ph: dict[str, Any] = c.physics
        dt = float(ph["dt"])
        decel = float(ph["mu_table"]) * float(ph["g"])
        ang_decay = float(ph.get("angular_decay", 4.0))
        el, fr = ph["elasticity"], ph["friction"]
        space = pymunk.Space()
        space.gravity = (0.0, 0.0)
        space.iterations = int(ph.get("iterations", 20))
        space.damping = 1.0

        for e in lay.elements:
            ct = CT_ELEMENT
            for piece in _pieces_of(lay.key, e.id):
                poly = pymunk.Poly(space.static_body, list(piece))
                poly.elasticity, poly.friction, poly.collision_type = el["element"], fr["element"], ct
                poly.label = e.id
                space.add(poly)
        for b in lay.bases:
            if not b.inhabited:
                continue
            poly = pymunk.Poly(space.static_body, list(b.polygon.exterior.coords)[:-1])
            poly.elasticity, poly.friction, poly.collision_type = el["base"], fr["base"], CT_BASE
            poly.label = str(b.index)
            space.add(poly)
        if walled:
            corners = [(0.0, 0.0), (lay.W, 0.0), (lay.W, lay.H), (0.0, lay.H)]
            for i in range(4):
                wall = pymunk.Segment(space.static_body, corners[i], corners[(i + 1) % 4], 0.0)
                wall.elasticity, wall.friction, wall.collision_type = el["base"], fr["base"], CT_WALL
                wall.label = "border"
                space.add(wall)
        for seat in sorted(ships):
            body = pymunk.Body(body_type=pymunk.Body.STATIC)
            body.position = ships[seat]
            circ = pymunk.Circle(body, c.ship_radius)
            circ.elasticity, circ.friction, circ.collision_type = el["ship"], fr["ship"], CT_SHIP
            circ.label = str(seat)
            space.add(body, circ)
        bodies: dict[int, pymunk.Body] = {}
        mass = float(ph["token_mass"])
        for t in sorted(tokens):
            body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0, c.token_radius))
            body.position = tokens[t]
            circ = pymunk.Circle(body, c.token_radius)
            circ.elasticity, circ.friction, circ.collision_type = el["token"], fr["token"], CT_TOKEN
            circ.label = str(t)
            space.add(body, circ)
            bodies[t] = body
        contacts: list[Contact] = []
        clock = [0.0]

        def begin(arb: pymunk.Arbiter, sp: pymunk.Space, data: Any) -> None:
            a, b = arb.shapes
            if a.collision_type != CT_TOKEN:
                a, b = b, a
            n = arb.normal
            va = a.body.velocity if a.body is not None else pymunk.Vec2d(0, 0)
            vb = b.body.velocity if b.body is not None else pymunk.Vec2d(0, 0)
            u = abs((va.x - vb.x) * n.x + (va.y - vb.y) * n.y)
            ta = int(a.label)
            kind = KIND[b.collision_type]
            point: XY | None = None
            struck: XY | None = None
            if b.collision_type == CT_BASE:
                pts = arb.contact_point_set.points
                if pts:
                    point = (pts[0].point_a.x, pts[0].point_a.y)
                    depth = max(0.0, -pts[0].distance)  # how far the token is inside, along the normal
                    vn = abs(va.x * n.x + va.y * n.y)
                    back = depth / vn if vn > 1e-9 else 0.0
                    struck = (point[0] - va.x * back, point[1] - va.y * back)
            other = str(b.label)
            contacts.append(Contact(clock[0], ta, kind, other, u, point, struck))
            if b.collision_type == CT_TOKEN:  # record for the other token too
                contacts.append(Contact(clock[0], int(other), "token", str(ta), u, None))

        for ct in (CT_ELEMENT, CT_BASE, CT_SHIP, CT_TOKEN, CT_WALL):
            space.on_collision(CT_TOKEN, ct, begin=begin)

        v0 = math.sqrt(2.0 * decel * _clamp01(strength) * float(ph["d_max"]))
        ux, uy = unit(angle)
        bodies[tid].velocity = (v0 * ux, v0 * uy)
        exits: dict[int, XY] = {}
        max_steps = round(float(ph["max_time"]) / dt)
        rest_speed = float(ph["rest_speed"])
        traj: list[dict[int, XY]] = []
        frame_every = max(1, round(1 / (60 * dt)))
        steps = 0
        live = dict(bodies)
        prev = {t: tokens[t] for t in live}
        spin_keep = max(0.0, 1.0 - ang_decay * dt)
        slow = decel * dt
        for steps in range(1, max_steps + 1):
            clock[0] = steps * dt
            space.step(dt)
            resting = True
            # One pass over the bodies: exits (SP-PHYS-03), Coulomb table friction (§6.8.3, applied
            # after each step instead of in a per-body callback, which is several times faster) and
            # the rest test (SP-PHYS-07). Tokens at rest are skipped at the cost of one velocity read.
            for t in list(live):
                body = live[t]
                vx, vy = body.velocity
                if vx == 0.0 and vy == 0.0:
                    continue
                x, y = body.position
                if not (0.0 <= x <= lay.W and 0.0 <= y <= lay.H):
                    exits[t] = edge_crossing(prev[t], (x, y), lay)
                    space.remove(body, *body.shapes)
                    del live[t]
                    continue
                prev[t] = (x, y)
                speed = math.hypot(vx, vy)
                k = max(0.0, speed - slow) / speed
                body.velocity = (vx * k, vy * k)
                body.angular_velocity = body.angular_velocity * spin_keep
                if speed * k >= rest_speed:
                    resting = False
            if self.record_trajectory and steps % frame_every == 0 and len(traj) < 720:
                traj.append({t: (bd.position.x, bd.position.y) for t, bd in live.items()})
            if resting:
                for bd in live.values():
                    bd.velocity = (0.0, 0.0)
                break
        dec = lay.c.position_decimals
        rest = {t: rnd((bd.position.x, bd.position.y), dec) for t, bd in live.items()}
        # Flip events (SP-PHYS-04): launch first, then contacts in time order (ties by token id).
        fl = lay.c.flip
        flips: dict[int, int] = {}
        p_launch = fl["launch_base"] + fl["launch_k"] * strength * strength
        if p_launch > 0 and rng.random() < p_launch:
            flips[tid] = flips.get(tid, 0) + 1
        for ct_ in sorted(contacts, key=lambda k: (k.time, k.token)):
            if ct_.kind == "token":
                p = fl["token_pmax"] * _clamp01((ct_.speed - fl["token_u0"]) / (fl["token_u1"] - fl["token_u0"]))
            else:
                p = fl["hard_pmax"] * _clamp01((ct_.speed - fl["hard_u0"]) / (fl["hard_u1"] - fl["hard_u0"]))
            if p > 0 and rng.random() < p:
                flips[ct_.token] = flips.get(ct_.token, 0) + 1
        turned = {t for t, k in flips.items() if k % 2 == 1}
        moved = {t for t in tokens if t in exits or rest.get(t) != rnd(tokens[t], dec)}
        rest = {t: p for t, p in rest.items() if t in moved or t == tid}
        return FlickOutcome(rest, exits, contacts, turned, flips, steps * dt, traj)


@lru_cache(maxsize=512)
def _pieces_of(key: Any, element_id: str) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The convex pieces of one element of a layout, decomposed once and reused by every flick."""
    from .geometry import build_layout

    lay = build_layout(key)
    e = next(x for x in lay.elements if x.id == element_id)
    return tuple(tuple(p) for p in _convex_pieces(list(e.polygon.exterior.coords)[:-1]))


def _convex_pieces(points: list[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """Convex decomposition for pymunk (SP-GEO-01); convex polygons pass through unchanged."""
    if _is_convex(points):
        return [points]
    closed = [*points, points[0]]
    try:
        pieces = pymunk.autogeometry.convex_decomposition(closed, 0.05)
    except Exception:  # pragma: no cover - fall back to a fan of triangles
        return [[points[0], points[i], points[i + 1]] for i in range(1, len(points) - 1)]
    return [[(p.x, p.y) for p in piece] for piece in pieces if len(piece) >= 3]


def _is_convex(points: list[tuple[float, float]]) -> bool:
    sign = 0
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        x3, y3 = points[(i + 2) % n]
        cross = (x2 - x1) * (y3 - y2) - (y2 - y1) * (x3 - x2)
        if abs(cross) < 1e-12:
            continue
        s = 1 if cross > 0 else -1
        if sign == 0:
            sign = s
        elif s != sign:
            return False
    return True

