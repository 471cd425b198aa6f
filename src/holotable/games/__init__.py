"""The games. ``holotable.games`` is itself the list of registered games.

>>> import holotable
>>> "captain-black" in holotable.games
True
>>> holotable.games["captain-black"].title
'Captain Black'
>>> ('captain-black', 2, 4) in [(s.name, s.min_players, s.max_players) for s in holotable.games]
True

Each game lives in a sub-package with the same files: ``__init__.py`` (its ``MANIFEST``,
what it offers: see :mod:`holotable.engine.manifest`), ``rules.py`` (the
:class:`~holotable.engine.Game` subclass), ``state.py`` (its plain data),
``actions.py``, ``view.py`` (per-seat views and determinisation), ``data.py`` with
``data/`` (components and ASSUMED values as files) and one module per other role (``bots.py``,
``encoding.py``, ``simulation.py``, ``terminal.py``...). ``_template`` is a copyable one, not registered.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

from holotable.engine import registry
from holotable.engine.spec import GameSpec


class _GamesModule(types.ModuleType):
    """Lets the package double as a read-only collection of game specs."""

    def __iter__(self) -> Iterator[GameSpec]:
        return iter(registry.specs())

    def __len__(self) -> int:
        return len(registry.names())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in registry.names()

    def __getitem__(self, name: str) -> GameSpec:
        return registry.load(name).spec

    def __call__(self) -> list[GameSpec]:
        return registry.specs()


def available() -> list[GameSpec]:
    """The specs of every registered game, sorted by name."""
    return registry.specs()


sys.modules[__name__].__class__ = _GamesModule
