"""Scenarios: a game, a seed, an arranged start, scripted actions and expected results, as JSON.

A scenario file pins a rulebook example (or a bug report) down as data that any
game can run. The format is documented in ``docs/scenarios.md``:

>>> scenario = Scenario.from_json({
...     "format": "holotable-scenario", "version": 1, "game": "captain-black", "players": 2,
...     "params": {"start_seat": 0}, "seed": 1, "actions": [{"seat": 0, "action": "draw 1"}],
...     "expect": {"ply": 1, "to_move": [1], "data.island": 0},
... })
>>> state, mismatches = run_scenario(scenario)
>>> mismatches
[]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .errors import ActionError, ConfigError, ScenarioError, UnknownGameError
from .registry import load
from .state import State

FORMAT = "holotable-scenario"
VERSION = 1

_KEYS = {"format", "version", "game", "players", "params", "seed", "arrangement", "chance", "actions", "expect",
         "title", "description", "rules"}
_REQUIRED = ("format", "version", "game")


class ScenarioAction(NamedTuple):
    """One scripted action: ``seat`` (``None``: the only seat asked) plays ``action`` (text or index)."""

    seat: int | None
    action: str | int


class Mismatch(NamedTuple):
    """An expectation that did not hold. ``actual`` is ``None`` with a ``note`` when the path is missing."""

    path: str
    expected: Any
    actual: Any
    note: str = ""

    def __str__(self) -> str:
        if self.note:
            return f"{self.path}: {self.note} (expected {json.dumps(self.expected)})"
        return f"{self.path}: expected {json.dumps(self.expected)}, got {json.dumps(self.actual)}"


@dataclass(frozen=True)
class Scenario:
    """A parsed scenario file. Build one with :meth:`from_json` or :meth:`load`."""

    game: str
    players: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    arrangement: dict[str, Any] = field(default_factory=dict)
    #: Scripted outcomes of chance events, by the game's event names (``engine.chance``).
    chance: dict[str, Any] = field(default_factory=dict)
    actions: tuple[ScenarioAction, ...] = ()
    expect: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    description: str = ""
    rules: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, obj: object) -> Scenario:
        """Parse a decoded JSON object; raise :class:`ScenarioError` saying what is wrong."""
        if not isinstance(obj, dict):
            raise ScenarioError(f"a scenario must be a JSON object, got {_kind(obj)}")
        unknown = sorted(set(obj) - _KEYS)
        if unknown:
            raise ScenarioError(f"unknown scenario key(s) {unknown}; known: {sorted(_KEYS)}")
        for key in _REQUIRED:
            if key not in obj:
                raise ScenarioError(f"the scenario has no {key!r}")
        if obj["format"] != FORMAT:
            raise ScenarioError(f"'format' must be {FORMAT!r}, got {obj['format']!r}")
        if obj["version"] != VERSION or isinstance(obj["version"], bool):
            raise ScenarioError(f"'version' {obj['version']!r} is not supported (only {VERSION})")
        game = _typed(obj, "game", str)
        players = obj.get("players")
        if players is not None and not _is_int(players):
            raise ScenarioError(f"'players' must be an integer, got {_kind(players)}")
        seed = obj.get("seed", 0)
        if not _is_int(seed):
            raise ScenarioError(f"'seed' must be an integer, got {_kind(seed)}")
        rules = _typed(obj, "rules", list, [])
        if not all(isinstance(r, str) for r in rules):
            raise ScenarioError("'rules' must be a list of rule IDs (strings)")
        return cls(
            game=game,
            players=players,
            params=_typed(obj, "params", dict, {}),
            seed=seed,
            arrangement=_typed(obj, "arrangement", dict, {}),
            chance=_typed(obj, "chance", dict, {}),
            actions=tuple(_action(i, a) for i, a in enumerate(_typed(obj, "actions", list, []))),
            expect=_typed(obj, "expect", dict, {}),
            title=_typed(obj, "title", str, ""),
            description=_typed(obj, "description", str, ""),
            rules=tuple(rules),
        )

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        """Read a scenario file; unreadable or malformed files raise :class:`ScenarioError` naming it."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ScenarioError(f"cannot read scenario {path}: {exc}") from exc
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"{path} is not valid JSON: {exc}") from exc
        try:
            return cls.from_json(obj)
        except ScenarioError as exc:
            raise ScenarioError(f"{path}: {exc}") from exc

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game}
        if self.title:
            out["title"] = self.title
        if self.description:
            out["description"] = self.description
        if self.rules:
            out["rules"] = list(self.rules)
        if self.players is not None:
            out["players"] = self.players
        out["params"] = dict(self.params)
        out["seed"] = self.seed
        out["arrangement"] = dict(self.arrangement)
        if self.chance:
            out["chance"] = dict(self.chance)
        out["actions"] = [
            {"action": a.action} if a.seat is None else {"seat": a.seat, "action": a.action} for a in self.actions
        ]
        out["expect"] = dict(self.expect)
        return out

    def start(self, *, record: bool = False) -> State[Any, Any]:
        """The arranged starting state, before any scripted action."""
        try:
            game = load(self.game)
            config = game.spec.make_config(self.players, **self.params)
            state: State[Any, Any] = State.new(game, config, self.seed, record=record)
        except (UnknownGameError, ConfigError) as exc:
            raise ScenarioError(f"cannot set up the game: {exc}") from exc
        if self.chance:  # first: an arrangement may already play automatic steps that take chance
            state.script_chance(self.chance)
        if self.arrangement:
            state.arrange(self.arrangement)
        return state


