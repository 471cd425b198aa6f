"""A match is its config, seed and action log: replay is exact and saving is cheap."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ActionError, ConfigError, HolotableError, SaveError
from .game import Game
from .registry import load
from .spec import Config
from .state import State

SAVE_FORMAT = "holotable-match"
SAVE_VERSION = 1


@dataclass
class Match:
    """A game being played or replayed: everything needed to rebuild any position.

    >>> import holotable
    >>> m = Match.new(holotable.load("captain-black"), players=2, seed=3)
    >>> m.play("draw 2")
    >>> Match.from_json(m.to_json()).state.fingerprint() == m.state.fingerprint()
    True
    """

    game: Game[Any, Any]
    config: Config
    seed: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    state: State[Any, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.state = State.new(self.game, self.config, self.seed, record=True)
        logged, self.actions = self.actions, []
        for i, (seat, text) in enumerate(logged):
            try:
                self.play(text, seat)
            except ActionError as exc:
                raise SaveError(f"action {i + 1} ({text!r} by seat {seat}) does not replay: {exc}") from exc

    @classmethod
    def new(cls, game: Game[Any, Any], players: int | None = None, seed: int = 0, **params: Any) -> Match:
        return cls(game, game.spec.make_config(players, **params), seed)

    # ------------------------------------------------------------------ play
    def play(self, action: object, seat: int | None = None) -> None:
        """Apply an action to the live state and log it (refused actions log nothing)."""
        st = self.state
        if seat is None:
            seat = st._only_seat()
        act = st._coerce(action)
        st.apply(act, seat)
        self.actions.append((seat, st.game.action_to_str(act)))

    def state_at(self, ply: int) -> State[Any, Any]:
        """A fresh state after the first ``ply`` actions (0 = the start)."""
        if not 0 <= ply <= len(self.actions):
            raise IndexError(f"ply {ply} is outside 0..{len(self.actions)}")
        st = State.new(self.game, self.config, self.seed, record=True)
        for seat, text in self.actions[:ply]:
            st.apply(text, seat)
        return st

    def states(self) -> Iterator[State[Any, Any]]:
        """Every position from the start to now, each an independent state."""
        st = State.new(self.game, self.config, self.seed, record=True)
        yield st.clone()
        for seat, text in self.actions:
            st.apply(text, seat)
            yield st.clone()

    def undo(self, plies: int = 1) -> None:
        """Step back ``plies`` actions (by replaying the rest)."""
        keep = max(0, len(self.actions) - plies)
        self.state = self.state_at(keep)
        del self.actions[keep:]

    # ------------------------------------------------------------------ save / load
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.spec.name,
            "game_version": self.game.spec.version,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "meta": self.meta,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        """Rebuild a match; anything wrong raises :class:`SaveError` saying what."""
        if not isinstance(data, dict):
            raise SaveError("a saved match must be a JSON object")
        if data.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a holotable match file (format={data.get('format')!r})")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"unsupported save version {data.get('version')!r}")
        try:
            game = load(str(data.get("game")))
            config = game.spec.config_from_dict(data.get("config", {}))
        except HolotableError as exc:
            raise SaveError(f"bad game or config in save: {exc}") from exc
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SaveError("the save's seed must be an integer")
        raw = data.get("actions")
        if not isinstance(raw, list):
            raise SaveError("the save's actions must be a list")
        actions: list[tuple[int, str]] = []
        for i, entry in enumerate(raw):
            if (
                not isinstance(entry, dict)
                or isinstance(entry.get("seat"), bool)
                or not isinstance(entry.get("seat"), int)
                or not isinstance(entry.get("action"), str)
            ):
                raise SaveError(f"action {i + 1} must be an object with an integer seat and a text action")
            actions.append((entry["seat"], entry["action"]))
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise SaveError("the save's meta must be an object")
        try:
            return cls(game, config, seed, actions, meta)
        except ConfigError as exc:  # a config the spec accepts but the game's set-up refuses
            raise SaveError(f"bad config in save: {exc}") from exc

    @classmethod
    def from_json(cls, text: str) -> Match:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveError(f"the save is not valid JSON: {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Match:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SaveError(f"cannot read {path}: {exc}") from exc
        return cls.from_json(text)
