"""Where a storm may go now, sampled on a grid for the page to shade (issue 19, point 1).

Each sample is asked of the storm decision's own ``check`` (never a copy of the rule), so the shaded
area follows the rules when they change (for instance the storm refused over every other ship).
The area is sampled, not exact: a point between two legal samples may still be refused, which the
page's snap (to the nearest legal sample) avoids.
"""

from __future__ import annotations

from typing import Any

from holotable.engine import IllegalActionError, State

from .actions import SPAction
from .decisions import PlaceStorm

#: grid step in cm: fine enough to follow a ship's outline (radius 1.5 cm), small enough to send
STEP = 2.0


def storm_area(state: State[Any, Any], step: float = STEP) -> dict[str, Any] | None:
    """The legal storm positions on a ``step`` cm grid while a storm is being placed, else ``None``."""
    game: Any = state.game
    dec = game.decision(state)
    if not isinstance(dec, PlaceStorm):
        return None
    W, H = state.data.layout.W, state.data.layout.H
    points: list[list[float]] = []
    nx, ny = int(W // step), int(H // step)
    for i in range(nx + 1):
        for j in range(ny + 1):
            x, y = round(i * step, 2), round(j * step, 2)
            try:
                dec.check(state, SPAction("storm", x, y))
            except IllegalActionError:
                continue
            points.append([x, y])
    return {"kind": "storm", "seat": dec.seat, "step": step, "points": points}
