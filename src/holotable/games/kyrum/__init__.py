"""Black Hole: Kyrum: a solo exploration campaign, driven by a content pack (spec ``KYR``).

>>> import holotable
>>> game = holotable.load("kyrum")
>>> game.spec.min_players, game.spec.max_players
(1, 1)
>>> str(game.parse_action("craft common fuel"))
'craft common fuel'
"""

from holotable.engine import register

from .actions import KAction
from .rules import SPEC, Kyrum

GAME = register(Kyrum(), "black-hole-kyrum", "bhk")

__all__ = ["GAME", "SPEC", "KAction", "Kyrum"]
