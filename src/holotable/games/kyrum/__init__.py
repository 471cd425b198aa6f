"""Black Hole: Kyrum: a solo exploration campaign, driven by a content pack (spec ``KYR``).

>>> import holotable
>>> game = holotable.load("kyrum")
>>> game.spec.min_players, game.spec.max_players
(1, 1)
>>> str(game.parse_action("craft common fuel"))
'craft common fuel'
"""

from holotable.engine.manifest import Manifest, lazy_exports

# What the game offers, each role imported only when asked for (see holotable.engine.manifest):
# importing this package imports nothing of the game, so listing the games loads none of them.
MANIFEST = Manifest(
    name="kyrum",
    game="holotable.games.kyrum.rules:Kyrum",
    aliases=("black-hole-kyrum", "bhk"),
    bots={
        "heuristic": "holotable.games.kyrum.bots:KyrumHeuristic",
        "planner": "holotable.games.kyrum.planner_bot:KyrumPlanner",  # the objective-aware one
        "random": "holotable.games.kyrum.bot_random:KyrumRandom",  # never concedes (spec §8 RandomBot)
        "hunter": "holotable.games.kyrum.bot_hunter:KyrumScriptHunter",  # spec §8 ScriptHunterBot
    },
    encoder="holotable.games.kyrum.encoding:ENCODER",
    measures="holotable.games.kyrum.simulation:measures",
    schedule="holotable.games.kyrum.simulation:schedule",
    terminal="holotable.games.kyrum.terminal:render",
    server="holotable.games.kyrum.server:KyrumExtension",
    web="kyrum",
    commands="holotable.games.kyrum.commands:app",
    tutorial="holotable.games.kyrum:tutorial.json",
)

__getattr__, __dir__ = lazy_exports(MANIFEST, {
    "SPEC": "holotable.games.kyrum.rules:SPEC",
    "Kyrum": "holotable.games.kyrum.rules:Kyrum",
    "KAction": "holotable.games.kyrum.actions:KAction",
})

__all__ = ["GAME", "SPEC", "KAction", "Kyrum"]
