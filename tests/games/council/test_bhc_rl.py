"""The Council under the RL adapters: PettingZoo's own tests, the explicit encoder, the action space.

Free chat has no integer index, so it is no RL action; suggestions, pledges, requests and claims
are (BHC-NEG-02, BHC-INFO-02). Observations come from the seat's view only (BHC-INV-21, BHC-DIG-05).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, seed_test

import holotable
from holotable.engine import MalformedActionError, Rng, State
from holotable.games.council import actions as A
from holotable.games.council import encoding as enc
from holotable.games.council.data import COLOURS, OUTCOMES
from holotable.rl.encoding import encoder_for, registered_encoder_names
from holotable.rl.pettingzoo_env import env, parallel_env, raw_env

GAME = holotable.load("council")


@pytest.fixture(autouse=True)
def _quiet_pettingzoo_advice() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


def positions(players: int, games: int, seed: int = 0) -> Iterator[State[Any, Any]]:
    """Every 7th position of ``games`` random games, the end included."""
    rng = random.Random(seed)
    for g in range(games):
        st = GAME.new_state(players=players, seed=seed * 100 + g)
        ply = 0
        while not st.is_terminal():
            if ply % 7 == 0:
                yield st
            seat = st.to_move()[0]
            legal = st.legal_actions(seat)
            st.apply(legal[rng.randrange(len(legal))], seat)
            ply += 1
        yield st


# ---------------------------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("players", [4, 5, 8])
def test_BHC_DIG_05_api_test_passes_with_the_explicit_encoder(players: int) -> None:
    aec = env("council", players=players)
    assert aec.unwrapped.encoder.name == "council/explicit"
    api_test(aec, num_cycles=400)


def test_seed_test_passes() -> None:
    seed_test(lambda: env("council", players=5), num_cycles=150)


def test_parallel_env_passes_the_parallel_api_test() -> None:
    parallel_api_test(parallel_env("council", players=5), num_cycles=300)


# ---------------------------------------------------------------------------- the action space


def test_BHC_INFO_02_chat_is_no_rl_action_but_suggestions_are() -> None:
    config = GAME.spec.make_config(5)
    assert GAME.num_actions(config) == len(A.SPACE)
    with pytest.raises(MalformedActionError):
        GAME.action_index(A.chat("hello"))
    with pytest.raises(MalformedActionError):
        GAME.action_index(A.DEADLINE_ACT)
    st = GAME.new_state(players=5, seed=1, first_leader=0)
    mask = st.action_mask(2)
    for text in ("suggest swap mine conquer", "support", "oppose", "ask bribe 2", "claim 3 settle red", "offer"):
        index = GAME.action_index(GAME.parse_action(text))
        assert mask[index] == 1, text
    assert mask[GAME.action_index(A.swap(0, 1))] == 0  # only the Leader rearranges (BHC-NEG-01)
    assert st.action_mask(0)[GAME.action_index(A.swap(0, 1))] == 1
    assert sum(mask) == len(st.legal_actions(2))


def test_a_raw_env_episode_plays_suggestions_votes_advances_and_guesses() -> None:
    aec = raw_env("council", players=5)
    aec.reset(seed=3)
    rng = random.Random(3)
    kinds: set[str] = set()
    for _agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        index = int(legal[rng.randrange(len(legal))])
        kinds.add(A.SPACE[index].kind)
        aec.step(index)
    assert {A.SUGGEST, A.VOTE, A.GUESS, A.CALL} <= kinds
    assert kinds & A.ADVANCE_KINDS


# ---------------------------------------------------------------------------- the encoder


def features(vector: Any) -> dict[str, float]:
    return dict(zip(enc.FEATURES, vector.tolist(), strict=True))


def test_the_explicit_encoder_is_registered_with_a_fixed_size_and_bounds() -> None:
    assert "council" in registered_encoder_names()
    assert enc.SIZE == len(enc.FEATURES) == len(set(enc.FEATURES))
    for players in (4, 6, 8):
        e = encoder_for(GAME, GAME.spec.make_config(players))
        assert (e.size, e.low, e.high, e.name) == (enc.SIZE, 0.0, 1.0, "council/explicit")


def test_every_observation_is_in_bounds_for_every_seat() -> None:
    for players in (4, 7):
        e = encoder_for(GAME, GAME.spec.make_config(players))
        for st in positions(players, 2, seed=players):
            for seat in range(players):
                vec = e.encode(st.view(seat))
                assert vec.dtype == np.float32 and vec.shape == (enc.SIZE,)
                assert float(vec.min()) >= 0.0 and float(vec.max()) <= 1.0


@pytest.mark.parametrize(
    "params",
    [
        {"track_costs": [1, 1, 2], "negotiation_ticks": 2, "leader_actions_per_tick": 1},
        {"bribe_increment": 2, "negotiation_seconds": 0, "round_order": "NNNNNNDDDP"},
    ],
)
def test_house_rules_keep_observations_in_bounds(params: dict[str, Any]) -> None:
    """assumed:BHC-AMB-04 (track), BHC-AMB-13 (bribe increment), BHC-AMB-08 (round order), BHC-AMB-11 (ticks)."""
    config = GAME.spec.make_config(6, **params)
    e = encoder_for(GAME, config)
    rng = random.Random(1)
    for g in range(2):
        st = State.new(GAME, config, g)
        while not st.is_terminal():
            seat = st.to_move()[0]
            vec = e.encode(st.view(seat))
            assert float(vec.min()) >= 0.0 and float(vec.max()) <= 1.0
            legal = st.legal_actions(seat)
            st.apply(legal[rng.randrange(len(legal))], seat)
        assert features(e.encode(st.view(0)))["terminal"] == 1.0


def test_BHC_INV_21_observations_cannot_tell_a_state_from_its_determinisations() -> None:
    """Everything hidden from the seat is re-dealt and the observation stays the same. (While
    other seats' sealed choices are pending the engine drops them from a determinisation, so who
    is still asked differs by design; those positions are left out, as in the conformance check.)"""
    e = encoder_for(GAME, GAME.spec.make_config(5))
    rng = Rng(5)
    for st in positions(5, 3, seed=9):
        for seat in range(5):
            if set(st.pending) - {seat}:
                continue
            real = e.encode(st.view(seat))
            other = st.determinize(seat, rng)
            assert e.encode(other.view(seat)).tobytes() == real.tobytes()


def test_the_features_say_what_the_view_says_from_the_observers_seat() -> None:
    st = GAME.new_state(players=5, seed=3, first_leader=0)
    st.apply("suggest swap settle tax", 2)
    st.apply("suggest swap settle tax", 3)
    st.apply("oppose", 4)
    st.apply("bribe 3 1", 0)
    view = st.view(2)
    f = features(encoder_for(GAME, st.config).encode(view))
    assert f["own_seat_2"] == 1.0 and f["present_r4"] == 1.0 and f["present_r5"] == 0.0
    assert f["phase_negotiate"] == 1.0 and f["proposal_1"] == 1.0 and f["round_kind_N"] == 1.0
    assert f["leader_r3"] == 1.0  # seat 0 is three seats after seat 2 in a 5-player game
    assert f["pending_r1"] == pytest.approx(1 / enc.BRIBE_CAP) and f["bribed_r1"] == 1.0  # seat 3
    assert f["oppose_r2"] == 1.0  # seat 4
    assert f["suggestions_r0"] == pytest.approx(1 / enc.TALK_CAP)
    assert f["table_suggest_settle_tax"] == pytest.approx(2 / enc.TALK_CAP)
    goals = view["you"]["agenda"]["goals"]
    for o in OUTCOMES:
        for c in COLOURS:
            assert f[f"agenda_{c}_{o}"] == (1.0 if goals[o] == c else 0.0)
    for o, planet in view["table"].items():
        assert f[f"table_{o}_colour_{planet['colour']}"] == 1.0
        match = planet["colour"] == "rainbow" or goals[o] == planet["colour"]
        assert f[f"table_{o}_mine"] == (1.0 if match else 0.0)
    assert f["points"] == pytest.approx((view["you"]["points"] + 2) / 20)
    assert f["bank_r0"] == pytest.approx(1 / enc.BANK_CAP)
