"""A single-agent Gymnasium environment: one seat learns, registered agents play the rest.

>>> from holotable.rl.gym_env import HolotableGymEnv
>>> env = HolotableGymEnv("captain-black", players=3, seat=1, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].shape
((64,), (50,))

* actions are ``Discrete(game.num_actions(config))`` indices; the observation is
  ``{"observation": float32 vector, "action_mask": int8 vector}`` from what the
  seat may see only (the same encoders and masks as the PettingZoo adapter);
* after the learner's action the opponents move until the learner is asked again
  or the game ends; the reward is zero until the end, then the learner's utility
  rescaled to ``[-1, 1]`` (as in the PettingZoo adapter);
* an action the mask forbids ends the episode with reward -1 and
  ``info["illegal_action"] = True`` (the classic-environment convention; it also
  lets an unmasked random policy run);
* ``reset(seed=s)`` plays the game ``game.new_state(seed=s)`` would, with
  opponents seeded from ``s``; ``reset()`` continues from the seeded generator.

:func:`register_gym_envs` registers ``holotable/<Title>-v0`` ids (e.g.
``holotable/CaptainBlack-v0``) for every registered game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
from gymnasium.spaces import Discrete

from holotable.agents import Agent, agent_names, make_agent, observe
from holotable.engine import ActionError, Game, GameSpec, State, derive_seed, specs

from .common import (
    ILLEGAL_REWARD,
    EncoderChoice,
    GameEnvCore,
    observation_space,
    seat_rewards,
)

_SEED_BOUND = 2**63


class HolotableGymEnv(GameEnvCore, gymnasium.Env[dict[str, Any], Any]):
    """One seat of a game against registered agents (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012  # gymnasium's convention

    def __init__(
        self,
        game_name: str | Game[Any, Any] = "captain-black",
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        params: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        observation_encoder: EncoderChoice = None,
    ) -> None:
        super().__init__()
        observer = self._set_up_game(
            game_name, players, params, render_mode, self.metadata["render_modes"], observation_encoder
        )
        self._observe_seat = observer.observe
        n = self.config.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"{len(others)} opponent seats need {len(others)} agent names, got {len(names)}")
        #: Agent name per opponent seat.
        self.opponents: dict[int, str] = dict(zip(others, names, strict=True))
        unknown = sorted(set(names) - set(agent_names(self.game.spec.name)))
        if unknown:
            raise ValueError(f"no agent(s) {unknown} for {self.game.spec.name}")
        self.action_space = Discrete(self.num_actions)
        self.observation_space = observation_space(self.encoder, self.num_actions)
        self._agents: dict[int, Agent] = {}
        self._done = False

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(_SEED_BOUND))
        self._agents = {
            s: make_agent(name, self.game, seed=derive_seed(game_seed, "opponent", s))
            for s, name in self.opponents.items()
        }
        for agent in self._agents.values():
            agent.reset()
        self.game_state = State.new(self.game, self.config, game_seed)
        self._done = False
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observe(), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        st = self._require_state()
        if self._done:
            raise RuntimeError("the episode is over; call reset()")
        info: dict[str, Any] = {}
        if not self._finished(st):
            try:
                st.apply(self.game.index_action(int(action)), self.seat)
            except ActionError:  # refused, the state is unchanged
                self._done = True
                return self._observe(), ILLEGAL_REWARD, True, False, {"illegal_action": True}
            self._play_opponents()
        reward = 0.0
        terminated = st.is_terminal()
        truncated = not terminated and st.ply >= self.game.spec.max_game_length
        if terminated:
            outcome = st.outcome()
            reward = seat_rewards(outcome)[self.seat]
            info = {"ranks": list(outcome.ranks), "scores": list(outcome.scores)}
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def _play_opponents(self) -> None:
        """Let the opponents move until the learner is asked, or the game is over."""
        st = self._require_state()
        while not self._finished(st):
            movers = [s for s in st.to_move() if s != self.seat]
            if not movers:
                return
            for s in movers:  # a sealed decision hides their choices from the learner's view
                st.apply(self._agents[s].act(observe(st, s)), s)

    def _finished(self, st: State[Any, Any]) -> bool:
        return st.is_terminal() or st.ply >= self.game.spec.max_game_length

    def _observe(self) -> dict[str, Any]:
        return self._observe_seat(self._require_state(), self.seat)


def gym_id(spec: GameSpec) -> str:
    """``holotable/CaptainBlack-v0`` for Captain Black."""
    name = "".join(ch for ch in spec.title.title() if ch.isalnum())
    return f"holotable/{name}-v0"


def register_gym_envs() -> list[str]:
    """Register a Gymnasium id for every registered game (idempotent); returns the ids."""
    ids = []
    for spec in specs():
        env_id = gym_id(spec)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:HolotableGymEnv", kwargs={"game_name": spec.name})
        ids.append(env_id)
    return ids
