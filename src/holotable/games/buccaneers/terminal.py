"""The terminal picture of a Black Hole Buccaneers view.

The black hole and its threshold, the passing direction, the seat's hand (and Tentacle
cards), every tableau with each card's current value/weight (turned cards marked with
their orientation, time-machine groups and the shapeshifter stack labelled), the tokens,
the decision asked now, and the scoring pad: each finished round's weight against its final threshold,
value (or pulled in) and points. The steps of a scoring phase (A to H, with their numbers) reach a
player through the game log, which ``holotable play`` prints before each turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from holotable.engine.words import seat_list, seat_name

from . import cards as tb

_ARROWS = {"CW": "clockwise (seat i passes to seat i+1)", "CCW": "counter-clockwise (seat i passes to seat i-1)"}
_ASKS = {
    "choose": "pick a card to lay out (sealed until all have picked)",
    "group": "choose a time-machine group",
    "laser": "choose the Swiss Pocket Laser's threshold card",
    "tentacle": "choose the Titan Tentacle's card",
    "egg": "use or keep the Surprise Egg (step A)",
    "pool": "use or keep the Alien Wading Pool (step B)",
    "ring": "discard or keep the One Ring (step D)",
}
_STEP_NAMES = {
    "A": "Surprise Egg",
    "B": "Alien Wading Pool",
    "C": "toys up, -6 weight card",
    "D": "One Ring",
    "E": "weights, Carpet and Exoskeleton",
    "F": "black-hole card, final thresholds",
    "G": "pulled in?",
    "H": "points",
}


def _seat(seat: int, viewer: int | None) -> str:
    """The seat column: numbered from 1, as the players call the seats."""
    return f"{seat + 1} (you)" if seat == viewer else str(seat + 1)


def card_label(card: str) -> str:
    """A card's name with its printed value/weight, e.g. ``Spaceship 12/9`` or ``Morphosucker (1/1)``."""
    info = tb.CARDS.get(card)
    if info is None:
        return card
    printed = info.printed
    if f"{printed.value}/{printed.weight}" in info.shown_name:
        return f"{info.shown_name} [{card}]"
    return f"{info.shown_name} {printed.value}/{printed.weight} [{card}]"


def _laid_text(item: Mapping[str, Any]) -> Text:
    if item.get("card") is None:
        return Text("▮ face-down toy", style="dim")
    name = str(item.get("name") or item["card"])
    info = tb.CARDS.get(str(item["card"]))
    now = f"{item.get('value')}/{item.get('weight')}"
    printed = "" if info is None else f"{info.printed.value}/{info.printed.weight}"
    text = Text(name)
    if now != printed:
        text.append(f" now {now}", style="bold")  # turned, or a shapeshifter under a lighter one
    elif printed not in name:
        text.append(f" {now}", style="bold")
    marks = []
    if item.get("face_down"):
        marks.append("face down")
    if item.get("orientation"):
        marks.append(f"turned {item['orientation']}×")
    if item.get("group"):
        marks.append(f"group {item['group']}")
    if item.get("type") == "artifact" and item.get("active"):
        marks.append("active")
    if item.get("suppressed"):
        marks.append("no effect")
    if item.get("source") not in (None, "hand"):
        marks.append(f"via {item['source']}")
    if marks:
        text.append(f" ({', '.join(marks)})", style="dim")
    return text


def _tableau(items: Sequence[Mapping[str, Any]]) -> Text:
    if not items:
        return Text("-", style="dim")
    lines = [_laid_text(item) for item in items]
    shapes = [item for item in items if item.get("type") == "shapeshifter"]
    if len(shapes) > 1:
        lines.append(Text(f"  shapeshifter stack of {len(shapes)}: {shapes[-1].get('name')} on top, "
                          f"each weighs {shapes[-1].get('weight')}", style="dim"))
    return Text("\n").join(lines)


def _header(view: Mapping[str, Any]) -> list[RenderableType]:
    hole = view.get("black_hole") or {}
    thresholds = view.get("thresholds") or []
    extra = sum(tb.THRESHOLD_AMOUNTS.get(t, 0) for t in thresholds)
    phase = view.get("phase")
    if phase == "selection":
        where = f"selection phase, turn {view.get('turn')}"
    elif phase == "scoring":
        step = view.get("step") or ""
        where = f"scoring phase, step {step} ({_STEP_NAMES.get(step, '')})" if step else "scoring phase"
    else:
        where = "game over"
    lines: list[RenderableType] = [
        Text(f"Round {view.get('round')} of {view.get('rounds', 3)} · {where}", style="bold"),
        Text.assemble(
            "Black hole: ",
            (f"{hole.get('id')} ({hole.get('category')})", "bold"),
            f" · {hole.get('cards')} cards dealt · threshold {hole.get('threshold')}",
            (f" {' '.join(thresholds)} → {hole.get('threshold', 0) + extra}" if thresholds else "", "yellow"),
            " + the weight of one black-hole card",
        ),
    ]
    holes = view.get("black_holes") or []
    if holes:
        lines.append(Text("Black holes this game: " + ", ".join(h or "?" for h in holes), style="dim"))
    lines.append(Text(f"Passing: {_ARROWS.get(str(view.get('direction')), view.get('direction'))}"))
    return lines


