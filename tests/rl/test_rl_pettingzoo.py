"""The PettingZoo AEC adapter: PettingZoo's own API and seed tests, and what the adapter promises."""

from __future__ import annotations

import dataclasses
import pickle
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test, seed_test

import holotable
from holotable.engine import IllegalActionError, Rng, names
from holotable.rl.common import seat_rewards
from holotable.rl.pettingzoo_env import HolotableAECEnv, env, parallel_env, raw_env
from holotable.testing.toys import IntSealedBid

from .helpers import advance_randomly, random_masked_episode, step_randomly

CB = "captain-black"
SEALED_BID = IntSealedBid()


@pytest.fixture(autouse=True)
def _quiet_pettingzoo_advice() -> Any:
    # api_test warns that Dict observations are not Box/Discrete, as it does for the classic envs.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


# ---------------------------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("players", [2, 3, 4])
def test_api_test_passes_for_captain_black(players: int) -> None:
    api_test(env(CB, players=players), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 4])
def test_seed_test_passes_for_captain_black(players: int) -> None:
    seed_test(lambda: env(CB, players=players), num_cycles=500)


def _player_counts(name: str) -> list[int]:
    spec = holotable.load(name).spec
    return sorted({spec.min_players, spec.max_players})


@pytest.mark.parametrize(("name", "players"), [(n, p) for n in names() for p in _player_counts(n)])
def test_every_registered_game_passes_api_test_with_the_generic_encoder(name: str, players: int) -> None:
    aec = env(name, players=players, observation_encoder="generic")
    assert aec.unwrapped.encoder.name == f"{name}/generic"
    api_test(aec, num_cycles=500)
    seed_test(lambda: env(name, players=players, observation_encoder="generic"), num_cycles=100)


def test_a_sealed_simultaneous_game_with_int_actions_passes_the_tests() -> None:
    api_test(env(SEALED_BID, players=3), num_cycles=200)
    seed_test(lambda: env(SEALED_BID, players=3), num_cycles=100)


@pytest.mark.parametrize("game", [CB, SEALED_BID], ids=["captain-black", "sealed-guess"])
def test_parallel_env_passes_the_parallel_api_test(game: Any) -> None:
    parallel_api_test(parallel_env(game, players=3), num_cycles=1000)


# ---------------------------------------------------------------------------- spaces and agents


def test_agents_spaces_and_names() -> None:
    aec = raw_env(CB, players=3)
    assert aec.possible_agents == ["player_0", "player_1", "player_2"]
    assert aec.action_space("player_1").n == 50
    space = aec.observation_space("player_2")
    assert space["observation"].shape == (64,) and space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (50,) and space["action_mask"].dtype == np.int8
    assert aec.metadata["name"] == "holotable_captain_black_v0"


def test_params_reach_the_game_config() -> None:
    aec = raw_env(CB, players=2, params={"max_handful": 5})
    aec.reset(seed=1)
    obs = aec.observe(aec.agent_selection)
    assert obs["action_mask"].tolist() == [1] * 5 + [0] * 45


def test_unknown_render_mode_and_bad_config_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(CB, render_mode="rgb_array")
    with pytest.raises(holotable.engine.ConfigError):
        raw_env(CB, players=9)


# ---------------------------------------------------------------------------- seeds


def test_a_seeded_reset_plays_the_engine_game_with_that_seed() -> None:
    rng = random.Random(3)
    aec = raw_env(CB, players=4)
    for seed in (0, 17, 2**40):
        aec.reset(seed=seed)
        engine = holotable.load(CB).new_state(players=4, seed=seed)
        assert aec.game_state is not None
        assert aec.game_state.fingerprint() == engine.fingerprint()
        while aec.terminations[aec.agent_selection] is False:
            mask = aec.observe(aec.agent_selection)["action_mask"]
            index = int(rng.choice(mask.nonzero()[0]))
            seat = engine.to_move()[0]
            assert aec.agent_selection == f"player_{seat}"
            aec.step(index)
            engine.apply(index, seat)
            assert aec.game_state.fingerprint() == engine.fingerprint()
        assert engine.is_terminal()


def test_unseeded_resets_continue_from_the_last_seed() -> None:
    aec = raw_env(CB, players=3)

    def after_seed(seed: int) -> list[str]:
        aec.reset(seed=seed)
        out = []
        for _ in range(3):
            aec.reset()
            assert aec.game_state is not None
            out.append(aec.game_state.fingerprint())
        return out

    first = after_seed(5)
    assert after_seed(5) == first
    assert len(set(first)) == 3  # each unseeded reset is a new game
    assert after_seed(6) != first


