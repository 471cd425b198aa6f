"""The contract every game implements.

A game is a stateless *definition* (a :class:`Game` subclass) over a plain,
game-specific data object held in an engine :class:`~holotable.engine.state.State`.
The engine owns everything game-agnostic: turn checks, sealed simultaneous
choices, the RNG, the action log, cloning, views and determinisation; a game only
fills in the hooks below. See ``docs/architecture.md`` for a worked example.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .errors import IllegalActionError, MalformedActionError, ScenarioError
from .outcome import Outcome
from .periods import Period
from .rng import Rng
from .spec import Config, GameSpec

if TYPE_CHECKING:
    from .state import State

D = TypeVar("D")  # the game's own state data
A = TypeVar("A", bound=Hashable)  # the game's action type


class Game(ABC, Generic[D, A]):
    """Base class of a game definition. Subclasses set :attr:`spec` and the hooks.

    Hooks receive the engine state ``st`` (``st.data`` is the game's data,
    ``st.rng`` its RNG, ``st.emit(...)`` records a log event). Query hooks never
    mutate. ``apply`` and ``resolve`` may assume ``check`` has passed and must not
    raise afterwards, which is what keeps a refused action from changing anything.
    """

    spec: ClassVar[GameSpec]

    # ------------------------------------------------------------------ set-up
    @abstractmethod
    def setup(self, config: Config, rng: Rng) -> D:
        """The initial data for ``config``; every shuffle uses ``rng``."""

    def copy_data(self, data: D) -> D:
        """An independent copy of ``data``. Override with a hand-written copy for speed."""
        return copy.deepcopy(data)

    def arrange(self, st: State[D, A], arrangement: Mapping[str, Any]) -> None:
        """Override parts of a freshly set-up state's data from a JSON ``arrangement``.

        Used by scenarios (``docs/scenarios.md``) to start from a rulebook position.
        Validate everything (unknown keys, types, impossible values such as
        components that no longer add up) and raise :class:`ScenarioError` naming the
        key. The engine calls this on a clone (:meth:`State.arrange`) and keeps the
        result only on success, so raising half-way is harmless.
        """
        raise ScenarioError(f"{self.spec.name} does not support arranged starts")

    def chance_events(self, st: State[D, A]) -> Mapping[str, Callable[[Any, str], Any]]:
        """The chance events a scenario may script (``docs/scenarios.md``), each with its outcome check.

        A check receives one scripted outcome and where it stands (``chance.die[2]``), returns it
        normalised and raises :class:`ScenarioError` naming that place when the form is wrong.
        The game takes the outcomes at its chance points with :mod:`holotable.engine.chance`.
        """
        return {}

    # ------------------------------------------------------------------ flow
    @abstractmethod
    def to_move(self, st: State[D, A]) -> tuple[int, ...]:
        """The seats asked for a decision now (empty when the game is over)."""

    def sealed(self, st: State[D, A]) -> bool:
        """Whether the current multi-seat decision is sealed.

        Sealed choices are held by the engine, hidden from the other seats, and
        handed to :meth:`resolve` together once every asked seat has chosen. An
        unsealed multi-seat decision (open negotiation) applies each action at once.
        The engine asks only while several seats are asked or choices are pending:
        a lone asked seat's action always goes to :meth:`apply`.
        """
        return len(self.to_move(st)) > 1

    @abstractmethod
    def legal_actions(self, st: State[D, A], seat: int) -> Sequence[A]:
        """Every legal action for ``seat`` now (a representative finite set for
        games with continuous parameters; :meth:`check` is the authority)."""

    def check(self, st: State[D, A], seat: int, action: A) -> None:
        """Raise :class:`IllegalActionError` (with the rule ID) if ``action`` is not allowed.

        The default accepts exactly the members of :meth:`legal_actions`.
        """
        if action not in self.legal_actions(st, seat):
            raise IllegalActionError(f"{self.action_to_str(action)!r} is not legal now")

    @abstractmethod
    def apply(self, st: State[D, A], seat: int, action: A) -> None:
        """Carry out a checked action (sequential or unsealed decisions)."""

    def resolve(self, st: State[D, A], actions: Mapping[int, A]) -> None:
        """Carry out a complete set of sealed simultaneous choices."""
        raise NotImplementedError(f"{self.spec.name} has no sealed decisions")

    @abstractmethod
    def is_terminal(self, st: State[D, A]) -> bool: ...

    @abstractmethod
    def outcome(self, st: State[D, A]) -> Outcome:
        """Only called on terminal states."""

    # ------------------------------------------------------------------ information
    @abstractmethod
    def view(self, st: State[D, A], seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON-ready data.

        Must not contain any secret of another seat, the order of hidden decks or
        anything about future chance events.
        """

    def full(self, st: State[D, A]) -> dict[str, Any]:
        """The whole data, secrets included (debugging, scenarios, hashes)."""
        data: Any = st.data
        if hasattr(data, "to_dict"):
            return dict(data.to_dict())
        return dict(vars(data))

    def determinize(self, st: State[D, A], seat: int, rng: Rng) -> None:
        """Re-deal, in place on a clone, everything ``seat`` cannot see.

        The result must be consistent with ``seat``'s view and depend only on that
        view and ``rng``. Games with perfect information keep the default.
        """
        return None

    # ------------------------------------------------------------------ timed play
    def period(self, st: State[D, A]) -> Period | None:
        """The running period of the game's own table clock, if its rules time one now.

        The engine has no clock: a table (the terminal, the server) feeds this to a
        :class:`~holotable.engine.periods.PeriodTracker` after every change and, once the
        period is over, plays its ``action`` for the first seat asked, as the table
        (``by_table=True``). A new ``key`` restarts the clock. Read it from the state
        alone, never from the time; the default: the game has no timed phases.
        """
        return None

    def decision_key(self, st: State[D, A], seat: int) -> Hashable:
        """What ``seat``'s current decision rests on. An action a seat chose while the key was the
        same as now still means what it meant, so a table accepts it although other seats acted in
        between (open negotiation, simultaneous picks); once the key changes, an action chosen
        before is stale.

        The default: the ply at which the current decision opened. Another seat's sealed choice in a
        simultaneous decision (Buccaneers' pick, Council's vote) only joins ``st.pending`` and changes
        nothing on the table, so it leaves every other seat's key as it was; any applied action opens
        a new decision and makes every choice made before it stale.
        """
        return st.opened_ply

    def timeout_action(self, st: State[D, A], seat: int) -> A | None:
        """What ``seat`` plays when its seat clock (a server table's ``per_move`` or
        ``per_game`` time) runs out, or ``None`` for no house default. A game may raise
        :class:`ActionError` to say the same with a reason. Where there is none, the server
        plays a seeded random legal action. The default: none.
        """
        return None

    # ------------------------------------------------------------------ actions
    def action_to_str(self, action: A) -> str:
        return str(action)

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Inverse of :meth:`action_to_str`; raise :class:`MalformedActionError`."""

    def num_actions(self, config: Config) -> int:
        """Size of the stable integer action space for ``config``."""
        raise NotImplementedError(f"{self.spec.name} has no integer action space")

    def action_index(self, action: A) -> int:
        raise NotImplementedError(f"{self.spec.name} has no integer action space")

    def index_action(self, index: int) -> A:
        raise NotImplementedError(f"{self.spec.name} has no integer action space")

    def coerce_action(self, action: object) -> A:
        """Accept an action object, its text or its integer index."""
        if isinstance(action, str):
            return self.parse_action(action)
        if isinstance(action, int) and not isinstance(action, bool) and not self.actions_are_ints:
            return self.index_action(action)
        if not self.is_action(action):
            raise MalformedActionError(f"{action!r} is not a {self.spec.title} action")
        return action  # type: ignore[return-value]

    #: Set by games whose action objects are themselves ``int``.
    actions_are_ints: ClassVar[bool] = False

    def is_action(self, action: object) -> bool:
        """Whether ``action`` has this game's action type (not whether it is legal)."""
        return True

    # ------------------------------------------------------------------ conveniences
    def new_state(
        self, players: int | None = None, seed: int = 0, *, record: bool = False, **params: Any
    ) -> State[D, A]:
        """Shortcut for ``State.new(self, self.spec.make_config(players, **params), seed)``."""
        from .state import State

        return State.new(self, self.spec.make_config(players, **params), seed, record=record)

    def __repr__(self) -> str:
        return f"<game {self.spec.name}>"
