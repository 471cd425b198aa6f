"""What a game declares about itself, and how a configuration is checked against it.

Agents, adapters and the server read a :class:`GameSpec` to decide what they can
handle (OpenSpiel's ``GameType`` plays the same role).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError


class Dynamics(enum.Enum):
    """How decisions are taken."""

    #: One seat decides at a time.
    SEQUENTIAL = "sequential"
    #: Several seats may decide at once; sealed choices are resolved together.
    SIMULTANEOUS = "simultaneous"


class Chance(enum.Enum):
    DETERMINISTIC = "deterministic"
    #: Random events are drawn from the state's seeded RNG.
    SAMPLED = "sampled"


class Information(enum.Enum):
    PERFECT = "perfect"
    #: Some of the state is hidden from some seats (cards in hand, deck order, ...).
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class Param:
    """One configuration parameter of a game, with its default.

    ``kind`` is one of ``int``, ``float``, ``bool``, ``str``, ``list`` (of numbers).
    ``None`` is allowed as a value when ``optional`` is true.
    """

    name: str
    default: Any
    kind: str = "int"
    doc: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    optional: bool = False
    #: The spec's ambiguity record this parameter settles, e.g. ``"CB-AMB-05"``.
    assumed: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (list defaults are tuples in Python), with the limits a settings form needs."""
        return {
            "name": self.name,
            "default": list(self.default) if isinstance(self.default, tuple) else self.default,
            "kind": self.kind,
            "doc": self.doc,
            "assumed": self.assumed,
            "choices": None if self.choices is None else list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "optional": self.optional,
        }

    def check(self, value: Any) -> Any:
        """Validate and normalise one value; raise :class:`ConfigError` if it is bad."""
        if value is None:
            if self.optional:
                return None
            raise ConfigError(f"parameter {self.name!r} may not be empty")
        try:
            if self.kind == "int":
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                value = int(value)
            elif self.kind == "float":
                if isinstance(value, bool):
                    raise ValueError
                value = float(value)
            elif self.kind == "bool":
                if isinstance(value, str):
                    if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                        raise ValueError
                    value = value.lower() in ("true", "1", "yes")
                elif not isinstance(value, bool):
                    raise ValueError
            elif self.kind == "str":
                if not isinstance(value, str):
                    raise ValueError
            elif self.kind == "list":
                if isinstance(value, str):
                    value = [v for v in value.replace(",", " ").split() if v]
                value = tuple(int(v) if float(v).is_integer() else float(v) for v in value)
            else:  # pragma: no cover - a programming error in a game definition
                raise ConfigError(f"parameter {self.name!r} has unknown kind {self.kind!r}")
        except (TypeError, ValueError):
            raise ConfigError(
                f"parameter {self.name!r} expects {self.kind}, got {value!r}"
            ) from None
        if self.choices is not None and value not in self.choices:
            raise ConfigError(f"parameter {self.name!r} must be one of {self.choices}, got {value!r}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise ConfigError(f"parameter {self.name!r} must be >= {self.minimum}, got {value}")
            if self.maximum is not None and value > self.maximum:
                raise ConfigError(f"parameter {self.name!r} must be <= {self.maximum}, got {value}")
        return value


@dataclass(frozen=True)
class GameSpec:
    """A game's declaration: identity, player counts, dynamics and parameters."""

    name: str
    title: str
    min_players: int
    max_players: int
    dynamics: Dynamics
    chance: Chance
    information: Information
    params: tuple[Param, ...] = ()
    description: str = ""
    #: The rule-ID prefix of the game's spec (``CB``, ``BHB``, ...).
    rule_prefix: str = ""
    version: int = 1
    #: Upper bound on decisions in one game, for adapters that need one.
    max_game_length: int = 10_000
    default_players: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise ConfigError(f"{self.name} has no parameter {name!r}")

    def make_config(self, players: int | None = None, **params: Any) -> Config:
        """A checked :class:`Config`. Unknown parameters and bad values raise :class:`ConfigError`."""
        n = players if players is not None else (self.default_players or self.min_players)
        if isinstance(n, bool) or not isinstance(n, int):
            raise ConfigError(f"players must be an integer, got {n!r}")
        if not self.min_players <= n <= self.max_players:
            raise ConfigError(
                f"{self.title} takes {self.min_players}-{self.max_players} players, not {n}"
            )
        known = {p.name for p in self.params}
        unknown = sorted(set(params) - known)
        if unknown:
            raise ConfigError(
                f"{self.name} has no parameter(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        values = {p.name: p.check(params.get(p.name, p.default)) for p in self.params}
        return Config(self.name, n, tuple(sorted(values.items())))

    def config_from_dict(self, data: Mapping[str, Any]) -> Config:
        if not isinstance(data, Mapping):
            raise ConfigError("a config must be a mapping")
        data = dict(data)
        game = data.pop("game", self.name)
        if game != self.name:
            raise ConfigError(f"config is for {game!r}, not {self.name!r}")
        players = data.pop("players", None)
        params = data.pop("params", {})
        if data:
            raise ConfigError(f"unexpected config keys: {', '.join(sorted(data))}")
        if not isinstance(params, Mapping):
            raise ConfigError("config 'params' must be a mapping")
        return self.make_config(players, **params)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "dynamics": self.dynamics.value,
            "chance": self.chance.value,
            "information": self.information.value,
            "params": [p.to_dict() for p in self.params],
        }


@dataclass(frozen=True)
class Config:
    """A checked, hashable configuration: game name, player count, parameter values."""

    game: str
    players: int
    items: tuple[tuple[str, Any], ...] = ()
    # A lookup table built once: rules read parameters on every step.
    _values: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_values", dict(self.items))

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self._values.get(name, default)

    @property
    def params(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.items}

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "params": self.params}
