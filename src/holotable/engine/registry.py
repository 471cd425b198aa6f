"""The game registry: games register themselves; ``load(name)`` returns one.

Built-in games are imported lazily the first time the registry is consulted.
Third-party packages can add games through the ``holotable.games`` entry-point
group (each entry point names a module that calls :func:`register`).
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
# A built-in game package registers itself on import; one that does not exist yet is skipped.
_BUILTIN_MODULES = (
    "holotable.games.captain_black",
    "holotable.games.buccaneers",
    "holotable.games.council",
    "holotable.games.kyrum",
    "holotable.games.space_pirates",
)
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
    for module in _BUILTIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
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
