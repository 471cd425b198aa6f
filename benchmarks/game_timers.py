"""What the per-game benchmarks share: timers for one ISMCTS decision and for a bot's think time over
whole games, and the figures built from them.

Each returns a call to repeat between the interleaved rounds of :func:`benchmarks.timing.measure_interleaved`,
so a game and its Captain Black baseline are timed under the same machine load.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks import engine_bench
from benchmarks.timing import Rate


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


def mean_think_time(think: Callable[[], tuple[float, int]], games: int) -> float:
    """Seconds per decision over ``games`` games played by a :func:`think_timer` call."""
    spent, count = 0.0, 0
    for _ in range(games):
        s, c = think()
        spent, count = spent + s, count + c
    return spent / count


def play_figures(rate: Rate, baseline: Rate) -> dict[str, float]:
    """Random-play figures of ``rate`` and their ratios to ``baseline`` (timed in the same run)."""
    return {
        "games_per_s": rate.games_per_s,
        "steps_per_game": rate.steps_per_s / rate.games_per_s,
        "us_per_step": rate.us_per_step,
        "baseline_games_per_s": baseline.games_per_s,
        "games_per_s_vs_baseline": rate.games_per_s / baseline.games_per_s,
        "step_cost_vs_baseline": rate.us_per_step / baseline.us_per_step,
    }


def search_figures(iterations: int, times: list[float]) -> dict[str, float]:
    """The best and median time of ``iterations``-iteration decisions, and iterations per second."""
    return {
        "iterations": iterations,
        "decision_s_best": min(times),
        "decision_s_median": statistics.median(times),
        "iterations_per_s": iterations / min(times),
    }


def write_json(path: str, figures: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(figures, fh, indent=2)
