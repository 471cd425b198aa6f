"""Last Pebble in the terminal (the ``terminal`` role): the pile as a row of pebbles.

>>> render({"pile": 3, "turn": 0}).plain
'Pebbles: ● ● ● (3)'
"""

from __future__ import annotations

from typing import Any

from rich.text import Text


def render(view: dict[str, Any]) -> Text:
    pile = view["pile"]
    return Text(f"Pebbles: {' '.join('●' * pile)} ({pile})")
