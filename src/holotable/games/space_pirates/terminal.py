"""The terminal picture of a Space Pirates view: a PNG of the galaxy, an ASCII map and a text summary.

Every time a view is shown, its PNG (see :mod:`.render`) is written to the picture folder and its
path printed, so a terminal player can keep it open in an image viewer: ``$HOLOTABLE_PNG_DIR`` if
set (``off`` turns pictures off), else ``holotable-space-pirates`` in the system's temporary
folder. Below it come the ASCII map of spec §9.3 (1 character = 1 cm across, 2 cm down; ``#``
element, ``=`` gate, ``+`` base, base numbers, ``B G Y R`` ships in space, lower case when docked,
``o`` face-down transport, ``@`` open asteroid, ``~`` storm, ``*`` the rulers laid this turn) and
tables of the players, bases and the decision waited for. Actions are typed in their text form:
``flick 37.5 0.45`` (angle in degrees counter-clockwise from +x, strength 0..1), ``ruler 90``,
``place 12 30``, ``wind 180``, ``storm 30 30``, ``capture`` / ``skip`` and so on (``help`` lists the
legal ones; a ruler's allowed directions are read from the rules, ``flow.turn_limit``).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from holotable.engine.words import seat_name

from . import words

SHIP_LETTERS = "BGYR"
SHIP_STYLES = ("bold blue", "bold green", "bold yellow", "bold red")
HINTS = {
    "flick": "flick ANGLE STRENGTH (degrees from +x counter-clockwise, strength {weakest:g}..1; "
             "0.4 slides about 40 cm)",
    "ruler": "ruler ANGLE ({allowed}){stop}",
    "drift": "drift ANGLE (any direction)",
    "place": "place X Y (cm; in the set-up at least one ruler from elements, bases, ships and the edge)",
    "place_storm": "storm X Y (cm)",
    "wind_dir": "wind ANGLE",
    "choose_card": "card ID (me: each card's rulers and adventures; with multi_card, after the first card: "
                   "another card ID, or done)",
    "choose_adv": "adv SYMBOL (card SYMBOL says what it does)",
    "flick_target": "target TOKEN-ID",
    "start_base": "base NUMBER (the base your ship starts docked at)",
    "turn_mode": "stay (use this base) or depart",
    "dock_offer": "dock or continue",
    "capture_offer": "capture or skip",
    "damage_pay": ("pay cargo TOKEN-ID or pay card SEAT (that seat picks one of your cards blind; SEAT is counted "
                   "from 0: 0 is Seat 1, 1 is Seat 2)"),
    "blind_pick": "pick NUMBER",
    "base_buy": "buy or skip",
    "base_look": "look or skip",
    "base_sell": "sell TOKEN-ID or done",
    "base_recharge": "recharge MC (1 MC buys 5 energy points) or skip",
    "base_take": "take VALUE (the top card of that value's stack) or done",
}
#: The look-ahead each kind of decision offers (the ``preview`` command).
PREVIEWS = {
    "flick": "preview ANGLE STRENGTH (the path, where it stops and how far your hand may stray)",
    "ruler": "preview ruler ANGLE (legal or why not, where the ship ends, what it passes over)",
    "drift": "preview drift ANGLE",
}
FACES = words.FACES


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


#: A mark drawn over the map: (x, y, character, style).
Mark = tuple[float, float, str, str]
Segment = tuple[tuple[float, float], tuple[float, float]]


def segment_cells(seg: Segment, step: float = 0.5) -> list[tuple[float, float]]:
    """Points every ``step`` cm along a segment (enough to mark each map cell it crosses)."""
    (x0, y0), (x1, y1) = seg
    n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
    return [(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(n + 1)]


def ascii_map(view: dict[str, Any], *, rulers: Sequence[Segment] | None = None, marks: Sequence[Mark] = (),
              axes: bool = False) -> Text:
    """Spec §9.3: one character per cm across and per 2 cm down, north at the top. ``rulers``
    (default: the view's own, those laid this turn) are drawn as ``*`` under the ships; ``marks`` (a
    preview's path and stops) over everything. ``axes``: centimetre labels every 10 cm along the top
    and the left edge, so a player can read a position off the map."""
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
    if rulers is None:
        rulers = [((a[0], a[1]), (b[0], b[1])) for a, b in view.get("rulers") or ()]
    for seg in rulers:  # SP-GEO-04: the rulers laid in this move, under the ships
        for x, y in segment_cells(seg):
            at = cell(x, y)
            if at is not None and grid[at[0]][at[1]] in (" ", "~"):
                grid[at[0]][at[1]] = "*"
                styles[at] = "bold bright_white"
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
    for x, y, char, style in marks:  # a mark on the edge (where a token leaves) stays on the map
        at = cell(min(max(x, 0.0), W - 1e-6), min(max(y, 0.0), H - 1e-6))
        if at is not None:
            grid[at[0]][at[1]] = char
            styles[at] = style
    text = Text()
    gutter = ""
    if axes:  # x labels above their column, y labels left of the row that starts at that height
        gutter = "   "
        labels = [" "] * (W + 5)
        for x in range(0, W + 1, 10):
            for i, ch in enumerate(str(x)):
                if 1 + x + i < len(labels):
                    labels[1 + x + i] = ch
        text.append(gutter + "".join(labels).rstrip() + " cm\n", style="dim")
    ticks = "".join("+" if axes and col % 10 == 0 and col else "-" for col in range(W))
    text.append(gutter + "." + ticks + ".\n", style="dim")
    for row in range(rows):
        if axes:
            bottom = (rows - 1 - row) * 2
            text.append(f"{bottom:>3}" if bottom % 10 == 0 else "   ", style="dim")
        text.append("|", style="dim")
        for col in range(W):
            text.append(grid[row][col], style=styles.get((row, col), ""))
        text.append("|\n", style="dim")
    text.append(gutter + "'" + ticks + "'", style="dim")
    return text


def _players(view: dict[str, Any]) -> RenderableType:
    """One short row per seat (it fits 80 columns), then the viewer's own hand and hold."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Seat", "Ship", "Where", "MC", "Cards", "Cargo", "Base", ""):
        table.add_column(name, justify="right" if name in ("MC", "Cards", "Cargo") else "left", no_wrap=name != "")
    viewer = view.get("seat")
    own: list[RenderableType] = []
    for p in view["players"]:
        s = p["seat"]
        ship = p["ship"]
        if ship["center"] is not None:
            where = f"({ship['center'][0]:.1f}, {ship['center'][1]:.1f}) → {ship['heading']:.0f}°"
        elif ship["base"] is not None:
            where = f"docked at base {ship['base']}"
        else:
            where = "not placed yet"  # before its start base is chosen
        flags = []
        if s == view.get("active"):
            flags.append("active")
        if ship["arrested"]:
            flags.append("arrested")
        if s == viewer:
            flags.append("you")
        table.add_row(str(s + 1), Text(SHIP_LETTERS[s % 4], style=SHIP_STYLES[s % 4]), where, str(p["mc"]),
                      str(p["hand_count"]), str(p["hold_count"]),
                      "-" if p["owned_base"] is None else str(p["owned_base"]), ", ".join(flags))
        if s == viewer and p["hand"] is not None:
            hold = ", ".join(f"{h['tid']} {face_name(h['identity'])}" for h in p["hold"] or []) or "empty"
            own.append(Text(f"Your hand: {', '.join(p['hand']) or 'empty'} (me: each card's rulers and adventures)"
                            f" · your hold: {hold}"))
    return Group(table, *own)


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
        # seats numbered from 1, as in the seat table
        ships = ", ".join(str(s + 1) for s in b["docked"] if s is not None) or "-"
        table.add_row(f"{b['index']} {b['id']}", f"({gx:.1f}, {gy:.1f})", f"{b['normal']:.0f}",
                      "-" if b["owner"] is None else str(b["owner"] + 1), ships, market)
    return table


def _tokens(view: dict[str, Any]) -> Text:
    parts = []
    for tok in view["tokens"]:
        x, y = tok["pos"]
        face = "open asteroid" if tok["open"] else (
            "face down" if tok["identity"] is None else f"face down, you know: {face_name(tok['identity'])}")
        parts.append(f"{tok['tid']}: ({x:.1f}, {y:.1f}) {face}")
    line = "; ".join(parts) if parts else "none"
    return Text(f"Transports on the map: {line}\nBag: {view['bag_count']} · bank: {view['bank']} MC"
                + ("" if view.get("storm") is None else
                   f" · storm at ({view['storm'][0]:.1f}, {view['storm'][1]:.1f})"))


def ruler_allowed(dec: dict[str, Any]) -> str:
    """Where the next ruler may point, in words, from the decision's public ``limit`` (SP-MOVE-02/03:
    ``flow.turn_limit``; ``None`` for any direction, as for a first ruler under ``first_ruler=nose``)."""
    limit = dec.get("limit")
    if limit is None:
        return "any direction"
    lo, hi = float(limit) - 90.0, float(limit) + 90.0
    of = "your heading" if not dec.get("count") else "the last ruler"
    return f"within 90 degrees of {of}, {float(limit):g}°: from {lo:g}° to {hi:g}°"


def hint_for(view: dict[str, Any], dec: dict[str, Any]) -> str | None:
    """How to type the answer to ``dec`` (``HINTS`` filled in from the view)."""
    hint = HINTS.get(dec["kind"])
    if hint is None:
        return None
    stop = "" if dec.get("departing") and not dec.get("count") else " or stop"
    return hint.format(weakest=view.get("flick_min_strength", 0.0), allowed=ruler_allowed(dec), stop=stop)


def _decision(view: dict[str, Any]) -> Text | None:
    dec = view.get("decision")
    if not dec:
        return None
    extra = ", ".join(w for w in (_field_words(dec["kind"], k, v) for k, v in dec.items()
                                  if k not in ("kind", "seat", "limit")) if w)
    text = f"Waiting for {seat_name(dec['seat'])}: {dec['kind'].replace('_', ' ')}" + (f" ({extra})" if extra else "")
    hint = hint_for(view, dec)
    mine = dec["seat"] == view.get("seat")
    if hint and mine:
        text += "\n  type: " + hint
    if mine and dec["kind"] in PREVIEWS:
        text += "\n  try first: " + PREVIEWS[dec["kind"]]
    out = Text(text, style="bold")
    if mine:
        for line in _decision_notes(view, dec):
            out.append("\n  " + line, style="")
    return out


#: A decision's public fields in words.
FIELD_WORDS = {"tid": "token", "left": "adventures left:", "cause": "because of", "mode": "which:",
               "points": "points", "victim": "victim", "base": "base", "count": "count", "more": "more"}


def _field_words(kind: str, key: str, value: Any) -> str | None:
    """One public field of a decision in words; ``None`` when it says nothing worth showing."""
    if kind in ("ruler", "drift"):  # "left" counts rulers there, not adventures
        if key == "left":
            return f"rulers left: {value}"
        if key == "count":
            return f"laid {value}"
        if key == "departing":
            return "leaving the base" if value else None
    if key == "victim" and isinstance(value, int):
        return f"victim {seat_name(value)}"
    return f"{FIELD_WORDS.get(key, key)} {_plain(value)}"


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _decision_notes(view: dict[str, Any], dec: dict[str, Any]) -> list[str]:
    """What the seat needs to know to answer: the transport it drew and must place (the rulebook
    lets the drawer look at it), the token it must flick, where its next ruler starts."""
    notes = []
    tid = dec.get("tid")
    if dec["kind"] == "place" and tid is not None:
        face = next((t["identity"] for t in view.get("transit", []) if t["tid"] == tid), None)
        notes.append(f"You drew transport {tid}: {face_name(face)} (only you see its face; it is placed face down)")
    if dec["kind"] in ("flick", "flick_target") and tid is not None:
        tok = next((t for t in view["tokens"] if t["tid"] == tid), None)
        if tok is not None:
            notes.append(f"Token {tid} lies at ({tok['pos'][0]:.1f}, {tok['pos'][1]:.1f})"
                         + ("" if tok["identity"] is None else f": you know it is {face_name(tok['identity'])}"))
    if dec["kind"] == "ruler":
        me = next((p for p in view["players"] if p["seat"] == dec["seat"]), None)
        if me is not None and me["ship"]["center"] is not None:
            x, y = me["ship"]["center"]
            h = float(me["ship"]["heading"])
            notes.append(f"Your ship stands at ({x:.1f}, {y:.1f}) heading {h:.0f}°")
    return notes


def face_name(identity: str | None) -> str:
    """A transport's face in plain words."""
    if identity is None:
        return "face down"
    return FACES.get(identity, identity.lower())


def last_flick(view: dict[str, Any]) -> Text | None:
    """The report of the last flick, from the public view: who flicked what, how the hand aimed and
    how the flick went (the dexterity noise), where the token lies, what turned over or left the table
    (the ``report`` command adds everything the log says, hits and damage included)."""
    flick = view.get("last_flick")
    if not flick:
        return None
    tid = flick["tid"]
    aimed, went = flick["input"], flick["noisy"]
    text = (f"Last flick: {seat_name(flick['flicker'])} flicked token {tid}, aimed {aimed[0]:g}° at {aimed[1]:g}, "
            f"went {went[0]:.1f}° at {went[1]:.2f}")
    tok = next((t for t in view["tokens"] if t["tid"] == tid), None)
    if tok is not None:
        text += f"; it lies at ({tok['pos'][0]:.1f}, {tok['pos'][1]:.1f})"
    faces = {t["tid"]: t["identity"] for t in view["tokens"]}
    if flick.get("turned_over"):
        text += "; turned over: " + ", ".join(f"{t} ({face_name(faces.get(t))})" for t in flick["turned_over"])
    if flick.get("exits"):
        text += "; left the table and was put back at the edge: " + ", ".join(str(t) for t in flick["exits"])
    return Text(text + " (report: every detail)")


def render(view: dict[str, Any]) -> RenderableType:
    """The body of a view panel: picture path, map, players, bases, tokens, the decision."""
    parts: list[RenderableType] = []
    path = write_picture(view)
    if path is not None:
        parts.append(Text(f"Picture of the table: {path}", style="bold cyan"))
    rulers = [((a[0], a[1]), (b[0], b[1])) for a, b in view.get("rulers") or ()]
    parts.append(ascii_map(view, rulers=rulers, axes=True))
    if rulers:  # SP-GEO-04: the rulers on the table, * on the map
        parts.append(Text("Rulers laid this turn (* on the map): " + "; ".join(
            f"{i + 1}: ({a[0]:.1f}, {a[1]:.1f}) to ({b[0]:.1f}, {b[1]:.1f})" for i, (a, b) in enumerate(rulers))))
    parts.append(Text(f"Turn {view['turn']} · active {seat_name(view['active'])}"
                      + (" · game over" if view.get("over") else "")))
    parts.append(_players(view))
    parts.append(_bases(view))
    parts.append(_tokens(view))
    report = last_flick(view)
    if report is not None:
        parts.append(report)
    dec = _decision(view)
    if dec is not None:
        parts.append(dec)
    return Group(*parts)


def __getattr__(name: str) -> Any:
    """``TERMINAL_COMMANDS`` (``map``, ``preview``, ``me``, ``card``, ``report``) live in
    :mod:`.terminal_commands`, which draws with this module: imported on first use."""
    if name == "TERMINAL_COMMANDS":
        from .terminal_commands import TERMINAL_COMMANDS

        return TERMINAL_COMMANDS
    raise AttributeError(name)


def help_lines(view: dict[str, Any]) -> list[str]:
    """``help``: what the game waits for and how to type it, with the look-ahead it offers (``help all``
    lists every representative legal action: a flick has more than a hundred)."""
    dec = view.get("decision")
    seat = view.get("seat")
    if not dec:
        return ["Nothing is asked now."]
    if dec["seat"] != seat:
        return [f"{seat_name(dec['seat'])} is asked: {dec['kind'].replace('_', ' ')}. You may look around meanwhile."]
    lines = [f"You are asked: {dec['kind'].replace('_', ' ')}"]
    hint = hint_for(view, dec)
    if hint:
        lines.append("  type: " + hint)
    if dec["kind"] in PREVIEWS:
        lines.append("  try first: " + PREVIEWS[dec["kind"]])
    lines.append("  help all: every legal action listed (flicks and rulers also take any angle in between)")
    return lines
