"""Captain Black: push-your-luck coin drawing for 2-4 players.

>>> import holotable
>>> game = holotable.load("captain-black")
>>> st = game.new_state(players=3, seed=5)
>>> st.legal_actions()[:3]
(Draw(k=1), Draw(k=2), Draw(k=3))
"""

from holotable.engine import register

from .actions import Draw
from .rules import SPEC, CaptainBlack, chest_counts, draw_black

GAME = register(CaptainBlack(), "cb", "captainblack")

__all__ = ["GAME", "SPEC", "CaptainBlack", "Draw", "chest_counts", "draw_black"]
