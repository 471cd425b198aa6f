"""What Space Pirates' pending work is made of: the flow context and the two kinds of task.

Pending work is a :class:`~holotable.engine.tasks.TaskStack` in ``SPData.stack``. Its entries are
small frozen dataclasses: automatic tasks (:class:`SPTask`, in ``flow.py``) carry themselves out,
decisions (:class:`SPDecision`, in ``decisions.py``) wait for a seat's action and know their legal
actions, how to check one and how to apply it. Each has a ``kind``: the name the view, the log of
a scenario (``data.stack.-1.kind``) and the bots know it by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from holotable.engine.tasks import Decision, Task

from .data import Content
from .state import SPData

if TYPE_CHECKING:
    from holotable.engine import Rng, State

    from .actions import SPAction


class Ctx:
    """What the flow needs besides the data: content, config values, the RNG and the log."""

    def __init__(self, st: State[SPData, SPAction], content: Content) -> None:
        self.st = st
        self.d: SPData = st.data
        self.rng: Rng = st.rng
        self.content = content
        self.c = content.constants
        self.cfg = st.config

    def reveal(self) -> None:
        """Someone just learnt a hidden face (a token, a card, a market): see ``State.reveal``."""
        self.st.reveal()

    def emit(self, kind: str, text: str, to: int | None = None, **data: Any) -> None:
        if self.st.events is not None:
            self.st.emit(kind, text, to=None if to is None else frozenset((to,)), **data)


class _Named:
    """The plain form shared by both kinds of task: the fields in order, then the kind."""

    __slots__ = ()
    kind: ClassVar[str]
    #: Fields left out of the plain form while false: the task dicts these replaced had them only when set.
    optional: ClassVar[frozenset[str]] = frozenset()
    __match_args__: ClassVar[tuple[str, ...]]  # the dataclass's field names, in order

    def items(self) -> list[tuple[str, Any]]:
        """The fields (tasks inside as their fields only), then ``kind``: the order the full state shows."""
        out = [(name, getattr(self, name)) for name in self.__match_args__
               if name not in self.optional or getattr(self, name)]
        out.append(("kind", self.kind))
        return out

    def as_dict(self) -> dict[str, Any]:
        return dict(self.items())

    def plain(self) -> dict[str, Any]:
        """JSON-ready, for ``Game.full`` and scenario expectations."""
        return {k: _jsonable(v) for k, v in self.items()}


class SPTask(_Named, Task[Ctx]):
    """Work the flow carries out by itself (:meth:`run`)."""

    __slots__ = ()


class SPDecision(_Named, Decision[Ctx]):
    """A choice ``seat`` must make: its legal actions, their check and their effect."""

    __slots__ = ()
    seat: int

    def legal(self, st: State[SPData, SPAction]) -> list[SPAction]:
        raise NotImplementedError

    def check(self, st: State[SPData, SPAction], a: SPAction) -> None:
        """Raise :class:`~holotable.engine.IllegalActionError` unless ``a`` answers this decision."""
        raise NotImplementedError

    def apply(self, ctx: Ctx, a: SPAction) -> None:
        """Carry out ``a`` (the decision has been popped already); push whatever must follow."""
        raise NotImplementedError


def _jsonable(v: Any) -> Any:
    if isinstance(v, _Named):  # a task inside a task (a dock offer's move): its fields only
        return {k: _jsonable(x) for k, x in v.items() if k != "kind"}
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, set | frozenset):
        return sorted(_jsonable(x) for x in v)
    return v
