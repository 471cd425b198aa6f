"""holotable: a digital tabletop for five space-themed board games.

>>> import holotable
>>> [spec.name for spec in holotable.games]
['buccaneers', 'captain-black', 'council', 'kyrum', 'space-pirates']
>>> game = holotable.load("captain-black")
>>> state = game.new_state(players=4, seed=42)
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[0])
>>> len(state.outcome().ranks)
4
"""

from __future__ import annotations

from . import games
from .engine import (
    ActionError,
    Config,
    Game,
    GameSpec,
    HolotableError,
    IllegalActionError,
    MalformedActionError,
    Match,
    Outcome,
    State,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "ActionError",
    "Config",
    "Game",
    "GameSpec",
    "HolotableError",
    "IllegalActionError",
    "MalformedActionError",
    "Match",
    "Outcome",
    "State",
    "__version__",
    "games",
    "load",
]
