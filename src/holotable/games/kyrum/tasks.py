"""Kyrum's pending work on :mod:`holotable.engine.tasks` (KYR-TLDP-01): the base types and the saved form.

Work that may stop for the player (a script, an encounter, the end-of-game steps) is a stack of
tasks in ``KyrumData.tasks``; the task types live with their area (:mod:`.script`,
:mod:`.exploration`, :mod:`.encounters`, :mod:`.discoveries`, :mod:`.ending`) and the decisions in
:mod:`.decisions`. A decision, when one is pending, is always the top of the stack.

The saved form (``full()``, the state's fingerprint, scenario files) is the one of the stack of
dicts this replaced: ``todo`` lists the tasks bottom first as ``{"t": kind, field: value}`` and
``decision`` is the pending decision's dict or ``None``.

>>> from .decisions import Offer
>>> from .exploration import Explored
>>> from holotable.engine.tasks import TaskStack
>>> saved_form(TaskStack([Explored(), Offer("A.10.08")]))
([{'t': 'explored'}], {'kind': 'offer', 'code': 'A.10.08'})
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, ClassVar

from holotable.engine.tasks import Decision, Task, TaskStack

if TYPE_CHECKING:
    from .mechanics import Table  # noqa: F401 (named in the type arguments below)

#: What Kyrum's tasks and decisions are run and answered with.
Stack = TaskStack["Table"]


class KyrumTask(Task["Table"]):
    """A task that runs by itself; ``t`` is its kind in the saved form."""

    __slots__ = ()
    t: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t}
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = getattr(self, f.name)
        return out


class KyrumDecision(Decision["Table"]):
    """A decision; ``kind`` is the name views, bots and the encoder know it by."""

    __slots__ = ()
    kind: ClassVar[str] = ""

    def as_dict(self) -> dict[str, Any]:
        """``{"kind": ..., field: value, ...}``, lists for tuples: the form it was saved and shown in."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    def to_json(self) -> dict[str, Any]:
        return self.as_dict()


def pending(stack: Stack) -> KyrumDecision | None:
    """The decision waiting for the player, if any (it is the top of the stack)."""
    top = stack.top
    return top if top is not None and top.asks else None  # type: ignore[return-value]


def saved_form(stack: Stack) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """``(todo, decision)`` as saved: the tasks bottom first, the script frames without their op lists."""
    items = list(stack)[::-1]  # bottom first
    decision = items.pop().as_dict() if items and items[-1].asks else None  # type: ignore[attr-defined]
    if decision is not None:
        decision.pop("ops", None)
    todo = []
    for task in items:
        rec = task.to_json()
        rec.pop("ops", None)
        todo.append(rec)
    return todo, decision
