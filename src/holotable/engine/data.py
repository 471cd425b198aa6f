"""Addressable data values: every number of a game's data files, changeable per configuration.

A game's data files (card values, prices, counts: many of them ASSUMED resolutions of the
rulebook's gaps) are read once and cached. A :class:`DataCatalog` names each scalar in them
with a stable dotted path, e.g. ``planets.RED-A.points`` or ``junk.SHIP-07.stats.0.value``:

- an object's keys become path segments (keys starting with ``_`` are comments, left out);
- a list of objects that all carry an ``id`` is addressed by id (a catalog may name other id
  fields), any other list by position;
- an entry shaped ``{"value": ..., "record"|"assumed": ...}`` (an ASSUMED value with its
  ambiguity record) is addressed by its own path, without a ``.value`` segment;
- ``record``/``assumed`` tags found on the way are the key's ASSUMED records.

A configuration carries overrides as ``Config.data`` (``spec.make_config(players,
data={"planets.RED-A.points": 3})``). The catalog checks every path and type up front, then
applies the overrides to a copy of the decoded files and runs the game's own validating parser,
so an override that breaks a data rule is refused with the same message a bad file gets. Built
data is cached per set of overrides; without overrides the game keeps its shared default.

>>> raw = {"": {"_about": "demo", "cards": [{"id": "A", "value": 2}, {"id": "B", "value": 5}],
...             "bonus": {"value": 3, "record": "AMB-01", "why": "a guess"}}}
>>> catalog = DataCatalog("Demo", lambda: raw, lambda docs: docs[""])
>>> sorted(catalog.keys())
['bonus', 'cards.A.value', 'cards.B.value']
>>> catalog.keys()["bonus"].assumed
('AMB-01',)
>>> catalog.resolve(catalog.check({"cards.B.value": "7"}))["cards"][1]
{'id': 'B', 'value': 7}
>>> catalog.check({"cards.C.value": 1})
Traceback (most recent call last):
...
holotable.engine.errors.ConfigError: Demo has no data value 'cards.C.value'; closest: cards.B.value, cards.A.value
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import fnmatch
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Generic, TypeVar

from .errors import ConfigError, DataError

T = TypeVar("T")

#: Keys of an ASSUMED entry that describe it rather than hold game data.
_META = frozenset({"record", "assumed", "why", "choices"})


def read_packaged_json(package: str, filename: str) -> Any:
    """The decoded JSON file ``data/<filename>`` shipped in ``package``; :class:`DataError` if unreadable."""
    try:
        text = resources.files(package).joinpath("data", filename).read_text(encoding="utf-8")
    except OSError as exc:  # pragma: no cover - a broken installation
        raise DataError(f"cannot read {filename}: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{filename} is not valid JSON: {exc}") from exc


class DataOverrideError(ConfigError, DataError):
    """A configuration's data overrides break the game's data rules.

    It is both a :class:`ConfigError` (the configuration is refused) and a :class:`DataError`
    (the message is the one the game's loader gives for a file with the same values).
    """


@dataclass(frozen=True)
class DataKey:
    """One addressable scalar of a game's data: its path, shipped value and ASSUMED records."""

    path: str
    value: Any
    #: The spec's ambiguity records behind the value (empty when the rulebook gives it).
    assumed: tuple[str, ...] = ()
    help: str = ""
    #: Where it sits in the decoded documents: document name, then keys and list positions.
    where: tuple[str | int, ...] = field(default=(), compare=False, repr=False)
    #: The range an override of a number must stay in, ``(lowest, highest)``, from the game's
    #: ``limits.json`` (``None``: none declared). A table's creator sets overrides, so a value far
    #: outside what the game is built for (a physics step of two microseconds, a billion coins) is
    #: refused before it can make a game unplayable or freeze a server.
    limits: tuple[float, float] | None = None

    @property
    def kind(self) -> str:
        """``bool``, ``int``, ``float`` or ``str``: the type an override must have."""
        if isinstance(self.value, bool):
            return "bool"
        if isinstance(self.value, int):
            return "int"
        if isinstance(self.value, float):
            return "float"
        return "str"

    def check(self, value: Any) -> Any:
        """The override ``value`` in this key's type (text from a command line is converted);
        a value of another type, or a number outside :attr:`limits`, raises :class:`ConfigError`
        naming the path."""
        converted = self._converted(value)
        if self.limits is not None and self.kind in ("int", "float"):
            low, high = self.limits
            if not low <= converted <= high:
                raise ConfigError(f"data {self.path!r} takes a number from {low:g} to {high:g} (shipped "
                                  f"value {self.value!r}), not {converted!r}")
        return converted

    def _converted(self, value: Any) -> Any:
        kind = self.kind
        try:
            if kind == "bool":
                if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                    return value.lower() in ("true", "1", "yes")
                if isinstance(value, bool):
                    return value
            elif kind == "int":
                if isinstance(value, str):
                    value = float(value.strip())
                if isinstance(value, float) and value.is_integer():
                    return int(value)
                if isinstance(value, int) and not isinstance(value, bool):
                    return value
            elif kind == "float":
                if isinstance(value, str):
                    value = float(value.strip())
                if isinstance(value, int | float) and not isinstance(value, bool):
                    return float(value)
            elif isinstance(value, str):
                return value
        except ValueError:
            pass
        raise ConfigError(f"data {self.path!r} expects {kind} (shipped value {self.value!r}), got {value!r}")

    def to_dict(self) -> dict[str, Any]:
        out = {"path": self.path, "value": self.value, "kind": self.kind, "assumed": list(self.assumed),
               "help": self.help}
        if self.limits is not None:
            out["min"], out["max"] = self.limits
        return out


def _read_limits(title: str, raw: Mapping[str, Any]) -> list[tuple[str, tuple[float, float]]]:
    """``{"pattern": [low, high], ...}`` (``fnmatch`` patterns over paths, the first match wins) checked."""
    out: list[tuple[str, tuple[float, float]]] = []
    for pattern, bounds in raw.items():
        if pattern.startswith("_"):
            continue  # a comment
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(
                isinstance(b, int | float) and not isinstance(b, bool) for b in bounds) and bounds[0] <= bounds[1]):
            raise DataError(f"{title} limits: {pattern!r} must be [lowest, highest], not {bounds!r}")
        out.append((pattern, (bounds[0], bounds[1])))
    return out


