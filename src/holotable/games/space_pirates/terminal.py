"""The terminal picture of a Space Pirates view: a PNG of the galaxy, an ASCII map and a text summary.

Every time a view is shown, its PNG (see :mod:`.render`) is written to the picture folder and its
path printed, so a terminal player can keep it open in an image viewer: ``$HOLOTABLE_PNG_DIR`` if
set (``off`` turns pictures off), else ``holotable-space-pirates`` in the system's temporary
folder. Below it come the ASCII map of spec §9.3 (1 character = 1 cm across, 2 cm down; ``#``
element, ``=`` gate, ``+`` base, base numbers, ``B G Y R`` ships in space, lower case when docked,
``o`` face-down transport, ``@`` open asteroid, ``~`` storm) and tables of the players, bases and
the decision waited for. Actions are typed in their text form: ``flick 37.5 0.45`` (angle in
degrees counter-clockwise from +x, strength 0..1), ``ruler 90``, ``place 12 30``, ``wind 180``,
``storm 30 30``, ``capture`` / ``skip`` and so on (``help`` lists the legal ones).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

SHIP_LETTERS = "BGYR"
SHIP_STYLES = ("bold blue", "bold green", "bold yellow", "bold red")
HINTS = {
    "flick": "flick ANGLE STRENGTH (degrees from +x counter-clockwise, strength {weakest:g}..1; "
             "0.4 slides about 40 cm)",
    "ruler": "ruler ANGLE (within 90 degrees of the previous ruler or heading) or stop",
    "drift": "drift ANGLE (any direction)",
    "place": "place X Y (cm)",
    "place_storm": "storm X Y (cm)",
    "wind_dir": "wind ANGLE",
    "choose_card": "card ID (with multi_card, after the first card: another card ID, or done)",
    "choose_adv": "adv SYMBOL",
    "flick_target": "target TOKEN-ID",
}


def picture_dir() -> Path | None:
    """Where pictures go (``None``: pictures are off)."""
    value = os.environ.get("HOLOTABLE_PNG_DIR")
    if value is not None and value.strip().lower() in ("", "off", "0", "no", "none"):
        return None
    if value:
        return Path(value)
    return Path(tempfile.gettempdir()) / "holotable-space-pirates"


def write_picture(view: dict[str, Any]) -> Path | None:
    """Write the view's PNG; ``None`` when pictures are off."""
    folder = picture_dir()
    if folder is None:
        return None
    from .picture import draw_view

    seat = view.get("seat")
    who = "spectator" if seat is None else f"seat{seat}"
    return draw_view(view, folder / f"{who}-ply{int(view.get('ply', 0)):05d}.png")


def _inside(p: tuple[float, float], poly: list[list[float]]) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _near_segment(p: tuple[float, float], a: list[float], b: list[float], r: float) -> bool:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy)) <= r


