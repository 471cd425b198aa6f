"""The galaxy as plane geometry (spec §6.1-6.5, SP-GEO-*), built on shapely (SP-AMB-60).

Centimetres, degrees counter-clockwise from +x. *Overlap* means interiors share positive area
(touching boundaries do not overlap); discs are tested by centre distance, never as buffered polygons.
A :class:`Layout` is the immutable part of the table (field, elements, bases); everything that moves
(ships, tokens, the storm) is passed in as plain tuples.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import shapely  # type: ignore[import-untyped]
from shapely.geometry import LineString, Point, Polygon  # type: ignore[import-untyped]
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped]

from .data import Constants, Content, Overrides, Preset, content_of, layout_overrides

XY = tuple[float, float]


def rad(deg: float) -> float:
    return math.radians(deg)


def unit(deg: float) -> XY:
    a = math.radians(deg)
    return (math.cos(a), math.sin(a))


def norm_angle(deg: float) -> float:
    """An angle in (-180, 180]."""
    a = math.fmod(deg, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return a


def angle_diff(a: float, b: float) -> float:
    """|a - b| folded into [0, 180]."""
    return abs(norm_angle(a - b))


def dist(p: XY, q: XY) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def rnd(p: XY, decimals: int = 3) -> XY:
    """Positions are stored rounded, so the state never depends on float drift."""
    return (round(p[0], decimals) + 0.0, round(p[1], decimals) + 0.0)


def transform(points: Iterable[XY], x: float, y: float, rotation: float) -> list[XY]:
    c, s = math.cos(rad(rotation)), math.sin(rad(rotation))
    return [(x + px * c - py * s, y + px * s + py * c) for px, py in points]


BaseRows = tuple[tuple[str, float, float, float], ...]
ElementRows = tuple[tuple[str, float, float, float], ...]
#: (field width, field height, bases, elements, inhabited bases, constants overrides): everything a
#: board is built from. The last entry names the configuration's constants (``data.layout_overrides``)
#: so a board with other ruler, base or physics numbers is another board.
LayoutKey = tuple[float, float, BaseRows, ElementRows, int, Overrides]
#: A key without the overrides entry still names a board with the shipped constants.
ShippedLayoutKey = tuple[float, float, BaseRows, ElementRows, int]


@dataclass(frozen=True)
class BaseGeom:
    """A pirate base (SP-GEO-02): polygon, gate segment, slots, heading of docked ships."""

    index: int
    id: str
    gate_mid: XY
    normal: float
    polygon: Polygon
    gate: LineString
    gate_ends: tuple[XY, XY]
    slots: tuple[XY, XY]
    inhabited: bool


@dataclass(frozen=True)
class Element:
    id: str
    name: str
    polygon: Polygon
    kind: str  # "element" | "abandoned_base"


@dataclass(frozen=True)
class Layout:
    """The fixed table: field size, elements (abandoned bases included) and the bases."""

    key: LayoutKey
    W: float
    H: float
    elements: tuple[Element, ...]
    bases: tuple[BaseGeom, ...]
    c: Constants
    solid: BaseGeometry = field(compare=False)  # union of element polygons
    inhabited_union: BaseGeometry = field(compare=False)
    #: bounding boxes (minx, miny, maxx, maxy) of elements and bases, for cheap rejection before shapely
    element_boxes: tuple[tuple[float, float, float, float], ...] = field(compare=False, default=())
    base_boxes: tuple[tuple[float, float, float, float], ...] = field(compare=False, default=())

    @property
    def inhabited(self) -> tuple[BaseGeom, ...]:
        return tuple(b for b in self.bases if b.inhabited)


def base_geom(index: int, bid: str, x: float, y: float, normal: float, c: Constants, inhabited: bool) -> BaseGeom:
    rot = normal - 90.0
    hw, d, hg = c.base_width / 2, c.base_depth, c.gate / 2
    poly = Polygon(transform([(-hw, -d), (hw, -d), (hw, 0.0), (-hw, 0.0)], x, y, rot))
    ends = transform([(-hg, 0.0), (hg, 0.0)], x, y, rot)
    slots = transform(list(c.slots), x, y, rot)
    return BaseGeom(index, bid, (x, y), norm_angle(normal), poly, LineString(ends), (ends[0], ends[1]),
                    (slots[0], slots[1]), inhabited)


def layout_key(preset: Preset, players: int, content: Content | None = None) -> LayoutKey:
    """The key of ``preset``'s board for ``players``, with ``content``'s constants (shipped if none)."""
    bases = tuple((b.id, b.x, b.y, b.normal) for b in preset.bases)
    overrides = () if content is None else layout_overrides(content.overrides)
    return (preset.field[0], preset.field[1], bases, preset.elements, players + 1, overrides)


def build_layout(key: LayoutKey | ShippedLayoutKey) -> Layout:
    """The layout of a key (cached: layouts are immutable and shared by every state copy).

    SP-SETUP-03: the first ``players + 1`` bases are inhabited, the others are abandoned elements.
    The constants come from the key, so boards of configurations with different numbers never mix.
    """
    if len(key) == 5:
        return _build_layout((*key, ()))
    return _build_layout(key)


@lru_cache(maxsize=64)
def _build_layout(key: LayoutKey) -> Layout:
    W, H, base_rows, element_rows, inhabited_count, overrides = key
    content = content_of(overrides)
    c = content.constants
    elements: list[Element] = []
    for eid, x, y, rot in element_rows:
        shape = content.elements[eid]
        elements.append(Element(eid, shape.name, Polygon(transform(shape.polygon, x, y, rot)), "element"))
    bases = []
    for i, (bid, x, y, normal) in enumerate(base_rows):
        b = base_geom(i, bid, x, y, normal, c, i < inhabited_count)
        bases.append(b)
        if not b.inhabited:
            elements.append(Element(bid, f"abandoned base {bid}", b.polygon, "abandoned_base"))
    solid = shapely.union_all([e.polygon for e in elements]) if elements else Polygon()
    inh = shapely.union_all([b.polygon for b in bases if b.inhabited])
    return Layout(key, float(W), float(H), tuple(elements), tuple(bases), c, solid, inh,
                  tuple(tuple(e.polygon.bounds) for e in elements), tuple(tuple(b.polygon.bounds) for b in bases))


Box = tuple[float, float, float, float]


def boxes_meet(p: Box, q: Box, pad: float = 0.0) -> bool:
    return p[0] <= q[2] + pad and q[0] <= p[2] + pad and p[1] <= q[3] + pad and q[1] <= p[3] + pad


def ruler_corners(a: XY, theta: float, c: Constants, length: float | None = None) -> list[XY]:
    L = c.ruler_length if length is None else length
    ux, uy = unit(theta)
    nx, ny = -uy * c.ruler_width / 2, ux * c.ruler_width / 2
    bx, by = a[0] + L * ux, a[1] + L * uy
    return [(a[0] + nx, a[1] + ny), (bx + nx, by + ny), (bx - nx, by - ny), (a[0] - nx, a[1] - ny)]


def corners_box(pts: Sequence[XY]) -> Box:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def rect_point_distance(p: XY, a: XY, theta: float, length: float, half_width: float) -> float:
    """Exact distance from p to a ruler rectangle (a fast path checked against shapely in the tests)."""
    ux, uy = unit(theta)
    dx, dy = p[0] - a[0], p[1] - a[1]
    along = dx * ux + dy * uy
    across = abs(-dx * uy + dy * ux)
    ex = max(0.0, -along, along - length)
    ey = max(0.0, across - half_width)
    return math.hypot(ex, ey)


# ---------------------------------------------------------------------------- primitives


def ruler_rect(a: XY, theta: float, c: Constants, length: float | None = None) -> Polygon:
    """SP-GEO-04: the rectangle with centre line a -> a + L·u and half-width w_r/2 (flat ends)."""
    return Polygon(ruler_corners(a, theta, c, length))


def ruler_end(a: XY, theta: float, c: Constants) -> XY:
    ux, uy = unit(theta)
    return (a[0] + c.ruler_length * ux, a[1] + c.ruler_length * uy)


def overlaps_area(g1: BaseGeometry, g2: BaseGeometry, eps: float) -> bool:
    if g1.is_empty or g2.is_empty or not g1.intersects(g2):
        return False
    return bool(g1.intersection(g2).area > eps)


def disc_overlaps(center: XY, r: float, geom: BaseGeometry) -> bool:
    """A disc overlaps a shape iff its centre is nearer than r (touching is not overlapping)."""
    if geom.is_empty:
        return False
    return bool(Point(center).distance(geom) < r - 1e-9)


def disc_inside_field(center: XY, r: float, lay: Layout) -> bool:
    x, y = center
    e = 1e-9
    return r - e <= x <= lay.W - r + e and r - e <= y <= lay.H - r + e


def clearance_to_edge(p: XY, r: float, lay: Layout) -> float:
    return min(p[0] - r, lay.W - p[0] - r, p[1] - r, lay.H - p[1] - r)


# ---------------------------------------------------------------------------- rulers (§6.4)


@dataclass(frozen=True)
class RulerResult:
    legal: bool
    reason: str = ""
    rule: str = ""
    start: XY = (0.0, 0.0)
    end: XY = (0.0, 0.0)
    theta: float = 0.0
    dock_base: int | None = None  # an entry ruler for this base (SP-MOVE-12)
    full_legal: bool = True  # whether the untruncated ruler is legal too (declining the dock)
    dock_fraction: float = 1.0  # t_g of SP-GEO-05


@dataclass(frozen=True)
class Mover:
    """What ruler legality needs about the moving ship and the other ships."""

    seat: int
    others: tuple[XY, ...]  # centres of the other ships (in space or docked)
    docked_base: int | None  # departing from this base (first ruler) else None
    first: bool
    prev_dir: float | None  # heading (first ruler) or previous ruler direction; None for drift
    arrested_target: XY | None  # gate midpoint of the target base when arrested (SP-POLICE-03)
    bases_with_room: frozenset[int]
    dock_stand: bool = False  # dock_geometry "stand" (SP-AMB-23 alternative): the swept ship disc docks


def _segment_crosses(a: XY, b: XY, seg: tuple[XY, XY]) -> bool:
    return bool(LineString([a, b]).intersects(LineString(seg)))


def _part_checks(lay: Layout, rect: BaseGeometry | None, mover: Mover, skip_base: int | None,
                 box: Box, seg: tuple[XY, float, float]) -> tuple[str, str] | None:
    """SP-MOVE-05..07 for (a part of) a ruler: elements, other ships, inhabited bases.

    ``box`` is the part's bounding box (pieces whose boxes do not meet it are skipped, so most
    rulers never build a shapely polygon); ``seg`` = (start, angle, length) of the ruler; ``rect``
    is the part's geometry when it is not the whole rectangle (a departure ruler outside its base).
    """
    c = lay.c
    shape = rect

    def geom() -> BaseGeometry:
        nonlocal shape
        if shape is None:
            shape = Polygon(ruler_corners(seg[0], seg[1], c, seg[2]))
        return shape

    for e, ebox in zip(lay.elements, lay.element_boxes, strict=True):
        if boxes_meet(box, ebox) and overlaps_area(geom(), e.polygon, c.eps_area):
            return ("the ruler would lie over a map element", "SP-MOVE-05")
    for o in mover.others:
        if rect is None:
            d = rect_point_distance(o, seg[0], seg[1], seg[2], c.ruler_width / 2)
        else:
            d = float(Point(o).distance(rect))
        if d < c.ship_radius - 1e-9:
            return ("the ruler would lie over another player's ship", "SP-MOVE-06")
    for b, bbox in zip(lay.bases, lay.base_boxes, strict=True):
        if b.inhabited and b.index != skip_base and boxes_meet(box, bbox) and overlaps_area(geom(), b.polygon,
                                                                                             c.eps_area):
            return (f"the ruler would lie over base {b.id}", "SP-MOVE-07")
    return None


def pose_legal(lay: Layout, center: XY, others: Sequence[XY]) -> tuple[str, str] | None:
    """SP-MOVE-08: a ship disc inside the field, clear of elements, inhabited bases and other ships."""
    c = lay.c
    r = c.ship_radius
    if not disc_inside_field(center, r, lay):
        return ("the ship would stand outside the field", "SP-MOVE-08")
    box = (center[0] - r, center[1] - r, center[0] + r, center[1] + r)
    for e, ebox in zip(lay.elements, lay.element_boxes, strict=True):
        if boxes_meet(box, ebox) and Point(center).distance(e.polygon) < r - 1e-9:
            return ("the ship would stand on a map element", "SP-MOVE-08")
    for b, bbox in zip(lay.bases, lay.base_boxes, strict=True):
        if b.inhabited and boxes_meet(box, bbox) and Point(center).distance(b.polygon) < r - 1e-9:
            return ("the ship would stand on a base", "SP-MOVE-08")
    for o in others:
        if dist(center, o) < 2 * r - 1e-9:
            return ("the ship would stand on another ship", "SP-MOVE-08")
    return None


def end_center(end: XY, theta: float, c: Constants) -> XY:
    ux, uy = unit(theta)
    return (end[0] - c.ship_radius * ux, end[1] - c.ship_radius * uy)


def check_ruler(lay: Layout, mover: Mover, anchor: XY, theta: float) -> RulerResult:
    """The normative ruler legality algorithm of spec §6.4."""
    c = lay.c
    # 1. angle limit (SP-MOVE-02/03; none for drift, SP-DRIFT-02)
    if mover.prev_dir is not None and angle_diff(theta, mover.prev_dir) > 90.0 + 1e-9:
        rule = "SP-MOVE-02" if mover.first else "SP-MOVE-03"
        return RulerResult(False, "a ruler may turn at most 90 degrees", rule)
    a = anchor
    b = ruler_end(a, theta, c)
    corners = ruler_corners(a, theta, c)
    # 3. inside the field (SP-MOVE-04)
    e = 1e-9
    if not all(-e <= x <= lay.W + e and -e <= y <= lay.H + e for x, y in corners):
        return RulerResult(False, "the ruler would leave the field", "SP-MOVE-04", a, b, theta)
    box = corners_box(corners)
    part: BaseGeometry | None = None  # None: the whole rectangle (built only if needed)
    seg = (a, theta, c.ruler_length)
    skip: int | None = None
    if mover.first and mover.docked_base is not None:
        # SP-GEO-06 / SP-MOVE-11: a departure ruler crosses its own gate; only the part outside counts.
        base = lay.bases[mover.docked_base]
        if not _segment_crosses(a, b, base.gate_ends):
            return RulerResult(False, "a departing ruler must pass through the gate", "SP-MOVE-11", a, b, theta)
        part = Polygon(corners).difference(base.polygon)
        skip = base.index
    # 2. entry rulers (SP-GEO-05 / SP-MOVE-12), never into the departure base with the first ruler (SP-MOVE-15)
    dock: int | None = None
    t_g = 1.0
    for base in lay.bases:
        if not base.inhabited or base.index == skip or base.index not in mover.bases_with_room:
            continue
        # the swept disc reaches r_s beside the ruler and 2 r_s behind its start (the ship's current disc)
        pad = c.eps_touch + (2 * c.ship_radius if mover.dock_stand else 0.0)
        if not boxes_meet(box, corners_box(base.gate_ends), pad) or base.polygon.contains(Point(a)):
            continue
        if mover.dock_stand:
            t = _stand_entry_fraction(a, theta, base, c)
        elif Polygon(corners).distance(base.gate) > c.eps_touch:
            continue
        else:
            t = _entry_fraction(a, theta, base, c)
        if t is not None:
            dock, t_g = base.index, t
            break
    full_problem = _arrest_problem(mover, a, b) or _part_checks(lay, part, mover, skip, box, seg)
    if full_problem is None:
        full_problem = pose_legal(lay, end_center(b, theta, c), mover.others)
    if dock is not None:
        tc = ruler_corners(a, theta, c, c.ruler_length * t_g)
        # 6. is judged on the truncated entry ruler too (spec 6.4: R[0, t_g] "for the remaining checks").
        ux, uy = unit(theta)
        entry_end = (a[0] + c.ruler_length * t_g * ux, a[1] + c.ruler_length * t_g * uy)
        problem = _arrest_problem(mover, a, entry_end) or _part_checks(
            lay, None, mover, dock, corners_box(tc), (a, theta, c.ruler_length * t_g))
        if problem is None:
            return RulerResult(True, "", "", a, b, theta, dock, full_problem is None, t_g)
    if full_problem is not None:
        return RulerResult(False, full_problem[0], full_problem[1], a, b, theta)
    return RulerResult(True, "", "", a, b, theta)


def _arrest_problem(mover: Mover, start: XY, end: XY) -> tuple[str, str] | None:
    """Step 6: an arrested ship's ruler must end strictly closer to the target gate (SP-POLICE-03)."""
    g = mover.arrested_target
    if g is None or dist(end, g) < dist(start, g) - 1e-9:
        return None
    return ("an arrested ship must head for the nearest base", "SP-POLICE-03")


