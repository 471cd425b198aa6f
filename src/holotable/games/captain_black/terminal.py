"""The terminal picture of a Captain Black view: island, bag, boxes, chests and parrots."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from holotable.engine.words import seat_name


def _seat_name(seat: int, viewer: int | None) -> str:
    """The seat column: numbered from 1, as the players call the seats."""
    return f"{seat + 1} (you)" if seat == viewer else str(seat + 1)


def _island(view: dict[str, Any]) -> Text:
    filled = int(view.get("island", 0))
    fields = int(view.get("island_fields", 0))
    marks = Text()
    marks.append("●" * filled, style="bold")
    marks.append("○" * max(0, fields - filled), style="dim")
    return Text.assemble("Island:   ", marks, f"  {filled}/{fields} black coins (the round ends when it is full)")


def _bag(view: dict[str, Any]) -> Text:
    bag = view.get("bag") or {}
    if "gold" in bag:
        total = bag["gold"] + bag["black"]
        return Text(f"Bag:      {bag['gold']} gold + {bag['black']} black = {total} coins")
    return Text(f"Bag:      {bag.get('coins', '?')} coins (colours hidden)")


def _last_draw(view: dict[str, Any]) -> Text | None:
    draw = view.get("last_draw")
    if not draw:
        return None
    if draw["black"]:
        coins = f"{draw['gold']} gold, {draw['black']} black"
        return Text(f"Last draw: {seat_name(draw['seat'])} drew {draw['k']} ({coins}): nothing gained", style="red")
    return Text(f"Last draw: {seat_name(draw['seat'])} drew {draw['k']}: all gold", style="green")


def _chests(hand: list[str] | None, count: int) -> str:
    if hand is None:
        return f"{count} hidden" if count else "-"
    filled = sum(1 for c in hand if c == "filled")
    return f"{filled} filled, {len(hand) - filled} empty" if hand else "-"


def _seats_table(view: dict[str, Any]) -> Table:
    viewer = view.get("seat")
    holder = view.get("bag_holder")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Seat", "Box", "Parrots", "Chest cards", "Chests", ""):
        table.add_column(name, justify="right" if name in ("Box", "Chest cards") else "left")
    boxes = view.get("boxes") or []
    parrots = view.get("parrots") or []
    counts = view.get("chest_counts") or []
    hands = view.get("chests") or []
    for seat in range(int(view.get("players", len(counts)))):
        marks = []
        if seat == view.get("start_player"):
            marks.append("ship")
        if seat == holder:
            marks.append("◀ bag")
        box_value = boxes[seat] if seat < len(boxes) else None
        cards = parrots[seat] if seat < len(parrots) else []
        table.add_row(
            _seat_name(seat, viewer),
            "?" if box_value is None else str(box_value),
            "+".join(str(c) for c in cards) if cards else "-",
            str(counts[seat]) if seat < len(counts) else "?",
            _chests(hands[seat] if seat < len(hands) else None, counts[seat] if seat < len(counts) else 0),
            " ".join(marks),
            style="bold" if seat == viewer else None,
        )
    return table


def _rounds_table(view: dict[str, Any]) -> Table | None:
    rounds = view.get("rounds") or []
    if not rounds:
        return None
    table = Table(
        title="Finished rounds (gold, then with parrots)", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False
    )
    for name in ("Round", "Start", "Gold", "Parrots", "Totals", "Chest cards"):
        table.add_column(name)
    for entry in rounds:
        parrots = entry.get("parrots") or {}
        table.add_row(
            str(entry.get("round")),
            "?" if entry.get("start") is None else seat_name(int(entry["start"])),
            " / ".join(str(g) for g in entry.get("gold", [])),
            # the record's keys are strings ("0": JSON keeps no integer keys): seat indices all the same
            ", ".join(f"{seat_name(int(s))}: {'+'.join(str(c) for c in cards)}"
                      for s, cards in sorted(parrots.items(), key=lambda kv: int(kv[0]))) or "-",
            " / ".join(str(t) for t in entry.get("totals", [])),
            " / ".join(str(c) for c in entry.get("chests", [])),
        )
    return table


def render(view: dict[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [
        Text(f"Round {view.get('round')} of {view.get('rounds_total')}", style="bold"),
        _island(view),
        _bag(view),
    ]
    last = _last_draw(view)
    if last is not None:
        parts.append(last)
    parts.append(_seats_table(view))
    if any(b is None for b in view.get("boxes") or []):
        parts.append(Text("Hidden tally: the others' boxes are not shown (their coins drop out of sight), but a "
                          "careful player can work every box out: the log says who grabbed only gold, and each such "
                          "grab makes the bag that many coins lighter.", style="dim"))
    aside = view.get("parrot_aside") or []
    parts.append(
        Text(
            f"Chest deck: {view.get('chest_deck_size')} cards · parrot deck: {view.get('parrot_deck_size')} cards"
            f" · parrots set aside: {'+'.join(str(c) for c in aside) if aside else 'none'}",
            style="dim",
        )
    )
    rounds = _rounds_table(view)
    if rounds is not None:
        parts.append(rounds)
    return Group(*parts)
