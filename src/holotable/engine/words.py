"""Small helpers for the words a player reads (log lines, refusals): counts in plain English.

"1 coin", "2 coins", never "coin(s)": every game's texts go through these, so none reads like a form.
"""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word`` in the right number: ``plural(1, "coin") == "1 coin"``, ``plural(2, "coin") ==
    "2 coins"``; ``many`` for an irregular plural (``plural(2, "copy", "copies")``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def times(n: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
