"""The single-agent Gymnasium adapter: Gymnasium's checker and what the adapter promises."""

from __future__ import annotations

import dataclasses
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import holotable
from holotable.engine import names
from holotable.rl.common import seat_rewards
from holotable.rl.gym_env import HolotableGymEnv, gym_id, register_gym_envs
from holotable.testing.toys import IntSealedBid

CB = "captain-black"


def play_masked(env: HolotableGymEnv, seed: int, rng: random.Random) -> tuple[float, bool, dict[str, Any], int]:
    """One episode with random legal actions: (last reward, terminated, last info, learner steps)."""
    obs, _ = env.reset(seed=seed)
    steps = 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps += 1
        if terminated or truncated:
            return reward, terminated, info, steps
        assert reward == 0.0


def test_register_gym_envs_covers_every_game_and_is_idempotent() -> None:
    ids = register_gym_envs()
    assert "holotable/CaptainBlack-v0" in ids
    assert ids == [gym_id(holotable.load(n).spec) for n in names()]
    assert register_gym_envs() == ids


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (3, 2), (4, 1)])
def test_check_env_passes(players: int, seat: int) -> None:
    register_gym_envs()
    env = gymnasium.make("holotable/CaptainBlack-v0", players=players, seat=seat)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        check_env(env.unwrapped)


@pytest.mark.parametrize("name", names())
def test_check_env_passes_for_every_game_with_the_generic_encoder(name: str) -> None:
    check_env(HolotableGymEnv(name, observation_encoder="generic"), skip_render_check=True)


def test_check_env_passes_for_a_sealed_simultaneous_game() -> None:
    check_env(HolotableGymEnv(IntSealedBid(), players=3, seat=1), skip_render_check=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_full_episode_ends_with_the_learners_utility(players: int) -> None:
    for seat in range(players):
        env = HolotableGymEnv(CB, players=players, seat=seat)
        reward, terminated, info, steps = play_masked(env, seed=seat, rng=random.Random(seat))
        state = env.game_state
        assert terminated and state is not None and state.is_terminal()
        outcome = state.outcome()
        assert reward == seat_rewards(outcome)[seat]
        assert info == {"ranks": list(outcome.ranks), "scores": list(outcome.scores)}
        # The learner made exactly its own decisions; the opponents made all the others.
        assert sum(1 for s, _ in state.history if s == seat) == steps
        assert {s for s, _ in state.history} == set(range(players))


def test_the_learner_is_asked_only_on_its_turn() -> None:
    env = HolotableGymEnv(CB, players=4, seat=2)
    obs, _ = env.reset(seed=5)
    rng = random.Random(5)
    while True:
        state = env.game_state
        assert state is not None
        assert state.to_move() == (2,)
        assert obs["action_mask"].nonzero()[0].tolist() == [state.game.action_index(a) for a in state.legal_actions(2)]
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            break


def test_a_seed_reproduces_the_episode_and_opponents() -> None:
    def trajectory(seed: int) -> list[bytes]:
        env = HolotableGymEnv(CB, players=3, seat=1)
        obs, _ = env.reset(seed=seed)
        out = [obs["observation"].tobytes()]
        rng = random.Random(0)
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            out.append(obs["observation"].tobytes())
            done = terminated or truncated
        return out

    assert trajectory(12) == trajectory(12)
    assert trajectory(12) != trajectory(13)


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = HolotableGymEnv(CB, players=2, params={"max_handful": 4})
    obs, _ = env.reset(seed=3)
    state = env.game_state
    assert state is not None
    before = state.fingerprint()
    obs2, reward, terminated, truncated, info = env.step(10)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert state.fingerprint() == before
    assert np.array_equal(obs["observation"], obs2["observation"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    env.step(0)  # a new episode plays on


def test_named_opponents_and_bad_arguments() -> None:
    env = HolotableGymEnv(CB, players=3, seat=0, opponents=["random", "random"])
    assert env.opponents == {1: "random", 2: "random"}
    with pytest.raises(ValueError, match="seat"):
        HolotableGymEnv(CB, players=3, seat=3)
    with pytest.raises(ValueError, match="agent names"):
        HolotableGymEnv(CB, players=3, opponents=["random"])
    with pytest.raises(ValueError, match="no agent"):
        HolotableGymEnv(CB, players=3, opponents="no-such-bot")


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = HolotableGymEnv(CB, players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text.startswith("Captain Black, 2 players")
    human = HolotableGymEnv(CB, players=2, render_mode="human")
    human.reset(seed=1)
    assert capsys.readouterr().out.strip() == text
    with pytest.raises(ValueError, match="render_mode"):
        HolotableGymEnv(CB, render_mode="rgb_array")


class OnePlyBid(IntSealedBid):
    """Declares a one-decision maximum, so a game can be cut before the learner acts."""

    spec = dataclasses.replace(IntSealedBid.spec, name="test-one-ply-bid", max_game_length=1)


def test_a_game_cut_during_the_opponents_turn_is_truncated_without_a_learner_move() -> None:
    env = HolotableGymEnv(OnePlyBid(), players=2, seat=1)
    obs, _ = env.reset(seed=0)
    state = env.game_state
    assert state is not None and state.ply == 1  # seat 0 made its sealed bid first
    _, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert state.ply == 1  # the learner's action was not applied
