"""The native PettingZoo Parallel environment: PettingZoo's own tests, and what a step promises."""

from __future__ import annotations

import dataclasses
import pickle
import random
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import parallel_api_test, parallel_seed_test

import holotable
from holotable.engine import GameSpec, IllegalActionError, Rng, State, names
from holotable.rl.common import seat_rewards
from holotable.rl.parallel import HolotableParallelEnv, parallel_env
from holotable.rl.pettingzoo_env import raw_env
from holotable.testing.toys import IntSealedBid, Nim, NimData, SealedBid

CB = "captain-black"
SEALED = IntSealedBid()


@pytest.fixture(autouse=True)
def _warnings_fail_the_api_tests() -> Iterator[None]:
    # parallel_api_test only *warns* when a live agent misses an observation, reward,
    # termination or info, or a finished one is given one; here any such warning fails.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


def masked_random_episode(par: HolotableParallelEnv, seed: int, rng: random.Random) -> list[dict[str, float]]:
    """Play one episode with random legal actions for the acting agents; the rewards of every step."""
    observations, infos = par.reset(seed=seed)
    history = []
    while par.agents:
        actions = {}
        for agent in par.acting_agents:
            assert infos[agent]["acting"]
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(legal[rng.randrange(len(legal))])
        observations, rewards, _terminations, _truncations, infos = par.step(actions)
        history.append(rewards)
    return history


def _player_counts(name: str) -> list[int]:
    spec = holotable.load(name).spec
    return sorted({spec.min_players, min(spec.max_players, 4)})


# ---------------------------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("game", [SealedBid(), SEALED, Nim(), CB], ids=["sealed-bid", "int-sealed-bid", "nim", CB])
@pytest.mark.parametrize("players", [2, 3])
def test_parallel_api_test_passes(game: Any, players: int) -> None:
    parallel_api_test(parallel_env(game, players=players), num_cycles=1000)


@pytest.mark.parametrize(("name", "players"), [(n, p) for n in names() for p in _player_counts(n)])
def test_every_registered_game_passes_parallel_api_test(name: str, players: int) -> None:
    parallel_api_test(parallel_env(name, players=players), num_cycles=500)


@pytest.mark.parametrize("game", [SEALED, CB], ids=["int-sealed-bid", CB])
def test_parallel_seed_test_passes(game: Any) -> None:
    # The seed test samples unmasked actions, so it also replays the illegal-action ending.
    parallel_seed_test(lambda: parallel_env(game, players=3), num_cycles=200)


# ---------------------------------------------------------------------------- simultaneous steps


def test_one_step_seals_and_resolves_every_bid_together() -> None:
    par = parallel_env(SEALED, players=3)
    observations, infos = par.reset(seed=11)
    assert par.acting_agents == ["player_0", "player_1", "player_2"]
    assert all(info["acting"] for info in infos.values())
    bids = {agent: int(np.flatnonzero(obs["action_mask"])[-1]) for agent, obs in observations.items()}
    engine = SEALED.new_state(players=3, seed=11)
    before = len(engine.data.reveals)
    par.step(bids)
    for seat, agent in enumerate(par.possible_agents):
        engine.apply(SEALED.index_action(bids[agent]), seat)
    state = par.game_state
    assert state is not None and not state.pending
    assert state.fingerprint() == engine.fingerprint()
    assert len(state.data.reveals) == before + 1
    assert state.data.reveals[-1]["bids"] == [bids[a] + 1 for a in par.possible_agents]


def test_a_sequential_game_has_one_acting_agent_and_ignores_the_others() -> None:
    par = parallel_env(CB, players=4)
    observations, infos = par.reset(seed=5)
    state = par.game_state
    assert state is not None
    (seat,) = state.to_move()
    mover = f"player_{seat}"
    assert par.acting_agents == [mover]
    assert {a for a, info in infos.items() if info["acting"]} == {mover}
    for agent, obs in observations.items():
        assert obs["action_mask"].any() == (agent == mover)
    engine = holotable.load(CB).new_state(players=4, seed=5)
    # Other agents' entries (even out of range) are ignored; the mover's is applied.
    par.step({**dict.fromkeys(par.possible_agents, 10**6), mover: 2})
    engine.apply(2, seat)
    assert par.game_state is not None and par.game_state.fingerprint() == engine.fingerprint()
    nxt = par.acting_agents[0]
    par.step({nxt: 0})  # leaving the others out is allowed too
    engine.apply(0, int(nxt.split("_")[1]))
    assert par.game_state.fingerprint() == engine.fingerprint()


