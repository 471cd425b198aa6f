"""The story on the table: every page the player reads in a game, in reading order, with what it did.

A *page* is one text the player reads: a script of the booklet (main, secondary, narrative,
end-of-game, the Black Hole's), or an encounter card drawn (a danger card with its check, the
trader, the Black Hole). It keeps the script's ``say`` lines in order and its *effects*: what its
ops did, in the words a player uses ("+2 fuel", "spacesuit breached", "chose 'Follow the
prints'"), so nothing a script does happens out of sight.

``KyrumData.story`` is the game's pages as a tuple of :class:`Page` values that are never changed
once made (a new say or effect replaces the page), so copying a state shares them: the bots copy
and view states at every decision. ``story_turn`` is the first page of what is being read now (an
exploration, leaving an area, the end of the game) and ``story_shown`` the first page the player
has not been shown yet (pages written since the last action); ``story_changed`` the pages shown
before that have changed since (a choice made on them, the lines after it).

Effects are written while the op (or the choice, the trade, the roll) of a page's source runs:
:func:`recording` catches the events it emits and turns them into lines.

>>> p = Page("main", "A.10.08", "Old Tracks", "Boot prints.")
>>> p = add_effect(p, "+1 knowledge")
>>> page_dict(p)["effects"], page_dict(p)["says"]
(['+1 knowledge'], [])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .mechanics import Table
    from .state import KyrumData

#: Plain names of the gauges and elements, as the boards print them.
NAMES = {"fuel": "fuel", "knowledge": "knowledge", "health": "health", "suit": "spacesuit", "ship": "ship",
         "firepower": "firepower", "common": "common element", "uncommon": "uncommon element",
         "rare": "rare element", "any": "element of any type"}


@dataclass(frozen=True, slots=True)
class Page:
    """One text read (see the module doc). ``check``: a danger card's check (see :func:`check_line`)."""

    kind: str
    code: str
    title: str
    text: str
    says: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    check: Mapping[str, Any] | None = None


def page_dict(page: Page) -> dict[str, Any]:
    """The page as plain JSON-ready data (fresh lists: a caller may change them)."""
    return {"kind": page.kind, "code": page.code, "title": page.title, "text": page.text, "says": list(page.says),
            "effects": list(page.effects), "check": None if page.check is None else dict(page.check),
            "check_text": None if page.check is None else check_line(page.check)}


def page_from_dict(raw: Mapping[str, Any]) -> Page:
    return Page(str(raw.get("kind", "main")), str(raw.get("code", "")), str(raw.get("title", "")),
                str(raw.get("text", "")), tuple(str(s) for s in raw.get("says") or ()),
                tuple(str(s) for s in raw.get("effects") or ()),
                None if raw.get("check") is None else dict(raw["check"]))


def add_effect(page: Page, line: str) -> Page:
    return replace(page, effects=(*page.effects, line))


# ---------------------------------------------------------------------------------------------- writing
def open_page(d: KyrumData, page: Page) -> None:
    d.story = (*d.story, page)


def _find(d: KyrumData, src: str) -> int | None:
    """The index of the page ``src`` (a frame's source label: ``A.10.04/o1/if``, ``ENC-03/black``)
    belongs to: the latest page of that code; ``None`` when it is no page (a planet's arrow, an item)."""
    code = src.split("/", 1)[0]
    story = d.story
    for i in range(len(story) - 1, -1, -1):
        if story[i].code == code:
            return i
    return None


def _update(d: KyrumData, i: int, page: Page) -> None:
    story = d.story
    d.story = (*story[:i], page, *story[i + 1:])
    if i < d.story_shown and i not in d.story_changed:  # shown before, changed since: it is new again
        d.story_changed = (*d.story_changed, i)


def say(d: KyrumData, src: str, text: str) -> None:
    i = _find(d, src)
    if i is not None:
        page = d.story[i]
        _update(d, i, replace(page, says=(*page.says, text)))


def note(d: KyrumData, src: str, line: str) -> None:
    """An effect line for the page of ``src`` (an op that emits no event: a flag, a journal note)."""
    i = _find(d, src)
    if i is not None:
        _update(d, i, add_effect(d.story[i], line))


def set_check(d: KyrumData, src: str, check: Mapping[str, Any]) -> None:
    i = _find(d, src)
    if i is not None:
        _update(d, i, replace(d.story[i], check=dict(check)))


@contextmanager
def recording(tab: Table, src: str) -> Iterator[None]:
    """While the body runs, the events it emits become effect lines of ``src``'s page."""
    d = tab.d
    if not d.story or _find(d, src) is None:
        yield
        return
    emit = tab.emit

    def catch(kind: str, text: str, *args: Any, **data: Any) -> None:
        emit(kind, text, *args, **data)
        line = effect_line(tab, kind, text, data)
        if line is not None:
            note(d, src, line)

    tab.emit = catch
    try:
        yield
    finally:
        tab.emit = emit


