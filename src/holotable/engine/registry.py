"""The game registry: one manifest per game; ``load(name)`` imports and returns that game only.

Every game, built-in or third-party, is found through the ``holotable.games`` entry-point group
(``pyproject.toml``): each entry point is named after the game and names its package, whose
``MANIFEST`` (:class:`~holotable.engine.manifest.Manifest`) says where the rules and everything else
the game offers live. Reading a manifest imports no rules, and ``load("council")`` reads Council's
manifest alone, so it imports nothing of another game; the engine names no game. A game made at run time (a test's toy)
is added with :func:`register`, which makes a manifest for it: the same lookups find both.

>>> m = manifest("cb")
>>> m.name, m.path("game")
('captain-black', 'holotable.games.captain_black.rules:CaptainBlack')
>>> load("cb") is m.resolve("game")
True
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

from .errors import UnknownGameError
from .game import Game
from .manifest import Manifest, ManifestError
from .spec import GameSpec

_MANIFESTS: dict[str, Manifest] = {}
_ALIASES: dict[str, str] = {}
_ENTRY_POINTS: dict[str, metadata.EntryPoint] | None = None
#: name or alias -> the game ``load`` gave for it (``load`` is called per saved match and simulated game).
_LOADED: dict[str, Game[Any, Any]] = {}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    """The installed games' entry points by game name (read once; nothing is imported)."""
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        _ENTRY_POINTS = {ep.name: ep for ep in metadata.entry_points(group="holotable.games")}
    return _ENTRY_POINTS


def _read(name: str) -> None:
    """Read the manifest of the installed game ``name`` unless it is known: this imports that game's
    package ``__init__`` only, which holds its manifest and nothing of its rules."""
    ep = _entry_points().get(name)
    if ep is None or name in _MANIFESTS:
        return
    found = ep.load()
    found = getattr(found, "MANIFEST", found)
    if not isinstance(found, Manifest):
        raise ManifestError(f"entry point {ep.name} = {ep.value!r} names no Manifest (a package's MANIFEST)")
    if found.name != ep.name:
        raise ManifestError(f"entry point {ep.name} = {ep.value!r} holds the manifest of {found.name!r}")
    add(found)


def _read_all() -> None:
    for name in _entry_points():
        _read(name)


def add(m: Manifest) -> Manifest:
    """Add (or replace) the manifest of game ``m.name``, with its aliases."""
    _LOADED.clear()
    _MANIFESTS[m.name] = m
    for alias in (m.name.replace("-", "_"), *m.aliases):
        _ALIASES[alias] = m.name
    return m


def register(game: Game[Any, Any], *aliases: str, **roles: Any) -> Game[Any, Any]:
    """Add a game instance made at run time, with ``aliases`` and any roles (objects or paths).

    Registering a game whose name already has a manifest keeps that manifest's other roles, so a
    second instance of a built-in game still has its bots and encoder.
    """
    name = game.spec.name
    _read(name)
    old = _MANIFESTS.get(name)
    if old is None:
        add(Manifest(name=name, game=game, aliases=aliases, **roles))
    else:
        add(old.replace(game=game, aliases=(*old.aliases, *aliases), **roles))
    return game


def find(name: str) -> Manifest | None:
    """The manifest of the game called ``name`` (or an alias), or ``None``.

    A game's own name reads its manifest alone; an alias not yet known reads every manifest.
    """
    key = _ALIASES.get(name, name)
    if key not in _MANIFESTS:
        _read(key)
        if key not in _MANIFESTS:
            _read_all()
            key = _ALIASES.get(name, name)
    return _MANIFESTS.get(key)


def manifest(name: str) -> Manifest:
    """The manifest of the game called ``name`` (or an alias); importing nothing of the game."""
    found = find(name)
    if found is None:
        raise UnknownGameError(f"no game called {name!r}; registered games: {', '.join(names())}") from None
    return found


def offered(name: str, role: str) -> Any:
    """What the game called ``name`` offers for ``role`` (imported on first use), or ``None``
    when it offers nothing there or no game has that name."""
    found = find(name)
    return None if found is None else found.resolve(role)


def load(name: str) -> Game[Any, Any]:
    """The registered game called ``name`` (``"captain-black"``), imported on first use."""
    game = _LOADED.get(name)
    if game is None:
        m = manifest(name)
        game = m.resolve("game")
        if not isinstance(game, Game) or game.spec.name != m.name:
            raise ManifestError(
                f"the manifest of {m.name!r} names {game!r}, not a Game whose spec is called {m.name!r}")
        _LOADED[name] = game
    return game


def snapshot() -> tuple[dict[str, Manifest], dict[str, str]]:
    """The registry's contents, for :func:`restore` (tests that register games for a while)."""
    return dict(_MANIFESTS), dict(_ALIASES)


def restore(saved: tuple[dict[str, Manifest], dict[str, str]]) -> None:
    """Put back what :func:`snapshot` saved, exactly."""
    _LOADED.clear()
    _MANIFESTS.clear()
    _MANIFESTS.update(saved[0])
    _ALIASES.clear()
    _ALIASES.update(saved[1])


def specs() -> list[GameSpec]:
    """The specs of every registered game, by name (this loads every game)."""
    return [load(n).spec for n in names()]


def names() -> list[str]:
    """The names of every registered game, sorted (nothing of any game is imported)."""
    return sorted(set(_MANIFESTS) | set(_entry_points()))
