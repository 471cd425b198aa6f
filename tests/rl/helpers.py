"""Small helpers shared by the RL adapter tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from holotable.engine import State


def random_masked_episode(aec: Any, seed: int, rng: random.Random) -> dict[str, float]:
    """Play one episode through an AEC env with random legal actions.

    Returns each agent's reward as ``last()`` reports it when the agent is done.
    """
    aec.reset(seed=seed)
    final: dict[str, float] = {}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _info = aec.last()
        if terminated or truncated:
            final[agent] = reward
            aec.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        aec.step(int(legal[rng.randrange(len(legal))]))
    return final


def pick(legal: Sequence[Any], rng: random.Random) -> Any:
    """A random legal action, usually among the first few: in Captain Black (draws listed
    smallest first) that plays long, cautious games with many chests and parrots, where
    uniform draws end a game in about 40 decisions."""
    prefix = len(legal) if rng.random() < 0.2 else min(len(legal), 4)
    return legal[rng.randrange(prefix)]


def step_randomly(aec: Any, steps: int, rng: random.Random) -> None:
    """Up to ``steps`` random legal steps through a raw AEC env (fewer if the game ends)."""
    for _ in range(steps):
        agent = aec.agent_selection
        if aec.terminations[agent] or aec.truncations[agent]:
            return
        aec.step(int(pick(aec.observe(agent)["action_mask"].nonzero()[0], rng)))


def advance_randomly(state: State[Any, Any], steps: int, rng: random.Random) -> None:
    """Apply up to ``steps`` random legal decisions (fewer if the game ends)."""
    for _ in range(steps):
        if state.is_terminal():
            return
        seat = state.to_move()[0]
        state.apply(pick(state.legal_actions(seat), rng), seat)
