"""Black Hole Buccaneers: draft space junk round a black hole for 3-6 players.

>>> import holotable
>>> game = holotable.load("buccaneers")
>>> st = game.new_state(players=3, seed=1, setup="first_game")
>>> st.to_move()
(0, 1, 2)
>>> len(st.legal_actions(0)), st.view(0)["black_hole"]["id"]
(6, 'BH-M2')
"""

from holotable.engine.manifest import Manifest, lazy_exports

# What the game offers, each role imported only when asked for (see holotable.engine.manifest):
# importing this package imports nothing of the game, so listing the games loads none of them.
MANIFEST = Manifest(
    name="buccaneers",
    game="holotable.games.buccaneers.rules:Buccaneers",
    aliases=("bhb", "black-hole-buccaneers"),
    bots={"heuristic": "holotable.games.buccaneers.bots:BuccaneersHeuristic"},
    rollout="holotable.games.buccaneers.bots:ROLLOUT",
    encoder="holotable.games.buccaneers.encoding:ENCODER",
    measures="holotable.games.buccaneers.simulation:measures",
    seat_measures="holotable.games.buccaneers.simulation:seat_measures",
    terminal="holotable.games.buccaneers.terminal:render",
    cards="holotable.games.buccaneers.catalog:catalog",
    web="buccaneers",
    tutorial="holotable.games.buccaneers:tutorial.json",
)

__getattr__, __dir__ = lazy_exports(MANIFEST, {
    "SPEC": "holotable.games.buccaneers.rules:SPEC",
    "Buccaneers": "holotable.games.buccaneers.rules:Buccaneers",
    "Action": "holotable.games.buccaneers.actions:Action",
    "Group": "holotable.games.buccaneers.actions:Group",
    "Laser": "holotable.games.buccaneers.actions:Laser",
    "Play": "holotable.games.buccaneers.actions:Play",
    "Relic": "holotable.games.buccaneers.actions:Relic",
    "Take": "holotable.games.buccaneers.actions:Take",
})

__all__ = ["GAME", "SPEC", "Action", "Buccaneers", "Group", "Laser", "Play", "Relic", "Take"]