def test_observations_are_the_view_encodings_and_hide_the_others_secrets() -> None:
    par = parallel_env(SEALED, players=3)
    observations, _ = par.reset(seed=3)
    rng = random.Random(3)
    for _ in range(2):
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        observations, *_ = par.step(actions)
    state = par.game_state
    assert state is not None
    for seat, agent in enumerate(par.possible_agents):
        reference = par.encoder.encode(state.view(seat))
        assert np.array_equal(observations[agent]["observation"], reference)
        legal = sorted(SEALED.action_index(a) for a in state.legal_actions(seat))
        assert np.flatnonzero(observations[agent]["action_mask"]).tolist() == legal
        others = [state.determinize(seat, Rng(k)) for k in range(8)]
        assert any(other.data.hands != state.data.hands for other in others)  # hidden cards were re-dealt
        for other in others:
            assert np.array_equal(par.encoder.encode(other.view(seat)), reference)


class OpenRace(Nim):
    """Every seat is asked at once but the decision is open (unsealed): each take applies at once."""

    spec: ClassVar[GameSpec] = dataclasses.replace(Nim.spec, name="test-open-race", title="Open race (test)")

    def to_move(self, st: State[NimData, int]) -> tuple[int, ...]:
        return () if st.data.winner is not None else tuple(range(st.players))

    def sealed(self, st: State[NimData, int]) -> bool:
        return False


def test_an_open_multi_seat_decision_takes_one_action_per_step() -> None:
    par = parallel_env(OpenRace(), players=3, params={"pile": 5})
    observations, infos = par.reset(seed=0)
    state = par.game_state
    assert state is not None and state.to_move() == (0, 1, 2)
    assert par.acting_agents == ["player_0"]
    assert [info["acting"] for info in infos.values()] == [True, False, False]
    assert [bool(obs["action_mask"].any()) for obs in observations.values()] == [True, False, False]
    par.step({"player_0": 1, "player_1": 2, "player_2": 2})
    assert state.data.pile == 3 and state.history == [(0, 2)]
    parallel_api_test(parallel_env(OpenRace(), players=3), num_cycles=200)


# ---------------------------------------------------------------------------- episodes and rewards


@pytest.mark.parametrize("game", [SEALED, CB], ids=["int-sealed-bid", CB])
@pytest.mark.parametrize("players", [2, 3])
def test_full_games_pay_the_outcome_at_the_end_only(game: Any, players: int) -> None:
    par = parallel_env(game, players=players)
    for seed in range(4):
        history = masked_random_episode(par, seed, random.Random(seed))
        state = par.game_state
        assert state is not None and state.is_terminal()
        expected = seat_rewards(state.outcome())
        assert history[-1] == {f"player_{s}": expected[s] for s in range(players)}
        assert all(set(step.values()) == {0.0} for step in history[:-1])
        assert sorted(expected) != [0.0] * players
        assert par.agents == [] and par.acting_agents == []
        with pytest.raises(RuntimeError, match="over"):
            par.step({})


def test_the_final_step_terminates_every_agent() -> None:
    par = parallel_env(SEALED, players=2, params={"hand": 1})
    observations, _ = par.reset(seed=0)
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    observations, rewards, terminations, truncations, infos = par.step(actions)
    assert terminations == {"player_0": True, "player_1": True}
    assert truncations == {"player_0": False, "player_1": False}
    assert sorted(rewards.values()) == [-1.0, 1.0]
    assert set(observations) == set(infos) == {"player_0", "player_1"}
    assert not any(obs["action_mask"].any() for obs in observations.values())


class ShortBid(IntSealedBid):
    """Declares a maximum length shorter than its games, so the environment must truncate."""

    spec: ClassVar[GameSpec] = dataclasses.replace(IntSealedBid.spec, name="test-short-bid", max_game_length=4)


def test_truncation_at_the_declared_game_length() -> None:
    par = parallel_env(ShortBid(), players=2, params={"hand": 9})
    observations, _ = par.reset(seed=0)

    def bid_lowest() -> tuple[Any, ...]:
        return par.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()})

    observations, rewards, terminations, truncations, _ = bid_lowest()  # two plies: both bids
    assert not any(truncations.values()) and par.agents
    observations, rewards, terminations, truncations, _ = bid_lowest()  # four plies: the limit
    assert all(truncations.values()) and not any(terminations.values())
    assert set(rewards.values()) == {0.0} and par.agents == []


# ---------------------------------------------------------------------------- refusals


def _second_seat_bids_what_it_lacks(par: HolotableParallelEnv) -> dict[str, int]:
    """A legal bid for player_0 and a card player_1 does not hold."""
    state = par.game_state
    assert state is not None
    missing = next(c for c in range(1, 10) if c not in state.data.hands[1])
    return {"player_0": state.data.hands[0][0] - 1, "player_1": missing - 1}


