"""Space Pirates' components in the words a player reads (log lines, results, the terminal): a transport
by its face, an energy card by its value and adventures, never by their ids or code names."""

from __future__ import annotations

from collections.abc import Iterable

#: A transport's face: what turning it over shows.
FACES = {"ORE": "ore", "SPICE": "spice", "TECH": "tech", "MEDS": "medicine", "RELICS": "relics",
         "ASTEROID": "an asteroid", "POLICE": "the galactic police"}

#: An energy card's adventure symbols.
ADVENTURES = {"FLICK": "flick", "NEW_RIGHT": "new transport (right)", "NEW_LEFT": "new transport (left)",
              "ASTEROID": "asteroid", "STORM": "storm", "WIND": "solar wind"}


def face(identity: str) -> str:
    """``face("MEDS") == "medicine"``."""
    return FACES.get(identity, identity.lower().replace("_", " "))


def adventure(symbol: str) -> str:
    """``adventure("WIND") == "solar wind"``."""
    return ADVENTURES.get(symbol, symbol.lower().replace("_", " "))


def energy_card(value: int, symbols: Iterable[str]) -> str:
    """``energy_card(2, ["NEW_RIGHT", "ASTEROID"]) == "a 2 energy card (new transport (right), asteroid)"``."""
    words = ", ".join(adventure(s) for s in symbols)
    return f"a {value} energy card ({words})" if words else f"a {value} energy card"