def action_taken(d: KyrumData, verb: str) -> None:
    """The player acts: what was written so far has been shown; exploring, leaving the area, validating
    or conceding begins a new reading (the pages before it stay in the story)."""
    d.story_shown = len(d.story)
    d.story_changed = ()
    if verb in ("explore", "leave", "validate", "concede"):
        d.story_turn = len(d.story)


# ---------------------------------------------------------------------------------------------- plain words
def _name(res: str) -> str:
    return NAMES.get(res, res.replace("_", " "))


def _plural(n: int, res: str) -> str:
    name = _name(res)
    return f"{n} {name}{'s' if n != 1 and res in ('common', 'uncommon', 'rare', 'any') else ''}"


def effect_line(tab: Table, kind: str, text: str, data: Mapping[str, Any]) -> str | None:
    """One event as a player would say it; ``None`` for events that are no effect (the log has them)."""
    if kind == "gauge":
        old, new, res = int(data["old"]), int(data["new"]), str(data["name"])
        if new == old:
            return f"{_name(res)} stays at {new} ({'already full' if new else 'already empty'})"
        sign = "+" if new > old else "−"
        return f"{sign}{_plural(abs(new - old), res)} ({old} → {new})"
    if kind == "pay":
        return f"paid {_plural(int(data['old']) - int(data['new']), str(data['name']))}"
    if kind == "suit_breach":
        return "spacesuit breached: −1 health, the spacesuit goes back to 1"
    if kind in ("item_gained", "discovery", "discovery_none", "discovery_discarded", "narrative_added",
                "choice_skipped", "traded", "trader_pass", "trader_nothing"):
        return {"item_gained": "gained the Thoth item {}", "discovery": "drew the discovery card {}",
                "narrative_added": "a new narrative discovery: {}",
                "discovery_discarded": "discarded the discovery card {}"}.get(kind, "{}").format(_tail(kind, text))
    if kind == "notoriety":
        return f"+{data['n']} notoriety points" + (" (straight to the bank)" if data.get("bank") else "")
    if kind == "option":
        return f"you chose {text[len('You chose '):]}" if text.startswith("You chose ") else text
    if kind == "dice" and data.get("dice_kind") == "script":
        values = list(data.get("values") or [])
        return "rolled " + " and ".join(str(v) for v in values)
    if kind == "game_ended":
        return f"the game ends: {data.get('outcome')} ({reason_words(str(data.get('reason', '')))})"
    if kind == "partner_sent":
        return text
    return None


def _tail(kind: str, text: str) -> str:
    """The name at the end of an event text (``Drew the discovery card X`` → ``X``), or the whole text
    made to start a page's line (``No trade`` → ``no trade``)."""
    for head in ("Gained ", "Drew the discovery card ", "A new narrative discovery: ", "Discarded "):
        if text.startswith(head) and kind != "choice_skipped":
            return text[len(head):].split(" (", 1)[0]
    return text[:1].lower() + text[1:]


def reason_words(reason: str) -> str:
    """Why a game ended, in words: ``reason_words("health+ship") == "health and ship at 0"``."""
    return {"health": "health at 0", "ship": "ship at 0", "health+ship": "health and ship at 0",
            "fuel": "out of fuel", "script": "the story", "conceded": "conceded",
            "journeys": "no journeys left"}.get(reason, reason)


def flag_line(op: Mapping[str, Any], now: int | None) -> str:
    name = str(op["name"]).removeprefix("game.").replace("_", " ")
    if "clear" in op:
        return f"story mark “{name}” cleared"
    if "set" in op:
        return f"story mark “{name}” set to {op['set']}"
    return f"story mark “{name}” {'+' if op['add'] >= 0 else ''}{op['add']} (now {now})"


def check_line(check: Mapping[str, Any]) -> str:
    """A danger card's check in words: the dice, the arrow, the gauge, its threshold and the result."""
    white, black = check["white"], check["black"]
    dice = f"dice white {white}, black {black}"
    if check["result"] == "cancelled":
        return f"{dice}: a double, the encounter is cancelled"
    arrow = f"{dice}: the {check['arrow']} arrow"
    if check.get("gauge") is None:
        return f"{arrow} (no check): its effects apply"
    gauge, value, lt = _name(str(check["gauge"])), check["value"], check["threshold"]
    if check["result"] == "passed":
        return f"{arrow}; check {gauge} {value}, at least {lt} needed: passed, no effect"
    return f"{arrow}; check {gauge} {value}, at least {lt} needed: failed, its effects apply"
