"""Timers the per-game benchmarks share: one ISMCTS decision, and a bot's think time over whole games.

Each returns a call to repeat between the interleaved rounds of :func:`benchmarks.timing.measure_interleaved`,
so a game and its Captain Black baseline are timed under the same machine load.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from benchmarks import engine_bench


def decision_timer(
    game_name: str, *, players: int, iterations: int, seed: int = 1, state_seed: int = 1
) -> Callable[[], tuple[float, Any]]:
    """A call that makes one fresh ``iterations``-iteration ISMCTS decision for the first
    seat asked at the start of a game, and returns (seconds, move)."""
    from holotable.agents import make_agent, observe
    from holotable.engine import load

    game = load(game_name)
    state = game.new_state(players=players, seed=state_seed)
    seat = state.to_move()[0]

    def decide() -> tuple[float, Any]:
        agent = make_agent("ismcts", game, seed=seed, iterations=iterations)
        obs = observe(state, seat)
        start = time.perf_counter()
        move = agent.act(obs)
        return time.perf_counter() - start, move

    return decide


def think_timer(game_name: str, *, players: int, seed: int = 0,
                agent: str = "heuristic") -> Callable[[], tuple[float, int]] | None:
    """A call that plays one game of ``agent`` bots in every seat and returns (seconds spent in
    ``act``, decisions); ``None`` when the game has no such agent."""
    from holotable.agents import agent_names, make_agent, observe
    from holotable.engine import State, load

    game = load(game_name)
    if agent not in agent_names(game.spec.name):
        return None
    config = engine_bench.config_for(game, players)
    next_seed = iter(range(seed * 1_000_003, 1 << 62))

    def play() -> tuple[float, int]:
        game_seed = next(next_seed)
        bots = [make_agent(agent, game, seed=game_seed * 10 + s) for s in range(players)]
        state = State.new(game, config, game_seed)
        spent, decisions = 0.0, 0
        clock = time.perf_counter
        while not state.is_terminal():
            for seat in state.to_move():
                obs = observe(state, seat)
                start = clock()
                action = bots[seat].act(obs)
                spent += clock() - start
                decisions += 1
                state.apply(action, seat)
        return spent, decisions

    return play
