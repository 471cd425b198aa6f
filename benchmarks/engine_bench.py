"""holotable's engine under random play, for every registered game.

Two ways in, both through public API only:

* ``engine``: the loop an RL or search user writes, ``State.new`` then
  ``to_move`` / ``legal_actions`` / ``apply`` with the random choice made like the
  random agent (``legal[rng.randrange(len(legal))]``);
* ``runner``: :func:`holotable.sim.runner.play_game` with one
  :class:`~holotable.agents.random_agent.RandomAgent` per seat, which adds the
  agent call and the :class:`~holotable.agents.Observation` per decision.

A step is one accepted ``State.apply`` (one seat's decision; the engine's own
chance, like a blind draw, happens inside it and is not a separate step).
Every game is a fresh seed and is read to its ``outcome()``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from holotable.engine import Game, State, load, names
from holotable.engine.spec import Config

from .timing import Work


def game_names() -> list[str]:
    """Every registered game, so games added later are benchmarked automatically."""
    return names()


def config_for(game: Game[Any, Any], players: int | None = None) -> Config:
    """The game's default configuration, at ``players`` seats (default: the spec's default)."""
    return game.spec.make_config(players=players or game.spec.default_players)


def play_random(game: Game[Any, Any], config: Config, seed: int, rng: random.Random) -> int:
    """Play one complete game through the public State API; return the number of steps."""
    st = State.new(game, config, seed)
    randrange = rng.randrange
    steps = 0
    while not st.is_terminal():
        for seat in st.to_move():
            legal = st.legal_actions(seat)
            st.apply(legal[randrange(len(legal))], seat)
            steps += 1
    st.outcome()
    return steps


def engine_batch(name: str, players: int | None = None, seed: int = 0) -> Callable[[], Work]:
    """A workload: one random game of ``name`` through the State API per call."""
    game = load(name)
    config = config_for(game, players)
    rng = random.Random(seed)
    next_seed = iter(range(seed * 1_000_003, 1 << 62))

    def batch() -> Work:
        return Work(games=1, steps=play_random(game, config, next(next_seed), rng))

    return batch


def runner_batch(name: str, players: int | None = None, seed: int = 0) -> Callable[[], Work]:
    """A workload: one game of ``name`` through ``play_game`` with a RandomAgent per seat."""
    # Imported here so the engine figures survive a broken agents/sim package.
    from holotable.agents.random_agent import RandomAgent
    from holotable.sim.runner import play_game

    game = load(name)
    config = config_for(game, players)
    agents = [RandomAgent(game, seed=seed * 100 + seat) for seat in range(config.players)]
    next_seed = iter(range(seed * 1_000_003, 1 << 62))

    def batch() -> Work:
        _, result = play_game(game, config, next(next_seed), agents)
        return Work(games=1, steps=result.steps)

    return batch
