"""Playing one game between agents: the loop every tool (CLI, lab, tests) shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from holotable.agents.base import Agent, make_agent, observe
from holotable.engine import Config, Game, HolotableError, Outcome, State, derive_seed


class RunawayGameError(HolotableError, RuntimeError):
    """A game did not end within its declared maximum length."""


@dataclass(frozen=True)
class GameResult:
    seed: int
    outcome: Outcome
    steps: int
    agents: tuple[str, ...]


def make_agents(game: Game[Any, Any], names: Sequence[str], seed: int) -> list[Agent]:
    """One agent per seat; each gets its own seed derived from ``seed`` and the seat."""
    return [make_agent(name, game, seed=derive_seed(seed, "agent", seat)) for seat, name in enumerate(names)]


def play_game(
    game: Game[Any, Any],
    config: Config,
    seed: int,
    agents: Sequence[Agent],
    *,
    record: bool = False,
) -> tuple[State[Any, Any], GameResult]:
    """Play one game to the end; every agent sees only its own observation."""
    if len(agents) != config.players:
        raise ValueError(f"{config.players} seats need {config.players} agents, got {len(agents)}")
    for agent in agents:
        agent.reset()
    st = State.new(game, config, seed, record=record)
    limit = game.spec.max_game_length
    steps = 0
    while not game.is_terminal(st):
        for seat in st.to_move():
            st.apply(agents[seat].act(observe(st, seat)), seat)
            steps += 1
        if steps > limit:
            raise RunawayGameError(f"{game.spec.name} passed {limit} decisions without ending (seed {seed})")
    result = GameResult(seed, game.outcome(st), steps, tuple(a.name for a in agents))
    return st, result