def _entry_fraction(a: XY, theta: float, base: BaseGeom, c: Constants) -> float | None:
    """SP-GEO-05: the smallest t with R[0, t] touching the gate, if R[0, t] stays out of the base."""
    lo, hi = 0.0, 1.0
    if ruler_rect(a, theta, c, c.ruler_length * hi).distance(base.gate) > c.eps_touch:
        return None
    if ruler_rect(a, theta, c, 1e-6).distance(base.gate) <= c.eps_touch:
        hi = 1e-6
    else:
        while hi - lo > 1e-4:
            mid = (lo + hi) / 2
            if ruler_rect(a, theta, c, c.ruler_length * mid).distance(base.gate) <= c.eps_touch:
                hi = mid
            else:
                lo = mid
    trunc = ruler_rect(a, theta, c, c.ruler_length * hi)
    if overlaps_area(trunc, base.polygon, c.eps_area):
        return None
    return hi


def swept_ship_path(a: XY, theta: float, length: float, c: Constants) -> BaseGeometry:
    """The ship centre's path along a ruler part: r_s behind its front, so the disc ends at its final pose.

    The disc swept along this path is the ``swept_ship`` / ``stand`` geometry of SP-AMB-03 / SP-AMB-23.
    """
    ux, uy = unit(theta)
    r = c.ship_radius
    back = (a[0] - r * ux, a[1] - r * uy)
    if length <= 0.0:
        return Point(back)
    return LineString([back, (a[0] + (length - r) * ux, a[1] + (length - r) * uy)])


