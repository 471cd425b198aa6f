"""Outcome ranks and utilities; the RNG's cloning, determinism and derived seeds."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holotable.engine import Outcome, Rng, derive_seed

# ---------------------------------------------------------------------------- outcome


@pytest.mark.parametrize(
    ("keys", "ranks"),
    [
        ([3, 1, 2], (1, 3, 2)),
        ([3, 3, 1], (1, 1, 3)),
        ([1, 3, 3], (3, 1, 1)),
        ([2, 2, 2, 2], (1, 1, 1, 1)),
        ([(5, 6), (5, 7), (4, 9)], (2, 1, 3)),  # tuples: the first differing entry decides
        ([(1, 0), (1, 0), (0, 5), (2, 0)], (2, 2, 4, 1)),
    ],
)
def test_ranks_from_keys_are_competition_ranks(keys: list[Any], ranks: tuple[int, ...]) -> None:
    assert Outcome.ranks_from_keys(keys) == ranks


@given(st.lists(st.integers(-5, 5), min_size=1, max_size=8))
def test_ranks_from_keys_properties(keys: list[int]) -> None:
    ranks = Outcome.ranks_from_keys(keys)
    assert min(ranks) == 1
    for i, (ki, ri) in enumerate(zip(keys, ranks, strict=True)):
        # A rank is one more than the number of strictly better seats.
        assert ri == 1 + sum(k > ki for k in keys)
        for kj, rj in zip(keys[i + 1 :], ranks[i + 1 :], strict=True):
            assert (ki > kj) == (ri < rj)
            assert (ki == kj) == (ri == rj)


def test_winners_tie_and_utility() -> None:
    solo = Outcome((4.0, 9.0, 1.0), (2, 1, 3), "most gold")
    assert solo.winners == (1,)
    assert not solo.is_tie
    assert solo.utilities() == (0.5, 1.0, 0.0)
    tie = Outcome((9.0, 9.0, 1.0, 0.0), (1, 1, 3, 4), "shared")
    assert tie.winners == (0, 1)
    assert tie.is_tie
    assert tie.utilities() == (1.0, 1.0, 1 / 3, 0.0)
    assert Outcome((1.0,), (1,), "solo win").utility(0) == 1.0
    assert Outcome((0.0,), (2,), "solo loss").utility(0) == 0.0


@given(st.lists(st.integers(0, 20), min_size=2, max_size=8))
def test_utilities_are_in_unit_interval_and_follow_ranks(keys: list[int]) -> None:
    out = Outcome(tuple(map(float, keys)), Outcome.ranks_from_keys(keys), "test")
    utils = out.utilities()
    assert all(0.0 <= u <= 1.0 for u in utils)
    assert all(utils[w] == 1.0 for w in out.winners)
    for a in range(len(keys)):
        for b in range(len(keys)):
            assert (out.ranks[a] < out.ranks[b]) == (utils[a] > utils[b])


def test_outcome_to_dict_is_json_ready_and_details_do_not_affect_equality() -> None:
    a = Outcome((2.0, 1.0), (1, 2), "seat 0 wins", {"filled": [2, 1]})
    data = a.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data == {"scores": [2.0, 1.0], "ranks": [1, 2], "winners": [0], "reason": "seat 0 wins",
                    "details": {"filled": [2, 1]}}
    assert a == Outcome((2.0, 1.0), (1, 2), "seat 0 wins", {"other": True})


# ---------------------------------------------------------------------------- rng


@given(st.integers(-(2**70), 2**70))
def test_same_seed_same_stream(seed: int) -> None:
    a, b = Rng(seed), Rng(seed)
    assert [a.random() for _ in range(5)] == [b.random() for _ in range(5)]
    assert a.fingerprint() == b.fingerprint()
    assert a.seed_value == seed


@given(st.integers(0, 2**63), st.integers(0, 50))
def test_clone_replays_the_future_and_is_independent(seed: int, burn: int) -> None:
    rng = Rng(seed)
    for _ in range(burn):
        rng.random()
    twin = rng.clone()
    assert twin.fingerprint() == rng.fingerprint()
    assert twin.seed_value == rng.seed_value
    future = [rng.randrange(1000) for _ in range(20)]
    # Drawing from the original did not move the clone.
    assert [twin.randrange(1000) for _ in range(20)] == future
    # And drawing from the clone does not move the original.
    third = rng.clone()
    before = rng.fingerprint()
    third.shuffle(list(range(30)))
    assert rng.fingerprint() == before
    assert third.fingerprint() != before


def test_clone_keeps_gaussian_state() -> None:
    rng = Rng(5)
    rng.gauss(0, 1)  # leaves a cached second variate in the state
    twin = rng.clone()
    assert [twin.gauss(0, 1) for _ in range(3)] == [rng.gauss(0, 1) for _ in range(3)]


def test_shuffled_returns_a_copy() -> None:
    items = list(range(20))
    out = Rng(1).shuffled(items)
    assert items == list(range(20))
    assert sorted(out) == items
    assert out == Rng(1).shuffled(items)
    again = list(range(20))
    Rng(1).shuffle_in_place(again)
    assert again == out


@pytest.mark.parametrize("seed", [1.0, "1", True, None])
def test_rng_seed_must_be_an_int(seed: Any) -> None:
    with pytest.raises(TypeError):
        Rng(seed)


def test_rng_pickles() -> None:
    rng = Rng(9)
    rng.random()
    again = pickle.loads(pickle.dumps(rng))
    assert again.random() == rng.random()


def test_derive_seed_is_stable_across_runs_and_platforms() -> None:
    # Pinned: simulations and saved experiments rely on these exact values.
    assert derive_seed(7, "game", 3) == 7057550730266141503
    assert derive_seed("x") == 1637211439935739938


@given(st.lists(st.integers() | st.text(max_size=5), max_size=4))
def test_derive_seed_is_a_63_bit_function_of_its_parts(parts: list[Any]) -> None:
    seed = derive_seed(*parts)
    assert 0 <= seed < 2**63
    assert derive_seed(*parts) == seed
    assert derive_seed(*parts, "more") != seed


def test_derive_seed_separates_nearby_parts() -> None:
    seeds = {derive_seed(1, "game", i) for i in range(1000)}
    assert len(seeds) == 1000