# ---------------------------------------------------------------------------- observations


@pytest.mark.parametrize("encoder", ["explicit", "generic"])
@settings(max_examples=100)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 100), players=st.integers(2, 4), det_seed=st.integers(0, 9))
def test_observations_never_depend_on_hidden_information(
    encoder: str, seed: int, steps: int, players: int, det_seed: int
) -> None:
    # The generic encoder keeps every number of the view, so this also checks the view itself.
    aec = raw_env(CB, players=players, observation_encoder=encoder)
    aec.reset(seed=seed)
    step_randomly(aec, steps, random.Random(seed))
    true_state = aec.game_state
    assert true_state is not None
    for seat, agent in enumerate(aec.possible_agents):
        real = aec.observe(agent)
        for k in range(3):
            aec.game_state = true_state.determinize(seat, Rng(det_seed * 7 + k))
            other = aec.observe(agent)
            assert np.array_equal(real["observation"], other["observation"])
            assert np.array_equal(real["action_mask"], other["action_mask"])
        aec.game_state = true_state


def test_determinisations_do_change_hidden_information() -> None:
    # Without this the test above could pass trivially: late in a game other seats hold
    # chest cards and the decks are shuffled, so re-dealt states differ from the true one.
    aec = raw_env(CB, players=4)
    aec.reset(seed=8)
    state = aec.game_state
    assert state is not None
    while not state.data.rounds:
        advance_randomly(state, 1, random.Random(state.ply))
    fulls = {repr(state.determinize(0, Rng(k)).full()["data"]) for k in range(10)}
    assert len(fulls) > 1


@settings(max_examples=80)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 100), players=st.integers(2, 4))
def test_masks_agree_with_legal_actions(seed: int, steps: int, players: int) -> None:
    aec = raw_env(CB, players=players, params={"max_handful": 1 + seed % 60 if seed % 3 else None})
    aec.reset(seed=seed)
    step_randomly(aec, steps, random.Random(seed))
    state = aec.game_state
    assert state is not None
    game = state.game
    for seat, agent in enumerate(aec.possible_agents):
        mask = aec.observe(agent)["action_mask"]
        legal = sorted(game.action_index(a) for a in state.legal_actions(seat))
        assert mask.nonzero()[0].tolist() == legal
        assert bool(legal) == (seat in state.to_move())
        assert aec.observation_space(agent).contains(aec.observe(agent))


def test_masks_are_fresh_arrays() -> None:
    aec = raw_env(CB, players=2)
    aec.reset(seed=2)
    first = aec.observe(aec.agent_selection)
    second = aec.observe(aec.agent_selection)
    first["action_mask"][:] = 0
    first["observation"][:] = 0
    assert second["action_mask"].any() and second["observation"].any()


# ---------------------------------------------------------------------------- full games and rewards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_full_game_ends_with_rewards_from_the_outcome(players: int) -> None:
    aec = env(CB, players=players)
    for seed in range(5):
        final = random_masked_episode(aec, seed, random.Random(seed))
        state = aec.unwrapped.game_state
        assert state.is_terminal()
        outcome = state.outcome()
        expected = seat_rewards(outcome)
        assert final == {f"player_{s}": expected[s] for s in range(players)}
        for seat, rank in enumerate(outcome.ranks):
            reward = final[f"player_{seat}"]
            assert reward == 2 * (players - rank) / (players - 1) - 1
            assert (reward == 1.0) == (rank == 1) and (reward == -1.0) == (rank == players)
        assert aec.agents == []


def test_rewards_are_zero_before_the_end() -> None:
    aec = raw_env(CB, players=3)
    aec.reset(seed=4)
    rng = random.Random(4)
    while not aec.terminations[aec.agent_selection]:
        assert set(aec.rewards.values()) == {0.0}
        assert set(aec._cumulative_rewards.values()) == {0.0}
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(mask.nonzero()[0])))
    assert sorted(aec.rewards.values()) != [0.0, 0.0, 0.0]


