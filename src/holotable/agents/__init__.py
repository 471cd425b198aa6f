"""Agents: ``random``, per-game heuristics, and a generic ISMCTS searcher.

>>> import holotable
>>> from holotable.agents import make_agent, observe
>>> game = holotable.load("captain-black")
>>> st = game.new_state(players=2, seed=1)
>>> bot = make_agent("random", game, seed=3)
>>> bot.act(observe(st, st.to_move()[0])) in st.legal_actions()
True
"""

from .base import (
    Agent,
    Observation,
    UnknownAgentError,
    agent_names,
    make_agent,
    observe,
    parse_agent_spec,
    register_agent,
)
from .rollout import Rollout

__all__ = [
    "Agent",
    "Observation",
    "Rollout",
    "UnknownAgentError",
    "agent_names",
    "make_agent",
    "observe",
    "parse_agent_spec",
    "register_agent",
]
