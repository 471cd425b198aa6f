"""A copyable game package: Last Pebble, a tiny two-seat game that fills every role a manifest has.

Copy this folder to ``games/<your_game>/`` (or into a package of your own), rename the game, and
replace each module's contents; delete the modules of the roles you do not need and their lines in
``MANIFEST``. Then announce the package in your ``pyproject.toml``:

.. code-block:: toml

    [project.entry-points."holotable.games"]
    your-game = "your_package.your_game"   # the name must be the spec's name

The template itself has no entry point, so it is not among the registered games; a test (or a
session) can add it at run time:

>>> from holotable.engine import registry
>>> "template" in registry.names()
False
>>> MANIFEST.offers()[:4]
['game', 'bots', 'rollout', 'encoder']
"""

from holotable.engine.manifest import Manifest, lazy_exports

_HERE = "holotable.games._template"

MANIFEST = Manifest(
    # The registered name: the spec's name, and the entry point's name.
    name="template",
    # The rules: a Game subclass (built once, without arguments, when the game is first loaded).
    game=f"{_HERE}.rules:LastPebble",
    # Other names `holotable.load` accepts (dashes become underscores on their own).
    aliases=("last-pebble",),
    # The game's own bots, by agent name; `random` and `ismcts` work for every game already.
    bots={"heuristic": f"{_HERE}.bots:PebbleHeuristic"},
    # How search bots (ismcts) play out a sampled game: a holotable.agents.rollout.Rollout.
    rollout=f"{_HERE}.bots:ROLLOUT",
    # A fixed-size RL observation (holotable.rl.encoding.EncoderSpec); without one, RL probes the views.
    encoder=f"{_HERE}.encoding:ENCODER",
    # Numbers `holotable simulate` averages over finished games, and the same per seat.
    measures=f"{_HERE}.simulation:measures",
    seat_measures=f"{_HERE}.simulation:seat_measures",
    # A campaign's fixed series of games (`holotable simulate --schedule`); most games have none.
    schedule=f"{_HERE}.simulation:schedule",
    # How a seat's view looks in the terminal (`holotable play`); else a generic key/value table.
    terminal=f"{_HERE}.terminal:render",
    # What the browser page needs beyond views and legal moves: a TableExtension subclass.
    server=f"{_HERE}.server:PebbleExtension",
    # A PNG picture of a position (`holotable render`).
    picture=f"{_HERE}.picture:draw",
    # The component catalog the table page asks for once (GET /api/tables/{id}/catalog).
    cards=f"{_HERE}.catalog:catalog",
    # The browser renderer, web/static/games/<web>.js; "generic" draws any game from its views.
    web="generic",
    # The game's own command-line tools, mounted as `holotable <name> ...` (a typer.Typer).
    commands=f"{_HERE}.commands:app",
    # A guided first game: a tutorial file, "package:path" (a scenario to start from, then lessons).
    tutorial=f"{_HERE}:tutorial.json",
)

# `from <package> import GAME, SPEC` works without importing the rules when the package is imported.
__getattr__, __dir__ = lazy_exports(MANIFEST, {
    "SPEC": f"{_HERE}.rules:SPEC",
    "LastPebble": f"{_HERE}.rules:LastPebble",
})

__all__ = ["GAME", "SPEC", "LastPebble"]
