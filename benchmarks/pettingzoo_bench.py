"""The PettingZoo adapter's cost per step, against the raw engine loop.

Random masked play through the AEC API: ``reset``, then ``agent_iter`` /
``last`` / ``step``, choosing uniformly among the actions the mask allows (the
mask is read from the observation dict's ``action_mask`` or, failing that, from
``info["action_mask"]``). A step is one ``env.step`` with a real action; the
``step(None)`` calls that retire finished agents are not counted, but their time
is. Compare with :func:`benchmarks.engine_bench.engine_batch`, whose steps are
the same decisions made on the engine directly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .timing import Work


class AdapterUnavailable(RuntimeError):
    """holotable.rl.pettingzoo_env (or PettingZoo itself) could not be imported."""


def make_env(name: str, players: int | None = None, *, wrapped: bool = False) -> Any:
    """The AEC environment for ``name``: ``raw_env`` (the adapter's own cost, the goal's
    figure) or, with ``wrapped``, ``env`` with PettingZoo's classic wrappers."""
    try:
        from holotable.rl import pettingzoo_env
    except ImportError as exc:
        raise AdapterUnavailable(f"holotable.rl.pettingzoo_env is not importable: {exc}") from exc
    factory = pettingzoo_env.env if wrapped else pettingzoo_env.raw_env
    return factory(name) if players is None else factory(name, players=players)


def _legal_indices(observation: Any, info: Any) -> Any:
    mask = None
    if isinstance(observation, dict) and "action_mask" in observation:
        mask = observation["action_mask"]
    elif isinstance(info, dict) and "action_mask" in info:
        mask = info["action_mask"]
    if mask is None:
        raise AdapterUnavailable("the adapter exposes no action_mask in the observation or info")
    if hasattr(mask, "nonzero"):  # a numpy array: let numpy find the ones
        return mask.nonzero()[0]
    return [i for i, allowed in enumerate(mask) if allowed]


def play_random(env: Any, seed: int, rng: random.Random) -> int:
    """Play one complete episode with random masked actions; return the number of real steps."""
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = _legal_indices(observation, info)
        env.step(legal[rng.randrange(len(legal))])
        steps += 1
        del agent
    return steps


def adapter_batch(
    name: str, players: int | None = None, seed: int = 0, *, wrapped: bool = False
) -> Callable[[], Work]:
    """A workload: one random episode of ``name`` through the PettingZoo AEC API per call."""
    env = make_env(name, players, wrapped=wrapped)
    rng = random.Random(seed)
    next_seed = iter(range(seed * 1_000_003, 1 << 62))

    def batch() -> Work:
        return Work(games=1, steps=play_random(env, next(next_seed), rng))

    return batch
