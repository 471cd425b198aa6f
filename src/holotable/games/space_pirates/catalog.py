"""The Space Pirates table page's catalog (the ``cards`` role of the manifest): the energy cards (value,
symbols), sizes and dexterity noise of a table's configuration, all public component data.

>>> import holotable
>>> c = catalog(holotable.load("space-pirates").spec.make_config(2))
>>> len(c["cards"]), c["cards"]["E3-2"]["value"], c["sizes"]["token_radius"]
(36, 3, 1.25)
"""

from __future__ import annotations

from typing import Any

from holotable.engine import Config

from . import words
from .data import content_for


def catalog(config: Config) -> dict[str, Any]:
    """The energy cards, sizes and noise of ``config`` (the page draws with them)."""
    content = content_for(config)
    c = content.constants
    return {
        "cards": {e.id: {"value": e.value, "symbols": list(e.symbols)} for e in content.energy},
        "sizes": {"ruler_length": c.ruler_length, "ruler_width": c.ruler_width,
                  "token_radius": c.token_radius, "ship_radius": c.ship_radius,
                  "storm_radius": c.storm_radius},
        "dexterity": {k: list(v) for k, v in c.dexterity.items()},
        "d_max": float(c.physics["d_max"]),
        "victory": c.victory_standard,
        "adventure_names": dict(words.ADVENTURES),  # the page names them as the log does
    }
