"""Last Pebble's own bot and rollout policy (the ``bots`` and ``rollout`` roles).

The winning move leaves the other seat a multiple of three pebbles; from a multiple of three every
move loses against good play, so the bot takes one and hopes.

>>> from holotable.agents import observe
>>> from .rules import LastPebble
>>> game = LastPebble()
>>> st = game.new_state(players=2, seed=0, pile=5)
>>> PebbleHeuristic(game).act(observe(st, 0))
'take 2'
"""

from __future__ import annotations

from typing import Any

from holotable.agents.base import Agent, Observation
from holotable.agents.rollout import Rollout
from holotable.engine import Rng, State


def best_take(pile: int) -> str:
    """The take that leaves a multiple of three (or ``take 1`` when none does)."""
    return "take 2" if pile % 3 == 2 else "take 1"


class PebbleHeuristic(Agent):
    """Plays :func:`best_take`: a perfect player of Last Pebble."""

    name = "heuristic"

    def act(self, obs: Observation) -> Any:
        return best_take(obs.view["pile"])


def rollout_move(state: State[Any, Any], seat: int, rng: Rng) -> Any:
    """A rollout's move: the best take four times in five, else a random one (a rollout must still
    see the other lines, or every search would agree with the heuristic)."""
    legal = state.legal_actions(seat)
    return best_take(state.data.pile) if rng.random() < 0.8 else rng.choice(legal)


#: The ``rollout`` role: no horizon, since a game is a handful of moves.
ROLLOUT = Rollout(rollout_move)
