"""Buccaneers through the RL adapters: PettingZoo's AEC and Parallel API tests, the explicit encoder,
and the simultaneous selection steps (BHB-SEL-01/02) as single Parallel steps.

Observations carry only what the seat may see (BHB-INFO-04): they are unchanged by determinisation.
"""

from __future__ import annotations

import random
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import holotable
from holotable.engine import Rng
from holotable.games.buccaneers import encoding
from holotable.games.buccaneers.actions import Play
from holotable.rl.common import seat_rewards
from holotable.rl.parallel import parallel_env
from holotable.rl.pettingzoo_env import env, raw_env

GAME = holotable.load("buccaneers")


@pytest.fixture(autouse=True)
def _warnings_fail() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


@pytest.mark.parametrize("players", [3, 4, 6])
def test_aec_env_passes_api_test_and_seed_test(players: int) -> None:
    api_test(env("buccaneers", players=players), num_cycles=1000)
    seed_test(lambda: env("buccaneers", players=players), num_cycles=200)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_BHB_SEL_01_parallel_env_passes_parallel_api_test(players: int) -> None:
    """The sealed step-1 picks are one Parallel step (the issue's requirement)."""
    parallel_api_test(parallel_env("buccaneers", players=players), num_cycles=1000)
    parallel_seed_test(lambda: parallel_env("buccaneers", players=players), num_cycles=200)


def test_the_explicit_encoder_is_used_and_stays_in_bounds() -> None:
    aec = raw_env("buccaneers", players=5)
    assert aec.encoder.name == "buccaneers/explicit" and aec.encoder.size == encoding.SIZE
    assert aec.observation_space("player_0")["action_mask"].shape == (157,)
    aec.reset(seed=1)
    rng = random.Random(1)
    for _agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        assert obs["observation"].dtype == np.float32
        assert float(obs["observation"].min()) >= 0.0 and float(obs["observation"].max()) <= 1.0
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_the_encoding_reads_the_hand_and_is_rotated_to_the_observer() -> None:
    state = GAME.new_state(players=4, seed=3)
    fn = encoding.make_encoder(state.config)
    for seat in range(4):
        vec = fn(state.view(seat))
        hand = [cid for cid in encoding.CARD_IDS if vec[encoding.INDEX[f"hand_{cid}"]] == 1.0]
        assert sorted(hand) == sorted(state.data.hands[seat])
        assert vec[encoding.INDEX[f"own_seat_{seat}"]] == 1.0
        assert vec[encoding.INDEX["present_r3"]] == 1.0 and vec[encoding.INDEX["present_r4"]] == 0.0
        assert vec[encoding.INDEX["hand_size_r0"]] == len(state.data.hands[seat]) / 12
        assert vec[encoding.INDEX["ask_choose"]] == 1.0 and vec[encoding.INDEX["my_turn"]] == 1.0


def _advance(state: Any, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 90), players=st.integers(3, 6), det=st.integers(0, 99))
def test_BHB_INFO_04_observations_never_depend_on_hidden_cards(seed: int, steps: int, players: int, det: int) -> None:
    state = GAME.new_state(players=players, seed=seed)
    _advance(state, steps, random.Random(seed))
    fn = encoding.make_encoder(state.config)
    for seat in range(players):
        real = fn(state.view(seat))
        for k in range(2):
            other = state.determinize(seat, Rng(det * 3 + k))
            assert fn(other.view(seat)) == real


def test_a_parallel_step_seals_every_pick_and_resolves_them_together() -> None:
    par = parallel_env("buccaneers", players=4)
    observations, _infos = par.reset(seed=8)
    assert par.acting_agents == [f"player_{s}" for s in range(4)]
    state = par.game_state
    assert state is not None
    engine = GAME.new_state(players=4, seed=8)
    picks = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in par.acting_agents}
    par.step(picks)
    for seat in range(4):
        engine.apply(GAME.index_action(picks[f"player_{seat}"]), seat)
    assert state.fingerprint() == engine.fingerprint()
    # Every chosen card now lies in its owner's tableau (a toy face down).
    for seat in range(4):
        card = GAME.index_action(picks[f"player_{seat}"])
        assert isinstance(card, Play)
        assert state.data.tableaux[seat][-1].card == card.card


def test_single_seat_decisions_and_the_gps_seat_are_not_acting() -> None:
    par = parallel_env("buccaneers", players=4)
    counts: dict[str, set[int]] = {}
    for seed in range(6):
        observations, infos = par.reset(seed=seed)
        rng = random.Random(seed)
        while par.agents:
            state = par.game_state
            assert state is not None
            kind = state.data.ask[0]
            acting = par.acting_agents
            counts.setdefault(kind, set()).add(len(acting))
            if kind == "choose":
                gps = {f"player_{s}" for s, flag in enumerate(state.data.gps_now) if flag}
                assert not gps & set(acting) and len(acting) == 4 - len(gps)
            for agent, obs in observations.items():
                assert obs["action_mask"].any() == (agent in acting) == infos[agent]["acting"]
            actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in acting}
            observations, rewards, _, _, infos = par.step(actions)
        assert rewards == dict(zip(par.possible_agents, seat_rewards(state.outcome()), strict=True))
    assert 4 in counts["choose"]
    assert all(sizes == {1} for kind, sizes in counts.items() if kind != "choose")


def test_the_benchmark_measures_both_games() -> None:
    root = Path(__file__).resolve().parents[3]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from benchmarks import buccaneers_bench

    figures = buccaneers_bench.run(seconds=0.02, repeats=1, iterations=10, echo=lambda _: None)
    play, search = figures["random_play"], figures["ismcts"]
    assert play["games_per_s"] > 0 and play["steps_per_game"] > 20
    assert play["games_per_s_vs_baseline"] > 0 and search["iterations_per_s_vs_baseline"] > 0
    assert "Buccaneers 4p random play" in buccaneers_bench.report(figures)
