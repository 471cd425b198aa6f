"""What a game offers beyond its rules, declared in one place: its package's ``MANIFEST``.

A game is one folder (a Python package). Its ``__init__`` holds a :class:`Manifest` naming, as
``"module:attribute"`` import paths, the object behind each role it fills (its bots, its encoder,
its terminal renderer...). Nothing is imported until somebody asks for that role
(:meth:`Manifest.resolve`), so starting the lab does not load the web server's extensions and a game
without an encoder costs nothing. Built-in and third-party games are found the same way, through
the ``holotable.games`` entry-point group (see :mod:`holotable.engine.registry`). A game made at run
time (a test's toy) gets a manifest too, holding the objects themselves instead of paths
(:func:`holotable.engine.register`).

>>> m = Manifest(name="test-nim", game="holotable.testing.toys:Nim", terminal="holotable.cli.render:generic_body")
>>> m.path("terminal"), m.path("encoder")
('holotable.cli.render:generic_body', None)
>>> m.resolve("game").spec.name  # a Game class is built once, on first use
'test-nim'
>>> m.resolve("game") is m.resolve("game")
True
>>> m.offers()
['game', 'terminal']
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import HolotableError

#: Every role a manifest can fill, and what the named object is. ``game`` is required.
ROLES: dict[str, str] = {
    "game": "the Game subclass (built once, without arguments) or instance: the rules",
    "bots": "a mapping of agent name -> path of factory(game, seed=..., **options) -> Agent",
    "rollout": "the rollout policy searching bots use (a holotable.agents.rollout.Rollout)",
    "encoder": "the explicit RL observation encoder and action mask (a holotable.rl.encoding.EncoderSpec)",
    "measures": "the lab's per-game measures (fn(finished_state) -> {name: number})",
    "seat_measures": "the lab's per-seat measures (fn(finished_state) -> [{name: number}, ...])",
    "schedule": "the lab's campaign schedule (a holotable.sim.hooks.ScheduleFn)",
    "terminal": "the terminal renderer (fn(view) -> rich renderable)",
    "server": "the server extension (a TableExtension subclass; each app makes its own instance)",
    "picture": "the PNG picture drawer (fn(state, seat, path, title=...) -> Path)",
    "cards": "the card catalog the table page asks for (fn(config) -> JSON-ready dict)",
    "web": "the browser renderer: web/static/games/<web>.js (a file name, not an import path)",
    "commands": "the game's own command-line tools: a typer.Typer mounted as `holotable <name> ...`",
    "tutorial": "the guided first game: a tutorial file as 'package:path' (holotable.engine.tutorial)",
}

_WEB_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


class ManifestError(HolotableError):
    """A manifest names something that cannot be found, or is not what its role needs."""


@dataclass(frozen=True, eq=False)
class Manifest:
    """A game's declarations: each role a ``"module:attribute"`` path (or the object itself, for a game
    made at run time), or ``None`` (not offered). ``name`` is the game's registered name (its spec's)."""

    name: str
    game: Any
    aliases: tuple[str, ...] = ()
    bots: Mapping[str, Any] = field(default_factory=dict)
    rollout: Any = None
    encoder: Any = None
    measures: Any = None
    seat_measures: Any = None
    schedule: Any = None
    terminal: Any = None
    server: Any = None
    picture: Any = None
    cards: Any = None
    web: str | None = None
    commands: Any = None
    tutorial: Any = None
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "aliases", tuple(self.aliases))
        object.__setattr__(self, "bots", MappingProxyType(dict(self.bots)))
        if self.web is not None and not _WEB_NAME.fullmatch(self.web):
            raise ManifestError(f"{self.name}: web must be a file name under web/static/games/, not {self.web!r}")

    def path(self, role: str) -> Any:
        """What the manifest says for ``role`` (a path, an object, or ``None``), importing nothing."""
        if role not in ROLES:
            raise ManifestError(f"no role called {role!r}; roles: {', '.join(ROLES)}")
        return getattr(self, role)

    def resolve(self, role: str) -> Any:
        """The object behind ``role`` (imported on first use), or ``None`` when it is not offered.

        ``bots`` gives a mapping of name -> factory (every bot imported); ``web`` gives the file name.
        """
        if role in self._cache:
            return self._cache[role]
        value = self.path(role)
        obj: Any
        if role == "bots":
            obj = {name: self.bot(name) for name in self.bots}
        elif role == "web" or value is None:
            obj = value
        elif role == "tutorial" and isinstance(value, str):
            # A data file, not code: "package:path inside it" (the game's data/tutorial.json).
            from .tutorial import Tutorial

            package, _, inside = value.partition(":")
            obj = Tutorial.from_resource(package, inside)
        else:
            obj = import_path(value) if isinstance(value, str) else value
            if role == "game" and isinstance(obj, type):
                obj = obj()
        self._cache[role] = obj
        return obj

    def bot(self, name: str) -> Callable[..., Any] | None:
        """The factory of the game's own bot ``name``, or ``None`` when the game has no such bot."""
        key = f"bots:{name}"  # cached: simulations build agents for every game they play
        if key not in self._cache:
            value = self.bots.get(name)
            self._cache[key] = import_path(value) if isinstance(value, str) else value
        factory: Callable[..., Any] | None = self._cache[key]
        return factory

    def offers(self) -> list[str]:
        """The roles filled, in :data:`ROLES` order."""
        return [r for r in ROLES if getattr(self, r)]

    def replace(self, **changes: Any) -> Manifest:
        """A copy with ``changes`` (nothing resolved yet, except a game given as an object)."""
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


def lazy_exports(
    manifest: Manifest, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a game package (PEP 562), so that importing it imports
    nothing but its manifest: ``GAME`` is the manifest's game, each other name is imported from its
    ``"module:attribute"`` path in ``exports`` when first asked for.

    >>> getattr_, dir_ = lazy_exports(Manifest(name="test-nim", game="holotable.testing.toys:Nim"),
    ...                               {"Nim": "holotable.testing.toys:Nim"})
    >>> getattr_("GAME").spec.name, getattr_("Nim").__name__, dir_()
    ('test-nim', 'Nim', ['GAME', 'MANIFEST', 'Nim'])
    """

    def __getattr__(name: str) -> Any:
        if name == "GAME":
            return manifest.resolve("game")
        if name in exports:
            return import_path(exports[name])
        raise AttributeError(f"module of game {manifest.name!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({"GAME", "MANIFEST", *exports})

    return __getattr__, __dir__
