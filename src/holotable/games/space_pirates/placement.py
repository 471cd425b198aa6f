"""Where a storm or a new transport may go now, sampled on a grid for the page to shade (issue 19, point 1).

Each sample is asked of the decision's own ``check`` (never a copy of the rule), so the shaded area
follows the rules when they change (for instance the storm refused over every other ship, a set-up
transport at least one ruler from everything). The area is sampled, not exact: a point between two
legal samples may still be refused, which the page's snap (to the nearest legal sample) avoids.
"""

from __future__ import annotations

from typing import Any

from holotable.engine import IllegalActionError, State

from .actions import SPAction
from .decisions import Place, PlaceStorm

#: grid step in cm: fine enough to follow a ship's outline (radius 1.5 cm), small enough to send
STEP = 2.0


def _sample(state: State[Any, Any], dec: Any, verb: str, step: float) -> list[list[float]]:
    """The grid's legal samples, then the decision's own legal points not on the grid (the actions
    offered as buttons, which a click on them must send unchanged)."""
    W, H = state.data.layout.W, state.data.layout.H
    points: list[list[float]] = []
    nx, ny = int(W // step), int(H // step)
    for i in range(nx + 1):
        for j in range(ny + 1):
            x, y = round(i * step, 2), round(j * step, 2)
            try:
                dec.check(state, SPAction(verb, x, y))
            except IllegalActionError:
                continue
            points.append([x, y])
    seen = {(p[0], p[1]) for p in points}
    for a in dec.legal(state):
        q = (round(float(a.a or 0.0), 2), round(float(a.b or 0.0), 2))
        if q not in seen:
            seen.add(q)
            points.append([q[0], q[1]])
    return points


def storm_area(state: State[Any, Any], step: float = STEP) -> dict[str, Any] | None:
    """The legal storm positions on a ``step`` cm grid while a storm is being placed, else ``None``."""
    game: Any = state.game
    dec = game.decision(state)
    if not isinstance(dec, PlaceStorm):
        return None
    return {"kind": "storm", "seat": dec.seat, "step": step, "points": _sample(state, dec, "storm", step)}


def place_area(state: State[Any, Any], step: float = STEP) -> dict[str, Any] | None:
    """The legal spots for the drawn transport on a ``step`` cm grid while one is being placed, else ``None``.

    The decision's own legal points come too: on a crowded table the rules fall back to a finer grid or
    to the single spot of greatest clearance (SP-AMB-18), which the grid may miss.
    """
    game: Any = state.game
    dec = game.decision(state)
    if not isinstance(dec, Place):
        return None
    points = _sample(state, dec, "place", step)
    return {"kind": "place", "seat": dec.seat, "tid": dec.tid, "step": step, "points": points}


def legal_area(state: State[Any, Any], step: float = STEP) -> dict[str, Any] | None:
    """The area the page shades for the decision now: the storm's or the new transport's, else ``None``."""
    return storm_area(state, step) or place_area(state, step)
