"""Kyrum's random agent (spec §8 RandomBot), registered as ``random`` for Kyrum.

The generic ``random`` agent picks uniformly among all legal actions, ``concede`` included: at a TLDP
that is one action in a few dozen, so it conceded a Kyrum game in about six steps and was no baseline.
This one picks uniformly among the legal actions *except* ``concede``, and answers a script offer (a
double) with ``read`` or ``refuse`` at even odds. It uses only its own RNG, never the game's dice, so a
seed gives the same games. A game's own agent name wins over the generic one (``make_agent``).
"""

from __future__ import annotations

from typing import Any

from holotable.agents.base import Agent, Observation

#: The chance of reading an offered main script (spec §8: "accepts scripts with probability 0.5").
READ_CHANCE = 0.5


class KyrumRandom(Agent):
    """Uniform among the legal actions, never ``concede``; reads an offered script with probability 0.5."""

    name = "random"

    def act(self, obs: Observation) -> Any:
        legal = list(obs.legal)
        words = [str(a) for a in legal]
        if set(words) == {"read", "refuse"}:  # a script offer (KYR-EXPLORE-05..07)
            wanted = "read" if self.rng.random() < READ_CHANCE else "refuse"
            return legal[words.index(wanted)]
        choices = [a for a, w in zip(legal, words, strict=True) if w != "concede"] or legal
        return choices[self.rng.randrange(len(choices))]
