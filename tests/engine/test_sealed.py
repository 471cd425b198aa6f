"""Sealed simultaneous choices: held in ``pending``, hidden from others, resolved together."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holotable.engine import GameOverError, IllegalActionError, NotYourTurnError, Rng, State
from holotable.testing.toys import Bid, BidData, SealedBid

GAME = SealedBid()
BidState = State[BidData, Bid]


def new(players: int = 3, seed: int = 4, hand: int = 4) -> BidState:
    return GAME.new_state(players=players, seed=seed, record=True, hand=hand)


def some_card(state: BidState, seat: int, pick: int = 0) -> int:
    return state.data.hands[seat][pick]


def test_every_seat_is_asked_at_once() -> None:
    state = new()
    assert state.to_move() == (0, 1, 2)
    assert "committed" not in state.view(0)
    assert state.pending == {}


def test_a_sealed_choice_is_held_until_the_last_is_in() -> None:
    state = new()
    data_before = state.full()["data"]
    card = some_card(state, 1)
    state.apply(f"bid {card}", seat=1)
    assert state.pending == {1: Bid(card)}
    assert state.to_move() == (0, 2)
    assert state.ply == 1
    assert state.history == [(1, Bid(card))]
    assert state.full()["data"] == data_before  # nothing resolved yet
    assert state.full()["pending"] == {"1": f"bid {card}"}
    assert state.legal_actions(1) == ()
    assert state.action_mask(1) == [0] * GAME.num_actions(state.config)
    assert state.legal_actions(0) == [Bid(c) for c in state.data.hands[0]]
    state.apply(Bid(some_card(state, 2)), seat=2)
    assert state.to_move() == (0,)
    assert state.full()["data"] == data_before
    # The last choice resolves all three together, and a new round asks everyone again.
    state.apply(GAME.action_index(Bid(some_card(state, 0))), seat=0)
    assert state.pending == {}
    assert state.to_move() == (0, 1, 2)
    assert state.ply == 3
    reveal = state.data.reveals[-1]
    assert reveal["bids"][1] == card
    assert [len(h) for h in state.data.hands] == [3, 3, 3]
    assert state.data.scores[reveal["winner"]] == reveal["prize"]


def test_views_show_who_has_chosen_but_only_the_owner_sees_the_choice() -> None:
    state = new()
    card = some_card(state, 1)
    state.apply(Bid(card), seat=1)
    own, other, spectator = state.view(1), state.view(0), state.view(None)
    for view in (own, other, spectator):
        assert view["committed"] == [1]
        assert view["to_move"] == [0, 2]
    assert own["my_choice"] == f"bid {card}"
    assert "my_choice" not in other
    assert "my_choice" not in spectator


def test_views_do_not_depend_on_another_seats_sealed_choice() -> None:
    # Two states that differ only in seat 1's sealed bid look the same to everyone else.
    a, b = new(), new()
    a.apply(Bid(some_card(a, 1, 0)), seat=1)
    b.apply(Bid(some_card(b, 1, 1)), seat=1)
    assert a.fingerprint() != b.fingerprint()
    for seat in (0, 2, None):
        assert a.view(seat) == b.view(seat)
    assert a.view(1) != b.view(1)


def test_a_seat_cannot_choose_twice() -> None:
    state = new()
    state.apply(Bid(some_card(state, 1, 0)), seat=1)
    before = state.fingerprint()
    with pytest.raises(NotYourTurnError, match="seat 1 has already chosen this step"):
        state.apply(Bid(some_card(state, 1, 1)), seat=1)
    # Even the same choice again is refused: the choice is sealed, not editable.
    with pytest.raises(NotYourTurnError):
        state.apply(Bid(some_card(state, 1, 0)), seat=1)
    assert state.fingerprint() == before
    assert state.pending == {1: Bid(some_card(state, 1, 0))}


def test_a_multi_seat_decision_needs_the_seat_named() -> None:
    state = new()
    before = state.fingerprint()
    with pytest.raises(NotYourTurnError, match="several seats are asked"):
        state.apply(Bid(some_card(state, 0)))
    with pytest.raises(NotYourTurnError, match="several seats are asked"):
        state.legal_actions()
    assert state.fingerprint() == before


def test_an_illegal_sealed_choice_changes_nothing() -> None:
    state = new()
    state.apply(Bid(some_card(state, 2)), seat=2)
    before = state.fingerprint()
    foreign = some_card(state, 1)
    with pytest.raises(IllegalActionError, match="not in your hand") as err:
        state.apply(Bid(foreign), seat=0)
    assert err.value.rule == "TEST-BID-01"
    assert state.fingerprint() == before
    assert list(state.pending) == [2]


def test_determinize_keeps_own_choice_and_drops_the_others() -> None:
    state = new()
    mine, theirs = some_card(state, 0), some_card(state, 2)
    state.apply(Bid(mine), seat=0)
    state.apply(Bid(theirs), seat=2)
    det = state.determinize(0, Rng(1))
    assert det.pending == {0: Bid(mine)}
    assert det.to_move() == (1, 2)  # seat 2 is asked again: its choice is unknown to seat 0
    assert det.data.hands[0] == state.data.hands[0]
    assert det.view(0)["my_choice"] == f"bid {mine}"
    # So seat 0 can tell the determinisation apart only by who is still to choose.
    trimmed = {k: v for k, v in det.view(0).items() if k not in ("committed", "to_move")}
    assert trimmed == {k: v for k, v in state.view(0).items() if k not in ("committed", "to_move")}
    assert det.view(0)["committed"] == [0]
    # The seat that has not chosen yet keeps nobody's choice.
    det1 = state.determinize(1, Rng(1))
    assert det1.pending == {}
    assert det1.to_move() == (0, 1, 2)
    # The true state is untouched.
    assert state.pending == {0: Bid(mine), 2: Bid(theirs)}


def test_determinize_redeals_only_what_the_seat_cannot_see() -> None:
    state = new(seed=11)
    unseen = sorted(state.data.hands[1] + state.data.hands[2])
    changed = False
    for i in range(20):
        det = state.determinize(0, Rng(i))
        assert det.data.hands[0] == state.data.hands[0]
        assert sorted(det.data.hands[1] + det.data.hands[2]) == unseen
        assert [len(h) for h in det.data.hands] == [len(h) for h in state.data.hands]
        assert sorted(det.data.prize_deck) == sorted(state.data.prize_deck)
        assert det.data.prize == state.data.prize
        assert det.view(0) == state.view(0)
        assert det.rng.fingerprint() != state.rng.fingerprint()  # the future is re-drawn too
        changed |= det.data.hands[1] != state.data.hands[1]
    assert changed


def test_determinize_is_a_function_of_the_view_and_the_rng() -> None:
    state = new(seed=2)
    state.apply(Bid(some_card(state, 0)), seat=0)  # the seat's own choice is part of what it knows
    other = state.determinize(0, Rng(99))  # same view for seat 0, different hidden cards
    assert other.view(0) == state.view(0)
    assert state.determinize(0, Rng(5)).fingerprint() == other.determinize(0, Rng(5)).fingerprint()


def test_events_of_a_sealed_round_are_filtered_per_seat() -> None:
    state = new(players=2)
    state.apply(Bid(some_card(state, 0)), seat=0)
    assert state.events == []  # a sealed choice is not an event: nothing is revealed yet
    state.apply(Bid(some_card(state, 1)), seat=1)
    kinds = [(e.kind, e.to) for e in state.events or []]
    assert kinds == [("reveal", None), ("hand", frozenset({0})), ("hand", frozenset({1}))]
    assert [e.kind for e in state.log_for(0)] == ["reveal", "hand"]
    assert state.log_for(0)[1].data["hand"] == state.data.hands[0]
    assert [e.kind for e in state.log_for(None)] == ["reveal"]
    assert GAME.new_state(players=2, seed=1).log_for(0) == []  # not recording


@given(seed=st.integers(0, 2**32), players=st.integers(2, 3), hand=st.integers(1, 6))
def test_a_game_of_sealed_rounds_plays_to_the_end(seed: int, players: int, hand: int) -> None:
    state = GAME.new_state(players=players, seed=seed, hand=hand)
    rng = Rng(seed)
    while not state.is_terminal():
        seats = state.to_move()
        assert seats
        seat = rng.choice(seats)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        # Between rounds (no choice pending) everyone is asked again, until the end.
        assert state.pending or state.is_terminal() or state.to_move() == tuple(range(players))
    assert state.ply == players * hand
    assert state.to_move() == ()
    assert sum(state.data.scores) == sum(range(1, hand + 1))
    with pytest.raises(GameOverError):
        state.apply(Bid(1), seat=0)
