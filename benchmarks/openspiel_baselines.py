"""Baselines: random play of OpenSpiel games driven from Python.

Two reference points for "how fast can a game step be when Python drives it":
OpenSpiel's C++ ``goofspiel`` (default parameters: 13 cards, 2 players, random
point-card order, so chance nodes alternate with simultaneous moves) and its
pure-Python ``python_kuhn_poker``.

A *step* is one state transition applied through the API: one ``apply_action``
at a chance node or a sequential decision node, or one ``apply_actions`` call with
the joint action at a simultaneous node. Decisions (one per player and joint
move) are counted separately and reported in the JSON.

The random choice is made the way the holotable workloads make it
(``legal[rng.randrange(len(legal))]``), and chance outcomes are sampled from
``chance_outcomes()`` with one ``rng.random()`` each, so every workload pays for
the same kind of random policy.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .timing import Work

GOOFSPIEL = "goofspiel"
KUHN = "python_kuhn_poker"


class OpenSpielUnavailable(RuntimeError):
    """pyspiel could not be imported (install the ``bench`` extra)."""


def load(name: str) -> Any:
    """The OpenSpiel game ``name`` with default parameters."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
        import pyspiel
    except ImportError as exc:
        raise OpenSpielUnavailable(f"OpenSpiel is not importable ({exc}); pip install open-spiel") from exc
    return pyspiel.load_game(name)


def play_random(game: Any, rng: random.Random) -> tuple[int, int]:
    """Play one complete game with uniform random players; return (steps, decisions)."""
    state = game.new_initial_state()
    steps = decisions = 0
    randrange = rng.randrange
    while not state.is_terminal():
        if state.is_chance_node():
            u = rng.random()
            outcome = None
            for outcome, prob in state.chance_outcomes():  # noqa: B007  (the loop picks the outcome)
                u -= prob
                if u < 0:
                    break
            state.apply_action(outcome)
        elif state.is_simultaneous_node():
            joint = []
            for player in range(state.num_players()):
                legal = state.legal_actions(player)
                joint.append(legal[randrange(len(legal))])
            state.apply_actions(joint)
            decisions += len(joint)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[randrange(len(legal))])
            decisions += 1
        steps += 1
    state.returns()  # a complete game includes reading its result
    return steps, decisions


def random_play_batch(name: str, seed: int = 0) -> Callable[[], Work]:
    """A workload for :func:`benchmarks.timing.measure`: one random game of ``name`` per call."""
    game = load(name)
    rng = random.Random(seed)

    def batch() -> Work:
        steps, _ = play_random(game, rng)
        return Work(games=1, steps=steps)

    return batch
