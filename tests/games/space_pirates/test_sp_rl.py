"""Space Pirates through the RL adapters: the explicit encoder and PettingZoo's API test.

The continuous choices (SP-FLICK-01 angle and strength, SP-MOVE-02 ruler angles, placements) reach
RL as the rules' discretised integer action space; the observation comes from the seat's view only
(SP-INFO-06).
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import holotable
from holotable.engine import Rng
from holotable.games.space_pirates import encoding
from holotable.rl.encoding import encoder_for
from holotable.rl.pettingzoo_env import env, raw_env

GAME = holotable.load("space-pirates")


@pytest.fixture(autouse=True)
def quiet() -> None:
    warnings.filterwarnings("ignore", message=".*Observation.*")


@pytest.mark.parametrize("players", [2, 3])
def test_api_test_passes_with_the_explicit_encoder(players: int) -> None:
    aec = env("space-pirates", players=players, observation_encoder="explicit")
    assert aec.observation_space("player_0")["observation"].shape == (encoding.SIZE,)
    api_test(aec, num_cycles=150)


def test_seed_test_passes() -> None:
    seed_test(lambda: env("space-pirates", players=2, observation_encoder="explicit", params={"turn_cap": 4}),
              num_cycles=60)


def test_the_explicit_encoder_is_registered_and_bounded() -> None:
    config = GAME.spec.make_config(players=4)
    enc = encoder_for(GAME, config, "explicit")
    assert enc.size == encoding.SIZE == len(encoding.FEATURES)
    state = GAME.new_state(players=4, seed=2)
    rng = random.Random(1)
    for _ in range(60):
        if state.is_terminal():
            break
        for seat in range(4):
            vec = enc.encode(state.view(seat))
            assert vec.dtype == np.float32 and vec.min() >= 0.0 and vec.max() <= 1.0
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)


def test_observations_never_depend_on_hidden_information() -> None:
    """SP-INFO-01..06: a re-dealt table gives the seat the very same observation."""
    config = GAME.spec.make_config(players=3)
    enc = encoder_for(GAME, config, "explicit")
    state = GAME.new_state(players=3, seed=6)
    rng = random.Random(2)
    compared = 0
    for step in range(80):
        if state.is_terminal():
            break
        if step % 8 == 0:
            for seat in range(3):
                other = state.determinize(seat, Rng(step * 3 + seat))
                assert enc.encode(other.view(seat)).tobytes() == enc.encode(state.view(seat)).tobytes()
                compared += 1
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    assert compared >= 6


def test_own_secrets_are_encoded_for_their_owner_only() -> None:
    """SP-SETUP-11 / SP-INFO-01: the placer sees its token's face, the other seat does not."""
    enc = encoder_for(GAME, GAME.spec.make_config(players=2), "explicit")
    st = GAME.new_state(players=2, seed=3, first_seat=0)
    st.apply("base 0", 0)
    st.apply("base 1", 1)
    st.apply(st.legal_actions(0)[0], 0)
    tid = next(t["tid"] for t in st.view(0)["tokens"])
    ident = st.data.ident[tid]
    slot = encoding.INDEX[f"token{tid}_is_{ident}"]
    assert enc.encode(st.view(0))[slot] == 1.0
    assert enc.encode(st.view(1))[slot] == 0.0
    assert enc.encode(st.view(1))[encoding.INDEX[f"token{tid}_on_map"]] == 1.0


def test_masks_pick_flicks_and_rulers_from_the_discrete_grid() -> None:
    """SP-FLICK-01, SP-MOVE-02: every masked index decodes to a legal action of the seat."""
    aec = raw_env("space-pirates", players=2, observation_encoder="explicit")
    aec.reset(seed=5)
    rng = random.Random(3)
    verbs: set[str] = set()
    for _ in range(120):
        agent = aec.agent_selection
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            break
        legal_idx = obs["action_mask"].nonzero()[0]
        assert len(legal_idx) > 0
        seat = int(agent.split("_")[1])
        legal = set(aec.game_state.legal_actions(seat))
        assert {GAME.index_action(int(i)) for i in legal_idx} == legal
        index = int(legal_idx[rng.randrange(len(legal_idx))])
        action = GAME.index_action(index)
        verbs.add(action.verb)
        aec.step(index)
    assert "flick" in verbs