def test_sealed_choices_are_collected_seat_by_seat_and_stay_hidden() -> None:
    aec = raw_env(SEALED_BID, players=3)
    observations = []
    aec.reset(seed=11)
    low, high = (int(i) for i in aec.observe("player_0")["action_mask"].nonzero()[0][[0, -1]])
    for bid in (low, high):
        aec.reset(seed=11)
        assert aec.agent_selection == "player_0"
        aec.step(bid)
        assert aec.agent_selection == "player_1"  # the same decision, the next seat
        observations.append(aec.observe("player_1"))
    # Seat 1 cannot tell which sealed bid seat 0 made.
    assert np.array_equal(observations[0]["observation"], observations[1]["observation"])
    others = [int(aec.observe(agent)["action_mask"].nonzero()[0][0]) for agent in ("player_1", "player_2")]
    aec.step(others[0])
    aec.step(others[1])
    assert aec.agent_selection == "player_0"  # resolved; the next round starts
    state = aec.game_state
    assert state is not None and state.data.reveals[-1]["bids"] == [high + 1, others[0] + 1, others[1] + 1]


class ShortBid(IntSealedBid):
    """Declares a maximum length shorter than its games, so the adapter must truncate."""

    spec = dataclasses.replace(IntSealedBid.spec, name="test-short-bid", max_game_length=4)


def test_truncation_at_the_declared_game_length() -> None:
    aec = raw_env(ShortBid(), players=2, params={"hand": 9})
    aec.reset(seed=0)

    def bid_lowest() -> None:
        aec.step(int(aec.observe(aec.agent_selection)["action_mask"].nonzero()[0][0]))

    for _ in range(3):
        bid_lowest()
    assert not any(aec.truncations.values())
    bid_lowest()
    assert all(aec.truncations.values()) and not any(aec.terminations.values())
    assert set(aec.rewards.values()) == {0.0}


# ---------------------------------------------------------------------------- illegal actions


def test_an_illegal_action_ends_the_game_with_a_penalty() -> None:
    aec = env(CB, players=4, params={"max_handful": 3})
    aec.reset(seed=9)
    offender = aec.agent_selection
    before = aec.unwrapped.game_state.fingerprint()
    obs, *_ = aec.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo logs the illegal move
        aec.step(illegal)
    assert aec.unwrapped.game_state.fingerprint() == before  # the engine refused it
    assert all(aec.terminations.values()) and all(aec.truncations.values())
    assert aec.rewards == {a: (-1.0 if a == offender else 0.0) for a in aec.possible_agents}
    finished = {}
    for agent in aec.agent_iter():
        _, reward, terminated, truncated, _ = aec.last()
        assert terminated and truncated
        finished[agent] = reward
        aec.step(None)
    assert finished[offender] == -1.0 and sum(finished.values()) == -1.0


def test_the_raw_env_raises_on_an_illegal_action_and_keeps_the_game() -> None:
    aec = raw_env(CB, players=2, params={"max_handful": 3})
    aec.reset(seed=9)
    agent = aec.agent_selection
    before = aec.game_state.fingerprint() if aec.game_state else ""
    with pytest.raises(IllegalActionError):
        aec.step(10)
    assert aec.game_state is not None and aec.game_state.fingerprint() == before
    assert aec.agent_selection == agent and not any(aec.terminations.values())


def test_an_action_outside_the_space_fails_the_bounds_assertion() -> None:
    aec = env(CB, players=2)
    aec.reset(seed=1)
    with pytest.raises(AssertionError, match="action space"):
        aec.step(50)


def test_use_before_reset_is_refused() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        raw_env(CB).observe("player_0")


# ---------------------------------------------------------------------------- rendering


def test_render_modes_show_the_spectator_view(capsys: pytest.CaptureFixture[str]) -> None:
    ansi = raw_env(CB, players=2, render_mode="ansi")
    ansi.reset(seed=3)
    text = ansi.render()
    assert isinstance(text, str)
    assert text.startswith("Captain Black, 2 players, ply 0, to move: player_")
    assert "island: 0" in text and "chests: [null, null]" in text  # a spectator sees no chest contents
    human = raw_env(CB, players=2, render_mode="human")
    human.reset(seed=3)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text
    human.step(0)  # human mode renders after every step
    assert "ply 1" in capsys.readouterr().out
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        silent = raw_env(CB, players=2)
        silent.reset(seed=3)
        assert silent.render() is None


def test_the_raw_class_is_the_unwrapped_env() -> None:
    aec = env(CB)
    assert isinstance(aec.unwrapped, HolotableAECEnv)
    assert aec.unwrapped.config.players == 4  # Captain Black's default player count


def test_the_env_pickles_for_vectorised_training() -> None:
    aec = env(CB, players=3)
    clone = pickle.loads(pickle.dumps(aec))
    aec.reset(seed=4)
    clone.reset(seed=4)
    assert clone.unwrapped.game_state.fingerprint() == aec.unwrapped.game_state.fingerprint()
