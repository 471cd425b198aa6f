"""Space Pirates: flick transports across a continuous cardboard galaxy, chase them with rulers.

>>> import holotable
>>> game = holotable.load("space-pirates")
>>> st = game.new_state(players=2, seed=3, first_seat=0)
>>> st.to_move(), [str(a) for a in st.legal_actions(0)]
((0,), ['base 0', 'base 1', 'base 2'])
"""

from holotable.engine.manifest import Manifest, lazy_exports

# What the game offers, each role imported only when asked for (see holotable.engine.manifest):
# importing this package imports nothing of the game, so listing the games loads none of them.
MANIFEST = Manifest(
    name="space-pirates",
    game="holotable.games.space_pirates.rules:SpacePirates",
    aliases=("sp", "spacepirates"),
    bots={"heuristic": "holotable.games.space_pirates.bots:SpacePiratesHeuristic",
          "search": "holotable.games.space_pirates.bot_search:SpacePiratesSearch"},
    rollout="holotable.games.space_pirates.bots:ROLLOUT",
    encoder="holotable.games.space_pirates.encoding:ENCODER",
    measures="holotable.games.space_pirates.simulation:measures",
    seat_measures="holotable.games.space_pirates.simulation:seat_measures",
    terminal="holotable.games.space_pirates.terminal:render",
    server="holotable.games.space_pirates.server:SpacePiratesExtension",
    picture="holotable.games.space_pirates.picture:draw",
    cards="holotable.games.space_pirates.catalog:catalog",
    web="space-pirates",
    tutorial="holotable.games.space_pirates:tutorial.json",
)

__getattr__, __dir__ = lazy_exports(MANIFEST, {
    "SPEC": "holotable.games.space_pirates.rules:SPEC",
    "SpacePirates": "holotable.games.space_pirates.rules:SpacePirates",
    "SPAction": "holotable.games.space_pirates.actions:SPAction",
})

__all__ = ["GAME", "SPEC", "SPAction", "SpacePirates"]
