"""What a table page needs to know about a game's components beyond the seat's view: its catalog.

A Black Hole Buccaneers view lists hand cards by id only; a Space Pirates page needs the energy cards'
symbols and the table's sizes. The page asks the server once per table (``GET /api/tables/{id}/catalog``).
A game offers one by naming ``fn(config) -> dict`` as the ``cards`` role of its manifest; the catalog is
built from the data that table plays with (the shipped files plus the table's data overrides,
``config.data``), never from a copy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from holotable.engine import Config, registry

_cache: dict[tuple[str, Any], dict[str, Any]] = {}


def catalog(game: str, config: Config) -> dict[str, Any]:
    """The catalog of a table of ``game`` (its registered name) played with ``config``; ``{}`` if none is needed.

    Built once per game and data overrides, then shared (treat the result as read-only).

    >>> import holotable
    >>> catalog("captain-black", holotable.load("captain-black").spec.make_config(3))
    {}
    >>> catalog("buccaneers", holotable.load("buccaneers").spec.make_config(4))["cards"]["TOY-4-6"]["stats"]
    [[4, 6]]
    """
    build: Callable[[Config], dict[str, Any]] | None = registry.offered(game, "cards")
    if build is None:
        return {}
    key = (game, config.data)
    if key not in _cache:
        _cache[key] = build(config)
    return _cache[key]
