"""ISMCTS speed: one decision at the start of a Captain Black game.

The searcher is built exactly as a user builds it,
``make_agent("ismcts", game, seed=1, iterations=N)``, and asked for one move with
``agent.act(observe(state, seat))`` for the first seat to move. A fresh agent is
built before every timed decision (outside the timer), so no tree is reused and
every repeat does the same work. Iterations per second = N / decision time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from holotable.engine import load

GAME = "captain-black"


class SearcherUnavailable(RuntimeError):
    """holotable.agents.ismcts could not be imported."""


def _api() -> tuple[Any, Any]:
    try:
        import holotable.agents.ismcts  # noqa: F401  (fail early with a clear message)
        from holotable.agents import make_agent, observe
    except ImportError as exc:
        raise SearcherUnavailable(f"holotable.agents.ismcts is not importable: {exc}") from exc
    return make_agent, observe


def decision_timer(
    *, players: int = 4, iterations: int = 1000, seed: int = 1, state_seed: int = 1
) -> Callable[[], tuple[float, Any]]:
    """A call that makes one fresh ``iterations``-iteration decision and returns (seconds, move)."""
    make_agent, observe = _api()
    game = load(GAME)
    state = game.new_state(players=players, seed=state_seed)
    seat = state.to_move()[0]

    def decide() -> tuple[float, Any]:
        agent = make_agent("ismcts", game, seed=seed, iterations=iterations)
        obs = observe(state, seat)
        start = time.perf_counter()
        move = agent.act(obs)
        return time.perf_counter() - start, move

    return decide


def time_decisions(repeats: int = 5, **options: Any) -> tuple[list[float], list[Any]]:
    """Seconds taken by each of ``repeats`` fresh decisions, and the moves chosen (see :func:`decision_timer`)."""
    decide = decision_timer(**options)
    done = [decide() for _ in range(repeats)]
    return [t for t, _ in done], [m for _, m in done]
