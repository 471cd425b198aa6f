"""Observation encoders: Captain Black's explicit one, the generic one, and the registry."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import holotable
from holotable.engine import State
from holotable.games.captain_black import encoding as cb
from holotable.rl import generic_encoder as generic
from holotable.rl.encoding import Encoder, EncoderSpec, EncodingError, encoder_for, registered_encoder_names
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import IntSealedBid

from .helpers import advance_randomly

GAME = holotable.load("captain-black")
SEALED_BID = IntSealedBid()


def features(vector: Any) -> dict[str, float]:
    return dict(zip(cb.FEATURES, vector.tolist(), strict=True))


def encode(state: State[Any, Any], seat: int) -> dict[str, float]:
    return features(encoder_for(GAME, state.config).encode(state.view(seat)))


# ---------------------------------------------------------------------------- Captain Black


def test_captain_black_encoder_is_registered_with_a_fixed_size() -> None:
    assert "captain-black" in registered_encoder_names()
    assert cb.SIZE == len(cb.FEATURES) == len(set(cb.FEATURES)) == 64
    for players in (2, 3, 4):
        enc = encoder_for(GAME, GAME.spec.make_config(players))
        assert (enc.size, enc.low, enc.high) == (64, 0.0, 1.0)
        assert enc.name == "captain-black/explicit"


configs = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "public_tally": st.booleans(),
        "parrot_exhaustion": st.sampled_from(["reshuffle", "partial", "skip"]),
        "max_handful": st.sampled_from([None, 3, 12]),
        "max_chests_per_round": st.sampled_from([1, 2, 4]),
    }
)


@settings(max_examples=150)
@given(config=configs, seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_captain_black_features_stay_in_bounds(config: dict[str, Any], seed: int, steps: int) -> None:
    players = config.pop("players")
    state = GAME.new_state(players=players, seed=seed, **config)
    advance_randomly(state, steps, random.Random(seed))
    enc = encoder_for(GAME, state.config)
    for seat in range(players):
        vector = enc.encode(state.view(seat))
        assert vector.dtype == np.float32 and vector.shape == (64,)
        assert np.all(vector >= 0.0) and np.all(vector <= 1.0), features(vector)


def test_captain_black_features_are_rotated_to_the_observer() -> None:
    state = GAME.new_state(players=4, seed=21, start_seat=0)
    state.apply("draw 1")  # one coin: all gold unless the bag is unlucky
    while state.data.boxes[0] == 0:  # pragma: no cover - seed 21 gives gold at once
        state = GAME.new_state(players=4, seed=state.seed + 1, start_seat=0)
        state.apply("draw 1")
    for seat in range(4):
        f = encode(state, seat)
        rel = (0 - seat) % 4  # where seat 0 sits as seen from `seat`
        assert f[f"box_r{rel}"] == pytest.approx(1 / 42)
        assert sum(f[f"box_r{r}"] for r in range(4)) == pytest.approx(1 / 42)
        assert f[f"own_seat_{seat}"] == 1.0 and sum(f[f"own_seat_{s}"] for s in range(4)) == 1.0
        assert f[f"start_player_r{rel}"] == 1.0
        assert f[f"bag_holder_r{(1 - seat) % 4}"] == 1.0
        assert f[f"last_draw_seat_r{rel}"] == 1.0 and f["last_draw_k"] == pytest.approx(1 / 50)
        assert f["my_turn"] == (1.0 if seat == 1 else 0.0)


def test_captain_black_own_chests_are_seen_and_others_hidden_until_the_end() -> None:
    state = GAME.new_state(players=3, seed=5)
    rng = random.Random(5)
    while not state.data.rounds:
        advance_randomly(state, 1, rng)
    for seat in range(3):
        f = encode(state, seat)
        hand = state.data.chests[seat]
        scale = 4 * 3  # the cap per round x the rounds of a 3-player game
        assert f["chest_cards_r0"] == pytest.approx(len(hand) / scale)
        assert f["chests_filled_r0"] == pytest.approx(sum(hand) / scale)
        assert f["own_chests_empty"] == pytest.approx((len(hand) - sum(hand)) / scale)
        assert (f["chests_known_r0"], f["chests_known_r1"], f["chests_known_r2"]) == (1.0, 0.0, 0.0)
        assert (f["chests_filled_r1"], f["chests_filled_r2"]) == (0.0, 0.0)
    advance_randomly(state, 10_000, rng)
    f = encode(state, 0)
    assert f["terminal"] == 1.0 and f["chests_known_r1"] == f["chests_known_r2"] == 1.0
    assert sum(f[f"bag_holder_r{r}"] for r in range(4)) == 0.0  # nobody holds the bag at the end


def test_captain_black_hidden_tally_shows_only_coins_left_and_own_box() -> None:
    state = GAME.new_state(players=2, seed=3, public_tally=False)
    advance_randomly(state, 3, random.Random(3))
    f = encode(state, 0)
    assert f["tally_public"] == 0.0 and f["bag_gold"] == f["bag_black"] == 0.0
    assert f["bag_coins"] == pytest.approx((state.data.bag_gold + state.data.bag_black) / 50)
    assert (f["box_known_r0"], f["box_known_r1"]) == (1.0, 0.0)
    assert f["last_draw"] == 0.0


def test_different_positions_get_different_observations() -> None:
    state = GAME.new_state(players=4, seed=1)
    seen = set()
    rng = random.Random(1)
    while not state.is_terminal():
        seen.add(encoder_for(GAME, state.config).encode(state.view(state.to_move()[0])).tobytes())
        advance_randomly(state, 1, rng)
    assert len(seen) == state.ply  # every decision point looked different to the seat deciding


# ---------------------------------------------------------------------------- the generic encoder


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.floats(allow_nan=True) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=25,
)
json_views = st.dictionaries(st.text(max_size=3), json_values, max_size=6)


@settings(max_examples=150)
@given(probe=st.lists(json_views, min_size=1, max_size=5), views=st.lists(json_views, max_size=5))
def test_generic_encoder_gives_fixed_size_bounded_vectors_for_any_json(
    probe: list[dict[str, Any]], views: list[dict[str, Any]]
) -> None:
    root, size = generic.build_layout(probe)
    enc = generic.layout_encoder("test", root, size)
    assert enc.size == max(size, 1)
    for view in probe + views:
        vector = enc.encode(view)
        assert vector.shape == (enc.size,)
        assert np.all(np.isfinite(vector))
        assert np.all(vector >= enc.low) and np.all(vector <= enc.high)


def test_generic_layout_keeps_numbers_flags_enums_and_lengths() -> None:
    probe = [
        {"n": 4, "flag": True, "who": None, "kind": "gold", "xs": [1, 2]},
        {"n": -2, "flag": False, "who": 1, "kind": "black", "xs": [3]},
    ]
    root, size = generic.build_layout(probe)
    enc = generic.layout_encoder("test", root, size)
    # Breadth first, keys sorted: flag | kind=black, kind=gold | n | who, who is null | len(xs) | xs[0], xs[1]
    assert size == 9
    # Numbers are divided by the largest magnitude seen there (n: 4, xs[0]: 3, xs[1]: 2), lengths by the longest.
    a = enc.encode({"n": 2, "flag": True, "who": None, "kind": "gold", "xs": [3]}).tolist()
    assert a == [1.0, 0.0, 1.0, 0.5, 0.0, 1.0, 0.5, 1.0, 0.0]
    b = enc.encode({"n": -40, "flag": False, "who": 1, "kind": "black", "xs": [3, 1]}).tolist()
    assert b == [0.0, 1.0, 0.0, -generic.CLIP, 1.0, 0.0, 1.0, 1.0, 0.5]
    # Unseen words, keys and list items are ignored; only what the layout knows is written.
    c = enc.encode({"kind": "unseen", "xs": [0, 0, 9, 9, 9], "new": 7}).tolist()
    assert c == [0.0] * 6 + [2.5, 0.0, 0.0]


def test_generic_layout_is_capped_breadth_first() -> None:
    probe = [{"top": 1, "deep": [[i] for i in range(100)]}]
    root, size = generic.build_layout(probe, max_size=10)
    assert size == 10
    assert root.keys["top"].num_slot >= 0  # top-level facts are laid out first


def test_generic_encoder_is_the_same_in_every_build() -> None:
    config = GAME.spec.make_config(3)
    first, second = generic.generic_encoder(GAME, config), generic.generic_encoder(GAME, config)
    assert first.size == second.size > 64
    state = GAME.new_state(players=3, seed=2)
    advance_randomly(state, 30, random.Random(2))
    assert np.array_equal(first.encode(state.view(1)), second.encode(state.view(1)))


def test_generic_encoder_works_for_a_game_without_an_explicit_one() -> None:
    config = SEALED_BID.spec.make_config(2)
    enc = encoder_for(SEALED_BID, config)
    assert enc.name == "test-sealed-bid-ints/generic"
    with pytest.raises(EncodingError, match="no explicit encoder"):
        encoder_for(SEALED_BID, config, "explicit")


# ---------------------------------------------------------------------------- the registry


def test_registered_encoders_are_checked() -> None:
    name = SEALED_BID.spec.name
    config = SEALED_BID.spec.make_config(2)
    with pytest.raises(EncodingError):
        EncoderSpec(lambda config: lambda view: [0.0], 0)
    with pytest.raises(EncodingError):
        EncoderSpec(lambda config: lambda view: [0.0], 1, low=1.0, high=1.0)
    assert encoder_for(SEALED_BID, config).name == f"{name}/generic"
    spec = EncoderSpec(lambda config: lambda view: [float(len(view["reveals"]))] * 2, 3)
    with temporarily_registered(SEALED_BID, encoder=spec):
        enc = encoder_for(SEALED_BID, config)
        assert enc.name == f"{name}/explicit"
        with pytest.raises(EncodingError, match="returned 2 numbers, expected 3"):
            enc.encode(SEALED_BID.new_state(players=2).view(0))
    assert encoder_for(SEALED_BID, config).name == f"{name}/generic"  # the registry restored, so is the choice


def test_unknown_encoder_kind_is_refused() -> None:
    with pytest.raises(EncodingError, match="unknown encoder kind"):
        encoder_for(GAME, GAME.spec.make_config(2), "fancy")


def test_a_ready_encoder_can_be_passed_to_the_env() -> None:
    pytest.importorskip("pettingzoo")
    from holotable.rl.pettingzoo_env import raw_env

    constant = Encoder("constant", 2, 0.0, 1.0, lambda view: [1.0, float(view["seat"] == 0)])
    aec = raw_env("captain-black", players=2, observation_encoder=constant)
    aec.reset(seed=1)
    assert aec.observe("player_0")["observation"].tolist() == [1.0, 1.0]
    assert aec.observe("player_1")["observation"].tolist() == [1.0, 0.0]
