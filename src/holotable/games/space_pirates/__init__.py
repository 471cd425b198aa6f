"""Space Pirates: flick transports across a continuous cardboard galaxy, chase them with rulers.

>>> import holotable
>>> game = holotable.load("space-pirates")
>>> st = game.new_state(players=2, seed=3, first_seat=0)
>>> st.to_move(), [str(a) for a in st.legal_actions(0)]
((0,), ['base 0', 'base 1', 'base 2'])
"""

from holotable.engine import register

from .actions import SPAction
from .rules import SPEC, SpacePirates

GAME = register(SpacePirates(), "sp", "spacepirates")

__all__ = ["GAME", "SPEC", "SPAction", "SpacePirates"]
