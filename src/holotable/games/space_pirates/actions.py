"""Space Pirates actions: one hashable type with a verb and up to two arguments.

Continuous arguments (angles, strengths, points) are plain floats; the text form writes them
with ``repr`` so ``parse(str(a)) == a`` exactly. The integer action space covers a discretised
grid (1° angles, strengths in twentieths, points on a 1 cm grid); ``check`` accepts any valid
continuous value, ``legal_actions`` lists a representative finite set drawn from the grid.

>>> a = parse("flick 37.5 0.45")
>>> a
SPAction(verb='flick', a=37.5, b=0.45)
>>> parse(str(a)) == a
True
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from holotable.engine.errors import MalformedActionError

Arg = int | float | str | None


class SPAction(NamedTuple):
    verb: str
    a: Arg = None
    b: Arg = None

    def __str__(self) -> str:
        parts = [self.verb]
        for v in (self.a, self.b):
            if v is None:
                continue
            parts.append(repr(v) if isinstance(v, float) else str(v))
        return " ".join(parts)


#: verb -> argument kinds ("f" float, "i" int, "s" word)
SCHEMA: dict[str, str] = {
    "base": "i", "place": "ff", "flick": "ff", "target": "i", "stay": "", "depart": "", "stop": "",
    "dock": "", "continue": "", "capture": "", "skip": "", "buy": "", "look": "", "done": "",
    "card": "s", "adv": "s", "storm": "ff", "wind": "f", "ruler": "f", "drift": "f", "sell": "i",
    "recharge": "i", "take": "i", "pay": "si", "pick": "i",
}
SINGLE = ("stay", "depart", "stop", "dock", "continue", "capture", "skip", "buy", "look", "done")
SYMBOLS = ("FLICK", "NEW_RIGHT", "NEW_LEFT", "ASTEROID", "STORM", "WIND")
_INT = re.compile(r"[0-9]{1,9}", re.ASCII)
_FLOAT = re.compile(r"[-+]?(?:[0-9]{1,12}(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?", re.ASCII)
_WORD = re.compile(r"[A-Za-z0-9_\-]{1,16}", re.ASCII)


def parse(text: str) -> SPAction:
    if not isinstance(text, str):
        raise MalformedActionError(f"expected text, got {text!r}")
    words = text.split()
    if not words or words[0] not in SCHEMA:
        raise MalformedActionError(f"cannot read {text[:40]!r} as a Space Pirates action; try 'help'")
    verb, kinds = words[0], SCHEMA[words[0]]
    if len(words) - 1 != len(kinds):
        raise MalformedActionError(f"{verb!r} takes {len(kinds)} argument(s)")
    args: list[Arg] = []
    for kind, w in zip(kinds, words[1:], strict=True):
        if kind == "i":
            if not _INT.fullmatch(w):
                raise MalformedActionError(f"{w[:20]!r} is not a whole number")
            args.append(int(w))
        elif kind == "f":
            if not _FLOAT.fullmatch(w):
                raise MalformedActionError(f"{w[:20]!r} is not a number")
            v = float(w)
            if not math.isfinite(v) or abs(v) > 1e6:
                raise MalformedActionError(f"{w[:20]!r} is out of range")
            args.append(v + 0.0)
        else:
            if not _WORD.fullmatch(w):
                raise MalformedActionError(f"{w[:20]!r} is not a valid word")
            args.append(w)
    if verb == "pay" and args[0] not in ("cargo", "card"):
        raise MalformedActionError("pay cargo <tid> or pay card <seat>")
    if verb == "adv" and args[0] not in SYMBOLS:
        raise MalformedActionError(f"adventure symbols are {', '.join(SYMBOLS)}")
    return SPAction(verb, *args)


def is_action(action: object) -> bool:
    if not isinstance(action, SPAction) or action.verb not in SCHEMA:
        return False
    kinds = SCHEMA[action.verb]
    values = [action.a, action.b]
    for i in range(2):
        v = values[i]
        if i >= len(kinds):
            if v is not None:
                return False
            continue
        k = kinds[i]
        if k == "i" and (type(v) is not int or v < 0):
            return False
        if k == "f" and (type(v) is not float or not math.isfinite(v)):
            return False
        if k == "s" and (type(v) is not str or not _WORD.fullmatch(v)):
            return False
    return True


class IndexSpace:
    """The stable integer action space of one configuration (field size in whole cm)."""

    def __init__(self, width: int, height: int, cards: tuple[str, ...], tokens: int = 34, seats: int = 4) -> None:
        self.w, self.h = width, height
        self.cards = cards
        self.card_index = {c: i for i, c in enumerate(cards)}
        self.tokens = tokens
        self.seats = seats
        sizes = [
            ("single", len(SINGLE)), ("base", 5), ("place", (width + 1) * (height + 1)),
            ("storm", (width + 1) * (height + 1)), ("flick", 360 * 20), ("target", tokens),
            ("card", len(cards)), ("adv", len(SYMBOLS)), ("wind", 360), ("ruler", 360), ("drift", 360),
            ("sell", tokens), ("recharge", 10), ("take", 6), ("paycargo", tokens), ("paycard", seats),
            ("pick", 40),
        ]
        self.offset: dict[str, int] = {}
        total = 0
        for name, size in sizes:
            self.offset[name] = total
            total += size
        self.size = total
        self.sizes = dict(sizes)

    def _angle(self, v: Arg) -> int:
        if not isinstance(v, float) or not v.is_integer() or not -180.0 < v <= 180.0:
            raise MalformedActionError(f"angle {v!r} is off the 1-degree grid of the action space")
        return int(v) + 179

    def index(self, a: SPAction) -> int:
        o = self.offset
        v = a.verb
        if v in SINGLE:
            return o["single"] + SINGLE.index(v)
        if v in ("place", "storm"):
            x, y = a.a, a.b
            if not (isinstance(x, float) and isinstance(y, float) and x.is_integer() and y.is_integer()
                    and 0 <= x <= self.w and 0 <= y <= self.h):
                raise MalformedActionError(f"{a} is off the 1 cm grid of the action space")
            return o[v] + int(x) * (self.h + 1) + int(y)
        if v == "flick":
            s = a.b
            k = round(s * 20) if isinstance(s, float) else -1
            if not (1 <= k <= 20 and k / 20 == s):
                raise MalformedActionError(f"{a} is off the strength grid of the action space")
            return o["flick"] + self._angle(a.a) * 20 + (k - 1)
        if v in ("wind", "ruler", "drift"):
            return o[v] + self._angle(a.a)
        if v == "card":
            if a.a not in self.card_index:
                raise MalformedActionError(f"unknown card {a.a!r}")
            return o["card"] + self.card_index[str(a.a)]
        if v == "adv":
            return o["adv"] + SYMBOLS.index(str(a.a))
        if v == "pay":
            key = "paycargo" if a.a == "cargo" else "paycard"
            n = a.b
        else:
            key, n = v, a.a
        if not isinstance(n, int) or not 0 <= n < self.sizes[key]:
            raise MalformedActionError(f"{a} is outside the action space")
        return o[key] + n

    def action(self, index: int) -> SPAction:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size:
            raise MalformedActionError(f"action index must be 0..{self.size - 1}, got {index!r}")
        name = max((k for k, off in self.offset.items() if off <= index), key=lambda k: self.offset[k])
        i = index - self.offset[name]
        if name == "single":
            return SPAction(SINGLE[i])
        if name in ("place", "storm"):
            return SPAction(name, float(i // (self.h + 1)), float(i % (self.h + 1)))
        if name == "flick":
            return SPAction("flick", float(i // 20 - 179), (i % 20 + 1) / 20)
        if name in ("wind", "ruler", "drift"):
            return SPAction(name, float(i - 179))
        if name == "card":
            return SPAction("card", self.cards[i])
        if name == "adv":
            return SPAction("adv", SYMBOLS[i])
        if name == "paycargo":
            return SPAction("pay", "cargo", i)
        if name == "paycard":
            return SPAction("pay", "card", i)
        return SPAction(name, i)