def _stand_entry_fraction(a: XY, theta: float, base: BaseGeom, c: Constants) -> float | None:
    """SP-AMB-23 alternative ``dock_geometry: stand``: the smallest t at which the ship disc swept along
    R[0, t] touches the gate, if that swept disc has not entered the base before (SP-GEO-05 otherwise)."""
    r = c.ship_radius

    def touches(t: float) -> bool:
        return float(swept_ship_path(a, theta, c.ruler_length * t, c).distance(base.gate)) <= r + c.eps_touch

    if not touches(1.0):
        return None
    lo, hi = 0.0, 1.0
    if touches(1e-6):
        hi = 1e-6
    else:
        while hi - lo > 1e-4:
            mid = (lo + hi) / 2
            if touches(mid):
                hi = mid
            else:
                lo = mid
    if float(swept_ship_path(a, theta, c.ruler_length * hi, c).distance(base.polygon)) < r - c.eps_touch:
        return None  # the disc crossed a wall of the base before reaching its gate
    return hi


# ---------------------------------------------------------------------------- tokens and placement


def token_under_ruler(center: XY, rect: BaseGeometry, r_t: float) -> float | None:
    """SP-AMB-03: a token lies under a ruler iff its centre is nearer than r_t to the rectangle."""
    d = float(Point(center).distance(rect))
    return d if d < r_t - 1e-9 else None