def _hand(view: Mapping[str, Any]) -> list[RenderableType]:
    out: list[RenderableType] = []
    hand = view.get("hand")
    if hand is not None:
        out.append(Text("Your hand: " + (", ".join(card_label(c) for c in hand) if hand else "(empty)")))
    if view.get("tentacle"):
        out.append(Text("Titan Tentacle cards: " + ", ".join(card_label(c) for c in view["tentacle"]), style="cyan"))
    mine = view.get("my_bh_cards") or []
    if mine:
        out.append(Text("Your card at the black hole: " + ", ".join(card_label(c) for c in mine), style="dim"))
    return out


def _ask(view: Mapping[str, Any]) -> Text | None:
    ask = view.get("ask") or {}
    kind = ask.get("kind")
    if not kind:
        return None
    who = "every seat" if ask.get("seat") is None else seat_name(ask["seat"])
    text = f"Asked now: {who}: {_ASKS.get(kind, kind)}"
    if kind == "group" and ask.get("card"):
        groups = ", ".join(f"group {g}" for g in ask.get("groups") or [])
        text += f" for {card_label(ask['card'])}: {groups + ' or ' if groups else ''}a new group"
    gps = [s for s, flag in enumerate(view.get("gps") or []) if flag]
    if kind == "choose" and gps:
        who = f"{seat_list(gps)} {'plays' if len(gps) == 1 else 'play'}"
        text += f" ({who} a random card: Analog GPS Tracker)"
    return Text(text, style="bold magenta")


def _seats(view: Mapping[str, Any]) -> Table:
    viewer = view.get("seat")
    tokens: Mapping[str, int] = view.get("tokens") or {}
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_lines=False)
    for name, justify in (("Seat", "left"), ("Hand", "right"), ("Tableau (value/weight now)", "left"),
                          ("Value", "right"), ("Weight", "right"), ("Tokens", "left"), ("Points", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    sizes = view.get("hand_sizes") or []
    totals = view.get("totals") or []
    scores = view.get("scores") or []
    tableaux = view.get("tableaux") or []
    for seat in range(int(view.get("players", len(tableaux)))):
        total = totals[seat] if seat < len(totals) else None
        held = [f"{t} ({tb.TOKEN_AMOUNTS.get(t, 0):+d})" for t, s in sorted(tokens.items()) if s == seat]
        table.add_row(
            _seat(seat, viewer),
            str(sizes[seat]) if seat < len(sizes) else "?",
            _tableau(tableaux[seat] if seat < len(tableaux) else []),
            "?" if total is None else str(total["value"]),
            "?" if total is None else str(total["weight"]),
            ", ".join(held) or "-",
            str(scores[seat]) if seat < len(scores) else "?",
            style="bold" if seat == viewer else None,
        )
    return table


def _piles(view: Mapping[str, Any]) -> Text:
    revealed = view.get("bh_revealed")
    parts = [f"Draw pile: {view.get('draw_size')} cards", f"discards: {len(view.get('discard') or [])}",
             f"black-hole pile: {view.get('bh_pile_size')} cards"]
    if revealed:
        parts.append(f"revealed: {card_label(revealed)} (weight {tb.printed_weight(revealed)})")
    return Text(" · ".join(parts), style="dim")


def _pad(view: Mapping[str, Any]) -> Table | None:
    """One column per finished round: E weight against the final threshold, value (or pulled in), points."""
    pad = view.get("pad") or []
    if not pad:
        return None
    n = int(view.get("players", 0))
    table = Table(title="Scoring pad: weight vs threshold · value · points", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("Seat")
    for entry in pad:
        revealed = entry.get("revealed")
        shown = f"{revealed} {tb.printed_weight(revealed):+d}" if revealed else "-"
        table.add_column(f"Round {entry.get('round')}: {entry.get('black_hole')}, {shown}")
    table.add_column("Total", justify="right")
    for seat in range(n):
        cells = []
        for entry in pad:
            pulled = (entry.get("pulled_in") or [False] * n)[seat]
            weight, limit = _at(entry, "e_weight", seat), _at(entry, "threshold", seat)
            middle = "pulled in" if pulled else f"V {_at(entry, 'value', seat)}"
            cells.append(f"W {weight} / T {limit} · {middle} · +{_at(entry, 'points', seat)}")
        table.add_row(_seat(seat, view.get("seat")), *cells, _at(pad[-1], "total", seat))
    return table


def _at(entry: Mapping[str, Any], key: str, seat: int) -> str:
    values = entry.get(key) or []
    return str(values[seat]) if seat < len(values) else "-"


def render(view: dict[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [*_header(view), *_hand(view)]
    ask = _ask(view)
    if ask is not None:
        parts.append(ask)
    parts.append(_seats(view))
    parts.append(_piles(view))
    pad = _pad(view)
    if pad is not None:
        parts.append(pad)
    return Group(*parts)