@lru_cache(maxsize=16)
def _background(key: str) -> tuple[tuple[tuple[str, str] | None, ...], ...]:
    """The map's fixed cells (elements, bases, gates) for one layout: (character, style) or ``None``.

    A layout never changes during a game, and testing every cell against every polygon is most of
    the cost of drawing the map, so it is done once per layout (``key`` is the layout as JSON)."""
    field, elements, bases = json.loads(key)
    W, H = (math.ceil(float(v)) for v in field)
    rows = max(1, H // 2)
    out = []
    for row in range(rows):
        line: list[tuple[str, str] | None] = []
        for col in range(W):
            p = (col + 0.5, (rows - 1 - row) * 2 + 1.0)
            cell: tuple[str, str] | None = None
            if any(_inside(p, poly) for poly in elements):
                cell = ("#", "white")
            for polygon, gate in bases:
                if _inside(p, polygon):
                    cell = ("+", "blue")
                if _near_segment(p, gate[0], gate[1], 0.6):
                    cell = ("=", "bold yellow")
            line.append(cell)
        out.append(tuple(line))
    return tuple(out)


def ascii_map(view: dict[str, Any]) -> Text:
    """Spec §9.3: one character per cm across and per 2 cm down, north at the top."""
    W, H = (math.ceil(float(v)) for v in view["field"])
    rows = max(1, H // 2)
    grid = [[" "] * W for _ in range(rows)]
    styles: dict[tuple[int, int], str] = {}

    def cell(x: float, y: float) -> tuple[int, int] | None:
        col, row = int(x), rows - 1 - int(y / 2)
        return (row, col) if 0 <= row < rows and 0 <= col < W else None

    def centre(row: int, col: int) -> tuple[float, float]:
        return (col + 0.5, (rows - 1 - row) * 2 + 1.0)

    storm = view.get("storm")
    if storm is not None:  # only the cells near the storm can be in it
        for row in range(max(0, int(rows - 1 - (storm[1] + 7) / 2)), min(rows, int(rows - (storm[1] - 7) / 2) + 1)):
            for col in range(max(0, int(storm[0] - 7)), min(W, int(storm[0] + 7) + 1)):
                p = centre(row, col)
                if math.hypot(p[0] - storm[0], p[1] - storm[1]) <= 6.0:
                    grid[row][col] = "~"
                    styles[(row, col)] = "cyan"
    key = json.dumps([view["field"], [e["polygon"] for e in view["elements"]],
                      [[b["polygon"], b["gate"]] for b in view["bases"] if b["inhabited"]]])
    for row, line in enumerate(_background(key)):
        for col, fixed in enumerate(line):
            if fixed is not None:
                grid[row][col], styles[(row, col)] = fixed
    for b in view["bases"]:
        if b["inhabited"]:
            xs = [q[0] for q in b["polygon"]]
            ys = [q[1] for q in b["polygon"]]
            at = cell(sum(xs) / len(xs), sum(ys) / len(ys))
            if at is not None:
                grid[at[0]][at[1]] = str(b["index"])
                styles[at] = "bold blue"
    for tok in view["tokens"]:
        at = cell(*tok["pos"])
        if at is not None:
            grid[at[0]][at[1]] = "@" if tok["open"] else "o"
            styles[at] = "bold magenta" if tok["open"] else "bright_white"
    for p in view["players"]:
        ship = p["ship"]
        docked = ship["center"] is None
        where = view["bases"][ship["base"]]["slots"][ship["slot"]] if docked and ship["base"] is not None \
            else ship["center"]
        if where is None:
            continue
        at = cell(*where)
        if at is not None:
            letter = SHIP_LETTERS[p["seat"] % 4]
            grid[at[0]][at[1]] = letter.lower() if docked else letter
            styles[at] = SHIP_STYLES[p["seat"] % 4]
    text = Text()
    text.append("." + "-" * W + ".\n", style="dim")
    for row in range(rows):
        text.append("|", style="dim")
        for col in range(W):
            text.append(grid[row][col], style=styles.get((row, col), ""))
        text.append("|\n", style="dim")
    text.append("'" + "-" * W + "'", style="dim")
    return text


def _players(view: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Seat", "Ship", "Where", "MC", "Cards", "Hand", "Cargo", "Hold", "Base", ""):
        table.add_column(name, justify="right" if name in ("MC", "Cards", "Cargo") else "left")
    viewer = view.get("seat")
    for p in view["players"]:
        s = p["seat"]
        ship = p["ship"]
        if ship["center"] is not None:
            where = f"({ship['center'][0]:.1f}, {ship['center'][1]:.1f}) heading {ship['heading']:.0f}"
        elif ship["base"] is not None:
            where = f"docked at base {ship['base']}"
        else:
            where = "not on the map yet"  # before its start base is chosen
        hand = ", ".join(p["hand"]) if p["hand"] is not None else "-"
        hold = ", ".join(h["identity"] for h in p["hold"]) or "-" if p["hold"] is not None else "-"
        flags = []
        if s == view.get("active"):
            flags.append("active")
        if ship["arrested"]:
            flags.append("arrested")
        if s == viewer:
            flags.append("you")
        table.add_row(str(s), Text(SHIP_LETTERS[s % 4], style=SHIP_STYLES[s % 4]), where, str(p["mc"]),
                      str(p["hand_count"]), hand, str(p["hold_count"]), hold,
                      "-" if p["owned_base"] is None else str(p["owned_base"]), ", ".join(flags))
    return table


def _bases(view: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Base", "Gate", "Facing", "Owner", "Ships", "Market"):
        table.add_column(name)
    for b in view["bases"]:
        if not b["inhabited"]:
            continue
        gx, gy = b["gate_mid"]
        prices = b["prices"]
        market = " ".join(f"{k} {v}" for k, v in prices.items()) if prices else "face down"
        if prices and not b["market_face_up"]:
            market += " (seen by you)"
        ships = ", ".join(str(s) for s in b["docked"] if s is not None) or "-"
        table.add_row(f"{b['index']} {b['id']}", f"({gx:.1f}, {gy:.1f})", f"{b['normal']:.0f}",
                      "-" if b["owner"] is None else str(b["owner"]), ships, market)
    return table


def _tokens(view: dict[str, Any]) -> Text:
    parts = []
    for tok in view["tokens"]:
        x, y = tok["pos"]
        face = "open asteroid" if tok["open"] else (tok["identity"] or "face down")
        parts.append(f"{tok['tid']}: ({x:.1f}, {y:.1f}) {face}")
    line = "; ".join(parts) if parts else "none"
    return Text(f"Transports on the map: {line}\nBag: {view['bag_count']} · bank: {view['bank']} MC"
                + ("" if view.get("storm") is None else
                   f" · storm at ({view['storm'][0]:.1f}, {view['storm'][1]:.1f})"))


def _decision(view: dict[str, Any]) -> Text | None:
    dec = view.get("decision")
    if not dec:
        return None
    extra = ", ".join(f"{k} {v}" for k, v in dec.items() if k not in ("kind", "seat"))
    text = f"Waiting for seat {dec['seat']}: {dec['kind']}" + (f" ({extra})" if extra else "")
    hint = HINTS.get(dec["kind"])
    if hint and dec["seat"] == view.get("seat"):
        text += "\n  type: " + hint.format(weakest=view.get("flick_min_strength", 0.0))
    return Text(text, style="bold")


def render(view: dict[str, Any]) -> RenderableType:
    """The body of a view panel: picture path, map, players, bases, tokens, the decision."""
    parts: list[RenderableType] = []
    path = write_picture(view)
    if path is not None:
        parts.append(Text(f"Picture of the table: {path}", style="bold cyan"))
    parts.append(ascii_map(view))
    parts.append(Text(f"Turn {view['turn']} · active seat {view['active']}"
                      + (" · game over" if view.get("over") else "")))
    parts.append(_players(view))
    parts.append(_bases(view))
    parts.append(_tokens(view))
    dec = _decision(view)
    if dec is not None:
        parts.append(dec)
    return Group(*parts)
