"""The agent interface and the agent registry.

An agent sees a seat's :class:`Observation` only: the seat's view, its legal
actions, and a way to sample full states consistent with what the seat knows
(for information-set search). It never gets the true state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from holotable.engine import Config, Game, HolotableError, Rng, State, registry

from .live import PeriodTime


class Observation:
    """Everything a seat may use to decide. Built with :func:`observe`.

    ``view`` is computed on first use, so agents that do not read it (random
    play) cost nothing extra.
    """

    __slots__ = ("_state", "_view", "config", "game", "legal", "period", "seat")

    def __init__(self, state: State[Any, Any], seat: int, legal: Sequence[Any],
                 period: PeriodTime | None = None) -> None:
        self._state = state
        #: The running timed period at a live table (see :mod:`holotable.agents.live`); ``None`` in
        #: simulation, where the agent must answer with an action.
        self.period = period
        self._view: dict[str, Any] | None = None
        self.game: Game[Any, Any] = state.game
        self.config: Config = state.config
        self.seat = seat
        self.legal = legal

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view (see :meth:`holotable.engine.State.view`)."""
        if self._view is None:
            self._view = self._state.view(self.seat)
        return self._view

    def sample_state(self, rng: Rng) -> State[Any, Any]:
        """A full state consistent with this seat's information (a determinisation)."""
        return self._state.determinize(self.seat, rng)


def observe(state: State[Any, Any], seat: int, period: PeriodTime | None = None) -> Observation:
    """The observation of ``seat`` in ``state``.

    The true state is kept only to be determinised; an :class:`Observation`
    exposes nothing but the seat's view and legal actions.
    """
    return Observation(state, seat, state.legal_actions(seat), period)


class Agent(ABC):
    """Base class: ``act`` picks one of ``obs.legal``."""

    #: Registry name, e.g. ``"random"``.
    name: str = "agent"
    #: Whether the agent plays live timed phases itself: it reads ``obs.period`` and may answer
    #: :class:`~holotable.agents.live.Wait` (only when ``obs.period`` is set). Other agents are
    #: paced by the table (:data:`~holotable.agents.live.PLAIN_GAP` between their actions).
    live: bool = False

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        self.game = game
        self.rng = Rng(seed)
        self.options = options

    @abstractmethod
    def act(self, obs: Observation) -> Any:
        """Return one action from ``obs.legal``."""

    def reset(self) -> None:
        """Called at the start of each game (agents with memory override it)."""

    def __repr__(self) -> str:
        return f"<agent {self.name}>"


AgentFactory = Callable[..., Agent]

#: name -> factory of the agents every game can use; a game's own bots are in its manifest.
_GENERIC: dict[str, AgentFactory] = {}


class UnknownAgentError(HolotableError, KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown agent"


def register_agent(name: str, factory: AgentFactory) -> None:
    """Register ``factory(game, seed=..., **options) -> Agent`` under ``name`` for every game.

    A game's own bots (``heuristic``) are named in its manifest's ``bots`` instead.
    """
    _GENERIC[name] = factory


def agent_names(game: str | None = None) -> list[str]:
    """Agent names usable for ``game`` (or every generic name)."""
    _load_builtin_agents()
    names = set(_GENERIC)
    if game is not None and (m := registry.find(game)) is not None:
        names |= set(m.bots)
    return sorted(names)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"ismcts:iterations=200:exploration=0.5"`` into a name and its options.

    Option values are read as int, then float, then ``true``/``false``, else text.

    >>> parse_agent_spec("ismcts:iterations=200:exploration=0.5")
    ('ismcts', {'iterations': 200, 'exploration': 0.5})
    >>> parse_agent_spec("random")
    ('random', {})
    """
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, text = part.partition("=")
        if not sep or not key.strip():
            raise UnknownAgentError(f"agent option {part!r} in {spec!r} is not of the form key=value")
        options[key.strip()] = _option_value(text.strip())
    return name.strip(), options


def _option_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def make_agent(name: str, game: Game[Any, Any], seed: int = 0, **options: Any) -> Agent:
    """Build the agent called ``name`` for ``game`` (game-specific names first).

    ``name`` may carry options, ``"ismcts:iterations=200"``; keyword options win.
    Bad options raise the agent's own error (a ``ValueError``).
    """
    _load_builtin_agents()
    name, parsed = parse_agent_spec(name)
    options = {**parsed, **options}
    m = registry.find(game.spec.name)
    factory = (m.bot(name) if m is not None else None) or _GENERIC.get(name)
    if factory is None:
        raise UnknownAgentError(
            f"no agent {name!r} for {game.spec.name}; available: {', '.join(agent_names(game.spec.name))}"
        )
    return factory(game, seed=seed, **options)


_builtin_loaded = False


def _load_builtin_agents() -> None:
    """Import the generic agents' modules (each registers its agent)."""
    global _builtin_loaded
    if _builtin_loaded:
        return
    import importlib

    for module in ("holotable.agents.random_agent", "holotable.agents.ismcts"):
        importlib.import_module(module)
    # Only now: a failed import above must not leave a half-filled registry looking complete.
    _builtin_loaded = True
