"""Random legal galaxy layouts (SP-SETUP-02): 5 bases and the 13 elements, checked with shapely.

A layout is legal when every piece lies inside the field, pieces keep a clearance of at least
3 cm from each other, each gate has a free approach zone (one ruler deep, gate wide) and the
transport placement region of SP-GEO-07 is not empty.
"""

from __future__ import annotations

import random
from functools import lru_cache

from shapely.geometry import Polygon  # type: ignore[import-untyped]

from holotable.engine import ConfigError

from . import geometry as geo
from .data import BaseSpot, Content, Overrides, Preset, content_of, layout_overrides

MIN_GAP = 3.0


def _field(players: int) -> tuple[float, float]:
    return (60.0, 60.0) if players == 2 else (80.0, 70.0)  # SP-SETUP-01


def random_preset(content: Content, players: int, seed: int) -> Preset:
    """A reproducible random legal layout for ``players`` (same seed and constants, same layout).

    ``content`` is the shipped content or one built by ``data.content_for``: its constants (base
    and ruler sizes) shape the layout, named by its overrides so layouts can be cached.
    """
    return _random_preset(players, seed, layout_overrides(content.overrides))


@lru_cache(maxsize=64)
def _random_preset(players: int, seed: int, overrides: Overrides) -> Preset:
    content = content_of(overrides)
    rng = random.Random(f"space-pirates-layout:{players}:{seed}")
    W, H = _field(players)
    c = content.constants
    for _attempt in range(200):
        pieces: list[Polygon] = []
        bases: list[BaseSpot] = []
        zones: list[Polygon] = []
        ok = True
        for i in range(5):
            for _try in range(200):
                x, y = rng.uniform(8, W - 8), rng.uniform(8, H - 8)
                inward = geo.norm_angle(round(_toward_centre(x, y, W, H) / 45.0) * 45.0)
                b = geo.base_geom(i, f"B{i + 1}", round(x, 1), round(y, 1), inward, c, True)
                zone = geo.ruler_rect(b.gate_mid, inward, c, c.ruler_length).buffer(c.gate / 2 - c.ruler_width / 2,
                                                                                      cap_style="flat")
                if _fits(b.polygon, pieces, W, H) and _fits(zone, pieces, W, H, gap=0.0) and all(
                        zone.distance(p) >= 0 and not zone.intersects(p) for p in pieces):
                    pieces.append(b.polygon)
                    zones.append(zone)
                    bases.append(BaseSpot(f"B{i + 1}", round(x, 1), round(y, 1), inward))
                    break
            else:
                ok = False
                break
        if not ok:
            continue
        elements: list[tuple[str, float, float, float]] = []
        for eid in sorted(content.elements):
            shape = content.elements[eid]
            for _try in range(300):
                x, y, rot = rng.uniform(3, W - 3), rng.uniform(3, H - 3), float(rng.randrange(0, 180, 5))
                poly = Polygon(geo.transform(shape.polygon, x, y, rot))
                if _fits(poly, pieces, W, H) and not any(poly.intersects(z) for z in zones):
                    pieces.append(poly)
                    elements.append((eid, round(x, 1), round(y, 1), rot))
                    break
            else:
                ok = False
                break
        if not ok:
            continue
        preset = Preset(f"random-{players}p-{seed}", (players,), (W, H), tuple(bases), tuple(elements))
        lay = geo.build_layout(geo.layout_key(preset, players, content))
        pts = geo.grid_points(lay, 1.0)
        if max(geo.clearance_grid(lay, pts, ())) >= c.ruler_length:
            return preset
    # Never seen with the shipped sizes; possible with data overrides (say, a 40 cm ruler).
    raise ConfigError(f"no legal {players}-player layout found for layout_seed {seed} with these sizes "
                      f"(ruler {c.ruler_length} cm, bases {c.base_width} x {c.base_depth} cm)")


def _toward_centre(x: float, y: float, W: float, H: float) -> float:
    import math

    return math.degrees(math.atan2(H / 2 - y, W / 2 - x))


def _fits(poly: Polygon, pieces: list[Polygon], W: float, H: float, gap: float = MIN_GAP) -> bool:
    minx, miny, maxx, maxy = poly.bounds
    if minx < 0 or miny < 0 or maxx > W or maxy > H:
        return False
    return all(poly.distance(p) >= gap for p in pieces)


def layout_is_legal(preset: Preset, content: Content, players: int) -> list[str]:
    """Problems of a layout (empty when legal): used by tests on presets and generated layouts."""
    lay = geo.build_layout(geo.layout_key(preset, players, content))
    problems = []
    polys = [(e.id, e.polygon) for e in lay.elements if e.kind == "element"] + [(b.id, b.polygon) for b in lay.bases]
    for i, (a, pa) in enumerate(polys):
        minx, miny, maxx, maxy = pa.bounds
        if minx < -1e-9 or miny < -1e-9 or maxx > lay.W + 1e-9 or maxy > lay.H + 1e-9:
            problems.append(f"{a} leaves the field")
        for b, pb in polys[i + 1:]:
            if geo.overlaps_area(pa, pb, 1e-6):
                problems.append(f"{a} overlaps {b}")
    return problems
