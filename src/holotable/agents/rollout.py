"""Per-game rollout policies for search agents.

A rollout policy plays the moves of a simulated game inside a search:
``policy(state, seat, rng) -> action`` returns one of ``state.legal_actions(seat)``.
The state it gets is a determinisation, a *sample* of what the searching seat cannot
see, never the true game, so a policy may read the whole state (the bag's coins, the
others' cards). What it must not do is read other seats' sealed choices in
``state.pending``: a seat choosing blind would be given the others' choice.

A game may also give a ``horizon`` and an ``evaluator``: a rollout stops as soon as
``horizon(state)`` differs from its value where the rollout began (the end of a round,
say) and takes ``evaluator(state)`` (utilities in [0, 1] per seat) instead of playing
on. Later rounds add as much noise to every move's value as they add signal to none,
so cutting them lets a fixed number of iterations tell moves apart.

A game names its :class:`Rollout` as the ``rollout`` role of its manifest (the built-in games
keep it in their ``bots`` module); search agents look it up by game name (see the ``rollout``
option of :class:`~holotable.agents.ismcts.ISMCTSAgent`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from holotable.engine import Rng, State, registry

RolloutPolicy = Callable[[State[Any, Any], int, Rng], Any]
Horizon = Callable[[State[Any, Any]], Hashable]
Evaluator = Callable[[State[Any, Any]], Sequence[float]]


@dataclass(frozen=True)
class Rollout:
    """How a game's rollouts are played: the move policy, and optionally where to stop."""

    policy: RolloutPolicy
    horizon: Horizon | None = None
    evaluator: Evaluator | None = None

    def __post_init__(self) -> None:
        if (self.horizon is None) != (self.evaluator is None):
            raise ValueError("a rollout horizon needs an evaluator, and an evaluator needs a horizon")


def game_rollout(game: str) -> Rollout | None:
    """The rollout the manifest of ``game`` (a game name) names, or ``None`` (play at random)."""
    found = registry.offered(game, "rollout")
    if found is not None and not isinstance(found, Rollout):
        raise TypeError(f"{game}'s manifest names {found!r} as its rollout, not a Rollout")
    return found