def token_under_swept_ship(center: XY, path: BaseGeometry, c: Constants) -> bool:
    """SP-AMB-03 alternative ``capture_geometry: swept_ship``: the ship disc swept along the course
    overlaps the token (distance from the token centre to the ship centre's path < r_t + r_s)."""
    return float(Point(center).distance(path)) < c.token_radius + c.ship_radius - 1e-9


def placement_clearance(lay: Layout, p: XY, ships: Sequence[XY]) -> float:
    """Minimum clearance of a token at p to the edge, elements, every base and ships (SP-GEO-07)."""
    c = lay.c
    r = c.token_radius
    best = clearance_to_edge(p, r, lay)
    pt = Point(p)
    for e in lay.elements:
        best = min(best, float(pt.distance(e.polygon)) - r)
    for b in lay.bases:
        best = min(best, float(pt.distance(b.polygon)) - r)
    for s in ships:
        best = min(best, dist(p, s) - r - c.ship_radius)
    return best


def token_free(lay: Layout, p: XY, ships: Sequence[XY], tokens: Sequence[XY]) -> bool:
    """A token disc at p lies inside the field and overlaps nothing (SP-ADV-NEWR-01, nudge target)."""
    c = lay.c
    r = c.token_radius
    if not disc_inside_field(p, r, lay):
        return False
    if disc_overlaps(p, r, lay.solid) or disc_overlaps(p, r, lay.inhabited_union):
        return False
    if any(dist(p, s) < r + c.ship_radius - 1e-9 for s in ships):
        return False
    return not any(dist(p, t) < 2 * r - 1e-9 for t in tokens)


