"""Where the pictures put a base's label (its id, owner and prices) so that no ship covers it.

Pure geometry in centimetres on the view's plain data (``picture.py`` measures the text and draws):
candidate spots around a base, and the choice among them that hides the least.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .data import load_default

#: Sizes of the pieces (cm), from the shipped constants (spec §6.1).
SIZES = load_default().constants


Box = tuple[float, float, float, float]
Disc = tuple[float, float, float]


def ship_discs(view: dict[str, Any]) -> list[Disc]:
    """(x, y, r) of every ship's stand, in space or docked: what a label must not lie under."""
    out = []
    for p in view["players"]:
        ship = p["ship"]
        if ship["center"] is not None:
            out.append((float(ship["center"][0]), float(ship["center"][1]), SIZES.ship_radius))
        elif ship["base"] is not None:
            sx, sy = view["bases"][ship["base"]]["slots"][ship["slot"]]
            out.append((float(sx), float(sy), SIZES.ship_radius))
    return out


def _box_meets_disc(box: Box, disc: Disc) -> bool:
    x, y, r = disc
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return dx * dx + dy * dy < r * r


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box: Box, pts: Sequence[tuple[float, float]]) -> bool:
    """Whether the box lies inside the convex polygon ``pts`` (a base rectangle)."""
    corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    signs = set()
    for i, (x0, y0) in enumerate(pts):
        x1, y1 = pts[(i + 1) % len(pts)]
        for cx, cy in corners:
            signs.add((x1 - x0) * (cy - y0) - (y1 - y0) * (cx - x0) >= 0)
    return len(signs) == 1


def base_label_spots(base: dict[str, Any], w: float, h: float) -> list[tuple[float, float]]:
    """Candidate centres for a base's label box (w x h cm), best first.

    First the strip at the back of the base that no docked ship covers (the slots' discs stop short
    of it), then just outside the base: behind it, beside it, in front of its gate.
    """
    back_l, back_r, front_r, front_l = ((float(x), float(y)) for x, y in base["polygon"])
    gx, gy = (front_l[0] + front_r[0]) / 2, (front_l[1] + front_r[1]) / 2
    bx, by = (back_l[0] + back_r[0]) / 2, (back_l[1] + back_r[1]) / 2
    depth = math.hypot(gx - bx, gy - by)
    nx, ny = (gx - bx) / depth, (gy - by) / depth  # out of the gate
    lx, ly = -ny, nx  # along the gate
    half_width = math.hypot(front_r[0] - front_l[0], front_r[1] - front_l[1]) / 2
    sx, sy = base["slots"][0]
    slot_depth = abs((sx - gx) * nx + (sy - gy) * ny)  # how far the slots sit behind the gate
    free = depth - slot_depth - SIZES.ship_radius  # the strip behind the docked ships

    def reach(ux: float, uy: float) -> float:  # half the box's extent along (ux, uy)
        return abs(ux) * w / 2 + abs(uy) * h / 2

    gap = 0.3
    spots = [(bx + nx * free / 2, by + ny * free / 2)]
    spots.append((bx - nx * (gap + reach(nx, ny)), by - ny * (gap + reach(nx, ny))))
    mx, my = (gx + bx) / 2, (gy + by) / 2
    for side in (1.0, -1.0):
        d = half_width + gap + reach(lx, ly)
        spots.append((mx + side * lx * d, my + side * ly * d))
    spots.append((gx + nx * (gap + reach(nx, ny) + 2 * SIZES.ship_radius),
                  gy + ny * (gap + reach(nx, ny) + 2 * SIZES.ship_radius)))
    return spots


def place_label(spots: Sequence[tuple[float, float]], w: float, h: float, *, field: tuple[float, float],
                ships: Sequence[Disc], taken: Sequence[Box], tokens: Sequence[Disc],
                home: Sequence[tuple[float, float]] | None = None,
                clutter: Sequence[Box] = ()) -> Box:
    """The label box (w x h) among ``spots`` that hides the least: never a ship if avoidable, then
    inside the field, clear of other labels, tokens and other pieces. The first spot (inside ``home``,
    the base) must fit there."""
    best: tuple[float, int, Box] | None = None
    for i, (x, y) in enumerate(spots):
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        cost = 100.0 * sum(_box_meets_disc(box, d) for d in ships)
        if box[0] < 0 or box[1] < 0 or box[2] > field[0] or box[3] > field[1]:
            cost += 50.0
        cost += 30.0 * sum(_boxes_meet(box, t) for t in taken)
        cost += 20.0 * sum(_box_meets_disc(box, d) for d in tokens)
        cost += 5.0 * sum(_boxes_meet(box, c) for c in clutter)
        if i == 0 and home is not None and not _inside(box, home):
            cost += 10.0
        if best is None or (cost, i) < best[:2]:
            best = (cost, i, box)
    assert best is not None, "a label needs at least one spot"
    return best[2]


def bounds(points: Sequence[Sequence[float]]) -> Box:
    """The bounding box of a polygon's points."""
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return (min(xs), min(ys), max(xs), max(ys))
