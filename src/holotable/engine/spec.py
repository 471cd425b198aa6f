"""What a game declares about itself, and how a configuration is checked against it.

Agents, adapters and the server read a :class:`GameSpec` to decide what they can
handle (OpenSpiel's ``GameType`` plays the same role).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ConfigError

if TYPE_CHECKING:
    from .data import DataCatalog, DataKey


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


class _Unset:
    """The marker of a parameter with no table-only default (``None`` is a real value for optional ones)."""

    def __repr__(self) -> str:
        return "UNSET"


#: ``Param.table_default`` when the game sets none: human tables use ``default`` too.
UNSET: Any = _Unset()


class Information(enum.Enum):
    PERFECT = "perfect"
    #: Some of the state is hidden from some seats (cards in hand, deck order, ...).
    IMPERFECT = "imperfect"


def _words(value: Any) -> str:
    """A code value as text, underscores as spaces (``None``: ``empty``)."""
    return "empty" if value is None else str(value).replace("_", " ")


@dataclass(frozen=True)
class Param:
    """One configuration parameter of a game, with its default.

    ``kind`` is one of ``int``, ``float``, ``bool``, ``str``, ``list`` (of numbers).
    ``None`` is allowed as a value when ``optional`` is true.

    ``table_default``, when set, is the value used at human tables (``make_config(..., table=True)``)
    instead of ``default``, which then serves simulations, tests and RL: e.g. a turn cap that ends
    endless bot games but has no place in a real game.

    >>> cap = Param("turn_cap", 300, "int", minimum=0, table_default=0)
    >>> cap.default, cap.table_value
    (300, 0)
    >>> Param("pile", 15).table_value
    15

    ``label`` is the option's name as a player reads it and ``choice_labels`` the words for each
    of ``choices``, in the same order; the code names stay for the API, the CLI and the lab.

    >>> tie = Param("tie_rule", "ships_first", "str", choices=("ships_first", "worst_for_all"),
    ...             label="Ties with a ship-less player",
    ...             choice_labels=("Spaceship owners rank first", "All tied take the worst place"))
    >>> tie.to_dict()["label"], tie.to_dict()["choice_labels"]
    ('Ties with a ship-less player', ['Spaceship owners rank first', 'All tied take the worst place'])
    >>> Param("blanket_points", 5).to_dict()["label"]
    'Blanket points'
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
    #: The value human tables use when the player does not set one; ``UNSET`` = ``default``.
    table_default: Any = UNSET
    #: For a parameter that may name a path on the machine (a content pack's directory): ``fn() ->``
    #: the only values a remote player may give it (the server refuses the rest: a remote player must
    #: not make the server read its files). ``None``: any valid value.
    remote_choices: Callable[[], Collection[Any]] | None = field(default=None, compare=False, repr=False)
    #: The option's name in plain words, as a player reads it; empty: from ``name``.
    label: str = ""
    #: Plain words for each of ``choices``, in the same order; empty: from the values.
    choice_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.choice_labels and len(self.choice_labels) != len(self.choices or ()):
            raise ConfigError(  # pragma: no cover - a programming error in a game definition
                f"parameter {self.name!r} has {len(self.choice_labels)} choice labels for "
                f"{len(self.choices or ())} choices")

    @property
    def shown_label(self) -> str:
        """``label``, or else the name in words (``egg_pool_ignore`` -> ``Egg pool ignore``)."""
        return self.label or _words(self.name).capitalize()

    @property
    def shown_choices(self) -> list[str] | None:
        """``choice_labels`` as a list parallel to ``choices``, or else each value in words."""
        if self.choices is None:
            return None
        return list(self.choice_labels) if self.choice_labels else [_words(c) for c in self.choices]

    @property
    def table_value(self) -> Any:
        """The default at a human table: ``table_default`` where set, else ``default``."""
        return self.default if self.table_default is UNSET else self.table_default

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (list defaults are tuples in Python), with the limits a settings form needs."""
        return {
            "name": self.name,
            "default": list(self.default) if isinstance(self.default, tuple) else self.default,
            "kind": self.kind,
            "label": self.shown_label,
            "doc": self.doc,
            "assumed": self.assumed,
            "choices": None if self.choices is None else list(self.choices),
            "choice_labels": self.shown_choices,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "optional": self.optional,
            "table_default": (list(self.table_value) if isinstance(self.table_value, tuple)
                              else self.table_value),
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
    #: The game's addressable data values (see :mod:`holotable.engine.data`); ``None``: none.
    data: DataCatalog[Any] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if any(p.name == "data" for p in self.params):  # pragma: no cover - a game definition error
            raise ValueError(f"{self.name}: 'data' is reserved for data overrides, not a parameter name")

    @property
    def has_secrets(self) -> bool:
        """Whether a running game of this kind has anything a seat must not learn: hidden
        information, or chance (whoever knows the seed knows every future draw). Such a
        game's seed and RNG state stay secret until it ends."""
        return self.information is Information.IMPERFECT or self.chance is Chance.SAMPLED

    def data_keys(self) -> dict[str, DataKey]:
        """Every data value a configuration may override, by dotted path (empty when none)."""
        return {} if self.data is None else self.data.keys()

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise ConfigError(f"{self.name} has no parameter {name!r}")

    def make_config(
        self,
        players: int | None = None,
        *,
        table: bool = False,
        data: Mapping[str, Any] | None = None,
        **params: Any,
    ) -> Config:
        """A checked :class:`Config`. Unknown parameters and bad values raise :class:`ConfigError`.

        ``table=True`` builds the configuration of a human table: parameters not given take their
        ``table_default`` where the game sets one (see :class:`Param`).

        ``data`` overrides values of the game's data files by dotted path (see
        :mod:`holotable.engine.data`); unknown paths, wrong types and values that break the
        game's data rules raise :class:`ConfigError`. ``make_config(c.players, **c.params)``
        rebuilds a config ``c``, overrides included.
        """
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
        values = {
            p.name: p.check(params.get(p.name, p.table_value if table else p.default)) for p in self.params
        }
        overrides: tuple[tuple[str, Any], ...] = ()
        if data:
            if not isinstance(data, Mapping):
                raise ConfigError("data overrides must be a mapping of path to value")
            if self.data is None:
                raise ConfigError(f"{self.name} has no addressable data values")
            overrides = self.data.check(data)
        return Config(self.name, n, tuple(sorted(values.items())), overrides)

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
    """A checked, hashable configuration: game name, player count, parameter values and
    data overrides (sorted ``(path, value)`` pairs; see :mod:`holotable.engine.data`)."""

    game: str
    players: int
    items: tuple[tuple[str, Any], ...] = ()
    data: tuple[tuple[str, Any], ...] = ()
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
        """Parameter values, JSON-ready; data overrides under the reserved key ``data`` when there
        are any, so that ``make_config(players, **params)`` rebuilds this configuration."""
        values = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.items}
        if self.data:
            values["data"] = dict(self.data)
        return values

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "params": self.params}