def test_an_illegal_action_ends_the_episode_with_a_penalty_and_changes_nothing() -> None:
    par = parallel_env(SEALED, players=2)
    par.reset(seed=4)
    assert par.game_state is not None
    before = par.game_state.fingerprint()
    _, rewards, terminations, truncations, infos = par.step(_second_seat_bids_what_it_lacks(par))
    assert par.game_state.fingerprint() == before and not par.game_state.pending
    assert rewards == {"player_0": 0.0, "player_1": -1.0}
    assert all(terminations.values()) and not any(truncations.values())
    assert "illegal_action" not in infos["player_0"]
    assert "not in your hand" in infos["player_1"]["illegal_action"]
    assert par.agents == []


def test_raise_mode_refuses_a_sealed_step_as_a_whole() -> None:
    par = parallel_env(SEALED, players=2, illegal="raise")
    par.reset(seed=4)
    assert par.game_state is not None
    before = par.game_state.fingerprint()
    with pytest.raises(IllegalActionError):
        par.step(_second_seat_bids_what_it_lacks(par))
    # player_0's legal bid was not half-applied: nothing is pending, the step can be retried.
    assert par.game_state.fingerprint() == before and not par.game_state.pending
    assert par.agents == ["player_0", "player_1"] and par.acting_agents == ["player_0", "player_1"]


def test_missing_or_out_of_space_actions_of_acting_agents_are_refused() -> None:
    par = parallel_env(SEALED, players=2)
    par.reset(seed=1)
    assert par.game_state is not None
    before = par.game_state.fingerprint()
    with pytest.raises(ValueError, match="player_1 must act"):
        par.step({"player_0": 0})
    with pytest.raises(ValueError, match="outside the action space"):
        par.step({"player_0": 0, "player_1": 8})
    assert par.game_state.fingerprint() == before


def test_bad_construction_and_use_before_reset_are_refused() -> None:
    with pytest.raises(ValueError, match="illegal"):
        parallel_env(SEALED, illegal="ignore")
    with pytest.raises(RuntimeError, match="reset"):
        parallel_env(SEALED).step({})


# ---------------------------------------------------------------------------- seeds, copies, text


def test_a_seeded_reset_plays_the_engine_game_and_unseeded_ones_continue() -> None:
    par = parallel_env(CB, players=3)
    par.reset(seed=17)
    assert par.game_state is not None
    assert par.game_state.fingerprint() == holotable.load(CB).new_state(players=3, seed=17).fingerprint()

    def after_seed(seed: int) -> list[str]:
        par.reset(seed=seed)
        out = []
        for _ in range(3):
            par.reset()
            assert par.game_state is not None
            out.append(par.game_state.fingerprint())
        return out

    first = after_seed(5)
    assert after_seed(5) == first and len(set(first)) == 3 and after_seed(6) != first


def test_the_parallel_and_aec_envs_agree_on_sequential_games() -> None:
    par = parallel_env(CB, players=3)
    aec = raw_env(CB, players=3)
    observations, _ = par.reset(seed=9)
    aec.reset(seed=9)
    rng = random.Random(9)
    while par.agents:
        (agent,) = par.acting_agents
        assert aec.agent_selection == agent
        for other in par.possible_agents:
            expected = aec.observe(other)
            assert np.array_equal(observations[other]["observation"], expected["observation"])
            assert np.array_equal(observations[other]["action_mask"], expected["action_mask"])
        index = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
        observations, rewards, *_ = par.step({agent: index})
        aec.step(index)
    assert rewards == aec.rewards


def test_pickles_and_renders() -> None:
    par = parallel_env(SEALED, players=3, render_mode="ansi")
    clone: HolotableParallelEnv = pickle.loads(pickle.dumps(par))
    par.reset(seed=2)
    clone.reset(seed=2)
    assert par.game_state is not None and clone.game_state is not None
    assert clone.game_state.fingerprint() == par.game_state.fingerprint()
    text = par.render()
    assert isinstance(text, str) and text.startswith("Sealed Bid, int actions (test), 3 players, ply 0")
    assert "hand: null" in text  # the spectator's view
    assert par.metadata["name"] == "holotable_test_sealed_bid_ints_parallel_v0"


def _acting_counts(par: HolotableParallelEnv, seeds: Sequence[int]) -> set[int]:
    counts = set()
    for seed in seeds:
        observations, _ = par.reset(seed=seed)
        while par.agents:
            counts.add(len(par.acting_agents))
            actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in par.acting_agents}
            observations, *_ = par.step(actions)
    return counts


def test_acting_agents_follow_the_engine() -> None:
    assert _acting_counts(parallel_env(SEALED, players=3), range(3)) == {3}
    assert _acting_counts(parallel_env(CB, players=4), range(3)) == {1}
