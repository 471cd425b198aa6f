"""Kyrum's log in the words a player reads: where an effect came from ("Myrrak, white arrow"), a
resource by its printed name, a slot by its planet; never the pack's ids or labels.

The engine keeps its internal labels in each event's data (a story page is keyed by them, the bots and
the replay read them); only the event's text, the line a player reads, goes through here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .card_text import RESOURCE_NAMES
from .pack import Pack

#: The suffixes a nested effect frame adds to its parent's label (script.py): what a player reads.
_NESTED = {"if": "", "roll": ", the roll"}


def resource(res: str) -> str:
    """``resource("suit") == "spacesuit integrity"``."""
    return RESOURCE_NAMES.get(res, res)


#: What a crafting recipe that is not a resource does.
_RECIPES = {"reroll": "roll a distance die again", "set1": "set a distance die to 1"}


def recipe(name: str) -> str:
    """A crafting recipe: ``recipe("set1") == "set a distance die to 1"``, ``recipe("fuel") == "fuel"``."""
    return _RECIPES.get(name) or resource(name)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def slot_die(pack: Pack, planets: Sequence[int], index: int) -> str:
    """The distance die of a slot, named by the planet beside it ("Myrrak's distance die"): a slot's
    number would be counted from 0 where actions are typed and from 1 elsewhere, a planet is the same."""
    return f"{pack.planets[planets[index]].name}'s distance die" if index < len(planets) else "A distance die"


def source(pack: Pack, label: str) -> str:
    """Where an effect came from, from its frame label: ``"13/white"`` (a planet's arrow),
    ``"ENC-07/black"`` (an encounter's arrow), ``"A.13.06"`` (a script), ``"T01"`` (a Thoth item), each
    possibly followed by ``/if``, ``/roll`` or ``/o2`` (an option) for a nested frame."""
    head, *rest = label.split("/")
    words = _head(pack, head, rest[0] if rest and rest[0] in ("white", "black") else None)
    if rest and rest[0] in ("white", "black"):
        rest = rest[1:]
    for part in rest:
        if part in _NESTED:
            words += _NESTED[part]
        elif part.startswith("o") and part[1:].isdigit():
            words += f", option {part[1:]}"
    return words


def _head(pack: Pack, head: str, colour: str | None) -> str:
    arrow = f", {colour} arrow" if colour else ""
    if head.isdigit() and int(head) in pack.planets:
        return f"{pack.planets[int(head)].name}{arrow}"
    if head in pack.encounters:
        return f"{pack.encounters[head].name}{arrow}"
    if head in pack.items:
        return pack.items[head].name
    if head in pack.scripts:
        return f"booklet entry {head}"
    return head.replace("_", " ")
