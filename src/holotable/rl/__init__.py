"""Reinforcement-learning adapters (needs the ``rl`` extra: PettingZoo, Gymnasium, NumPy).

* :mod:`holotable.rl.pettingzoo_env`: ``env(game)``, ``raw_env(game)``, ``parallel_env(game)``
  and :class:`~holotable.rl.pettingzoo_env.HolotableAECEnv`, for every registered game;
* :mod:`holotable.rl.parallel`: ``parallel_env(game)`` and
  :class:`~holotable.rl.parallel.HolotableParallelEnv`, a native Parallel environment whose
  ``step`` takes every sealed simultaneous choice at once;
* :mod:`holotable.rl.gym_env`: :class:`~holotable.rl.gym_env.HolotableGymEnv`, one seat
  against registered agents, and ``register_gym_envs()`` (``holotable/CaptainBlack-v0``);
* :mod:`holotable.rl.encoding`: observation encoders (an ``EncoderSpec`` a game's manifest
  names, with an optional fast path that reads the state and an action-mask fast path), the
  built-in games' in their ``encoding`` module, and the probing
  :mod:`holotable.rl.generic_encoder` for every other game.

Nothing is imported here, so ``import holotable`` never needs the extra.
"""
