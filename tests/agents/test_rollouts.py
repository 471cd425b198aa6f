"""Rollout policies for search: the registry, the ISMCTS ``rollout`` option, and Captain
Black's fast policy and round-start value."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

import holotable
from holotable.agents import make_agent, observe
from holotable.agents.ismcts import ISMCTSAgent
from holotable.agents.rollout import Rollout, game_rollout
from holotable.engine import Rng, State
from holotable.games.captain_black.bots import rollout_draw, rollout_round, round_start_value
from holotable.testing.toys import Nim

from .helpers import house_rules, play_randomly

CB = holotable.load("captain-black")



# ---------------------------------------------------------------------------- the registry
def test_captain_black_registers_its_policy_with_a_round_horizon() -> None:
    rollout = game_rollout("captain-black")
    assert rollout is not None
    assert rollout.policy is rollout_draw
    assert rollout.horizon is rollout_round and rollout.evaluator is round_start_value


def test_a_game_without_a_policy_rolls_out_at_random() -> None:
    nim = Nim()
    assert game_rollout(nim.spec.name) is None
    agent = make_agent("ismcts", nim, seed=0)
    assert isinstance(agent, ISMCTSAgent) and agent.rollout is None
    with pytest.raises(ValueError, match="registers no rollout policy"):
        make_agent("ismcts", nim, seed=0, rollout="game")


@pytest.mark.parametrize("choice", ["greedy", 3, None])
def test_unknown_rollout_choices_are_refused(choice: Any) -> None:
    with pytest.raises(ValueError, match="rollout must be"):
        make_agent("ismcts", CB, seed=0, rollout=choice)


def test_a_horizon_needs_an_evaluator() -> None:
    with pytest.raises(ValueError, match="horizon"):
        Rollout(rollout_draw, horizon=rollout_round)
    with pytest.raises(ValueError, match="horizon"):
        Rollout(rollout_draw, evaluator=round_start_value)
    assert game_rollout("test-no-such-game") is None


def test_random_and_game_rollouts_are_chosen_by_the_option() -> None:
    random_agent = make_agent("ismcts", CB, seed=0, rollout="random")
    auto = make_agent("ismcts", CB, seed=0)
    assert isinstance(random_agent, ISMCTSAgent) and isinstance(auto, ISMCTSAgent)
    assert random_agent.rollout is None
    assert auto.rollout is game_rollout("captain-black")


def test_a_policy_function_plays_every_rollout_move() -> None:
    """A policy given as a function plays the rollouts (and proposes the tree's moves); a policy
    that always takes one counter makes every Nim rollout exactly as long as the pile."""
    calls: list[int] = []

    def take_one(state: State[Any, Any], seat: int, rng: Rng) -> Any:
        calls.append(seat)
        return state.legal_actions(seat)[0]

    nim = Nim()
    st = State.new(nim, nim.spec.make_config(players=2, pile=9), seed=0)
    agent = make_agent("ismcts", nim, seed=1, iterations=40, rollout=take_one)
    assert agent.act(observe(st, 0)) in st.legal_actions(0)
    assert calls and set(calls) == {0, 1}


def test_an_illegal_proposal_is_refused_not_played() -> None:
    def too_many(state: State[Any, Any], seat: int, rng: Rng) -> Any:
        return "take 9"

    nim = Nim()
    st = State.new(nim, nim.spec.make_config(players=2, pile=9), seed=0)
    agent = make_agent("ismcts", nim, seed=1, iterations=5, rollout=too_many)
    with pytest.raises(holotable.engine.ActionError):
        agent.act(observe(st, 0))


# ---------------------------------------------------------------------------- Captain Black's policy
@settings(max_examples=60)
@given(rules=house_rules, seed=st_.integers(0, 2**20), plies=st_.integers(0, 150), rng_seed=st_.integers(0, 99))
def test_the_rollout_draw_is_always_legal(rules: dict[str, Any], seed: int, plies: int, rng_seed: int) -> None:
    st = play_randomly(CB.new_state(seed=seed, **rules), plies, seed)
    if st.is_terminal():
        return
    seat = st.to_move()[0]
    rng = Rng(rng_seed)
    legal = st.legal_actions(seat)
    for _ in range(20):
        assert rollout_draw(st, seat, rng) in legal


def test_the_rollout_draw_follows_the_bag() -> None:
    """Mostly the handful with the most expected gold: about 5 coins from a full bag, the
    whole gold when one black coin hides among two gold ones is too bold (1 or 2)."""
    st = CB.new_state(players=4, seed=1)
    rng = Rng(3)
    full_bag = [rollout_draw(st, st.to_move()[0], rng).k for _ in range(400)]
    assert 4 <= sorted(full_bag)[200] <= 6
    d = st.data
    d.bag_gold, d.bag_black, d.island = 2, 1, 7
    late = [rollout_draw(st, st.to_move()[0], rng).k for _ in range(400)]
    assert sorted(late)[200] == 1
    assert set(late) <= {1, 2}


# ---------------------------------------------------------------------------- the round-start value
def _round_start(chests: list[list[bool]], round_no: int) -> State[Any, Any]:
    st = CB.new_state(players=len(chests), seed=2, start_seat=0)
    d = st.data
    d.round = round_no
    d.chests = [list(hand) for hand in chests]
    for hand in chests:
        for card in hand:
            d.chest_deck.remove(card)
    return st


def test_level_seats_are_valued_alike() -> None:
    values = round_start_value(_round_start([[True, True]] * 4, 2))
    assert values == pytest.approx([values[0]] * 4)
    assert 0.4 < values[0] < 0.6


@given(
    filled=st_.lists(st_.integers(0, 6), min_size=2, max_size=4),
    round_no=st_.integers(2, 4),
)
def test_values_are_utilities_that_grow_with_filled_chests(filled: list[int], round_no: int) -> None:
    chests = [[True] * f + [False] for f in filled]
    round_no = min(round_no, len(filled))
    values = round_start_value(_round_start(chests, round_no))
    assert all(0.0 <= v <= 1.0 for v in values)
    for i, fi in enumerate(filled):
        for j, fj in enumerate(filled):
            if fi > fj:
                assert values[i] > values[j]
    # Every pair of seats shares a utility of at least 1 (more when they may tie).
    assert sum(values) >= len(filled) / 2 - 1e-9


def test_a_big_lead_before_the_last_round_is_nearly_a_win() -> None:
    values = round_start_value(_round_start([[True] * 9, [True] * 2, [True] * 2, [True] * 2], 4))
    assert values[0] > 0.97
    assert all(v < 0.5 for v in values[1:])