def setup_placement_legal(lay: Layout, p: XY, ships: Sequence[XY], tokens: Sequence[XY]) -> bool:
    """SP-GEO-07 / SP-SETUP-11: clearance >= L to everything and no token overlap."""
    if placement_clearance(lay, p, ships) < lay.c.ruler_length - 1e-9:
        return False
    return not any(dist(p, t) < 2 * lay.c.token_radius - 1e-9 for t in tokens)


def grid_points(lay: Layout, step: float) -> list[XY]:
    nx, ny = int(lay.W // step), int(lay.H // step)
    return [(i * step, j * step) for i in range(1, nx + (0 if nx * step >= lay.W else 1))
            for j in range(1, ny + (0 if ny * step >= lay.H else 1))]


def clearance_grid(lay: Layout, points: Sequence[XY], ships: Sequence[XY]) -> list[float]:
    """Vectorised :func:`placement_clearance` over many points."""
    import numpy as np

    c = lay.c
    r = c.token_radius
    arr = np.asarray(points, dtype=float)
    xs, ys = arr[:, 0], arr[:, 1]
    best = np.minimum.reduce([xs - r, lay.W - xs - r, ys - r, lay.H - ys - r])
    geoms = shapely.points(arr)
    for e in lay.elements:
        best = np.minimum(best, shapely.distance(geoms, e.polygon) - r)
    for b in lay.bases:
        best = np.minimum(best, shapely.distance(geoms, b.polygon) - r)
    for s in ships:
        best = np.minimum(best, np.hypot(xs - s[0], ys - s[1]) - r - c.ship_radius)
    return [float(v) for v in best]


def nudge(lay: Layout, target: XY, free: Callable[[XY], bool]) -> XY:
    """SP-GEO-09's nudge: rings of radius 0.25 k (k = 1..80) around target, 48 angles each."""
    if free(target):
        return target
    for k in range(1, 81):
        rr = 0.25 * k
        for i in range(48):
            a = 2 * math.pi * i / 48
            p = (target[0] + rr * math.cos(a), target[1] + rr * math.sin(a))
            if free(p):
                return p
    return target


def put_back_from_edge(lay: Layout, X: XY) -> XY:
    """SP-GEO-09: X + L·n (inward normal of the crossed edge), clamped to >= L from every edge."""
    L = lay.c.ruler_length
    x, y = X
    eps = 1e-6
    if x <= eps:
        x += L
    elif x >= lay.W - eps:
        x -= L
    if y <= eps:
        y += L
    elif y >= lay.H - eps:
        y -= L
    x = min(max(x, L), lay.W - L)
    y = min(max(y, L), lay.H - L)
    return (x, y)


def edge_crossing(p0: XY, p1: XY, lay: Layout) -> XY:
    """Where the segment p0 -> p1 (p0 inside) first leaves the field rectangle."""
    t_best = 1.0
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    for coord, d, lim in ((p0[0], dx, 0.0), (p0[0], dx, lay.W), (p0[1], dy, 0.0), (p0[1], dy, lay.H)):
        if d != 0:
            t = (lim - coord) / d
            if 0 <= t < t_best:
                t_best = t
    x = min(max(p0[0] + t_best * dx, 0.0), lay.W)
    y = min(max(p0[1] + t_best * dy, 0.0), lay.H)
    return (x, y)


def asteroid_put_back(lay: Layout, pickup: XY, theta: float, free: Callable[[XY], bool]) -> XY:
    """SP-GEO-10: 72 candidates at distance L, starting perpendicular-left of the ruler direction."""
    L = lay.c.ruler_length
    deltas = [0.0]
    for k in range(1, 36):
        deltas += [-5.0 * k, 5.0 * k]
    deltas.append(180.0)
    for d in deltas:
        ux, uy = unit(theta + 90.0 + d)
        p = (pickup[0] + L * ux, pickup[1] + L * uy)
        if free(p):
            return p
    return nudge(lay, pickup, free)


def struck_point(base: BaseGeom, contact: XY) -> XY:
    """Where a token touching ``base`` struck its outline: the outline point nearest the contact point.

    The contact point lies inside the base by the step's penetration, which stays far below the 1 cm
    between a gate end and the side wall ((width - gate) / 2) and below half the depth, so the nearest
    outline point is on the side the token struck (SP-FLICK-12).
    """
    ring = base.polygon.exterior
    p = ring.interpolate(ring.project(Point(contact)))
    return (float(p.x), float(p.y))


def storm_problem(lay: Layout, center: XY, other_ships: Sequence[XY]) -> str | None:
    """SP-ADV-STORM-02: why a storm at ``center`` is not legal, in plain words, or ``None``.

    ``other_ships`` are the centres of every other player's ship, docked ones included (a docked
    ship stands in its slot; the storm may cover the base, not the ship in it).
    """
    c = lay.c
    R = c.storm_radius
    if not disc_inside_field(center, R, lay):
        return "the storm must lie inside the field"
    if disc_overlaps(center, R, lay.solid):
        return "the storm may not lie over a map element"
    if any(dist(center, s) < R + c.ship_radius - 1e-9 for s in other_ships):
        return "the storm may not lie over another player's ship"
    return None


def storm_legal(lay: Layout, center: XY, other_ships: Sequence[XY]) -> bool:
    """SP-ADV-STORM-02: inside the field, clear of elements and of the other players' ships."""
    return storm_problem(lay, center, other_ships) is None


def segment_distance(p: XY, a: XY, b: XY) -> tuple[float, float]:
    """(distance from p to segment ab, projection parameter in [0, 1])."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L2))
    q = (a[0] + t * dx, a[1] + t * dy)
    return dist(p, q), t


def shapely_distance(p: XY, geom: BaseGeometry) -> float:
    if geom.is_empty:
        return math.inf
    return float(Point(p).distance(geom))
