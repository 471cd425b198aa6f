"""A match is its config, seed and action log: replay is exact and saving is cheap.

While a game with secrets runs, its seed is one of them (with the seed, the whole deal and every
future draw can be computed), so a save written mid-game can hold it sealed: the caller passes a
:class:`SeedSeal` and the file holds only ``sealed_seed``. The engine does no I/O; where the key
lives is the caller's business (the terminal keeps one per user, ``holotable.cli.seal``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .errors import ActionError, ConfigError, HolotableError, SaveError
from .game import Game
from .registry import load
from .spec import Config
from .state import State
from .undo import Step, play, undo_target

SAVE_FORMAT = "holotable-match"
SAVE_VERSION = 1


class SeedSeal(Protocol):
    """Turns a seed into a token only its keeper can read back (and back again)."""

    def seal(self, seed: int) -> str: ...

    def unseal(self, token: str) -> int:
        """The sealed seed; :class:`SaveError` when the token is not one of this keeper's."""
        ...


@dataclass
class Match:
    """A game being played or replayed: everything needed to rebuild any position.

    >>> import holotable
    >>> m = Match.new(holotable.load("captain-black"), players=2, seed=3)
    >>> step = m.play("draw 2")
    >>> Match.from_json(m.to_json()).state.fingerprint() == m.state.fingerprint()
    True
    """

    game: Game[Any, Any]
    config: Config
    seed: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    #: Indices of ``actions`` that the table played on a seat's behalf (a clock's deadline, a timeout).
    table_moves: frozenset[int] = frozenset()
    state: State[Any, Any] = field(init=False)
    #: What each action did, for the undo policy (:mod:`holotable.engine.undo`); parallel to ``actions``.
    steps: list[Step] = field(init=False)

    def __post_init__(self) -> None:
        self._replay(list(self.actions), set(self.table_moves))

    def _replay(self, logged: list[tuple[int, str]], by_table: set[int]) -> None:
        self.state = State.new(self.game, self.config, self.seed, record=True)
        self.actions, self.steps, self.table_moves = [], [], frozenset()
        for i, (seat, text) in enumerate(logged):
            try:
                self.play(text, seat, by_table=i in by_table)
            except ActionError as exc:
                raise SaveError(f"action {i + 1} ({text!r} by seat {seat}) does not replay: {exc}") from exc

    @classmethod
    def new(cls, game: Game[Any, Any], players: int | None = None, seed: int = 0, **params: Any) -> Match:
        return cls(game, game.spec.make_config(players, **params), seed)

    # ------------------------------------------------------------------ play
    def play(self, action: object, seat: int | None = None, *, by_table: bool = False) -> Step:
        """Apply an action to the live state and log it (refused actions log nothing).

        ``by_table``: the table plays it on the seat's behalf (a clock's deadline), so the seat
        cannot take it back.
        """
        step = play(self.state, action, seat, by_table=by_table)
        self.actions.append((step.seat, step.text))
        self.steps.append(step)
        if by_table:
            self.table_moves = self.table_moves | {len(self.steps) - 1}
        return step

    def take_back(self, seat: int) -> Step:
        """Take back ``seat``'s last action under the undo policy, and return it.

        Raises :class:`~holotable.engine.undo.UndoRefusedError` saying why when the policy
        refuses (the state is then unchanged). A sealed choice is withdrawn wherever it lies
        among the others' sealed choices; any other take-back is of the last action.
        """
        index = undo_target(self.steps, self.state.pending, self.state.is_terminal(), seat)
        step = self.steps[index]
        kept = [a for i, a in enumerate(self.actions) if i != index]
        by_table = {i - (i > index) for i in self.table_moves if i != index}
        self._replay(kept, by_table)
        return step

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
        """Step back ``plies`` actions whoever played them (by replaying the rest).

        A tool for replays and tests: it ignores the undo policy. A seat at a table takes
        its own action back with :meth:`take_back`.
        """
        keep = max(0, len(self.actions) - plies)
        self._replay(self.actions[:keep], {i for i in self.table_moves if i < keep})

    # ------------------------------------------------------------------ save / load
    @property
    def seed_is_secret(self) -> bool:
        """Whether the seed still tells a player something no view does: the game is not over
        and it has hidden information or chance (the seed fixes every deal and draw)."""
        return self.game.spec.has_secrets and not self.state.is_terminal()

    def to_dict(self, seal: SeedSeal | None = None) -> dict[str, Any]:
        """The save. With ``seal``, a seed that is still a secret (:attr:`seed_is_secret`) is
        written sealed (``sealed_seed``) instead of in the clear."""
        out: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.spec.name,
            "game_version": self.game.spec.version,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "actions": [
                {"seat": s, "action": a, **({"by": "table"} if i in self.table_moves else {})}
                for i, (s, a) in enumerate(self.actions)
            ],
            "meta": self.meta,
        }
        if seal is not None and self.seed_is_secret:
            out["seed"] = None
            out["sealed_seed"] = seal.seal(self.seed)
        return out

    def to_json(self, seal: SeedSeal | None = None) -> str:
        return json.dumps(self.to_dict(seal), indent=1)

    def save(self, path: str | Path, seal: SeedSeal | None = None) -> None:
        Path(path).write_text(self.to_json(seal), encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Any, seal: SeedSeal | None = None) -> Match:
        """Rebuild a match; anything wrong raises :class:`SaveError` saying what.

        A save whose seed is sealed needs the ``seal`` that sealed it."""
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
        if seed is None and "sealed_seed" in data:
            token = data["sealed_seed"]
            if seal is None:
                raise SaveError("the save's seed is sealed (a game saved before its end) and no key was given")
            if not isinstance(token, str):
                raise SaveError("the save's sealed seed must be text")
            seed = seal.unseal(token)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SaveError("the save's seed must be an integer")
        raw = data.get("actions")
        if not isinstance(raw, list):
            raise SaveError("the save's actions must be a list")
        actions: list[tuple[int, str]] = []
        table_moves: set[int] = set()
        for i, entry in enumerate(raw):
            if (
                not isinstance(entry, dict)
                or isinstance(entry.get("seat"), bool)
                or not isinstance(entry.get("seat"), int)
                or not isinstance(entry.get("action"), str)
                or entry.get("by", "seat") not in ("seat", "table")
            ):
                raise SaveError(f"action {i + 1} must be an object with an integer seat and a text action")
            actions.append((entry["seat"], entry["action"]))
            if entry.get("by") == "table":
                table_moves.add(i)
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise SaveError("the save's meta must be an object")
        try:
            return cls(game, config, seed, actions, meta, frozenset(table_moves))
        except ConfigError as exc:  # a config the spec accepts but the game's set-up refuses
            raise SaveError(f"bad config in save: {exc}") from exc

    @classmethod
    def from_json(cls, text: str, seal: SeedSeal | None = None) -> Match:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveError(f"the save is not valid JSON: {exc}") from exc
        return cls.from_dict(data, seal)

    @classmethod
    def load(cls, path: str | Path, seal: SeedSeal | None = None) -> Match:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SaveError(f"cannot read {path}: {exc}") from exc
        return cls.from_json(text, seal)
