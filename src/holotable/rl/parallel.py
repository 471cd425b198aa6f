"""A native PettingZoo Parallel environment: one ``step`` seals a whole simultaneous decision.

>>> from holotable.rl.parallel import parallel_env
>>> par = parallel_env("captain-black", players=3)
>>> observations, infos = par.reset(seed=7)
>>> acting = par.acting_agents
>>> len(acting), infos[acting[0]]["acting"]
(1, True)

Where :mod:`holotable.rl.pettingzoo_env` collects sealed choices seat after seat
(AEC), this environment takes them together, as the table does: every ``step(actions)``
carries one action for each *acting* agent, and the engine resolves the sealed
decision once all of them are in.

* agents ``player_0`` .. ``player_{n-1}`` are the seats, all live until the game ends;
* the acting agents of a step (:attr:`HolotableParallelEnv.acting_agents`, and
  ``infos[agent]["acting"]``) are the seats the engine asks: all of them when the
  decision is sealed, else only the first asked seat (sequential parts of a game,
  and open multi-seat decisions, which take one action at a time);
* an agent that is not acting has an all-zero action mask; its action may be left
  out of ``actions`` and is ignored when given (PettingZoo's ``parallel_api_test``
  samples an action for every live agent);
* observations, action spaces, rewards (zero until the end, then the outcome's
  utilities on ``[-1, 1]``) and truncation at the spec's ``max_game_length`` are
  those of the AEC environment, and ``reset(seed=s)`` plays ``game.new_state(seed=s)``;
* ``illegal="terminate"`` (the default, like the classic environments' wrapper): an
  action the mask forbids ends the episode, with reward -1 for each offender, 0 for
  the others and ``infos[agent]["illegal_action"]`` naming the refusal. With
  ``illegal="raise"`` the engine's error is raised and nothing changes, whichever
  acting agent's action was refused. An index outside the action space, or a missing
  action of an acting agent, raises ``ValueError`` either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gymnasium.spaces import Discrete
from gymnasium.utils import EzPickle, seeding
from pettingzoo import ParallelEnv

from holotable.engine import ActionError, Game, State

from .common import (
    ILLEGAL_REWARD,
    EncoderChoice,
    GameEnvCore,
    action_table,
    agent_name,
    observation_space,
    seat_rewards,
)

_SEED_BOUND = 2**63

#: What ``step`` returns: observations, rewards, terminations, truncations and infos by agent.
StepResult = tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]
_ILLEGAL_MODES = ("terminate", "raise")


class HolotableParallelEnv(GameEnvCore, ParallelEnv, EzPickle):  # type: ignore[misc]  # untyped base classes
    """The Parallel environment of one game configuration (see the module docstring)."""

    RENDER_MODES = ("human", "ansi")

    def __init__(
        self,
        game_name: str | Game[Any, Any],
        players: int | None = None,
        params: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        observation_encoder: EncoderChoice = None,
        illegal: str = "terminate",
    ) -> None:
        EzPickle.__init__(self, game_name, players, params, render_mode, observation_encoder, illegal)
        if illegal not in _ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {list(_ILLEGAL_MODES)}, not {illegal!r}")
        self.illegal = illegal
        observer = self._set_up_game(game_name, players, params, render_mode, self.RENDER_MODES, observation_encoder)
        self._encode, self._mask = observer.encode, observer.mask
        self.metadata: dict[str, Any] = {
            "render_modes": list(self.RENDER_MODES),
            "name": f"holotable_{self.game.spec.name.replace('-', '_')}_parallel_v0",
            "is_parallelizable": True,
        }
        self.possible_agents = [agent_name(s) for s in range(self.config.players)]
        self._seat_of = {name: seat for seat, name in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.encoder, self.num_actions) for a in self.possible_agents}
        self.action_spaces = {a: Discrete(self.num_actions) for a in self.possible_agents}
        self.agents: list[str] = []
        #: The seats whose actions the next ``step`` needs (empty when the episode is over).
        self._acting: tuple[int, ...] = ()
        self._np_random: Any = None
        self._np_seed: int | None = None
        self._actions = action_table(self.game, self.num_actions)
        self._max_length = self.game.spec.max_game_length

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def acting_agents(self) -> list[str]:
        """The agents whose actions the next ``step`` needs, in seat order."""
        return [self.possible_agents[s] for s in self._acting]

    # ------------------------------------------------------------------ episode
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        if seed is not None:
            game_seed = self._np_seed = int(seed)
            self._np_random = None
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random(self._np_seed)
            game_seed = int(self._np_random.integers(_SEED_BOUND))
        st = self.game_state = State.new(self.game, self.config, game_seed)
        self.agents = self.possible_agents[:]
        self._acting = self._acting_seats(st)
        if self.render_mode == "human":
            self.render()
        return self._observations(st), self._infos()

    def step(self, actions: Mapping[str, Any]) -> StepResult:
        st = self._require_state()
        if not self.agents:
            raise RuntimeError("the episode is over; call reset() to play again")
        chosen = self._chosen_actions(actions)
        illegal: dict[int, str] = {}
        for seat, act in chosen.items():
            try:
                # The engine's own check, before anything changes: with every choice
                # known legal, the sealed decision below cannot stop half-way.
                self.game.check(st, seat, act)
            except ActionError as err:
                if self.illegal == "raise":
                    raise
                illegal[seat] = str(err)
        if illegal:
            return self._end_for_illegal(st, illegal)
        for seat, act in chosen.items():
            st.apply(act, seat)
        rewards = dict.fromkeys(self.agents, 0.0)
        over = st.is_terminal()
        cut = not over and st.ply >= self._max_length
        if over:
            for seat, reward in enumerate(seat_rewards(st.outcome())):
                rewards[self.possible_agents[seat]] = reward
        self._acting = () if over or cut else self._acting_seats(st)
        observations, infos = self._observations(st), self._infos()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    # ------------------------------------------------------------------ helpers
    def _acting_seats(self, st: State[Any, Any]) -> tuple[int, ...]:
        asked = st.to_move()
        if len(asked) > 1 and not self.game.sealed(st):
            return asked[:1]  # an open decision takes its actions one at a time
        return asked

    def _chosen_actions(self, actions: Mapping[str, Any]) -> dict[int, Any]:
        """The game's action for each acting seat, in seat order (others' entries are ignored)."""
        chosen: dict[int, Any] = {}
        table = self._actions
        for seat in self._acting:
            agent = self.possible_agents[seat]
            if agent not in actions or actions[agent] is None:
                raise ValueError(f"{agent} must act this step (acting: {self.acting_agents})")
            index = int(actions[agent])
            if not 0 <= index < self.num_actions:
                raise ValueError(f"{agent}'s action {index} is outside the action space 0..{self.num_actions - 1}")
            chosen[seat] = table[index] if table else self.game.index_action(index)
        return chosen

    def _observations(self, st: State[Any, Any]) -> dict[str, Any]:
        # Only acting seats get their legal actions: the engine also asks the other
        # seats of an open decision, but this environment takes those one at a time.
        encode, mask, acting = self._encode, self._mask, self._acting
        out = {}
        for agent in self.agents:
            seat = self._seat_of[agent]
            action_mask = mask(st, seat)
            if seat not in acting and action_mask.any():
                action_mask[:] = 0
            out[agent] = {"observation": encode(st, seat), "action_mask": action_mask}
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {agent: {"acting": self._seat_of[agent] in self._acting} for agent in self.agents}

    def _end_for_illegal(self, st: State[Any, Any], illegal: Mapping[int, str]) -> StepResult:
        """End the episode (the state stays as it was): -1 for each offender, 0 for the rest."""
        self._acting = ()
        observations = self._observations(st)
        rewards = {a: (ILLEGAL_REWARD if self._seat_of[a] in illegal else 0.0) for a in self.agents}
        infos = self._infos()
        for seat, reason in illegal.items():
            infos[self.possible_agents[seat]]["illegal_action"] = reason
        terminations = dict.fromkeys(self.agents, True)
        truncations = dict.fromkeys(self.agents, False)
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    # ------------------------------------------------------------------ output
    def close(self) -> None:
        """Nothing to release: rendering is text only."""


def parallel_env(game_name: str | Game[Any, Any], **kwargs: Any) -> HolotableParallelEnv:
    """The native Parallel environment of a game (see the module docstring)."""
    return HolotableParallelEnv(game_name, **kwargs)
