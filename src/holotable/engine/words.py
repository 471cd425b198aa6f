"""Small helpers for the words a player reads (log lines, refusals): counts in plain English.

"1 coin", "2 coins", never "coin(s)": every game's texts go through these, so none reads like a form.
"""

from __future__ import annotations

from collections.abc import Iterable


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word`` in the right number: ``plural(1, "coin") == "1 coin"``, ``plural(2, "coin") ==
    "2 coins"``; ``many`` for an irregular plural (``plural(2, "copy", "copies")``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def times(n: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def seat_name(seat: int) -> str:
    """A seat as the players call it: numbered from 1 (``seat_name(0) == "Seat 1"``). Seats are numbered
    from 0 in the API, in views and in scenario files; every text a player reads goes through this."""
    return f"Seat {seat + 1}"


def seat_list(seats: Iterable[int]) -> str:
    """Several seats as the players call them: ``"Seat 2"``, ``"Seats 1 and 3"``, ``"Seats 1, 2 and 4"``."""
    numbers = [str(s + 1) for s in seats]
    if len(numbers) == 1:
        return f"Seat {numbers[0]}"
    if not numbers:
        return "no seat"
    return f"Seats {', '.join(numbers[:-1])} and {numbers[-1]}"
