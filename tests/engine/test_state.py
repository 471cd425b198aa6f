"""State: typed refusals that change nothing, action forms, clones, history, events and views."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import holotable
from holotable.engine import (
    ActionError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    Rng,
    State,
)
from holotable.testing.toys import Bid, Nim, NimData, SealedBid

NIM = Nim()
BID = SealedBid()
CB = holotable.load("captain-black")


def nim(players: int = 2, pile: int = 7, record: bool = True) -> State[NimData, int]:
    return NIM.new_state(players=players, seed=0, record=record, pile=pile)


def refuse(state: State[Any, Any], error: type[ActionError], action: object, seat: int | None = None,
           match: str | None = None) -> ActionError:
    """Offer a refused action and check that it left the state exactly as it was."""
    before = (state.fingerprint(), state.ply, list(state.history), list(state.events or []))
    with pytest.raises(error, match=match) as err:
        state.apply(action, seat)
    assert (state.fingerprint(), state.ply, list(state.history), list(state.events or [])) == before
    assert isinstance(err.value, ValueError)  # callers may catch every bad input as ValueError
    return err.value


# ---------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("text", ["", "draw", "draw three", "draw -1", "draw 3 4", "dr4w 3", "draw 9999999999",
                                  "draw " + "9" * 5000, "\x00", "draw ３"])
def test_garbage_text_is_malformed(text: str) -> None:
    refuse(CB.new_state(players=3, seed=1), MalformedActionError, text)


@pytest.mark.parametrize("action", [50, -1, 10**12, 2.0, None, b"draw 1", ("draw", 1), True, [1]])
def test_a_bad_index_or_a_wrong_type_is_malformed(action: Any) -> None:
    err = refuse(CB.new_state(players=3, seed=1), MalformedActionError, action)
    if isinstance(action, int) and not isinstance(action, bool):
        assert "action index must be 0..49" in str(err)


def test_an_index_outside_this_configs_space_is_malformed() -> None:
    # Sealed Bid's space grows with the player count; its own index_action cannot know the config.
    state = BID.new_state(players=2, seed=0, hand=3)
    assert BID.num_actions(state.config) == 6
    refuse(state, MalformedActionError, 6, seat=0, match=r"action index must be 0\.\.5, got 6")


def test_a_game_without_an_integer_space_refuses_an_index() -> None:
    class TextOnlyNim(Nim):
        actions_are_ints = False

        def num_actions(self, config: Any) -> int:
            raise NotImplementedError

    state = TextOnlyNim().new_state(players=2, seed=0)
    refuse(state, MalformedActionError, 1, match="has no integer actions")
    state.apply("take 1")  # text still works
    assert state.data.pile == 14


def test_a_well_formed_but_illegal_action_names_its_rule() -> None:
    state = CB.new_state(players=2, seed=3, max_handful=3)
    err = refuse(state, IllegalActionError, "draw 4")
    assert err.rule == "CB-DRAW-02"
    assert "[CB-DRAW-02]" in str(err)
    assert err.reason == "a handful is at most 3 coins (house rule)"


def test_another_seats_turn() -> None:
    state = nim(players=3)
    refuse(state, NotYourTurnError, 1, seat=1, match=r"seat 1 is not asked to move \(waiting for \[0\]\)")
    refuse(state, NotYourTurnError, 1, seat=3, match="there is no seat 3")
    refuse(state, NotYourTurnError, 1, seat=-1, match="there is no seat -1")
    refuse(state, MalformedActionError, 1, seat="0", match="seat must be an integer")  # type: ignore[arg-type]
    refuse(state, MalformedActionError, 1, seat=True, match="seat must be an integer")


def test_after_the_end_everything_is_game_over() -> None:
    state = nim(pile=2)
    state.apply(2)
    assert state.is_terminal()
    for action, seat in [(1, None), (1, 1), ("take 1", 0), ("garbage", None), (99, 5)]:
        refuse(state, GameOverError, action, seat, match="the game is over")
    assert isinstance(GameOverError("x"), IllegalActionError)
    assert state.to_move() == ()
    assert state.legal_actions(0) == ()
    assert state.action_mask(0) == [0, 0, 0]
    with pytest.raises(GameOverError):
        state.legal_actions()


def test_outcome_before_the_end_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="not over"):
        nim().outcome()


# ---------------------------------------------------------------------------- action forms


def test_action_object_text_and_index_are_the_same_move() -> None:
    by_object, by_text, by_index = (CB.new_state(players=3, seed=8) for _ in range(3))
    action = by_object.legal_actions()[4]
    by_object.apply(action)
    by_text.apply(CB.action_to_str(action))
    by_index.apply(CB.action_index(action))
    assert by_object.fingerprint() == by_text.fingerprint() == by_index.fingerprint()
    assert by_object.history == by_text.history == by_index.history == [(by_object.history[0][0], action)]


def test_int_actions_are_actions_not_indices_when_the_game_says_so() -> None:
    state = nim(pile=7)
    state.apply(3)  # "take 3", not index 3
    assert state.data.pile == 4
    refuse(state, IllegalActionError, 4)  # a plain int that is not legal is illegal, not malformed
    assert state.action_mask() == [1, 1, 1]


def test_legal_actions_and_mask_agree() -> None:
    state = CB.new_state(players=2, seed=5, max_handful=7)
    legal = state.legal_actions()
    mask = state.action_mask()
    assert [CB.index_action(i) for i, bit in enumerate(mask) if bit] == list(legal)
    other = 1 - state.to_move()[0]
    assert state.legal_actions(other) == ()
    assert state.action_mask(other) == [0] * len(mask)


# ---------------------------------------------------------------------------- clones and history


def test_clones_are_independent_both_ways() -> None:
    state = CB.new_state(players=3, seed=2, record=True)
    state.apply("draw 2")
    copy = state.clone()
    assert copy.fingerprint() == state.fingerprint()
    assert copy.history == state.history
    original = state.fingerprint()
    copy.apply("draw 1")
    assert state.fingerprint() == original
    assert len(state.history) == 1 and len(copy.history) == 2
    assert len(state.events or []) < len(copy.events or [])
    copy_print = copy.fingerprint()
    state.apply("draw 5")
    assert copy.fingerprint() == copy_print


def test_a_clone_replays_the_same_future() -> None:
    state = CB.new_state(players=4, seed=12)
    copy = state.clone()
    for _ in range(30):
        if state.is_terminal():
            break
        action = state.legal_actions()[0]
        state.apply(action)
        copy.apply(action)
        assert copy.fingerprint() == state.fingerprint()


def test_clone_without_events() -> None:
    state = nim()
    state.apply(1)
    bare = state.clone(keep_events=False)
    assert bare.events is None
    bare.apply(1)  # emit is a no-op when not recording
    assert bare.log_for(0) == []
    assert len(state.events or []) == 1


def test_child_leaves_the_parent_alone() -> None:
    state = nim()
    before = state.fingerprint()
    kid = state.child(2)
    assert state.fingerprint() == before
    assert kid.data.pile == 5 and kid.ply == 1
    with pytest.raises(IllegalActionError):
        state.child(4)
    assert state.fingerprint() == before


def test_history_records_every_accepted_action_in_order() -> None:
    state = nim(players=3, pile=10)
    for take in (1, 3, 2, 1):
        state.apply(take)
    assert state.history == [(0, 1), (1, 3), (2, 2), (0, 1)]
    assert state.ply == 4


def test_fingerprint_covers_data_rng_and_pending() -> None:
    a, b = CB.new_state(players=2, seed=1), CB.new_state(players=2, seed=1)
    assert a.fingerprint() == b.fingerprint()
    b.rng.random()  # same data, different future
    assert a.fingerprint() != b.fingerprint()
    assert CB.new_state(players=2, seed=2).fingerprint() != a.fingerprint()
    bid = BID.new_state(players=2, seed=0)
    pend = bid.clone()
    pend.apply(Bid(pend.data.hands[0][0]), seat=0)
    assert pend.full()["data"] == bid.full()["data"]
    assert pend.fingerprint() != bid.fingerprint()


def test_recording_does_not_change_the_game() -> None:
    quiet, loud = CB.new_state(players=3, seed=4), CB.new_state(players=3, seed=4, record=True)
    for _ in range(40):
        if quiet.is_terminal():
            break
        action = quiet.legal_actions()[-1]
        quiet.apply(action)
        loud.apply(action)
    assert quiet.fingerprint() == loud.fingerprint()
    assert quiet.events is None and loud.events


# ---------------------------------------------------------------------------- views


def test_view_has_the_engine_fields_and_is_json_ready() -> None:
    state = nim(pile=1)
    view = state.view(0)
    assert view["game"] == "test-nim" and view["players"] == 2 and view["seat"] == 0
    assert view["to_move"] == [0] and view["terminal"] is False and view["ply"] == 0
    assert view["pile"] == 1
    state.apply(1)
    end = state.view(None)
    assert end["terminal"] is True
    assert end["outcome"]["winners"] == [0]
    assert json.loads(json.dumps(end)) == end


def test_view_of_a_seat_that_does_not_exist() -> None:
    with pytest.raises(IllegalActionError, match="there is no seat 2"):
        nim().view(2)


def test_new_state_validates_config_and_seed() -> None:
    with pytest.raises(holotable.engine.ConfigError):
        NIM.new_state(players=5)
    with pytest.raises(TypeError):
        State.new(NIM, NIM.spec.make_config(2), "seed")  # type: ignore[arg-type]


@given(seed=st.integers(0, 2**40), pile=st.integers(1, 40), players=st.integers(2, 4))
def test_nim_playouts_end_with_one_winner(seed: int, pile: int, players: int) -> None:
    state = NIM.new_state(players=players, seed=seed, pile=pile)
    rng = Rng(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    outcome = state.outcome()
    winner = state.history[-1][0]
    assert outcome.winners == (winner,)
    assert outcome.ranks == tuple(1 if s == winner else 2 for s in range(players))
    assert sum(a for _, a in state.history) == pile
