"""Captain Black: push-your-luck coin drawing for 2-4 players.

>>> import holotable
>>> game = holotable.load("captain-black")
>>> st = game.new_state(players=3, seed=5)
>>> st.legal_actions()[:3]
(Draw(k=1), Draw(k=2), Draw(k=3))
"""

from holotable.engine.manifest import Manifest, lazy_exports

# What the game offers, each role imported only when asked for (see holotable.engine.manifest):
# importing this package imports nothing of the game, so listing the games loads none of them.
MANIFEST = Manifest(
    name="captain-black",
    game="holotable.games.captain_black.rules:CaptainBlack",
    aliases=("cb", "captainblack"),
    bots={"heuristic": "holotable.games.captain_black.bots:CaptainBlackHeuristic"},
    rollout="holotable.games.captain_black.bots:ROLLOUT",
    encoder="holotable.games.captain_black.encoding:ENCODER",
    measures="holotable.games.captain_black.simulation:measures",
    seat_measures="holotable.games.captain_black.simulation:seat_measures",
    terminal="holotable.games.captain_black.terminal:render",
    web="captain-black",
    tutorial="holotable.games.captain_black:tutorial.json",
)

__getattr__, __dir__ = lazy_exports(MANIFEST, {
    "SPEC": "holotable.games.captain_black.rules:SPEC",
    "CaptainBlack": "holotable.games.captain_black.rules:CaptainBlack",
    "chest_counts": "holotable.games.captain_black.rules:chest_counts",
    "draw_black": "holotable.games.captain_black.rules:draw_black",
    "Draw": "holotable.games.captain_black.actions:Draw",
})

__all__ = ["GAME", "SPEC", "CaptainBlack", "Draw", "chest_counts", "draw_black"]
