"""The solar wind (spec §6.10, SP-ADV-WIND-02..07, SP-BORDER-01..03): every ship blown at once.

The wind moves ships in order along its direction, docks those it blows into a free gate, puts back
those it blows off the field, moves the storm, and pushes the damages, the push-aside of tokens and
the captures it causes onto the stack (the flow, ``flow.py``, carries them out).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from holotable.engine.tasks import TaskStack

from . import flow
from . import geometry as geo
from .geometry import XY
from .tasks import Ctx, SPTask


def blow(ctx: Ctx, phi: float) -> None:
    """The wind algorithm of spec §6.10 (SP-ADV-WIND-02..07, SP-BORDER-01..03)."""
    d = ctx.d
    c = ctx.c
    lay = d.layout
    dec = c.position_decimals
    ux, uy = geo.unit(phi)
    D = (2 * c.ruler_length * ux, 2 * c.ruler_length * uy)
    r = c.ship_radius
    centres = d.ship_positions()
    order = sorted(centres, key=lambda s: (-(centres[s][0] * ux + centres[s][1] * uy), s))
    final: dict[int, XY] = {}
    collided: set[int] = set()
    outside: set[int] = set()
    docked_by_wind: list[int] = []
    swept: dict[int, tuple[XY, XY]] = {}
    for s in order:
        c0 = d.ships[s].center
        assert c0 is not None
        obstacles = [final[o] for o in final]
        t_hit, hit = _first_contact(lay, c0, D, obstacles, final, r)
        t_end = 1.0 if t_hit is None else t_hit
        end = (c0[0] + t_end * D[0], c0[1] + t_end * D[1])
        swept[s] = (c0, end)
        if t_hit is not None and hit is not None and hit[0] == "gate" and None in d.docked[hit[1]]:
            base = hit[1]
            flow.dock_ship(ctx, s, base)  # SP-ADV-WIND-03: automatic docking
            docked_by_wind.append(s)
            continue
        if t_hit is not None and hit is not None:
            collided.add(s)
            if hit[0] == "ship":
                collided.add(hit[1])
        if not geo.disc_inside_field(end, r, lay):  # SP-BORDER-02
            X = _border_touch(c0, D, r, lay)
            end = geo.put_back_from_edge(lay, X)
            outside.add(s)
        final[s] = end
    for s, p in final.items():
        others = [q for o, q in final.items() if o != s]
        if geo.pose_legal(lay, p, others) is not None:  # a put-back ship must stand on a legal spot
            p = geo.nudge(lay, p, _pose_free(lay, others))
        q = geo.rnd(p, dec)
        for _ in range(5):  # rounding must not push a ship that stopped on contact into the obstacle
            if geo.pose_legal(lay, q, others) is None:
                break
            q = geo.rnd((q[0] - ux * 10.0 ** -dec, q[1] - uy * 10.0 ** -dec), dec)
        d.ships[s].center = q
        final[s] = q
    if d.storm is not None:  # SP-ADV-WIND-02 / SP-BORDER-03
        s0 = d.storm
        s1 = (s0[0] + D[0], s0[1] + D[1])
        if not (0 <= s1[0] <= lay.W and 0 <= s1[1] <= lay.H):
            s1 = geo.put_back_from_edge(lay, geo.edge_crossing(s0, s1, lay))
        d.storm = geo.rnd(s1, dec)
    ctx.emit("wind", f"solar wind towards {phi:.1f}°", angle=phi)
    # tokens under the swept discs: captures and open asteroids (SP-ADV-WIND-06, SP-CAPTURE-08)
    touch_ast: set[int] = set()
    caps: dict[int, tuple[int, ...]] = {}
    for s, (a, b) in swept.items():
        cands = []
        for t, p in d.map_tokens().items():
            dd, _ = geo.segment_distance(p, a, b)
            if dd < c.token_radius + r - 1e-9:
                if d.open[t]:
                    touch_ast.add(s)
                else:
                    cands.append(((p[0] - a[0]) * ux + (p[1] - a[1]) * uy, t))
        caps[s] = tuple(t for _, t in sorted(cands))
    # stack: fines (bottom), damages, push-aside, captures (top, seat order from the active player)
    for s in reversed([(d.active + i) % d.n for i in range(d.n)]):
        if s not in final:
            continue
        ctr = d.ships[s].center
        in_storm = d.storm is not None and ctr is not None and geo.dist(ctr, d.storm) < r + c.storm_radius - 1e-9
        if s in collided or s in outside or s in touch_ast or in_storm:  # SP-ADV-WIND-04
            d.stack.push(flow.Damage(s, "wind"))
    d.stack.push(WindPush(tuple(sorted(final))))
    for s in reversed([(d.active + i) % d.n for i in range(d.n)]):
        if caps.get(s) and not d.ships[s].arrested:
            d.stack.push(flow.Captures(s, caps[s], phi))


def _pose_free(lay: geo.Layout, others: list[XY]) -> Any:
    return lambda q: geo.pose_legal(lay, q, others) is None


@dataclass(frozen=True, slots=True)
class WindPush(SPTask):
    """After the wind: tokens under the ships' final discs are pushed aside, as after a move."""

    seats: tuple[int, ...]
    kind = "wind_push"

    def run(self, ctx: Ctx, stack: TaskStack[Ctx]) -> None:
        for s in self.seats:
            flow.push_aside(ctx, s)


