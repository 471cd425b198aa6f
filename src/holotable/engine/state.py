"""The engine's state container: game data + RNG + sealed choices + action log."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Generic

from .chance import NO_SCRIPT, Script, parse
from .errors import GameOverError, IllegalActionError, MalformedActionError, NotYourTurnError, ScenarioError
from .events import Event
from .game import A, D, Game
from .outcome import Outcome
from .rng import Rng
from .spec import Config

# The action log is a linked chain of (parent, seat, action) tuples so that cloning
# a state is O(1) in the length of the game.
_LogNode = tuple[Any, int, Any] | None


class State(Generic[D, A]):
    """A position in a match. Mutated by :meth:`apply`; :meth:`clone` for search.

    >>> import holotable
    >>> st = holotable.load("captain-black").new_state(players=2, seed=1, start_seat=1)
    >>> st.to_move()
    (1,)
    >>> st.apply("draw 1")
    >>> st.ply
    1
    """

    __slots__ = ("_log", "config", "data", "events", "game", "pending", "ply", "reveals", "rng", "script", "seed")

    def __init__(
        self,
        game: Game[D, A],
        config: Config,
        data: D,
        rng: Rng,
        seed: int,
        *,
        record: bool = False,
    ) -> None:
        self.game = game
        self.config = config
        self.data = data
        self.rng = rng
        self.seed = seed
        #: Sealed choices already made in the current simultaneous decision.
        self.pending: dict[int, A] = {}
        self.ply = 0
        #: How often the rules have shown someone hidden information (see :meth:`reveal`).
        self.reveals = 0
        #: Scripted chance outcomes still to come (a scenario's ``chance``, see :mod:`holotable.engine.chance`).
        self.script: Script = NO_SCRIPT
        self._log: _LogNode = None
        #: The match log (``None`` when not recording, as in search and simulation).
        self.events: list[Event] | None = [] if record else None

    @classmethod
    def new(cls, game: Game[D, A], config: Config, seed: int, *, record: bool = False) -> State[D, A]:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError("seed must be an int")
        rng = Rng(seed)
        st = cls(game, config, game.setup(config, rng), rng, seed, record=record)
        return st

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> int:
        return self.config.players

    def to_move(self) -> tuple[int, ...]:
        """Seats that owe a decision now (seats that already made a sealed choice excluded)."""
        seats = self.game.to_move(self)
        if self.pending:
            return tuple(s for s in seats if s not in self.pending)
        return seats

    def is_terminal(self) -> bool:
        return self.game.is_terminal(self)

    def outcome(self) -> Outcome:
        if not self.game.is_terminal(self):
            raise IllegalActionError("the game is not over yet")
        return self.game.outcome(self)

    @property
    def opened_ply(self) -> int:
        """The ply at which the current decision opened: the sealed choices already made in it (``pending``)
        change nothing on the table, so they do not count."""
        return self.ply - len(self.pending)

    def decision_key(self, seat: int) -> Any:
        """What ``seat``'s current decision rests on (see :meth:`Game.decision_key`)."""
        return self.game.decision_key(self, seat)

    def legal_actions(self, seat: int | None = None) -> Sequence[A]:
        """Legal actions of ``seat`` (default: the only seat to move). Empty if not asked."""
        if seat is None:
            seat = self._only_seat()
        if seat not in self.to_move():
            return ()
        return self.game.legal_actions(self, seat)

    def action_mask(self, seat: int | None = None) -> list[int]:
        """0/1 per integer action index; all zero when ``seat`` is not asked."""
        mask = [0] * self.game.num_actions(self.config)
        for action in self.legal_actions(seat):
            mask[self.game.action_index(action)] = 1
        return mask

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready; ``None`` is a spectator."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalActionError(f"there is no seat {seat}")
        out: dict[str, Any] = {
            "game": self.game.spec.name,
            "players": self.players,
            "seat": seat,
            "ply": self.ply,
            "to_move": list(self.to_move()),
            "terminal": self.is_terminal(),
        }
        if self.pending:
            out["committed"] = sorted(self.pending)
            if seat is not None and seat in self.pending:
                out["my_choice"] = self.game.action_to_str(self.pending[seat])
        if out["terminal"]:
            out["outcome"] = self.outcome().to_dict()
        out.update(self.game.view(self, seat))
        return out

    def log_for(self, seat: int | None) -> list[Event]:
        """The recorded events ``seat`` may see."""
        if self.events is None:
            return []
        return [e for e in self.events if e.visible_to(seat)]

    @property
    def history(self) -> list[tuple[int, A]]:
        """Every accepted (seat, action), oldest first."""
        out: list[tuple[int, A]] = []
        node = self._log
        while node is not None:
            node, seat, action = node
            out.append((seat, action))
        out.reverse()
        return out

    def full(self) -> dict[str, Any]:
        """Everything, secrets included (scenarios, debugging)."""
        return {
            "game": self.game.spec.name,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "ply": self.ply,
            "to_move": list(self.to_move()),
            "pending": {str(s): self.game.action_to_str(a) for s, a in sorted(self.pending.items())},
            "terminal": self.is_terminal(),
            "data": self.game.full(self),
        }

    def fingerprint(self) -> str:
        """A hash of the full state and the RNG: equal fingerprints, equal futures."""
        text = json.dumps(self.full(), sort_keys=True, separators=(",", ":"))
        if self.script:  # scripted chance decides the future as much as the RNG does
            text += json.dumps(dict(self.script), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256((text + self.rng.fingerprint()).encode()).hexdigest()

    # ------------------------------------------------------------------ changes
    def _only_seat(self) -> int:
        seats = self.to_move()
        if len(seats) == 1:
            return seats[0]
        if not seats:
            raise GameOverError("the game is over") if self.is_terminal() else NotYourTurnError(
                "no seat is asked to move"
            )
        raise NotYourTurnError(f"several seats are asked ({list(seats)}); say which seat acts")

    def _coerce(self, action: object) -> A:
        """The game's action for an action object, its text or its integer index.

        An index is checked against this config's action space here, because the
        game's ``index_action`` does not know the config (the space may grow with
        the player count) and a game without an integer space would raise
        ``NotImplementedError`` rather than refuse the input.
        """
        game = self.game
        if isinstance(action, int) and not isinstance(action, bool) and not game.actions_are_ints:
            try:
                size = game.num_actions(self.config)
            except NotImplementedError:
                raise MalformedActionError(
                    f"{game.spec.title} has no integer actions; give the action or its text"
                ) from None
            if not 0 <= action < size:
                raise MalformedActionError(f"action index must be 0..{size - 1}, got {action}")
        return game.coerce_action(action)

    def apply(self, action: object, seat: int | None = None) -> None:
        """Check and apply ``action`` (an action, its text or its index) for ``seat``.

        Raises a subclass of :class:`~holotable.engine.errors.ActionError` and
        leaves the state untouched when the action is refused.
        """
        game = self.game
        if game.is_terminal(self):
            raise GameOverError("the game is over; no further action is accepted")
        asked = self.to_move()
        if seat is None:
            seat = self._only_seat()
        elif isinstance(seat, bool) or not isinstance(seat, int):
            raise MalformedActionError(f"seat must be an integer, got {seat!r}")
        elif seat not in asked:
            if not 0 <= seat < self.players:
                raise NotYourTurnError(f"there is no seat {seat}")
            if seat in self.pending:
                raise NotYourTurnError(f"seat {seat} has already chosen this step")
            raise NotYourTurnError(f"seat {seat} is not asked to move (waiting for {list(asked)})")
        act = self._coerce(action)
        game.check(self, seat, act)
        self.ply += 1
        self._log = (self._log, seat, act)
        if (len(asked) > 1 or self.pending) and game.sealed(self):
            self.pending[seat] = act
            if len(asked) == 1:  # the last sealed choice is in: resolve them together
                choices, self.pending = self.pending, {}
                game.resolve(self, choices)
            return
        game.apply(self, seat, act)

    def arrange(self, arrangement: Mapping[str, Any]) -> None:
        """Override parts of this fresh state through the game's ``arrange`` hook (scenarios).

        All or nothing: the hook works on a clone, which replaces this state's data only
        when every key was accepted; on a :class:`ScenarioError` nothing has changed.
        """
        if self.ply or self.pending:
            # An arranged position has no action log that leads to it, so only a start may be arranged.
            raise ScenarioError("only a freshly set-up state (ply 0) can be arranged")
        if not isinstance(arrangement, Mapping):
            raise ScenarioError(f"an arrangement must be a JSON object, got {type(arrangement).__name__}")
        trial = self.clone(keep_events=False)
        self.game.arrange(trial, arrangement)
        self.data = trial.data
        self.rng = trial.rng
        self.script = trial.script

    def script_chance(self, chance: Mapping[str, Any]) -> None:
        """Fix the outcomes of coming chance events (a scenario's ``chance``: ``{event: [outcomes]}``).

        The game names its events and checks each outcome's form (:meth:`Game.chance_events`);
        a bad entry raises :class:`ScenarioError` and changes nothing. The outcomes are added
        after any already scripted for the same event.
        """
        script = dict(self.script)
        for event, outcomes in parse(chance, self.game.chance_events(self)).items():
            script[event] = script.get(event, ()) + outcomes
        self.script = script

    def child(self, action: object, seat: int | None = None) -> State[D, A]:
        """A clone with ``action`` applied; this state is unchanged."""
        nxt = self.clone()
        nxt.apply(action, seat)
        return nxt

    def reveal(self) -> None:
        """Note that the rules just showed someone hidden information.

        A game calls this wherever a face turns up, a card is drawn into a hand or looked
        at, a script is read, or a message leaves for another player: whenever a seat
        learns something that no earlier view told it. Nothing else reads the count but
        the undo policy (:mod:`holotable.engine.undo`): an action that revealed something
        cannot be taken back, because its author (or someone else) has already seen it.
        Chance needs no call (the engine sees the RNG move), and neither does the reveal
        of sealed choices (the engine resolves them). The conformance kit checks that a
        game never reveals without saying so (``check_reveals_are_declared``).
        """
        self.reveals += 1

    def emit(self, kind: str, text: str, to: frozenset[int] | None = None, **data: Any) -> None:
        """Record a log event (a no-op unless the state records events)."""
        if self.events is not None:
            self.events.append(Event(self.ply, kind, text, data, to))

    # ------------------------------------------------------------------ copies
    def clone(self, *, keep_events: bool = True) -> State[D, A]:
        """An independent copy: changing either never changes the other."""
        return self._copy(self.rng.clone(), keep_events)

    def _copy(self, rng: Rng, keep_events: bool) -> State[D, A]:
        other = State.__new__(State)
        other.game = self.game
        other.config = self.config
        other.data = self.game.copy_data(self.data)
        other.rng = rng
        other.seed = self.seed
        other.pending = dict(self.pending)
        other.ply = self.ply
        other.reveals = self.reveals
        other.script = self.script  # never changed in place (see engine.chance), so shared
        other._log = self._log
        other.events = list(self.events) if (keep_events and self.events is not None) else None
        return other

    def determinize(self, seat: int, rng: Rng) -> State[D, A]:
        """A full state ``seat`` cannot tell apart from this one, for information-set search.

        Hidden cards are re-dealt by the game, other seats' sealed choices are
        dropped, and the RNG is replaced so the future is unknown too. Dropping a
        choice asks that seat again, so while others have committed, the copy's
        ``to_move()`` and the ``committed`` field of its views list them differently;
        everything else ``seat`` sees, its legal actions included, is identical.

        The copy carries no action log (``history`` is empty, ``ply`` is kept): the true
        log holds other seats' sealed choices and the faces of cards played face down,
        and a search that read it could replay the real deal.
        """
        seed = rng.getrandbits(63)
        other = self._copy(Rng(seed), keep_events=False)
        # Neither the true seed nor the true log may travel: with either, a search could
        # replay the real deal.
        other.seed = seed
        other._log = None
        other.script = NO_SCRIPT  # the scripted future is as unknown to a search as the RNG's
        other.pending = {s: a for s, a in self.pending.items() if s == seat}
        self.game.determinize(other, seat, rng)
        return other

    def __repr__(self) -> str:
        return f"<State {self.game.spec.name} ply={self.ply} to_move={self.to_move()}>"
