"""Tutorials: a guided first game, as data. A scenario sets the table up; lessons explain each step.

A tutorial file (``format: holotable-tutorial``, documented in ``docs/tutorials.md``) holds a
:class:`~holotable.engine.scenario.Scenario` (the game, players, parameters and seed, and scripted
opening moves, if any, that the table plays before the learner sits down) and an ordered list of
**lessons**. Each lesson has a condition on what the learner's seat sees (``when``) and the words to
show (``say``), optionally a suggested move (``try``) and the rules it explains (``rules``, shown only
in a details line).

Lessons are reached in order: after every move, :meth:`Tutorial.advance` moves on through every next
lesson whose condition holds, so the script follows the game the learner actually plays (a bot's
moves, the learner's own choices) rather than one fixed line. Conditions look only at the learner's
own view, legal moves and log, so a tutorial can never tell the learner a secret.

>>> t = Tutorial.from_json({
...     "format": "holotable-tutorial", "version": 1, "title": "First game", "human": 0,
...     "scenario": {"format": "holotable-scenario", "version": 1, "game": "captain-black",
...                  "players": 2, "params": {"start_seat": 0}, "seed": 1},
...     "lessons": [{"when": {"asks": "draw"}, "say": "Draw coins."},
...                 {"when": {"view": {"ply": 5}}, "say": "Never shown here."}]})
>>> st = t.scenario.start()
>>> t.advance(0, st, since=-1)
1
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from .errors import ScenarioError
from .scenario import Scenario, resolve_path, same_json
from .state import State

FORMAT = "holotable-tutorial"
VERSION = 1

_KEYS = {"format", "version", "title", "intro", "human", "bots", "scenario", "lessons", "outro"}
_LESSON_KEYS = {"when", "say", "try", "rules"}
_WHEN_KEYS = {"asks", "view", "at_least", "event", "over"}
#: The bot levels a tutorial may seat against the learner (the lobby's, see holotable.server.bots).
LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Lesson:
    """One step of a tutorial: shown once its ``when`` holds for the learner's seat.

    ``when`` keys (all given must hold): ``asks`` (one of the learner's legal moves starts with these
    words), ``view`` (dotted paths of the learner's view and the values they must have), ``event`` (a
    log line of this kind reached the learner since the previous move), ``over`` (the game has ended).
    Paths start at the position: ``ply`` or ``view.<key>...`` (the learner's view). ``at_least`` maps
    paths to the numbers they must have reached: a count that may grow by more than one between the
    learner's turns is met by it, where ``view`` would wait for one exact value forever."""

    say: str
    when: Mapping[str, Any] = field(default_factory=dict)
    suggest: str | None = None
    rules: tuple[str, ...] = ()

    def holds(self, st: State[Any, Any], seat: int, since: int) -> bool:
        when = self.when
        if "over" in when and bool(when["over"]) != st.is_terminal():
            return False
        if "asks" in when:
            if st.is_terminal() or seat not in st.to_move():
                return False
            words = _words(when["asks"])
            game = st.game
            if not any(_words(game.action_to_str(a)).startswith(words) for a in st.legal_actions(seat)):
                return False
        if "view" in when or "at_least" in when:
            seen = {"ply": st.ply, "view": st.view(seat)}
            for path, expected in when.get("view", {}).items():
                found, actual = _lookup(seen, path)
                if not found or not same_json(actual, expected):
                    return False
            for path, least in when.get("at_least", {}).items():
                found, actual = _lookup(seen, path)
                if not found or isinstance(actual, bool) or not isinstance(actual, int | float) or actual < least:
                    return False
        if "event" in when:
            kind = when["event"]
            if not any(e.kind == kind and e.ply > since for e in st.log_for(seat)):
                return False
        return True

    def to_dict(self) -> dict[str, Any]:
        """What the learner's page shows: the words, the suggested move, the rules for a details line."""
        return {"say": self.say, "try": self.suggest, "rules": list(self.rules)}


@dataclass(frozen=True)
class Tutorial:
    """A parsed tutorial file. Build one with :meth:`from_json`, :meth:`load` or :meth:`from_resource`."""

    title: str
    scenario: Scenario
    human: int
    lessons: tuple[Lesson, ...]
    intro: str = ""
    outro: str = ""
    bots: str = "easy"

    @property
    def game(self) -> str:
        return self.scenario.game

    @classmethod
    def from_json(cls, obj: object) -> Tutorial:
        """Parse a decoded JSON object; raise :class:`ScenarioError` saying what is wrong."""
        if not isinstance(obj, dict):
            raise ScenarioError("a tutorial must be a JSON object")
        unknown = sorted(set(obj) - _KEYS)
        if unknown:
            raise ScenarioError(f"unknown tutorial key(s) {unknown}; known: {sorted(_KEYS)}")
        if obj.get("format") != FORMAT or obj.get("version") != VERSION:
            raise ScenarioError(f"a tutorial needs 'format': {FORMAT!r} and 'version': {VERSION}")
        scenario = Scenario.from_json(obj.get("scenario"))
        if scenario.arrangement or scenario.chance:
            # A table is rebuilt from its seed and its moves alone; an arranged start could not be.
            raise ScenarioError("a tutorial's scenario sets the table up by seed and moves: no arrangement or chance")
        human = obj.get("human", 0)
        if not isinstance(human, int) or isinstance(human, bool) or human < 0:
            raise ScenarioError("'human' must be the learner's seat number")
        if scenario.players is not None and human >= scenario.players:
            raise ScenarioError(f"'human' is seat {human}, but the game has {scenario.players} players")
        bots = obj.get("bots", "easy")
        if bots not in LEVELS:
            raise ScenarioError(f"'bots' must be one of {list(LEVELS)}, not {bots!r}")
        lessons = obj.get("lessons")
        if not isinstance(lessons, list) or not lessons:
            raise ScenarioError("a tutorial needs a non-empty list of 'lessons'")
        return cls(
            title=_text(obj, "title", required=True), scenario=scenario, human=human,
            lessons=tuple(_lesson(i, item) for i, item in enumerate(lessons)),
            intro=_text(obj, "intro"), outro=_text(obj, "outro"), bots=bots,
        )

    @classmethod
    def from_resource(cls, package: str, path: str) -> Tutorial:
        """The tutorial file ``path`` inside ``package`` (a game's ``data/tutorial.json``)."""
        try:
            text = resources.files(package).joinpath(path).read_text(encoding="utf-8")
            return cls.from_json(json.loads(text))
        except (OSError, json.JSONDecodeError, ScenarioError) as exc:
            raise ScenarioError(f"{package}:{path}: {exc}") from exc

    def advance(self, reached: int, st: State[Any, Any], since: int) -> int:
        """How many lessons are reached at ``st``, ``reached`` having been reached before (``since``: the
        ply of the previous position, for ``event`` conditions): every next lesson that holds now."""
        while reached < len(self.lessons) and self.lessons[reached].holds(st, self.human, since):
            reached += 1
        return reached


@dataclass
class Progress:
    """How far a learner got: the lessons reached, where the latest position's new ones start, and the
    ply of the position last noted (for ``event`` conditions). :meth:`note` every position in order: the
    new state, then after each move (a table's rebuild replays them, so a restart or an undo agrees)."""

    reached: int = 0
    new_from: int = 0
    since: int = -1

    def note(self, tutorial: Tutorial, st: State[Any, Any]) -> None:
        before = self.reached
        self.reached = tutorial.advance(before, st, self.since)
        if self.reached > before:
            self.new_from = before
        self.since = st.ply


def _lookup(seen: Mapping[str, Any], path: str) -> tuple[bool, Any]:
    try:
        return True, resolve_path(seen, path.split("."))
    except LookupError:
        return False, None


def _words(text: str) -> str:
    return " ".join(str(text).split()).lower()


def _text(obj: Mapping[str, Any], key: str, *, required: bool = False) -> str:
    value = obj.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise ScenarioError(f"{key!r} must be {'non-empty ' if required else ''}text")
    return value


def _lesson(index: int, item: object) -> Lesson:
    where = f"lesson {index}"
    if not isinstance(item, dict):
        raise ScenarioError(f"{where} must be an object")
    unknown = sorted(set(item) - _LESSON_KEYS)
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {unknown}; known: {sorted(_LESSON_KEYS)}")
    say = item.get("say")
    if not isinstance(say, str) or not say.strip():
        raise ScenarioError(f"{where} needs its words, 'say'")
    when = item.get("when", {})
    if not isinstance(when, dict) or set(when) - _WHEN_KEYS:
        raise ScenarioError(f"{where}: 'when' takes only {sorted(_WHEN_KEYS)}")
    if "view" in when and not isinstance(when["view"], dict):
        raise ScenarioError(f"{where}: 'when.view' maps dotted paths to values")
    least = when.get("at_least", {})
    if not isinstance(least, dict) or not all(
            isinstance(n, int | float) and not isinstance(n, bool) for n in least.values()):
        raise ScenarioError(f"{where}: 'when.at_least' maps dotted paths to numbers")
    suggest = item.get("try")
    if suggest is not None and not isinstance(suggest, str):
        raise ScenarioError(f"{where}: 'try' is the words of a move")
    rules = item.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise ScenarioError(f"{where}: 'rules' is a list of rule IDs")
    return Lesson(say=say, when=when, suggest=suggest, rules=tuple(rules))
