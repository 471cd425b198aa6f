"""Tools for testing games: the conformance checks and a few small toy games.

A game author checks a new game against the engine contract with one call::

    from holotable.testing.conformance import check_game
    check_game(MyGame())   # raises AssertionError saying what broke

Neither module needs pytest or hypothesis at run time.
"""