def _first_contact(lay: geo.Layout, c0: XY, D: XY, ships: list[XY], final: dict[int, XY],
                   r: float) -> tuple[float | None, tuple[str, int] | None]:
    """SP-GEO-11: sample t in steps of at most r_s/4, then bisect to the first touch."""
    length = math.hypot(*D)
    steps = max(1, math.ceil(length / (r / 4)))

    def hit_at(t: float) -> tuple[str, int] | None:
        p = (c0[0] + t * D[0], c0[1] + t * D[1])
        for o, q in final.items():
            if geo.dist(p, q) <= 2 * r + 1e-9:
                return ("ship", o)
        for b in lay.bases:
            if b.inhabited and geo.shapely_distance(p, b.polygon) <= r + 1e-9:
                gd = geo.shapely_distance(p, b.gate)
                return ("base", b.index) if gd > r + 1e-6 else ("gatecand", b.index)
        if geo.shapely_distance(p, lay.solid) <= r + 1e-9:
            return ("element", -1)
        return None

    if hit_at(0.0) is not None:
        h0 = hit_at(0.0)
        return 0.0, _classify(h0, lay, c0, None)
    prev = 0.0
    for i in range(1, steps + 1):
        t = i / steps
        h = hit_at(t)
        if h is not None:
            lo, hi = prev, t
            while hi - lo > 1e-7:
                mid = (lo + hi) / 2
                if hit_at(mid) is None:
                    lo = mid
                else:
                    hi = mid
            hh = hit_at(hi)
            return lo, _classify(hh, lay, (c0[0] + lo * D[0], c0[1] + lo * D[1]), None)
        prev = t
    return None, None


def _classify(h: tuple[str, int] | None, lay: geo.Layout, p: XY, _: None) -> tuple[str, int] | None:
    if h is None or h[0] != "gatecand":
        return h
    b = lay.bases[h[1]]
    # a gate contact from outside (the centre on the outer side of the gate line) docks the ship
    nx, ny = geo.unit(b.normal)
    side = (p[0] - b.gate_mid[0]) * nx + (p[1] - b.gate_mid[1]) * ny
    return ("gate", h[1]) if side > 0 else ("base", h[1])


def _border_touch(c0: XY, D: XY, r: float, lay: geo.Layout) -> XY:
    """SP-GEO-09 for ships: the centre where the disc first touches the border, projected on that edge."""
    lo, hi = 0.0, 1.0
    for _ in range(50):
        mid = (lo + hi) / 2
        p = (c0[0] + mid * D[0], c0[1] + mid * D[1])
        if geo.disc_inside_field(p, r, lay):
            lo = mid
        else:
            hi = mid
    p = (c0[0] + hi * D[0], c0[1] + hi * D[1])
    x, y = p
    if x - r < 1e-6:
        x = 0.0
    elif x + r > lay.W - 1e-6:
        x = lay.W
    if y - r < 1e-6:
        y = 0.0
    elif y + r > lay.H - 1e-6:
        y = lay.H
    return (x, y)

