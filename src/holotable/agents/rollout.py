"""Per-game rollout policies for search agents.

A rollout policy plays the moves of a simulated game inside a search:
``policy(state, seat, rng) -> action`` returns one of ``state.legal_actions(seat)``.
The state it gets is a determinisation, a *sample* of what the searching seat cannot
see, never the true game, so a policy may read the whole state (the bag's coins, the
others' cards). What it must not do is read other seats' sealed choices in
``state.pending``: a seat choosing blind would be given the others' choice.

Games register a fast policy from their ``bots`` module; search agents look it up
by game name (see the ``rollout`` option of :class:`~holotable.agents.ismcts.ISMCTSAgent`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from holotable.engine import Rng, State

RolloutPolicy = Callable[[State[Any, Any], int, Rng], Any]

_POLICIES: dict[str, RolloutPolicy] = {}


def register_rollout_policy(game: str, policy: RolloutPolicy) -> None:
    """Use ``policy`` for rollouts in ``game`` (a game name) wherever a search asks for the game's own."""
    _POLICIES[game] = policy


def rollout_policy(game: str) -> RolloutPolicy | None:
    """The rollout policy registered for ``game``, or ``None`` (play at random)."""
    from .base import _load_builtin_agents

    _load_builtin_agents()  # each game's bots module registers its policy
    return _POLICIES.get(game)
