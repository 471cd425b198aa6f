"""Black Hole Council: negotiate the fate of planets, vote, bribe, and deduce secret agendas (4-8 players).

>>> import holotable
>>> game = holotable.load("council")
>>> st = game.new_state(players=5, seed=3, first_leader=0)
>>> st.to_move()  # live negotiation: every seat may act, the Leader (seat 0) included
(0, 1, 2, 3, 4)
>>> st.apply("swap mine conquer", 0)
>>> st.apply("suggest swap settle tax", 2)
>>> st.apply("call vote", 0)
>>> st.to_move()  # the sealed vote of everyone but the Leader
(1, 2, 3, 4)
"""

from holotable.engine import register

from .actions import Act
from .rules import SPEC, BlackHoleCouncil

GAME = register(BlackHoleCouncil(), "bhc", "black-hole-council")

__all__ = ["GAME", "SPEC", "Act", "BlackHoleCouncil"]
