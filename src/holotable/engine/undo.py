"""Taking an action back: one policy for every table (terminal, hot-seat and browser).

The policy follows Board Game Arena's: a seat may take back its own last actions, one at a
time, until one of them drew on chance (a draw, a shuffle, a die, a flick's noise), revealed
hidden information, or another seat (or the table's clock) acted after it. A sealed choice may
be changed until the last seat commits, and never once any result is known. Nobody takes back
another seat's action. A refusal says why in plain words.

The engine cannot ask a player afterwards what an action did, so :func:`play` records it as
the action is applied, in a :class:`Step`: whether the RNG moved (chance), whether the rules
called :meth:`State.reveal <holotable.engine.state.State.reveal>`, whether the action was held
as a sealed choice and whether it completed one. Whoever keeps a table's log (a
:class:`~holotable.engine.match.Match`, the server's live table) keeps the steps beside it
and asks :func:`undo_target` which step a seat may take back; removing it and replaying the
rest rebuilds the position exactly (the RNG replays with the log).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import IllegalActionError
from .state import State


class UndoRefusedError(IllegalActionError):
    """The seat may not take back an action now; ``reason`` says why."""


@dataclass(frozen=True, slots=True)
class Step:
    """One accepted action and what it did that matters for taking it back."""

    seat: int
    #: The action's text form (what a log stores).
    text: str
    #: Played by the table on the seat's behalf (a clock's deadline, a timeout), not by the seat.
    by_table: bool = False
    #: The RNG moved while the action was carried out: a draw, a shuffle, a die, a flick's noise.
    chance: bool = False
    #: The rules showed someone hidden information (:meth:`State.reveal`).
    revealed: bool = False
    #: The action was held by the engine as a sealed choice (the others had not all chosen).
    sealed: bool = False
    #: The action was the last sealed choice of a decision: every choice was carried out together.
    resolved: bool = False


def play(state: State[Any, Any], action: object, seat: int | None = None, *, by_table: bool = False) -> Step:
    """Check and apply ``action`` exactly as :meth:`State.apply` does, and describe the step.

    A refused action raises the engine's error and changes nothing. Comparing the RNG's
    state before and after is exact and costs one copy of it, which is why simulations
    and search call :meth:`State.apply` directly and only tables record steps.
    """
    if seat is None:
        seat = state._only_seat()
    act = state._coerce(action)
    rng_before = state.rng.getstate()
    reveals_before = state.reveals
    pending_before = len(state.pending)
    state.apply(act, seat)
    sealed = seat in state.pending
    return Step(
        seat=seat,
        text=state.game.action_to_str(act),
        by_table=by_table,
        chance=state.rng.getstate() != rng_before,
        revealed=state.reveals != reveals_before,
        sealed=sealed,
        resolved=pending_before > 0 and not sealed,
    )


def undo_target(steps: Sequence[Step], pending: Mapping[int, Any], terminal: bool, seat: int) -> int:
    """The index in ``steps`` of the action ``seat`` may take back now.

    ``pending`` is the state's sealed choices (``state.pending``) and ``terminal`` whether the
    game is over. Raises :class:`UndoRefusedError` with the reason when the seat may not.
    """
    if terminal:
        raise UndoRefusedError("the game is over: its actions stand")
    if seat in pending:
        # A sealed choice nobody else has seen: the seat may change it until the last seat commits.
        for index in range(len(steps) - 1, -1, -1):
            step = steps[index]
            if step.seat == seat and step.sealed and not step.by_table:
                return index
            if step.resolved:
                break
    if not steps:
        raise UndoRefusedError("nothing has been played yet")
    last = steps[-1]
    if last.seat != seat or last.by_table:
        if not any(step.seat == seat and not step.by_table for step in steps):
            raise UndoRefusedError("you have not played anything to take back")
        if last.by_table:
            raise UndoRefusedError("the table's clock has played since your last action")
        raise UndoRefusedError("another player has acted since your last action")
    if last.resolved:
        raise UndoRefusedError(f"'{last.text}' revealed everyone's sealed choices")
    if last.chance:
        raise UndoRefusedError(f"'{last.text}' drew on chance (a draw, a shuffle, a die or a flick's noise)")
    if last.revealed:
        raise UndoRefusedError(f"'{last.text}' revealed hidden information")
    return len(steps) - 1


def refusal(steps: Sequence[Step], state: State[Any, Any], seat: int) -> str | None:
    """Why ``seat`` may not take an action back now, or ``None`` when it may (for a page's Undo button)."""
    try:
        undo_target(steps, state.pending, state.is_terminal(), seat)
    except UndoRefusedError as exc:
        return exc.reason
    return None
