"""Kyrum's player actions: one small value type with a readable text form and a stable integer index.

Every choice the rules give the player is an action (spec §4.2). Cards and items are named by their
position in the content pack (``d1``..``d15`` discoveries in pack order, ``t1``.. Thoth items, ``n1``..
the active narrative discoveries in campaign order), so the index space is the same for every pack.

>>> a = parse("study d1 common 2")
>>> a
KAction(verb='study', args=('d1', 'common', '2'))
>>> str(a), parse(str(a)) == a, index_action(action_index(a)) == a
('study d1 common 2', True, True)
"""

from __future__ import annotations

from typing import NamedTuple

from holotable.engine.errors import MalformedActionError

from .pack import ELEMENTS, GAUGES, MAX_ITEMS, MAX_NARRATIVES, MAX_OPTIONS

SLOTS = 4
DISCOVERIES = 15
NARRATIVE_ELEMENTS = (*ELEMENTS, "any")
MAX_STUDY = 6
MAX_MESSAGE = 500


class KAction(NamedTuple):
    """``verb`` plus its arguments; the text form is the words joined by spaces."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))


def _a(verb: str, *args: object) -> KAction:
    return KAction(verb, tuple(str(x) for x in args))


def _universe() -> list[KAction]:
    out: list[KAction] = [_a("explore", s) for s in range(SLOTS)]
    for el in ELEMENTS:
        out += [_a("craft", el, g) for g in GAUGES]
        out += [_a("craft", el, d, s) for d in ("reroll", "set1") for s in range(SLOTS)]
    for k in range(1, DISCOVERIES + 1):
        out += [_a("study", f"d{k}", el, n) for el in ELEMENTS for n in range(1, MAX_STUDY + 1)]
    for k in range(1, MAX_NARRATIVES + 1):
        out += [_a("study", f"n{k}", el, n) for el in ELEMENTS for n in range(1, MAX_STUDY + 1)]
    for t in range(1, MAX_ITEMS + 1):
        item = f"t{t}"
        out.append(_a("use", item))
        out += [_a("use", item, v) for v in range(1, 7)]
        out += [_a("use", item, d) for d in ("white", "black")]
        out += [_a("use", item, f"d{k}", el) for k in range(1, DISCOVERIES + 1) for el in ELEMENTS]
        out += [_a("use", item, f"n{k}", el) for k in range(1, MAX_NARRATIVES + 1) for el in NARRATIVE_ELEMENTS]
        out.append(_a("buy", item))
    out += [_a(v) for v in ("validate", "leave", "concede", "read", "refuse", "skip", "pass", "close", "roll",
                            "send")]
    out += [_a("option", i) for i in range(1, MAX_OPTIONS + 1)]
    out += [_a("trade", "a", f"d{k}") for k in range(1, DISCOVERIES + 1)]
    out += [_a("trade", "b", f"d{k}") for k in range(1, DISCOVERIES + 1)]
    out += [_a("trade", "c", f"d{i}", f"d{j}")
            for i in range(1, DISCOVERIES + 1) for j in range(i + 1, DISCOVERIES + 1)]
    out += [_a("discard", f"d{k}") for k in range(1, DISCOVERIES + 1)]
    return out


UNIVERSE: tuple[KAction, ...] = tuple(_universe())
INDEX: dict[KAction, int] = {a: i for i, a in enumerate(UNIVERSE)}
SEND = KAction("send", ())


def action_index(action: KAction) -> int:
    """The stable index; every ``send`` (whatever its message) shares one index."""
    if action.verb == "send":
        return INDEX[SEND]
    return INDEX[action]


def index_action(index: int) -> KAction:
    return UNIVERSE[index]


def parse(text: str) -> KAction:
    """Read an action's text form; :class:`MalformedActionError` if it is not one."""
    if not isinstance(text, str):
        raise MalformedActionError(f"{text!r} is not Kyrum action text")
    stripped = text.strip()
    if stripped.lower().startswith("send"):
        rest = stripped[4:]
        if rest and not rest[0].isspace():
            raise MalformedActionError(f"cannot read {text!r} as a Kyrum action")
        message = rest.strip()
        problem = message_problem(KAction("send", (message,) if message else ()))
        if problem is not None:
            raise MalformedActionError(problem)
        return KAction("send", (message,) if message else ())
    words = stripped.lower().split()
    action = KAction(words[0], tuple(words[1:])) if words else None
    if action is None or action not in INDEX:
        raise MalformedActionError(
            f"cannot read {text!r} as a Kyrum action; e.g. 'explore 0', 'craft common fuel', "
            "'study d1 common 1', 'validate', 'leave', 'read', 'refuse', 'option 1'"
        )
    return UNIVERSE[INDEX[action]]


def message_problem(action: KAction) -> str | None:
    """Why a ``send`` action breaks the partner message rule (KYR-AMB-19): one line of at most
    :data:`MAX_MESSAGE` characters, or none. The text form and an action object are held to the same
    rule (``check`` asks this for objects, :func:`parse` for text)."""
    rule = f"a partner message is one line of at most {MAX_MESSAGE} characters"
    if len(action.args) > 1 or not all(isinstance(a, str) for a in action.args):
        return rule
    message = action.args[0] if action.args else ""
    if message != message.strip() or (action.args and not message):
        return f"{rule}, without spaces around it"
    if len(message) > MAX_MESSAGE or any(ch in message for ch in "\r\n\x00") or not message.isprintable():
        return rule
    return None


def is_action(obj: object) -> bool:
    return isinstance(obj, KAction) and (obj in INDEX or obj.verb == "send")
