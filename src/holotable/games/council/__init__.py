"""Black Hole Council: negotiate the fate of planets, vote, bribe, and deduce secret agendas (4-8 players).

>>> import holotable
>>> game = holotable.load("council")
>>> st = game.new_state(players=5, seed=3, first_leader=0)
>>> st.to_move()  # Negotiate: every seat may act at once, the Leader (seat 0) included
(0, 1, 2, 3, 4)
>>> st.apply("swap mine conquer", 0)
>>> st.apply("suggest swap settle tax", 2)
>>> st.apply("call vote", 0)
>>> st.to_move()  # the sealed vote of everyone but the Leader
(1, 2, 3, 4)
"""

from holotable.engine.manifest import Manifest, lazy_exports

# What the game offers, each role imported only when asked for (see holotable.engine.manifest):
# importing this package imports nothing of the game, so listing the games loads none of them.
MANIFEST = Manifest(
    name="council",
    game="holotable.games.council.rules:BlackHoleCouncil",
    aliases=("bhc", "black-hole-council"),
    bots={"heuristic": "holotable.games.council.bots:CouncilHeuristic"},
    rollout="holotable.games.council.bots:ROLLOUT",
    encoder="holotable.games.council.encoding:ENCODER",
    measures="holotable.games.council.simulation:measures",
    seat_measures="holotable.games.council.simulation:seat_measures",
    terminal="holotable.games.council.terminal:render",
    server="holotable.games.council.server:CouncilExtension",
    web="council",
    tutorial="holotable.games.council:tutorial.json",
)

__getattr__, __dir__ = lazy_exports(MANIFEST, {
    "SPEC": "holotable.games.council.rules:SPEC",
    "BlackHoleCouncil": "holotable.games.council.rules:BlackHoleCouncil",
    "Act": "holotable.games.council.actions:Act",
})

__all__ = ["GAME", "SPEC", "Act", "BlackHoleCouncil"]
