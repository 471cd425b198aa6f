"""Black Hole Buccaneers: draft space junk round a black hole for 3-6 players.

>>> import holotable
>>> game = holotable.load("buccaneers")
>>> st = game.new_state(players=3, seed=1, setup="first_game")
>>> st.to_move()
(0, 1, 2)
>>> len(st.legal_actions(0)), st.view(0)["black_hole"]["id"]
(6, 'BH-M2')
"""

from holotable.engine import register

from .actions import Action, Group, Laser, Play, Relic, Take
from .rules import SPEC, Buccaneers

GAME = register(Buccaneers(), "bhb", "black-hole-buccaneers")

__all__ = ["GAME", "SPEC", "Action", "Buccaneers", "Group", "Laser", "Play", "Relic", "Take"]
