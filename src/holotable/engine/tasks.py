"""Multi-step decisions: one stack of typed tasks, the same in every game (cf. TAG's ``IExtendedSequence``).

Much of a turn is work that may stop half-way for a player's choice: a card's effect asks which
group, a collision asks who pays first, a script asks which answer. A game keeps that pending work
as a :class:`TaskStack` in its data. Each entry is a :class:`Task`, a small typed value (a
dataclass) that knows how to carry itself out; a :class:`Decision` is a task that waits for a
seat's action instead. :func:`run_tasks` carries out tasks from the top until a decision is on
top or nothing is left, and the game's ``to_move`` / ``legal_actions`` / ``apply`` read and answer
that decision.

Tasks are values: a task that changes is replaced (:meth:`TaskStack.replace_top`), never edited in
place, so copying a state copies only the list (states are cloned thousands of times a second by
search bots). Every task turns into plain JSON (:meth:`Task.to_json`) for ``Game.full``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Count(Task[list[str]]):
...     n: int
...     def run(self, ctx: list[str], stack: TaskStack[list[str]]) -> None:
...         ctx.append(f"count {self.n}")
...         if self.n > 1:
...             stack.push(Count(self.n - 1))
>>> @dataclass(frozen=True, slots=True)
... class Ask(Decision[list[str]]):
...     seat: int
>>> log: list[str] = []
>>> stack = TaskStack[list[str]]([Ask(0)])  # the bottom: asked once the counting is done
>>> stack.push(Count(2))
>>> run_tasks(stack, log), log
(Ask(seat=0), ['count 2', 'count 1'])
>>> stack.to_json()
[{'task': 'Ask', 'seat': 0}]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ClassVar, Generic, TypeVar

C = TypeVar("C")  # what a game's tasks work on: its state, or a context around it


class Task(Generic[C]):
    """A piece of pending work. Subclasses are (frozen) dataclasses and implement :meth:`run`."""

    __slots__ = ()

    #: Whether the task waits for a seat's action (the runner stops at it) instead of running.
    asks: ClassVar[bool] = False

    def run(self, ctx: C, stack: TaskStack[C]) -> None:
        """Carry the task out (it has been popped already); push whatever must follow."""
        raise NotImplementedError(f"{type(self).__name__} does not run by itself")

    def to_json(self) -> dict[str, Any]:
        """The task as plain data: its type's name and its fields."""
        out: dict[str, Any] = {"task": type(self).__name__}
        kind: Any = type(self)  # a task type is a dataclass (a plain subclass just has no fields)
        for f in dataclasses.fields(kind) if dataclasses.is_dataclass(kind) else ():
            out[f.name] = _plain(getattr(self, f.name))
        return out


class Decision(Task[C]):
    """A task that waits for a seat's action. The game answers it (pops or replaces it) in ``apply``."""

    __slots__ = ()
    asks: ClassVar[bool] = True


T = TypeVar("T", bound=Task[Any])


class TaskStack(Generic[C]):
    """The pending work of one game: the top runs first.

    ``push`` puts work on top (it runs next, before everything already pending); ``defer`` puts it at
    the bottom (it runs after everything already pending), which is how a game keeps a queue.
    """

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Task[C]] = ()) -> None:
        # bottom first, top last
        self._items: list[Task[C]] = list(items)

    # ------------------------------------------------------------------ changing it
    def push(self, *tasks: Task[C]) -> None:
        """Put ``tasks`` on top, the first one given on the very top (it runs first)."""
        if len(tasks) == 1:  # the common case, on every game's hot path
            self._items.append(tasks[0])
        else:
            self._items.extend(reversed(tasks))

    def defer(self, *tasks: Task[C]) -> None:
        """Put ``tasks`` at the bottom, in the order given (they run after all pending work)."""
        self._items[:0] = reversed(tasks)

    def pop(self) -> Task[C]:
        return self._items.pop()

    def replace_top(self, task: Task[C]) -> None:
        self._items[-1] = task

    def clear(self) -> None:
        self._items.clear()

    # ------------------------------------------------------------------ reading it
    @property
    def top(self) -> Task[C] | None:
        return self._items[-1] if self._items else None

    def __bool__(self) -> bool:
        return bool(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Task[C]]:
        """From the top (next to run) down."""
        return reversed(self._items)

    def of_type(self, kind: type[T]) -> list[T]:
        """The pending tasks of type ``kind``, top first."""
        return [t for t in reversed(self._items) if isinstance(t, kind)]

    def copy(self) -> TaskStack[C]:
        """An independent stack (the tasks, being values, are shared)."""
        return TaskStack(self._items)

    def to_json(self) -> list[dict[str, Any]]:
        """Top first, as plain data."""
        return [t.to_json() for t in reversed(self._items)]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TaskStack) and self._items == other._items

    def __repr__(self) -> str:
        return f"TaskStack({list(reversed(self._items))!r})"


def run_tasks(stack: TaskStack[C], ctx: C, *, stop: Callable[[], bool] | None = None) -> Decision[C] | None:
    """Carry out tasks from the top until a decision is on top (returned) or nothing is left (``None``).

    ``stop`` is asked before each task: a true answer (the game just ended) stops the run at once.
    """
    items = stack._items  # the hot loop of every game: read the list directly
    while items:
        if stop is not None and stop():
            return None
        task = items[-1]
        if task.asks:
            return task  # type: ignore[return-value]
        items.pop()
        task.run(ctx, stack)
    return None


def _plain(value: Any) -> Any:
    if isinstance(value, Task):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value
