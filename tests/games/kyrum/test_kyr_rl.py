"""Kyrum through the RL adapters: Gymnasium's ``check_env`` on the solo game, masked random episodes to
the end, PettingZoo's AEC ``api_test`` with its one agent, and the explicit encoder.

Observations carry only what the player may see (KYR-AREA-04, KYR-AMB-34, KYR-AMB-38): they are unchanged
by determinisation, which re-deals the decks.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import holotable
from holotable.engine import Rng
from holotable.games.kyrum import encoding
from holotable.games.kyrum.actions import UNIVERSE
from holotable.games.kyrum.pack import load_pack
from holotable.rl.gym_env import HolotableGymEnv
from holotable.rl.pettingzoo_env import env, raw_env

GAME = holotable.load("kyrum")


@pytest.fixture(autouse=True)
def _warnings_fail() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


def test_the_gym_env_passes_check_env() -> None:
    gym = HolotableGymEnv("kyrum", players=1, seat=0)
    assert gym.encoder.name == "kyrum/explicit" and gym.encoder.size == encoding.SIZE
    assert gym.action_space.n == len(UNIVERSE) == 2676
    assert gym.opponents == {}
    check_env(gym, skip_render_check=True)


def _legal_indices(state: Any) -> list[int]:
    return sorted(GAME.action_index(a) for a in state.legal_actions(0))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_masked_random_episodes_run_to_the_end(seed: int) -> None:
    """A policy choosing uniformly among the mask's actions (never conceding, so games run long)
    ends every episode with the outcome's reward: +1 for a victory, -1 for a defeat."""
    gym = HolotableGymEnv("kyrum", players=1, seat=0)
    concede = GAME.action_index(GAME.parse_action("concede"))
    obs, info = gym.reset(seed=seed)
    assert info == {}
    rng = random.Random(seed)
    steps, reward, terminated, truncated = 0, 0.0, False, False
    while not (terminated or truncated):
        state = gym.game_state
        assert state is not None
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == _legal_indices(state)
        vec = obs["observation"]
        assert vec.dtype == np.float32 and float(vec.min()) >= 0.0 and float(vec.max()) <= 1.0
        choices = [int(i) for i in np.flatnonzero(mask) if i != concede] or [concede]
        obs, reward, terminated, truncated, info = gym.step(rng.choice(choices))
        steps += 1
        if not (terminated or truncated):
            assert reward == 0.0
    state = gym.game_state
    assert state is not None and terminated and not truncated and state.is_terminal()
    won = state.data.result["outcome"] == "victory"
    assert reward == (1.0 if won else -1.0)
    assert info["scores"] == [float(state.data.result["np"]["total"])]
    assert not obs["action_mask"].any()
    assert obs["observation"][encoding.INDEX["terminal"]] == 1.0
    assert obs["observation"][encoding.INDEX["victory" if won else "defeat"]] == 1.0
    assert steps == state.ply > 5


def test_an_action_outside_the_mask_ends_the_episode_with_minus_one() -> None:
    gym = HolotableGymEnv("kyrum", players=1, seat=0)
    obs, _ = gym.reset(seed=5)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = gym.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})


def test_aec_env_passes_api_test_and_seed_test_with_one_agent() -> None:
    aec = env("kyrum", players=1)
    assert aec.possible_agents == ["player_0"]
    api_test(aec, num_cycles=1000)
    seed_test(lambda: env("kyrum", players=1), num_cycles=200)


def test_aec_random_game_reaches_the_end() -> None:
    aec = raw_env("kyrum", players=1)
    aec.reset(seed=11)
    rng = random.Random(11)
    rewards = 0.0
    for _agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        rewards += reward
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = aec.game_state
    assert state is not None and state.is_terminal()
    assert rewards == (1.0 if state.data.result["outcome"] == "victory" else -1.0)


def test_the_encoding_reads_the_opening_view() -> None:
    """Game 1 of the demo schedule (a fresh campaign's next game, KYR-SETUP-01): objectives B, F, N, gauges
    at their start values, the first journey's first area (KYR-SETUP-05)."""
    state = GAME.new_state(1, seed=3)
    view = state.view(0)
    vec = encoding.make_encoder(state.config)(view)
    at = encoding.INDEX
    assert [x for x in encoding.LETTERS if vec[at[f"objective_{x}"]] == 1.0] == ["B", "F", "N"]
    assert [x for x in encoding.LETTERS if vec[at[f"satisfied_{x}"]] == 1.0] == [
        o["letter"] for o in view["objectives"] if o["satisfied"]]
    assert vec[at["gauge_fuel"]] == 10 / 16 and vec[at["gauge_health"]] == 1.0 and vec[at["gauge_firepower"]] == 0.0
    assert vec[at["game_number"]] == 1 / 30 and vec[at["journey"]] == 1 / 4 and vec[at["area"]] == 1 / 5
    assert vec[at[f"phase_{view['phase']}"]] == 1.0 and sum(vec[at[f"phase_{p}"]] for p in encoding.PHASES) == 1.0
    order = sorted(load_pack("kyrum-demo").planets)
    for s, planet in enumerate(state.data.slot_planets):
        assert vec[at[f"slot{s}_present"]] == 1.0
        assert vec[at[f"slot{s}_die"]] == state.data.slot_dice[s] / 6
        assert vec[at[f"slot{s}_planet_{order.index(planet)}"]] == 1.0
    assert len(state.data.slot_planets) == 4 and vec[at["planet_deck"]] == view["planet_deck_size"] / 32


def test_KYR_DISC_03_inventory_features_follow_the_study_payments() -> None:
    """A drawn discovery is held and owes its cost; paying an instalment lowers what it owes."""
    rng = random.Random(4)
    for seed in range(40):
        state = GAME.new_state(1, seed=seed)
        while not state.is_terminal():
            studies = [a for a in state.legal_actions(0) if a.verb == "study" and a.args[0].startswith("d")]
            if studies:
                action = studies[0]
                fn = encoding.make_encoder(state.config)
                ref, el, n = action.args[0], action.args[1], int(action.args[2])
                before = fn(state.view(0))[encoding.INDEX[f"{ref}_owed_{el}"]]
                assert fn(state.view(0))[encoding.INDEX[f"{ref}_held"]] == 1.0
                state.apply(action)
                after = fn(state.view(0))[encoding.INDEX[f"{ref}_owed_{el}"]]
                assert after == pytest.approx(before - n / 6)
                return
            legal = [a for a in state.legal_actions(0) if a.verb != "concede"]
            state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no random game offered a study")


def _advance(state: Any, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        legal = [a for a in state.legal_actions(0) if a.verb != "concede"]
        state.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 120), det=st.integers(0, 99))
def test_KYR_AREA_04_observations_never_depend_on_hidden_deck_order(seed: int, steps: int, det: int) -> None:
    """assumed:KYR-AMB-34 assumed:KYR-AMB-38: the deck order is hidden, so re-dealing it changes nothing seen."""
    state = GAME.new_state(1, seed=seed)
    _advance(state, steps, random.Random(seed))
    fn = encoding.make_encoder(state.config)
    real = fn(state.view(0))
    assert len(real) == encoding.SIZE and all(0.0 <= x <= 1.0 for x in real)
    for k in range(2):
        other = state.determinize(0, Rng(det * 3 + k))
        assert fn(other.view(0)) == real
