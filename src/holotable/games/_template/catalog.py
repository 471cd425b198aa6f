"""Last Pebble's component catalog (the ``cards`` role): what the table page may label, built from
the table's own configuration.

>>> from .rules import SPEC
>>> catalog(SPEC.make_config(2, pile=7))
{'pebbles': 7, 'takes': ['take 1', 'take 2']}
"""

from __future__ import annotations

from typing import Any

from holotable.engine import Config

from .rules import TAKES


def catalog(config: Config) -> dict[str, Any]:
    return {"pebbles": config["pile"], "takes": list(TAKES)}
