"""The uniform random agent: a baseline and a fuzzer."""

from __future__ import annotations

from typing import Any

from .base import Agent, Observation, register_agent


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, obs: Observation) -> Any:
        legal = obs.legal
        return legal[self.rng.randrange(len(legal))]


register_agent("random", RandomAgent)
