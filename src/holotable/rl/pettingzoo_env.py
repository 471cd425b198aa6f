"""A PettingZoo AEC environment for every registered game.

>>> from holotable.rl.pettingzoo_env import env
>>> aec = env("captain-black", players=4)
>>> aec.reset(seed=7)
>>> obs, reward, terminated, truncated, info = aec.last()
>>> sorted(obs), obs["observation"].shape
(['action_mask', 'observation'], (64,))

Conventions follow PettingZoo's classic environments:

* agents ``player_0`` .. ``player_{n-1}`` are the seats; ``agent_selection`` is the
  first seat the engine asks (sealed simultaneous decisions are collected one seat
  after another, each seat seeing only its own view);
* actions are ``Discrete(game.num_actions(config))`` indices;
* an observation is ``{"observation": float32 vector, "action_mask": int8 vector}``,
  built from what the seat may see only (its view, or a game's fast path that the
  tests hold to the view); the mask is all zero for seats not asked now;
* rewards are zero until the end, then the outcome's utilities rescaled to
  ``[-1, 1]`` (first +1, last -1, tied seats share);
* a game longer than the spec's ``max_game_length`` is truncated;
* :func:`env` wraps the raw environment like the classic ones: an illegal action
  ends the game with reward -1 for the offender (``TerminateIllegalWrapper``), an
  action outside the space fails an assertion, and calls out of order raise.
  :func:`raw_env` instead raises the engine's ``IllegalActionError`` and leaves the
  game unchanged.

``reset(seed=s)`` plays the game ``game.new_state(seed=s)`` would, so an episode
can be replayed with the engine; ``reset()`` without a seed draws the next
game's seed from a generator seeded by the last explicit seed (or by the OS).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gymnasium.spaces import Discrete
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from holotable.engine import Game, MalformedActionError, State

from .common import (
    EncoderChoice,
    GameEnvCore,
    action_table,
    agent_name,
    observation_space,
    seat_rewards,
)

_SEED_BOUND = 2**63


class HolotableAECEnv(GameEnvCore, AECEnv, EzPickle):  # type: ignore[misc]  # untyped base classes
    """The raw AEC environment of one game configuration (see the module docstring)."""

    RENDER_MODES = ("human", "ansi")

    def __init__(
        self,
        game_name: str | Game[Any, Any],
        players: int | None = None,
        params: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        observation_encoder: EncoderChoice = None,
    ) -> None:
        EzPickle.__init__(self, game_name, players, params, render_mode, observation_encoder)
        super().__init__()
        observer = self._set_up_game(game_name, players, params, render_mode, self.RENDER_MODES, observation_encoder)
        self._observe_seat = observer.observe
        self._encode, self._mask = observer.encode, observer.mask  # for last(), which runs every step
        self.metadata: dict[str, Any] = {
            "render_modes": list(self.RENDER_MODES),
            "name": f"holotable_{self.game.spec.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = [agent_name(s) for s in range(self.config.players)]
        self._seat_of = {name: seat for seat, name in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.encoder, self.num_actions) for a in self.possible_agents}
        self.action_spaces = {a: Discrete(self.num_actions) for a in self.possible_agents}
        #: Draws the seeds of unseeded resets; made from ``_np_seed`` (the last explicit seed,
        #: or ``None``: the OS) only when such a reset comes, as it costs a quarter of a reset.
        self._np_random: Any = None
        self._np_seed: int | None = None
        # Hot-path constants, looked up once: the action of each index, the length limit,
        # the game's end test (what State.is_terminal calls, one call shallower).
        self._actions = action_table(self.game, self.num_actions)
        self._max_length = self.game.spec.max_game_length
        self._game_over = self.game.is_terminal

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            game_seed = self._np_seed = int(seed)
            self._np_random = None
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random(self._np_seed)
            game_seed = int(self._np_random.integers(_SEED_BOUND))
        self.game_state = State.new(self.game, self.config, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._after_change(self.game_state)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        """The agents to act, as ``AECEnv.agent_iter`` yields them (at less cost per step)."""
        return _AgentIterable(self, max_iter)

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observe_seat(self._require_state(), self._seat_of[agent])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv.last with observe() inlined, as it runs every step.
        agent = self.agent_selection
        st = self.game_state
        if st is None:
            st = self._require_state()  # raises
        seat = self._seat_of[agent]
        return (
            {"observation": self._encode(st, seat), "action_mask": self._mask(st, seat)} if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.game_state
        if st is None:
            st = self._require_state()  # raises
        # Index -> action object explicitly, so games whose actions are ints work too. An index
        # outside this config's space is refused here: a game's index_action may accept more (its
        # bound holds for every config), and the state never sees the index itself.
        index = int(action)
        if not 0 <= index < self.num_actions:
            raise MalformedActionError(f"action index must be 0..{self.num_actions - 1}, got {index}")
        actions = self._actions
        st.apply(actions[index] if index < len(actions) else self.game.index_action(index), self._seat_of[agent])
        # Rewards are all zero while the game runs (they are paid at the end only),
        # so on an ordinary step only the mover's cumulative reward is cleared.
        self._cumulative_rewards[agent] = 0.0
        if self._game_over(st) or st.ply >= self._max_length:
            self._after_change(st)
            self._accumulate_rewards()
        else:  # the common case of _after_change, inlined
            self.agent_selection = self.possible_agents[st.to_move()[0]]
        if self.render_mode == "human":
            self.render()

    def _after_change(self, st: State[Any, Any]) -> None:
        """Point at the next seat to move, or end the episode."""
        if st.is_terminal():
            for seat, reward in enumerate(seat_rewards(st.outcome())):
                self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif st.ply >= self._max_length:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[st.to_move()[0]]

    # ------------------------------------------------------------------ output
    def close(self) -> None:
        """Nothing to release: rendering is text only."""


class _AgentIterable:
    """PettingZoo's ``AECIterable`` with a generator for an iterator: the same agents
    (``agent_selection`` until no agent is left or ``max_iter`` are given), and, like
    it, iterable again from the start."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: HolotableAECEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


def raw_env(game_name: str | Game[Any, Any], **kwargs: Any) -> HolotableAECEnv:
    """The unwrapped environment: illegal actions raise the engine's error."""
    return HolotableAECEnv(game_name, **kwargs)


def env(game_name: str | Game[Any, Any], **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic environments are."""
    aec: Any = raw_env(game_name, **kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


def parallel_env(game_name: str | Game[Any, Any], **kwargs: Any) -> Any:
    """A Parallel API view of a turn-based game: each ``step`` applies only the
    action of the agent on turn (``infos[agent]["active_agent"]`` names it).

    PettingZoo's ``aec_to_parallel`` does not fit: it needs every agent to act once
    per cycle in a fixed order, which sequential games with round starters break.
    """
    return turn_based_aec_to_parallel(env(game_name, **kwargs))
