"""Captain Black's only player action: draw ``k`` coins from the bag (CB-DIG-01)."""

from __future__ import annotations

import re
from typing import NamedTuple

from holotable.engine.errors import MalformedActionError

MAX_COINS = 200  # large enough for any data file; the action space is sized per config


class Draw(NamedTuple):
    """Draw ``k`` coins at once. Text form ``"draw 3"``; integer index ``k - 1``."""

    k: int

    def __str__(self) -> str:
        return f"draw {self.k}"


#: Draw objects are interned so that listing legal actions allocates nothing.
DRAWS: tuple[Draw, ...] = tuple(Draw(k) for k in range(MAX_COINS + 1))

# ASCII digits, at most 9 of them: int() refuses (ValueError) numbers over 4300 digits.
_PATTERN = re.compile(r"\s*(?:draw\s+)?([0-9]{1,9})\s*", re.IGNORECASE | re.ASCII)


def parse(text: str) -> Draw:
    """``"draw 3"`` (or just ``"3"``) -> ``Draw(3)``.

    >>> parse("draw 3")
    Draw(k=3)
    >>> str(parse(" 12 "))
    'draw 12'
    """
    m = _PATTERN.fullmatch(text)
    if not m:
        raise MalformedActionError(f"cannot read {text!r} as a Captain Black action; try 'draw 3'")
    k = int(m.group(1))
    if k > MAX_COINS:
        raise MalformedActionError(f"cannot draw {k} coins: there are never that many")
    return DRAWS[k]
