"""PNG pictures of the Space Pirates galaxy, drawn to scale with matplotlib (Agg backend).

A picture is drawn from one seat's view (or the spectator's), so it never shows more than that
seat may see: face-down transports are plain grey discs, with a letter only for faces the viewer
knows; open asteroids are marked. The field is drawn in centimetres with a 10 cm grid, map
elements as grey polygons, inhabited bases as blue rectangles with their black-and-yellow gates,
slots and owners, abandoned bases hatched, ships as coloured stands with a nose line, the storm
as a translucent disc and the rulers laid this turn (the view's ``rulers``, SP-GEO-04).

>>> import holotable, tempfile, pathlib
>>> st = holotable.load("space-pirates").new_state(players=2, seed=3, first_seat=0)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "table.png"
>>> draw_view(st.view(0), path) == path and path.read_bytes()[:4] == b"\\x89PNG"
True
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import matplotlib

from holotable.engine.words import seat_name

matplotlib.use("Agg")  # no display: files only (must precede pyplot)

import matplotlib.pyplot as plt
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.patches import Circle, Polygon

from holotable.engine import State

from .picture_labels import SIZES, Box, base_label_spots, bounds, place_label, ship_discs

#: Ship colours by seat (SP-COMP-01: blue, green, yellow, red).
SHIP_COLOURS = ("#1f5fd6", "#1e9e3a", "#e0b400", "#d62020")
SHIP_NAMES = ("blue", "green", "yellow", "red")
IDENTITY_LETTERS = {"ORE": "O", "SPICE": "S", "TECH": "T", "MEDS": "M", "RELICS": "R", "ASTEROID": "A",
                    "POLICE": "P"}
#: A dark halo that keeps white text readable over anything (the field, elements, bases, ships).
HALO = [patheffects.withStroke(linewidth=2.5, foreground="black")]
#: Text sizes in points at DPI: large enough to read on a screen at 100% (about 12 px and up).
LABEL_PT, ID_PT, SEAT_PT, DPI = 7.5, 7.0, 8.5, 120
LABEL_PAD = 0.25  # the label box's padding, in font sizes
LEGEND = ("grey disc: face-down transport (a letter: a face you know) · A: open asteroid · "
          "ring: token to act on · * active ship · dashed yellow: gate")
Segment = tuple[tuple[float, float], tuple[float, float]]


def ship_colour(seat: int) -> str:
    return SHIP_COLOURS[seat % len(SHIP_COLOURS)]


def view_rulers(view: dict[str, Any]) -> list[Segment]:
    """The rulers on the table in a view (its public ``rulers``: those laid this turn, in order)."""
    return [((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))) for a, b in view.get("rulers") or ()]


def current_rulers(state: State[Any, Any], seat: int | None = None) -> list[Segment]:
    """The rulers laid since the current turn began (public: every seat sees the same, ``seat`` is
    kept for the callers). They live in the game data, so an unrecorded state has them too.

    An entry ruler is drawn as it lies: where the ship docks (or must dock: the whole ruler would enter
    the base) it ends where it met the gate (SP-GEO-05, SP-MOVE-12), not its full length inside the
    base; while the player may still continue past the gate, it is drawn whole.
    """
    return [((a[0], a[1]), (b[0], b[1])) for a, b in state.data.rulers]


def _draw_field(ax: Axes, W: float, H: float) -> None:
    ax.add_patch(Polygon([(0, 0), (W, 0), (W, H), (0, H)], closed=True, facecolor="#0b1030", edgecolor="white",
                         linewidth=1.5, zorder=0))
    for x in range(10, int(W), 10):
        ax.plot([x, x], [0, H], color="#27305a", linewidth=0.5, zorder=1)
    for y in range(10, int(H), 10):
        ax.plot([0, W], [y, y], color="#27305a", linewidth=0.5, zorder=1)
    ax.set_xlim(-2, W + 2)
    ax.set_ylim(-2, H + 2)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, int(W) + 1, 10))
    ax.set_yticks(range(0, int(H) + 1, 10))
    ax.tick_params(labelsize=7)


def _draw_elements(ax: Axes, elements: Iterable[dict[str, Any]]) -> None:
    for e in elements:
        pts = [tuple(p) for p in e["polygon"]]
        abandoned = e.get("kind") == "abandoned_base"
        ax.add_patch(Polygon(pts, closed=True, facecolor="#6b6b7a" if not abandoned else "#4a4a55",
                             edgecolor="#c8c8d8", linewidth=0.8, hatch="//" if abandoned else None, zorder=2))
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        ax.text(cx, cy, e["id"], color="white", fontsize=LABEL_PT, ha="center", va="center", zorder=3,
                path_effects=HALO)


def _text_size(ax: Axes, text: str, fontsize: float) -> tuple[float, float]:
    """(width, height) in cm of a label drawn with the label style, its padding included."""
    probe = ax.text(0, 0, text, fontsize=fontsize, ha="center", va="center", linespacing=1.15,
                    bbox={"boxstyle": f"round,pad={LABEL_PAD}"})
    renderer = ax.figure.canvas.get_renderer()  # type: ignore[attr-defined]
    ext = probe.get_window_extent(renderer)
    probe.remove()
    (x0, y0), (x1, y1) = ax.transData.inverted().transform([(ext.x0, ext.y0), (ext.x1, ext.y1)])
    return abs(x1 - x0), abs(y1 - y0)


def base_label(b: dict[str, Any]) -> str:
    label = str(b["id"])
    owner = b["owner"]
    if owner is not None:
        label += f" · owner {SHIP_NAMES[owner % 4]}"
    if b["prices"]:
        label += "\n" + " ".join(f"{k[0]}{v}" for k, v in b["prices"].items())
    elif b["market"] is None:
        label += "\nmarket ?"
    return label


def _draw_bases(ax: Axes, view: dict[str, Any], labels: list[Box]) -> None:
    W, H = (float(v) for v in view["field"])
    ships = ship_discs(view)
    tokens = [(float(t["pos"][0]), float(t["pos"][1]), SIZES.token_radius) for t in view["tokens"]]
    clutter = [bounds(e["polygon"]) for e in view["elements"]]
    clutter += [bounds(b["polygon"]) for b in view["bases"] if b["inhabited"]]
    for b in view["bases"]:
        if not b["inhabited"]:
            continue
        pts = [(float(x), float(y)) for x, y in b["polygon"]]
        owner = b["owner"]
        edge = ship_colour(owner) if owner is not None else "#9fb4ff"
        ax.add_patch(Polygon(pts, closed=True, facecolor="#23336e", edgecolor=edge,
                             linewidth=2.5 if owner is not None else 1.0, zorder=2))
        (x0, y0), (x1, y1) = b["gate"]
        ax.plot([x0, x1], [y0, y1], color="black", linewidth=3.5, solid_capstyle="butt", zorder=4)
        ax.plot([x0, x1], [y0, y1], color="#ffd400", linewidth=3.5, linestyle=(0, (2, 2)), zorder=5)
        for sx, sy in b["slots"]:
            ax.add_patch(Circle((sx, sy), SIZES.ship_radius, facecolor="none", edgecolor="#9fb4ff", linewidth=0.5,
                                linestyle=":", zorder=3))
        text = base_label(b)
        w, h = _text_size(ax, text, LABEL_PT)
        own = bounds(b["polygon"])
        box = place_label(base_label_spots(b, w, h), w, h, field=(W, H), ships=ships, taken=labels, tokens=tokens,
                          home=pts, clutter=[c for c in clutter if c != own])
        labels.append(box)
        ax.text((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, text, color="white", fontsize=LABEL_PT, ha="center",
                va="center", linespacing=1.15, zorder=12,
                bbox={"boxstyle": f"round,pad={LABEL_PAD}", "facecolor": "#101838", "edgecolor": edge,
                      "linewidth": 0.8, "alpha": 0.92})


def _draw_tokens(ax: Axes, tokens: Iterable[dict[str, Any]], radius: float, decision_tid: int | None) -> None:
    for t in tokens:
        x, y = t["pos"]
        if t["open"]:
            ax.add_patch(Circle((x, y), radius, facecolor="#8b4513", edgecolor="#ff7f50", linewidth=1.5, zorder=7))
            ax.text(x, y, "A", color="white", fontsize=8, fontweight="bold", ha="center", va="center", zorder=8)
        else:
            ax.add_patch(Circle((x, y), radius, facecolor="#7d7d7d", edgecolor="#d0d0d0", linewidth=0.8, zorder=7))
            ident = t.get("identity")
            if ident is not None:  # a face this viewer knows
                ax.text(x, y, IDENTITY_LETTERS.get(ident, "?"), color="black", fontsize=8, fontweight="bold",
                        ha="center", va="center", zorder=8)
        if t["tid"] == decision_tid:
            ax.add_patch(Circle((x, y), radius + 0.6, facecolor="none", edgecolor="white", linewidth=1.0,
                                linestyle="--", zorder=8))
        # the id beside the disc, white on a dark halo: legible over the field, elements and bases
        ax.text(x + radius * 0.75, y - radius * 0.75, str(t["tid"]), color="white", fontsize=ID_PT, ha="left",
                va="top", zorder=12, path_effects=HALO)


def _draw_ships(ax: Axes, view: dict[str, Any], radius: float) -> None:
    bases = view["bases"]
    for p in view["players"]:
        seat, ship = p["seat"], p["ship"]
        if ship["center"] is not None:
            cx, cy = ship["center"]
        elif ship["base"] is not None:
            cx, cy = bases[ship["base"]]["slots"][ship["slot"]]
        else:
            continue
        h = math.radians(float(ship["heading"]))
        colour = ship_colour(seat)
        ax.add_patch(Circle((cx, cy), radius, facecolor=colour, edgecolor="white", linewidth=1.2, zorder=9))
        ux, uy = math.cos(h), math.sin(h)
        # the nose: a short line to the rim, leaving the disc's middle to the seat number
        ax.plot([cx + 0.55 * radius * ux, cx + radius * ux], [cy + 0.55 * radius * uy, cy + radius * uy],
                color="white", linewidth=1.8, zorder=10)
        ax.plot([cx + radius * ux], [cy + radius * uy], marker="o", markersize=3, color="white", zorder=10)
        mark = str(seat + 1) + ("*" if seat == view.get("active") else "")
        ax.text(cx, cy, mark, color="white", fontsize=SEAT_PT, fontweight="bold", ha="center", va="center",
                zorder=10, path_effects=HALO)


def _draw_rulers(ax: Axes, rulers: Sequence[Segment], colour: str, width: float = 1.0) -> None:
    """Rulers to scale: rectangles of the ruler width along each laid segment (SP-GEO-04)."""
    for i, ((x0, y0), (x1, y1)) in enumerate(rulers):
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length * width / 2, (x1 - x0) / length * width / 2
        corners = [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]
        ax.add_patch(Polygon(corners, closed=True, facecolor="#f3e6c4", edgecolor=colour, linewidth=1.2,
                             alpha=0.9, zorder=6))
        ax.text((x0 + x1) / 2, (y0 + y1) / 2, str(i + 1), color="black", fontsize=6.5, ha="center", va="center",
                zorder=6)


def _caption(view: dict[str, Any]) -> str:
    parts = []
    seat = view.get("seat")
    parts.append("spectator" if seat is None else f"{seat_name(seat)} ({SHIP_NAMES[seat % 4]})")
    if "ply" in view:
        parts.append(f"ply {view['ply']}")
    parts.append(f"turn {view['turn']}")
    parts.append(f"active {seat_name(view['active'])}")
    dec = view.get("decision")
    if dec:
        parts.append(f"waiting: {dec['kind']} by {seat_name(dec['seat'])}")
    if view.get("over"):
        parts.append("game over" + (f", winner {seat_name(view['winner'])}" if view.get("winner") is not None else ""))
    money = "  ".join(f"{SHIP_NAMES[p['seat'] % 4]} {p['mc']} MC, {p['hand_count']} cards, {p['hold_count']} cargo"
                      for p in view["players"])
    return " · ".join(parts) + "\n" + money + "\n" + LEGEND


def figure_for_view(view: dict[str, Any], *, rulers: Sequence[Segment] | None = None,
                    title: str | None = None) -> Any:
    """A matplotlib figure of one view (the caller closes it); ``rulers`` default to the view's own."""
    W, H = (float(v) for v in view["field"])
    scale = 0.16  # inches per cm: a 60 cm field is about 9.6 inches wide
    fig, ax = plt.subplots(figsize=(max(6.0, W * scale), max(6.0, H * scale) + 0.8), dpi=DPI)
    fig.subplots_adjust(left=0.05, right=0.98, top=0.95, bottom=0.1)  # first: labels are sized in cm
    _draw_field(ax, W, H)
    _draw_elements(ax, view["elements"])
    labels: list[Box] = []
    _draw_bases(ax, view, labels)
    storm = view.get("storm")
    if storm is not None:
        R = SIZES.storm_radius
        ax.add_patch(Circle((storm[0], storm[1]), R, facecolor="#7fd6ff", alpha=0.25, edgecolor="#7fd6ff",
                            linewidth=1.0, linestyle="--", zorder=11))
        ax.text(storm[0], storm[1] + R + 0.3, "storm", color="#7fd6ff", fontsize=LABEL_PT, ha="center", zorder=11,
                path_effects=HALO)
    active = view.get("active")
    if rulers is None:
        rulers = view_rulers(view)
    if rulers:
        _draw_rulers(ax, rulers, ship_colour(int(active or 0)))
    dec = view.get("decision") or {}
    _draw_tokens(ax, view["tokens"], SIZES.token_radius, dec.get("tid"))
    _draw_ships(ax, view, SIZES.ship_radius)
    ax.set_title(title or "Space Pirates", fontsize=10)
    fig.text(0.5, 0.01, _caption(view), ha="center", va="bottom", fontsize=8)
    return fig


def png_bytes(view: dict[str, Any], *, rulers: Sequence[Segment] | None = None, title: str | None = None) -> bytes:
    fig = figure_for_view(view, rulers=rulers, title=title)
    try:
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()
    finally:
        plt.close(fig)


def draw_view(view: dict[str, Any], path: str | Path, *, rulers: Sequence[Segment] | None = None,
              title: str | None = None) -> Path:
    """Write the PNG of one view to ``path`` (folders are created) and return the path; ``rulers``
    default to the view's own (the rulers laid this turn)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png_bytes(view, rulers=rulers, title=title))
    return out


def draw(state: State[Any, Any], seat: int | None, path: str | Path, *, title: str | None = None) -> Path:
    """The PNG of what ``seat`` sees in ``state`` (``None``: the spectator), with the current rulers."""
    return draw_view(state.view(seat), path, title=title)