def run_scenario(scenario: Scenario, *, record: bool = False) -> tuple[State[Any, Any], list[Mismatch]]:
    """Set up, arrange, play the scripted actions; return the state and the unmet expectations.

    A refused action raises :class:`ScenarioError` naming its index and the engine's
    reason; a failed expectation is returned as a :class:`Mismatch`, never raised.
    """
    state = scenario.start(record=record)
    for index, (seat, action) in enumerate(scenario.actions):
        try:
            state.apply(action, seat)
        except ActionError as exc:
            who = "the seat to move" if seat is None else f"seat {seat}"
            raise ScenarioError(f"action {index} ({action!r} by {who}) was refused: {exc}") from exc
    return state, check_expectations(state, scenario.expect)


def check_expectations(state: State[Any, Any], expect: Mapping[str, Any]) -> list[Mismatch]:
    """Compare each dotted path of ``expect`` with the state (``state.full()``, or ``outcome.*``)."""
    full = state.full()
    outcome = state.outcome().to_dict() if state.is_terminal() else None
    mismatches: list[Mismatch] = []
    for path, expected in expect.items():
        parts = path.split(".")
        if parts[0] == "outcome":
            if outcome is None:
                mismatches.append(Mismatch(path, expected, None, "the game is not over, so there is no outcome"))
                continue
            root: Any = outcome
            parts = parts[1:]
        else:
            root = full
        try:
            actual = resolve_path(root, parts)
        except LookupError as exc:
            mismatches.append(Mismatch(path, expected, None, str(exc.args[0])))
            continue
        if not same_json(actual, expected):
            mismatches.append(Mismatch(path, expected, actual))
    return mismatches


def resolve_path(data: Any, parts: Sequence[str]) -> Any:
    """Follow ``parts`` through nested dicts and lists (a list takes an index, negative allowed).

    >>> resolve_path({"data": {"chests": [[], ["filled"]]}}, "data.chests.1.0".split("."))
    'filled'

    Raises :class:`LookupError` saying where the path ends.
    """
    node = data
    for depth, part in enumerate(parts):
        where = ".".join(parts[:depth]) or "the state"
        if isinstance(node, Mapping):
            if part not in node:
                raise LookupError(f"{where} has no key {part!r}")
            node = node[part]
        elif isinstance(node, list | tuple):
            try:
                index = int(part)
            except ValueError:
                raise LookupError(f"{where} is a list; {part!r} is not an index") from None
            if not -len(node) <= index < len(node):
                raise LookupError(f"{where} has {len(node)} items; there is no index {index}")
            node = node[index]
        else:
            raise LookupError(f"{where} is {json.dumps(node)}, which has no {part!r}")
    return node


def same_json(a: Any, b: Any) -> bool:
    """Equality as JSON sees it: lists equal tuples, 5 equals 5.0, but ``true`` is not ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return set(a) == set(b) and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, Mapping | list | tuple | int | float) or isinstance(b, Mapping | list | tuple | int | float):
        return False
    return bool(a == b)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: object) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


_JSON_NAMES: dict[type, str] = {str: "a string", list: "a list", dict: "an object"}


def _typed(obj: Mapping[str, Any], key: str, kind: type, default: Any = None) -> Any:
    if key not in obj:
        return default
    value = obj[key]
    if not isinstance(value, kind):
        raise ScenarioError(f"{key!r} must be {_JSON_NAMES[kind]}, got {_kind(value)}")
    return value


def _action(index: int, entry: object) -> ScenarioAction:
    if isinstance(entry, str):  # shorthand: the only seat asked plays it
        return ScenarioAction(None, entry)
    if not isinstance(entry, dict):
        raise ScenarioError(f"actions[{index}] must be an object {{'seat': S, 'action': TEXT}}, got {_kind(entry)}")
    unknown = sorted(set(entry) - {"seat", "action"})
    if unknown:
        raise ScenarioError(f"actions[{index}] has unknown key(s) {unknown}; known: ['action', 'seat']")
    if "action" not in entry:
        raise ScenarioError(f"actions[{index}] has no 'action'")
    action = entry["action"]
    if not isinstance(action, str) and not _is_int(action):
        raise ScenarioError(f"actions[{index}].action must be text or an action index, got {_kind(action)}")
    seat = entry.get("seat")
    if seat is not None and not _is_int(seat):
        raise ScenarioError(f"actions[{index}].seat must be an integer, got {_kind(seat)}")
    return ScenarioAction(seat, action)
