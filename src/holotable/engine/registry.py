"""The game registry: games register themselves; ``load(name)`` returns one.

Every game, built-in or third-party, is found through the ``holotable.games``
entry-point group (``pyproject.toml``): each entry point names a game package,
imported lazily the first time the registry is consulted; the engine names no game.
"""

from __future__ import annotations

import importlib
from importlib import metadata
from typing import Any

from .errors import UnknownGameError
from .game import Game
from .spec import GameSpec

_GAMES: dict[str, Game[Any, Any]] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


def register(game: Game[Any, Any], *aliases: str) -> Game[Any, Any]:
    """Add a game instance to the registry (idempotent for the same name)."""
    name = game.spec.name
    _GAMES[name] = game
    for alias in (name.replace("-", "_"), *aliases):
        _ALIASES[alias] = name
    return game


def _ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for ep in metadata.entry_points(group="holotable.games"):
        importlib.import_module(ep.value)


def import_companion(game: Game[Any, Any], submodule: str) -> bool:
    """Import the optional module ``submodule`` of ``game``'s package (``bots``, ``encoding``).

    Such modules register what they provide when imported. Returns whether one exists;
    an import error *inside* an existing module is raised, not hidden.
    """
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        importlib.import_module(f"{package}.{submodule}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{submodule}":
            raise
        return False
    return True


def load(name: str) -> Game[Any, Any]:
    """The registered game called ``name`` (``"captain-black"``)."""
    _ensure_loaded()
    key = _ALIASES.get(name, name)
    try:
        return _GAMES[key]
    except KeyError:
        raise UnknownGameError(
            f"no game called {name!r}; registered games: {', '.join(sorted(_GAMES))}"
        ) from None


def specs() -> list[GameSpec]:
    """The specs of every registered game, by name."""
    _ensure_loaded()
    return [_GAMES[n].spec for n in sorted(_GAMES)]


def names() -> list[str]:
    _ensure_loaded()
    return sorted(_GAMES)
