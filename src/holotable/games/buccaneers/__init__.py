"""Black Hole Buccaneers (work in progress).

Only the card data exists so far: :mod:`holotable.games.buccaneers.data` loads and validates the
shipped ``data/*.json`` files. The game's rules are not implemented yet, so nothing here is
registered as a playable game.
"""
