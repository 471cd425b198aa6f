"""What a game offers beyond its rules, declared in one place: its package's ``MANIFEST``.

A game is one folder (a Python package). Its ``__init__`` holds a :class:`Manifest` naming, as
``"module:attribute"`` import paths, the object behind each role it fills (its bots, its encoder,
its terminal renderer...). Nothing is imported until somebody asks for that role
(:func:`offered`), so starting the lab does not load the web server's extensions and a game
without an encoder costs nothing. Built-in and third-party games are found the same way, through
the ``holotable.games`` entry-point group (see :mod:`holotable.engine.registry`).

>>> m = Manifest(game="holotable.testing.toys:NIM", terminal="holotable.cli.render:render_view")
>>> m.path("terminal"), m.path("encoder")
('holotable.cli.render:render_view', None)
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, field
from typing import Any

from .errors import HolotableError

#: Every role a manifest can fill, and what the named object is. ``game`` is required.
ROLES: dict[str, str] = {
    "game": "the Game instance (the rules)",
    "bots": "a mapping of agent name -> factory(game, seed) for the game's own bots",
    "rollout": "the rollout policy searching bots use (a Rollout)",
    "encoder": "the explicit RL observation encoder and action mask (an EncoderSpec)",
    "measures": "the lab's per-game measures (fn(state) -> dict)",
    "seat_measures": "the lab's per-seat measures (fn(state, seat) -> dict)",
    "schedule": "the lab's campaign/schedule hook",
    "terminal": "the terminal renderer (fn(view, console-width) -> rich renderable)",
    "server": "the server extension class (a TableExtension subclass, one instance per app)",
    "picture": "the PNG picture renderer of a position",
    "cards": "the card catalog the browser shows (fn(...) -> JSON)",
    "web": "the browser renderer: a module under web/static/games/ (a file name, not an import path)",
}


class ManifestError(HolotableError):
    """A manifest names something that cannot be found."""


@dataclass(frozen=True)
class Manifest:
    """A game's declarations: each field a ``"module:attribute"`` path, or ``None`` (not offered)."""

    game: str
    aliases: tuple[str, ...] = ()
    bots: str | None = None
    rollout: str | None = None
    encoder: str | None = None
    measures: str | None = None
    seat_measures: str | None = None
    schedule: str | None = None
    terminal: str | None = None
    server: str | None = None
    picture: str | None = None
    cards: str | None = None
    web: str | None = None
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def path(self, role: str) -> str | None:
        if role not in ROLES:
            raise ManifestError(f"no role called {role!r}; roles: {', '.join(ROLES)}")
        value: str | None = getattr(self, role)
        return value

    def resolve(self, role: str) -> Any | None:
        """The object behind ``role`` (imported on first use), or ``None`` when it is not offered."""
        if role in self._cache:
            return self._cache[role]
        path = self.path(role)
        obj = None if path is None or role == "web" else import_path(path)
        self._cache[role] = obj
        return obj

    def offers(self) -> list[str]:
        """The roles filled, in :data:`ROLES` order."""
        return [r for r in ROLES if getattr(self, r) is not None]

    def replace(self, **changes: Any) -> Manifest:
        return dataclasses.replace(self, **changes, _cache={})


def import_path(path: str) -> Any:
    """The object at ``"package.module:attribute"``; a clear error naming the path when absent."""
    module_name, _, attribute = path.partition(":")
    if not attribute:
        raise ManifestError(f"{path!r} is not a 'module:attribute' path")
    module = importlib.import_module(module_name)
    obj: Any = module
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ManifestError(f"{module_name} has no {attribute!r} (named in a game manifest)") from None
    return obj
