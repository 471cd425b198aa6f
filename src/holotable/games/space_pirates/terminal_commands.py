"""The look-up commands of ``holotable play space-pirates`` (the ``TERMINAL_COMMANDS`` hook): ``map``,
``preview``, ``me``, ``card`` and ``report``. None of them is an action and none changes the game;
each reads only what the asking seat may see (its view and its log; a preview's physics reads the
public table, see :mod:`.preview`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from holotable.engine import ActionError, State
from holotable.engine.words import seat_name

from . import preview as pv
from .actions import parse
from .data import content_for
from .picture import current_rulers, draw_view
from .skill import flick_noise, skill_name
from .terminal import Mark, ascii_map, face_name, picture_dir

#: Each adventure symbol in the rulebook's words (section 6), shortened.
SYMBOLS = {
    "FLICK": "transport: choose a transport on the map and flick it",
    "NEW_RIGHT": "new transport: draw one from the bag, look at it, place it; the player on your right flicks it",
    "NEW_LEFT": "new transport: draw one from the bag, look at it, place it; the player on your left flicks it",
    "ASTEROID": "asteroid: flick an open asteroid (nothing happens if none is open)",
    "STORM": "cosmic storm: move the storm anywhere clear of elements and other ships; a ship under it takes "
             "1 damage",
    "WIND": "solar wind: choose a direction; every ship in space and the storm move 2 rulers that way",
}
#: The same in two or three words, for the hand's table.
SHORT = {"FLICK": "flick a transport", "NEW_RIGHT": "new transport (right flicks)",
         "NEW_LEFT": "new transport (left flicks)", "ASTEROID": "flick an asteroid", "STORM": "move the storm",
         "WIND": "solar wind"}
PATH_STYLE, STOP_STYLE, CLOUD_STYLE = "bold cyan", "bold bright_red", "red"


def _error(message: str) -> Text:
    return Text("✗ " + message, style="red")


# ---------------------------------------------------------------------------------------------- map


def map_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """``map``: the map with centimetre labels and the rulers of the move in progress, and its picture."""
    if rest:
        return _error("map takes nothing after it")
    view = state.view(seat)
    rulers = current_rulers(state, seat)
    parts: list[RenderableType] = []
    folder = picture_dir()
    if folder is not None:
        path = draw_view(view, folder / f"seat{seat}-map-ply{state.ply:05d}.png", rulers=rulers)
        parts.append(Text(f"Picture with the rulers: {path}", style="bold cyan"))
    parts.append(ascii_map(view, rulers=rulers, axes=True))
    legend = ("# element  = gate  + base (its number in the middle)  B G Y R ships (lower case: docked)  "
              "o face-down transport  @ open asteroid  ~ storm  * rulers of this move")
    parts.append(Text(legend, style="dim"))
    if rulers:
        parts.append(Text("Rulers this move: " + "; ".join(
            f"{i + 1}: ({a[0]:.1f}, {a[1]:.1f}) to ({b[0]:.1f}, {b[1]:.1f})" for i, (a, b) in enumerate(rulers))))
    return Group(*parts)


# ---------------------------------------------------------------------------------------------- preview


def _numbers(words: Sequence[str]) -> list[float]:
    out = []
    for w in words:
        try:
            out.append(float(w))
        except ValueError:
            raise pv.PreviewError(f"{w[:20]!r} is not a number") from None
    return out


def flick_text(p: pv.FlickPreview) -> Text:
    """A flick preview in words: the noiseless result, then the spread of the noisy ones."""
    sd_a, sd_s = p.noise
    hand = "no noise" if sd_a == 0 and sd_s == 0 else \
        f"your hand strays about ±{sd_a:g}° and ±{sd_s * 100:g} % strength"
    lines = [f"Preview of flicking token {p.tid} at {p.angle:g}° with strength {p.strength:g} "
             f"(your dexterity: {p.skill}, {hand})"]
    if p.stop is not None:
        exact = f"Aimed exactly: it stops at ({p.stop[0]:.1f}, {p.stop[1]:.1f})"
    else:
        assert p.exit is not None
        exact = f"Aimed exactly: it leaves the table at ({p.exit[0]:.1f}, {p.exit[1]:.1f})"
    if p.touches:
        exact += ", touching " + ", ".join(p.touches)
    pushed = [f"token {t} to ({q[0]:.1f}, {q[1]:.1f})" for t, q in sorted(p.moved.items()) if t != p.tid]
    if pushed:
        exact += "; it pushes " + ", ".join(pushed)
    lines.append(exact)
    n = p.samples
    if p.centre is not None and p.noise == (0.0, 0.0):
        spread = f"Your {n} tries: with no noise every one stops there"
    elif p.centre is not None:
        spread = (f"Your {n} tries: they stop around ({p.centre[0]:.1f}, {p.centre[1]:.1f}) ± {p.radius:.1f} cm "
                  f"(9 in 10 within)")
    else:
        spread = f"Your {n} tries: none stays on the table"
    lines.append(spread)
    odds = [f"leaves the table in {p.exits} of {n}"] if p.exits else []
    odds += [f"hits {label} in {k} of {n}" for label, k in sorted(p.hits.items(), key=lambda kv: -kv[1])]
    odds.append(f"turns over in {p.turned} of {n}")
    odds.append(f"costs you 1 damage (edge, element or turned over) in {p.penalties} of {n}")
    lines.append("  " + "; ".join(odds))
    return Text("\n".join(lines))


def flick_marks(p: pv.FlickPreview) -> list[Mark]:
    """The map marks of a flick preview: the noisy stops, the path, the expected stop on top."""
    marks: list[Mark] = [(x, y, ":", CLOUD_STYLE) for x, y in p.stops]
    for a, b in zip(p.path, p.path[1:], strict=False):
        marks += [(x, y, ".", PATH_STYLE) for x, y in _along(a, b)]
    end = p.stop if p.stop is not None else p.exit
    if end is not None:
        marks.append((end[0], end[1], "X", STOP_STYLE))
    return marks


def _along(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    from .terminal import segment_cells

    return segment_cells((a, b))


def ruler_text(p: pv.RulerPreview) -> Text:
    head = f"Preview of {p.action}: " + ("legal" if p.legal else f"not legal: {p.reason}")
    lines = [head, f"  the ruler from ({p.start[0]:.1f}, {p.start[1]:.1f}) to ({p.end[0]:.1f}, {p.end[1]:.1f})"]
    if p.legal:
        if p.dock_base is not None:
            lines.append(f"  it enters the gate of base {p.dock_base}: you will be offered to dock")
        else:
            lines.append(f"  your ship would stand at ({p.ship_end[0]:.1f}, {p.ship_end[1]:.1f}) "
                         f"heading {p.theta:.0f}°")
        if p.captures:
            lines.append("  it passes over face-down transport(s) " + ", ".join(map(str, p.captures))
                         + ": you may capture each")
        if p.asteroids:
            lines.append("  it touches open asteroid(s) " + ", ".join(map(str, p.asteroids)) + ": 1 damage each")
    return Text("\n".join(lines), style="" if p.legal else "red")


def preview_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """``preview ANGLE STRENGTH [TOKEN]``, ``preview flick ...``, ``preview ruler ANGLE``, ``preview drift ANGLE``."""
    words = rest.split()
    try:
        if words and words[0].lower() in ("ruler", "drift"):
            rp = pv.ruler_preview(state, seat, " ".join([words[0].lower(), *words[1:]]))
            marks: list[Mark] = [(x, y, "*" if rp.legal else "x", "bold green" if rp.legal else "bold red")
                                 for x, y in _along(rp.start, rp.end)]
            if rp.legal and rp.dock_base is None:
                marks.append((rp.ship_end[0], rp.ship_end[1], "X", STOP_STYLE))
            return Group(ruler_text(rp), ascii_map(state.view(seat), rulers=current_rulers(state, seat),
                                                   marks=marks, axes=True))
        if words and words[0].lower() == "flick":
            words = words[1:]
        if len(words) not in (2, 3):
            raise pv.PreviewError("preview ANGLE STRENGTH [TOKEN] (a flick), preview ruler ANGLE or "
                                  "preview drift ANGLE")
        nums = _numbers(words)
        if len(nums) == 3 and not nums[2].is_integer():
            raise pv.PreviewError("a token is named by its number")
        tid = int(nums[2]) if len(nums) == 3 else None
        fp = pv.flick_preview(state, seat, nums[0], nums[1], tid=tid)
    except pv.PreviewError as exc:
        return _error(str(exc))
    legend = Text(". path aimed exactly  X where it stops  : where your tries stop", style="dim")
    return Group(flick_text(fp), ascii_map(state.view(seat), marks=flick_marks(fp), axes=True), legend)


# ---------------------------------------------------------------------------------------------- me and card


def _card_row(table: Table, content: Any, cid: str) -> None:
    card = content.card(cid)
    table.add_row(cid, str(card.value), ", ".join(SHORT.get(s, s) for s in card.symbols))


def me_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """``me``: your money, ship, dexterity, hand (each card's value and adventures), hold and knowledge."""
    if rest:
        return _error("me takes nothing after it")
    view = state.view(seat)
    content = content_for(state.config)
    me = view["players"][seat]
    ship = me["ship"]
    if ship["center"] is not None:
        where = f"in space at ({ship['center'][0]:.1f}, {ship['center'][1]:.1f}) heading {ship['heading']:.0f}°"
    elif ship["base"] is not None:
        where = f"docked at base {ship['base']}"
    else:
        where = "not on the map yet"
    sd_a, sd_s = flick_noise(state.config, seat)
    lines: list[RenderableType] = [Text(
        f"{seat_name(seat)}: {me['mc']} MC · ship {where}" + (" · arrested" if ship["arrested"] else "")
        + f" · dexterity {skill_name(state.config, seat)} (±{sd_a:g}°, ±{sd_s * 100:g} % strength)", style="bold")]
    hand = Table(title=f"Your hand ({len(me['hand'])} cards, {sum(content.card(c).value for c in me['hand'])} "
                       "points of energy)", box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left")
    for name in ("Card", "Rulers", "Adventures"):
        hand.add_column(name, overflow="fold")
    for cid in me["hand"]:
        _card_row(hand, content, cid)
    lines.append(hand if me["hand"] else Text("Your hand is empty"))
    symbols = sorted({s for cid in me["hand"] for s in content.card(cid).symbols}, key=list(SYMBOLS).index)
    lines += [Text(f"  {SHORT[s]}: {SYMBOLS[s]}", style="dim") for s in symbols if s in SHORT]
    hold = ", ".join(f"{h['tid']} {face_name(h['identity'])}" for h in me["hold"]) or "empty"
    lines.append(Text(f"Your hold: {hold}"))
    known = [f"{t['tid']} at ({t['pos'][0]:.1f}, {t['pos'][1]:.1f}): {face_name(t['identity'])}"
             for t in view["tokens"] if t["identity"] is not None and not t["open"]]
    if known:
        lines.append(Text("Face-down transports you know: " + "; ".join(known)))
    seen = [f"base {b['index']}: " + " ".join(f"{k.lower()} {v}" for k, v in b["prices"].items())
            for b in view["bases"] if b["prices"] and not b["market_face_up"]]
    if seen:
        lines.append(Text("Markets you have looked at: " + "; ".join(seen)))
    return Group(*lines)


def _visible_cards(view: dict[str, Any], seat: int) -> dict[str, str]:
    """Energy cards the seat may read and where they are: its hand, the card(s) in play, the discards."""
    where = dict.fromkeys(view["players"][seat]["hand"], "in your hand")
    for cid in [view.get("in_play"), *view.get("also_played", [])]:
        if cid:
            where[cid] = "in play"
    for value, pile in view["energy"]["discard"].items():
        for cid in pile:
            where[cid] = f"on the discard pile of value {value}"
    return where


def card_lookup(state: State[Any, Any], seat: int, name: str) -> RenderableType:
    """One thing on the table in full, if the seat may see it: an energy card, a market card, a base,
    a map element, a transport token (by number) or an adventure symbol."""
    view = state.view(seat)
    content = content_for(state.config)
    key = name.strip()
    up = key.upper()
    if not key:
        return _error("card NAME: an energy card (E3-2), a market card (M04), a base (B2 or base 2), an element "
                      "(E07), a transport (its number) or a symbol (FLICK)")
    cards = _visible_cards(view, seat)
    by_id = {c.id.upper(): c.id for c in content.energy}
    if up in by_id:
        cid = by_id[up]
        if cid not in cards:
            return _error(f"{cid} is not a card you can see: it is in a draw stack or another player's hand")
        card = content.card(cid)
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=f"Energy card {cid}, {cards[cid]}",
                      title_justify="left")
        table.add_column("Rulers")
        table.add_column("Adventures, in order", overflow="fold")
        table.add_row(str(card.value), "\n".join(f"{s}: {SYMBOLS.get(s, s)}" for s in card.symbols))
        return table
    if up in SYMBOLS:
        return Text(f"{up}: {SYMBOLS[up]}")
    for b in view["bases"]:
        if up in (b["id"].upper(), f"BASE {b['index']}", f"BASE{b['index']}") or (
                b["market"] is not None and up == str(b["market"]).upper()):
            return _base_text(b)
    if any(up == m.id.upper() for m in content.markets):
        return _error(f"{up} is not a market card you can see")
    for e in view["elements"]:
        if up == e["id"].upper() or key.lower() == e["name"].lower():
            xs = [p[0] for p in e["polygon"]]
            ys = [p[1] for p in e["polygon"]]
            return Text(f"Element {e['id']}: {e['name']} ({e['kind'].replace('_', ' ')}), from x {min(xs):.1f} to "
                        f"{max(xs):.1f} and y {min(ys):.1f} to {max(ys):.1f} cm; a flicked token that touches it "
                        "costs its flicker 1 damage")
    token = up.removeprefix("TOKEN").strip()
    if token.isdigit():
        return _token_text(view, int(token))
    return _error(f"nothing on the table is called {key!r}")


def _base_text(b: dict[str, Any]) -> Text:
    gx, gy = b["gate_mid"]
    market = "face down" if b["prices"] is None else " ".join(f"{k.lower()} {v}" for k, v in b["prices"].items())
    if b["prices"] is not None and not b["market_face_up"]:
        market += " (face down: only you know it)"
    owner = "nobody" if b["owner"] is None else f"{seat_name(b['owner'])}"
    ships = ", ".join(f"{seat_name(s)}" for s in b["docked"] if s is not None) or "none"
    state = "inhabited" if b["inhabited"] else "abandoned"
    return Text(f"Base {b['index']} ({b['id']}, {state}): gate at ({gx:.1f}, {gy:.1f}) facing {b['normal']:.0f}°; "
                f"owner {owner}; docked ships: {ships}; market ({b['market'] or 'card unknown'}): {market}")


def _token_text(view: dict[str, Any], tid: int) -> Text:
    tok = next((t for t in view["tokens"] if t["tid"] == tid), None)
    if tok is not None:
        face = "an open asteroid" if tok["open"] else face_name(tok["identity"])
        who = "" if tok["open"] or tok["identity"] is None else " (you know its face; it lies face down)"
        return Text(f"Transport {tid} at ({tok['pos'][0]:.1f}, {tok['pos'][1]:.1f}): {face}{who}")
    mine = next((h for p in view["players"] if p["hold"] for h in p["hold"] if h["tid"] == tid), None)
    if mine is not None:
        return Text(f"Transport {tid} is in your hold: {face_name(mine['identity'])}")
    held = next((t for t in view["transit"] if t["tid"] == tid), None)
    if held is not None:
        return Text(f"Transport {tid} is in the hand of {seat_name(held['holder'])}: {face_name(held['identity'])}")
    return _error(f"transport {tid} is not on the map: it is in the bag or in a hold you cannot see")


def card_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """``card NAME``. The game reads ``card ID`` as playing that card when that is legal; otherwise the
    terminal shows what it names, and, when a card is asked of the seat, why it cannot be played."""
    shown = card_lookup(state, seat, rest)
    pending = state.game.decision(state)  # type: ignore[attr-defined]
    if pending is not None and pending.seat == seat and pending.kind == "choose_card" and rest.strip():
        try:
            state.game.check(state, seat, parse(f"card {rest.strip()}"))
        except ActionError as exc:
            return Group(shown, _error(f"you cannot play it now: {exc.reason}"))
    return shown


# ---------------------------------------------------------------------------------------------- report


def report_lines(state: State[Any, Any], seat: int) -> list[str]:
    """The flicks of the last turn that had any (the set-up's three, say), as the seat's log tells them:
    where each moved token stopped, what left the table or turned over, which ship was hit (what you
    alone saw, too) and the damage that followed."""
    events = state.log_for(seat)
    last = next((i for i in range(len(events) - 1, -1, -1) if events[i].kind == "flick"), None)
    if last is None:
        return []
    first = next((i for i in range(last, -1, -1) if events[i].kind == "turn"), -1) + 1
    lines: list[str] = []
    for i in range(first, last + 1):
        if events[i].kind == "flick":
            lines += _one_flick(events, i)
    return lines


def _one_flick(events: Sequence[Any], start: int) -> list[str]:
    flick = events[start].data
    lines = [events[start].text + f": aimed {flick['input'][0]:g}° at {flick['input'][1]:g}, "
             f"went {flick['noisy'][0]:.1f}° at {flick['noisy'][1]:.2f}"]
    for tid, pos in sorted(flick.get("rest", {}).items(), key=lambda kv: int(kv[0])):
        how = "flicked" if int(tid) == flick["tid"] else "pushed"
        lines.append(f"  token {tid} ({how}) stopped at ({pos[0]:.1f}, {pos[1]:.1f})")
    for tid in flick.get("exits", []):
        lines.append(f"  token {tid} left the table (put back at the edge it crossed)")
    for e in events[start + 1:]:
        if e.kind in ("flick", "turn", "ruler", "card_played", "adventure", "token_drawn"):
            break
        lines.append("  " + e.text)
    return lines


def report_command(state: State[Any, Any], seat: int, rest: str) -> RenderableType:
    """``report``: the flicks of the last turn that had any, in full."""
    if rest:
        return _error("report takes nothing after it")
    lines = report_lines(state, seat)
    if not lines:
        return Text("No transport has been flicked yet")
    return Text("\n".join(lines))


#: The game's own commands of the ``holotable play`` terminal (see :func:`holotable.cli.render.terminal_hook`).
TERMINAL_COMMANDS = (
    ("map", "map", "the map with centimetres along its edges and the rulers of this move (and its picture)",
     map_command),
    ("preview", "preview …", "try before you play: preview ANGLE STRENGTH [TOKEN] shows a flick's path, where "
     "it stops, how far your own hand may stray and what it hits; preview ruler ANGLE (or drift ANGLE) says "
     "whether the ruler is legal and where the ship ends", preview_command),
    ("me", "me", "your money, ship, dexterity, hand (each card's rulers and adventures), hold and what you know",
     me_command),
    ("card", "card NAME", "read anything you can see in full: a card of your hand or a discard pile (E3-2), "
     "a market (M04), a base (B2), an element (E07), a transport (its number), a symbol (FLICK)", card_command),
    ("report", "report", "the last turn's flicks in full: where each token stopped, what it hit, turned over or cost",
     report_command),
)