def _records(node: Mapping[str, Any]) -> tuple[str, ...]:
    found = node.get("assumed", node.get("record"))
    if isinstance(found, str):
        return (found,)
    if isinstance(found, list):
        return tuple(r for r in found if isinstance(r, str))
    return ()


class DataCatalog(Generic[T]):
    """The addressable values of one game's data, and the data built with overrides.

    ``read`` returns the decoded documents as ``{name: JSON}`` (a name ``""`` adds no path
    prefix); ``parse`` validates such documents and builds the game's data object, raising
    one of ``errors`` on a rule the data breaks. ``skip`` names fields never offered (ids,
    display names); ``exclude`` holds path patterns (``fnmatch`` style, a match also covers
    everything below it) left out: values offered elsewhere (e.g. as game parameters) or fixed
    by the rules;
    ``names`` gives the positions of small fixed lists under a field a name
    (``{"stats": ("value", "weight")}`` turns ``stats.0.1`` into ``stats.0.weight``);
    ``collapse`` names container fields that add no path segment (``{"cards": [...]}`` ->
    ``junk.SHIP-07...`` rather than ``junk.cards.SHIP-07...``); ``id_fields`` are the fields that
    name the objects of a list (the first one every object has); ``numbers_only`` leaves text out;
    ``default`` returns the game's already loaded shipped data (else ``parse`` builds it).
    """

    def __init__(
        self,
        title: str,
        read: Callable[[], Mapping[str, Any]],
        parse: Callable[[Mapping[str, Any]], T],
        *,
        skip: Iterable[str] = ("id",),
        exclude: Iterable[str] = (),
        names: Mapping[str, tuple[str, ...]] | None = None,
        collapse: Iterable[str] = (),
        id_fields: tuple[str, ...] = ("id",),
        numbers_only: bool = False,
        text: Iterable[str] = (),
        errors: tuple[type[Exception], ...] = (DataError,),
        cache_size: int = 32,
        default: Callable[[], T] | None = None,
        limits: Callable[[], Mapping[str, Any]] | None = None,
    ) -> None:
        self.title = title
        self._read = read
        self._parse = parse
        self._skip = frozenset(skip)
        self._exclude = tuple(exclude)
        self._names = dict(names or {})
        self._collapse = frozenset(collapse)
        self._id_fields = id_fields
        self._numbers_only = numbers_only
        self._text = tuple(text)
        self._errors = errors
        self._documents: Mapping[str, Any] | None = None
        self._keys: dict[str, DataKey] | None = None
        self._default: T | None = None
        self._load_default = default
        self._limits = limits
        self._built = lru_cache(maxsize=cache_size)(self._build)

    # ------------------------------------------------------------------ the shipped data
    @property
    def documents(self) -> Mapping[str, Any]:
        """The decoded data files, read once. Never modify them."""
        if self._documents is None:
            self._documents = self._read()
        return self._documents

    @property
    def default(self) -> T:
        """The game's data as shipped (parsed once and shared)."""
        if self._default is None:
            self._default = self._parse(self.documents) if self._load_default is None else self._load_default()
        return self._default

    def keys(self) -> dict[str, DataKey]:
        """Every addressable value, by path, in file order."""
        if self._keys is None:
            found: dict[str, DataKey] = {}
            for name, doc in self.documents.items():
                self._walk(doc, [name] if name else [], (name,), (), "", found)
            ranges = _read_limits(self.title, self._limits() if self._limits is not None else {})
            for path, key in found.items():
                if key.kind in ("int", "float"):
                    hit = next((r for pattern, r in ranges if fnmatch.fnmatchcase(path, pattern)), None)
                    if hit is not None:
                        found[path] = dataclasses.replace(key, limits=hit)
            self._keys = found
        return self._keys

    def unlimited(self) -> list[str]:
        """The numbers an override may change that have no declared range (a game should have none)."""
        return [p for p, k in self.keys().items() if k.kind in ("int", "float") and k.limits is None]

    def _walk(self, node: Any, path: list[str], where: tuple[str | int, ...], tags: tuple[str, ...], why: str,
              out: dict[str, DataKey]) -> None:
        dotted = ".".join(path)
        if any(fnmatch.fnmatchcase(dotted, ex) or fnmatch.fnmatchcase(dotted, ex + ".*") for ex in self._exclude):
            return
        if isinstance(node, dict):
            tags = tags + tuple(r for r in _records(node) if r not in tags)
            why = node["why"] if isinstance(node.get("why"), str) else why
            if "value" in node and ("record" in node or "assumed" in node):
                self._walk(node["value"], path, (*where, "value"), tags, why, out)
                return
            for key, value in node.items():
                if key.startswith("_") or key in self._skip or key in _META:
                    continue
                keep = [] if key in self._collapse and isinstance(value, list | dict) else [key]
                self._walk(value, [*path, *keep], (*where, key), tags, why, out)
        elif isinstance(node, list):
            id_field = next((f for f in self._id_fields if node and all(
                isinstance(x, dict) and isinstance(x.get(f), str | int) and not isinstance(x.get(f), bool)
                for x in node)), None)
            names = self._names.get(path[-2]) if len(path) >= 2 else None
            for i, item in enumerate(node):
                if id_field is not None:
                    segment = str(item[id_field])
                elif names is not None and len(node) == len(names):
                    segment = names[i]
                else:
                    segment = str(i)
                self._walk(item, [*path, segment], (*where, i), tags, why, out)
        elif node is not None and path and not (self._numbers_only and isinstance(node, str)
                                                and not any(fnmatch.fnmatchcase(dotted, t) for t in self._text)):
            if dotted in out:  # pragma: no cover - a data file with clashing ids
                raise DataError(f"{self.title}: two data values share the path {dotted!r}")
            out[dotted] = DataKey(dotted, node, tags, why, where)

    # ------------------------------------------------------------------ overrides
    def check(self, overrides: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
        """Validated overrides as sorted ``(path, value)`` pairs.

        An unknown path or a value of the wrong type raises :class:`ConfigError` naming the path
        (and the closest known ones); values that break the data rules raise
        :class:`DataOverrideError` with the loader's message. Nothing is cached on failure.
        """
        pairs = overrides.items() if isinstance(overrides, Mapping) else overrides
        keys = self.keys()
        checked: dict[str, Any] = {}
        for path, value in pairs:
            if not isinstance(path, str) or path not in keys:
                close = difflib.get_close_matches(str(path), keys, n=5, cutoff=0.6)
                hint = f"closest: {', '.join(close)}" if close else f"{len(keys)} known, e.g. {next(iter(keys), '-')}"
                raise ConfigError(f"{self.title} has no data value {path!r}; {hint}")
            checked[path] = keys[path].check(value)
        items = tuple(sorted(checked.items()))
        self.resolve(items)  # the game's own rules, now rather than in every later game
        return items

    def resolve(self, items: tuple[tuple[str, Any], ...]) -> T:
        """The game's data with checked ``items`` applied (the shared default when empty)."""
        if not items:
            return self.default
        return self._built(items)

    def _build(self, items: tuple[tuple[str, Any], ...]) -> T:
        documents = copy.deepcopy(dict(self.documents))
        keys = self.keys()
        for path, value in items:
            where = keys[path].where
            node: Any = documents
            for step in where[:-1]:
                node = node[step]
            node[where[-1]] = value
        try:
            return self._parse(documents)
        except self._errors as exc:
            changed = ", ".join(f"{p}={v!r}" for p, v in items)
            raise DataOverrideError(f"{self.title} data with {changed} breaks the data rules: {exc}") from exc


def split_settings(spec: Any, settings: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Sort ``--set`` style settings into game parameters and data overrides.

    A name of one of the game's parameters is a parameter; a path of its data catalog is a data
    override; anything else raises :class:`ConfigError` with the closest names. Values are left
    as given: ``spec.make_config(players, **params, data=data)`` checks them. ``spec`` is a
    :class:`~holotable.engine.GameSpec` or a game.
    """
    spec = getattr(spec, "spec", spec)
    param_names = {p.name for p in spec.params}
    catalog: DataCatalog[Any] | None = spec.data
    data_keys = catalog.keys() if catalog is not None else {}
    params: dict[str, Any] = {}
    data: dict[str, Any] = {}
    for name, value in settings.items():
        if name in param_names:
            params[name] = value
        elif name in data_keys:
            data[name] = value
        else:
            known = [*sorted(param_names), *data_keys]
            close = difflib.get_close_matches(name, known, n=5, cutoff=0.6)
            hint = f"closest: {', '.join(close)}" if close else f"parameters: {', '.join(sorted(param_names)) or '-'}"
            where = f"; list the data values with `holotable data {spec.name}`" if data_keys else ""
            raise ConfigError(f"{spec.name} has no parameter or data value {name!r}; {hint}{where}")
    return params, data
