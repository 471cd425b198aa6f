"""Kyrum's mechanics (spec §3), one module per area, around one small context, the :class:`Table`.

A :class:`Table` wraps one game's data with its pack, RNG, options and log; the areas are functions
of it: :mod:`.gauges` (chance, gauges, items), :mod:`.predicates` (spec §6.6 conditions),
:mod:`.script` (the task loop and the script interpreter, choices), :mod:`.discoveries`
(discoveries, narratives, study), :mod:`.exploration` (areas, distance dice, crafting, exploring),
:mod:`.encounters` (encounters, the trader) and :mod:`.ending` (validation, notoriety, the
end-of-game procedure). Work that may stop for a player decision is a stack of tasks
(``data.tasks``, :mod:`.tasks`) run by :func:`.script.run` until a decision is needed or nothing is
left (a TLDP, KYR-TLDP-01). That makes scripts resumable (spec §4.2): a frame is (source label, op
list, next index).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from holotable.engine import Rng

from .pack import Pack
from .state import KyrumData
from .tasks import Stack

if TYPE_CHECKING:
    from holotable.engine import State

Emit = Callable[..., None]


class Table:
    """One game's data with what acting on it needs. Cheap to build per call."""

    __slots__ = ("d", "emit", "opt", "pack", "reveal", "rng", "st")

    def __init__(self, data: KyrumData, pack: Pack, rng: Rng, options: Any, emit: Emit,
                 reveal: Callable[[], None] = lambda: None, state: State[KyrumData, Any] | None = None) -> None:
        self.d = data
        self.pack = pack
        self.rng = rng
        self.opt = options
        self.emit = emit
        #: ``State.reveal``: the player just read or drew something hidden (a script, a card), or a
        #: message left for the partner, so the action cannot be taken back.
        self.reveal = reveal
        #: The engine state, whose scripted chance (a scenario's ``chance``) comes before the RNG.
        self.st = state

    @property
    def stack(self) -> Stack:
        """The pending work (``data.tasks``)."""
        return self.d.tasks
