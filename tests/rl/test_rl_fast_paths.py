"""The fast paths (observations and masks read from the state) against their references.

The reference observation encodes ``state.view(seat)`` and the reference mask lists
``state.legal_actions(seat)``; the fast paths must give the very same arrays, bit for
bit, and must not be able to tell a state from its determinisations (so they read
nothing the seat may not see).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils import seeding
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.utils.env import AECIterable

import holotable
from holotable.engine import MalformedActionError, Rng, State
from holotable.rl.common import MaskMaker
from holotable.rl.encoding import Encoder, EncoderSpec, EncodingError, action_mask_for, encoder_for
from holotable.rl.pettingzoo_env import raw_env
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import IntSealedBid

from .helpers import advance_randomly, pick

GAME = holotable.load("captain-black")
SEALED_BID = IntSealedBid()
CB = "captain-black"

#: House rules that change what the fast paths compute (the tally, caps, parrots).
VARIANTS: list[dict[str, Any]] = [
    {},
    {"public_tally": False},
    {"max_handful": 3, "min_draw": 2},
    {"max_chests_per_round": 1, "parrot_exhaustion": "partial", "public_tally": False},
    {"max_chests_per_round": 2, "parrot_exhaustion": "skip", "island_fields": 8},
    {"min_draw": 5, "max_handful": 60, "final_tie": "last_start_player"},
]


def positions(players: int, params: dict[str, Any], games: int, seed: int = 0) -> Iterator[State[Any, Any]]:
    """Every position of ``games`` random games, the end included, played with a mix of
    cautious draws (long games, many parrots and chests) and uniform ones."""
    rng = random.Random(seed)
    for index in range(games):
        state = GAME.new_state(players=players, seed=seed * 1000 + index, **params)
        cautious = index % 2 == 0
        while True:
            yield state
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(pick(legal, rng) if cautious else legal[rng.randrange(len(legal))])


def same_array(fast: Any, reference: Any) -> bool:
    same_kind = fast.dtype == reference.dtype and fast.shape == reference.shape
    return bool(same_kind and fast.tobytes() == reference.tobytes())


# ---------------------------------------------------------------------------- observations


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_observations_equal_the_view_encoding_bit_for_bit(players: int, params: dict[str, Any]) -> None:
    enc = encoder_for(GAME, GAME.spec.make_config(players, **params))
    assert enc.state_fn is not None
    compared = 0
    terminal = 0
    for state in positions(players, params, games=12, seed=players):
        for seat in range(players):
            fast = enc.state_fn(state, seat)
            assert same_array(fast, enc.encode(state.view(seat))), (state.ply, seat)
            compared += 1
        terminal += state.is_terminal()
    assert terminal == 12 and compared > 500  # several thousand over the parameters, every game to its end


@settings(max_examples=200)
@given(
    players=st.integers(2, 4),
    params=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
)
def test_fast_observations_equal_the_view_encoding_anywhere(
    players: int, params: dict[str, Any], seed: int, steps: int
) -> None:
    state = GAME.new_state(players=players, seed=seed, **params)
    advance_randomly(state, steps, random.Random(seed))
    enc = encoder_for(GAME, state.config)
    assert enc.state_fn is not None
    for seat in range(players):
        assert same_array(enc.state_fn(state, seat), enc.encode(state.view(seat)))
        assert same_array(enc.encode_state(state, seat), enc.encode(state.view(seat)))


@settings(max_examples=150)
@given(
    players=st.integers(2, 4),
    public_tally=st.booleans(),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
    det_seed=st.integers(0, 2**16),
)
def test_fast_observations_cannot_tell_a_state_from_its_determinisations(
    players: int, public_tally: bool, seed: int, steps: int, det_seed: int
) -> None:
    state = GAME.new_state(players=players, seed=seed, public_tally=public_tally)
    advance_randomly(state, steps, random.Random(seed))
    enc = encoder_for(GAME, state.config)
    assert enc.state_fn is not None
    for seat in range(players):
        real = enc.state_fn(state, seat)
        for k in range(4):
            other = state.determinize(seat, Rng(det_seed * 4 + k))
            assert same_array(enc.state_fn(other, seat), real)


def test_determinisations_change_what_the_fast_path_must_not_read() -> None:
    # Without this the test above could pass trivially: with a hidden tally, other
    # seats' boxes and the last draw are re-dealt too, as are chests and deck orders.
    state = GAME.new_state(players=4, seed=8, public_tally=False)
    rng = random.Random(8)
    while not (state.data.rounds and any(state.data.boxes[1:])):
        advance_randomly(state, 1, rng)
    hidden = {
        repr((other.data.boxes, other.data.chests, other.data.chest_deck, other.data.parrot_deck))
        for other in (state.determinize(0, Rng(k)) for k in range(10))
    }
    assert len(hidden) > 1


def test_fast_observations_are_fresh_arrays() -> None:
    state = GAME.new_state(players=3, seed=4)
    advance_randomly(state, 20, random.Random(4))
    enc = encoder_for(GAME, state.config)
    assert enc.state_fn is not None
    first = enc.state_fn(state, 1)
    expected = first.copy()
    first[:] = 0
    assert same_array(enc.state_fn(state, 1), expected)


def test_an_encoder_without_a_fast_path_encodes_the_view() -> None:
    constant = Encoder("constant", 2, 0.0, 1.0, lambda view: [1.0, float(view["seat"] == 0)])
    state = GAME.new_state(players=2, seed=1)
    assert constant.state_fn is None
    assert constant.encode_state(state, 0).tolist() == [1.0, 1.0]
    assert constant.encode_state(state, 1).tolist() == [1.0, 0.0]


@pytest.mark.parametrize(
    ("fast", "message"),
    [
        (lambda state, seat: np.array([float(len(state.data.reveals)), 0.0], np.float32), "disagrees"),
        (lambda state, seat: np.array([float(len(state.data.reveals)), 1.0], np.float64), "float32 array"),
        (lambda state, seat: [float(len(state.data.reveals)), 1.0], "float32 array"),
    ],
    ids=["wrong-values", "wrong-dtype", "not-an-array"],
)
def test_a_fast_path_that_disagrees_with_the_view_is_refused(fast: Any, message: str) -> None:
    config = SEALED_BID.spec.make_config(2)
    # The view function gives (rounds played, 1); each fast path gets something else wrong.
    view_fn = lambda view: [float(len(view["reveals"])), 1.0]  # noqa: E731
    spec = EncoderSpec(lambda cfg: view_fn, 2, high=9.0, state_factory=lambda cfg: fast)
    with temporarily_registered(SEALED_BID, encoder=spec), pytest.raises(EncodingError, match=message):
        encoder_for(SEALED_BID, config)


# ---------------------------------------------------------------------------- action masks


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_masks_equal_the_masks_of_the_legal_actions(players: int, params: dict[str, Any]) -> None:
    config = GAME.spec.make_config(players, **params)
    fast = action_mask_for(GAME, config)
    assert fast is not None
    reference = MaskMaker(GAME, GAME.num_actions(config)).make
    compared = 0
    for state in positions(players, params, games=10, seed=players + 10):
        for seat in range(players):
            mask = fast(state, seat)
            assert same_array(mask, reference(state, seat)), (state.ply, seat)
            assert mask.any() == (seat in state.to_move())
            compared += 1
    assert compared > 400


def test_fast_masks_are_fresh_arrays() -> None:
    state = GAME.new_state(players=2, seed=2)
    fast = action_mask_for(GAME, state.config)
    assert fast is not None
    seat = state.to_move()[0]
    for asked in (seat, 1 - seat):  # the mover's mask and an all-zero one
        first = fast(state, asked)
        expected = first.copy()
        first[:] = 1 - first
        assert same_array(fast(state, asked), expected)


def test_a_registered_mask_fast_path_is_what_the_env_uses() -> None:
    config = SEALED_BID.spec.make_config(2)
    assert action_mask_for(SEALED_BID, config) is None  # none registered: masks come from legal actions
    calls: list[int] = []

    def factory(game: Any, cfg: Any) -> Any:
        reference = MaskMaker(game, game.num_actions(cfg)).make

        def mask(state: State[Any, Any], seat: int) -> Any:
            calls.append(seat)
            return reference(state, seat)

        return mask

    # A mask fast path comes with an encoder; its one-number observation is a placeholder (only masks are read).
    spec = EncoderSpec(lambda cfg: lambda view: [0.0], 1, mask_factory=factory)
    with temporarily_registered(SEALED_BID, encoder=spec):
        aec = raw_env(SEALED_BID, players=2)
        aec.reset(seed=3)
        mask = aec.observe("player_1")["action_mask"]
        hand = aec.game_state.data.hands[1]
        assert calls == [1] and mask.tolist() == [int(card in hand) for card in range(1, len(mask) + 1)]
    assert action_mask_for(SEALED_BID, config) is None


# ---------------------------------------------------------------------------- the env's own bookkeeping


def test_agent_iter_yields_what_pettingzoos_iterator_yields() -> None:
    def agents_seen(iterable: Any, aec: Any, seed: int) -> list[str]:
        aec.reset(seed=seed)
        rng = random.Random(seed)
        seen = []
        for agent in iterable(aec):
            seen.append(agent)
            obs, _, terminated, truncated, _ = aec.last()
            aec.step(None if terminated or truncated else int(pick(obs["action_mask"].nonzero()[0], rng)))
        return seen

    aec = raw_env(CB, players=3)
    for seed in range(3):
        ours = agents_seen(lambda env: env.agent_iter(), aec, seed)
        theirs = agents_seen(lambda env: AECIterable(env, 2**63), aec, seed)
        assert ours == theirs and set(ours[-3:]) == set(aec.possible_agents)  # all retired at the end
    aec.reset(seed=1)
    limited = aec.agent_iter(5)
    assert len(list(limited)) == 5 and len(list(limited)) == 5  # iterable again from the start
    assert list(islice(aec.agent_iter(), 3)) == [aec.agent_selection] * 3


def test_unseeded_resets_draw_their_seeds_from_the_last_explicit_seed() -> None:
    aec = raw_env(CB, players=2)
    aec.reset(seed=5)
    expected_seeds, _ = seeding.np_random(5)
    for _ in range(3):
        aec.reset()
        assert aec.game_state is not None
        assert aec.game_state.seed == int(expected_seeds.integers(2**63))


@pytest.mark.parametrize("index", [-1, 50, 10**9])
def test_the_raw_env_refuses_an_index_outside_the_space(index: int) -> None:
    aec = raw_env(CB, players=2)
    aec.reset(seed=1)
    assert aec.game_state is not None
    before = aec.game_state.fingerprint()
    with pytest.raises(MalformedActionError):
        aec.step(index)
    assert aec.game_state.fingerprint() == before


def test_steps_accept_numpy_indices() -> None:
    aec = raw_env(CB, players=2)
    aec.reset(seed=6)
    legal = aec.observe(aec.agent_selection)["action_mask"].nonzero()[0]
    aec.step(legal[0])  # a numpy integer, as a masked policy gives it
    assert isinstance(legal[0], np.integer)
    assert aec.game_state is not None and aec.game_state.history[-1][1] == GAME.index_action(int(legal[0]))
