"""The undo policy (holotable.engine.undo), after Board Game Arena's: a seat takes back its own last
actions until one drew on chance, revealed something hidden or another seat acted; a sealed choice
may change until the last seat commits; nobody takes back another seat's action."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import holotable
from holotable.engine import Match, Rng, UndoRefusedError
from holotable.engine.undo import play, refusal
from holotable.testing.conformance import temporarily_registered
from holotable.testing.toys import Bid, Nim, SealedBid, Shells


def test_a_seat_takes_back_its_own_move_until_another_seat_acts() -> None:
    with temporarily_registered(Nim()) as game:
        match = Match.new(game, players=2, pile=9)
        match.play("take 2", 0)
        assert refusal(match.steps, match.state, 1) == "you have not played anything to take back"
        step = match.take_back(0)
        assert (step.seat, step.text) == (0, "take 2") and match.state.ply == 0 and match.state.data.pile == 9
        match.play("take 3", 0)
        match.play("take 1", 1)
        with pytest.raises(UndoRefusedError, match="another player has acted since your last action"):
            match.take_back(0)
        match.take_back(1)  # seat 1 may: nobody acted after it
        assert match.actions == [(0, "take 3")]


def test_nothing_before_the_first_move_and_nothing_after_the_end() -> None:
    with temporarily_registered(Nim()) as game:
        match = Match.new(game, players=2, pile=1)
        assert refusal(match.steps, match.state, 0) == "nothing has been played yet"
        match.play("take 1", 0)
        assert refusal(match.steps, match.state, 0) == "the game is over: its actions stand"


def test_a_reveal_cannot_be_taken_back() -> None:
    with temporarily_registered(Shells()) as game:
        match = Match.new(game, players=2)
        match.play("lift 4", 0)
        assert match.steps[-1].revealed and not match.steps[-1].chance
        before = match.state.fingerprint()
        with pytest.raises(UndoRefusedError, match="'lift 4' revealed hidden information"):
            match.take_back(0)
        assert match.state.fingerprint() == before and len(match.actions) == 1


def test_chance_cannot_be_taken_back() -> None:
    cb = holotable.load("captain-black")
    match = Match.new(cb, players=2, seed=4, start_seat=0)
    match.play("draw 5", 0)
    assert match.steps[-1].chance
    with pytest.raises(UndoRefusedError, match="drew on chance"):
        match.take_back(0)


def test_a_sealed_choice_changes_until_the_last_seat_commits() -> None:
    with temporarily_registered(SealedBid()) as game:
        match = Match.new(game, players=3, seed=5)
        hands = match.state.data.hands
        first, second = Bid(hands[0][0]), Bid(hands[1][0])
        match.play(first, 0)
        match.play(second, 1)  # seat 1 committed after seat 0: seat 0 may still change its choice
        assert match.steps[0].sealed and refusal(match.steps, match.state, 0) is None
        step = match.take_back(0)
        assert step.text == str(first) and match.state.pending == {1: second}
        assert match.actions == [(1, str(second))]
        match.play(Bid(hands[0][-1]), 0)
        match.play(Bid(match.state.data.hands[2][0]), 2)  # the last choice: all are revealed together
        assert match.steps[-1].resolved
        for seat in range(3):
            with pytest.raises(UndoRefusedError):
                match.take_back(seat)
        with pytest.raises(UndoRefusedError, match="revealed everyone's sealed choices"):
            match.take_back(2)


def test_the_table_clock_s_moves_are_nobody_s_to_take_back() -> None:
    with temporarily_registered(Nim()) as game:
        match = Match.new(game, players=2, pile=9)
        match.play("take 1", 0)
        match.play("take 1", 1, by_table=True)
        with pytest.raises(UndoRefusedError, match="the table's clock has played since"):
            match.take_back(0)
        with pytest.raises(UndoRefusedError):
            match.take_back(1)
        again = Match.from_json(match.to_json())
        assert again.steps[-1].by_table and again.table_moves == frozenset({1})


def test_play_describes_what_state_apply_does() -> None:
    cb = holotable.load("captain-black")
    state = cb.new_state(players=3, seed=2, start_seat=0)
    twin = state.clone()
    step = play(state, "draw 2")
    twin.apply("draw 2")
    assert state.fingerprint() == twin.fingerprint() and (step.seat, step.text) == (0, "draw 2")


@settings(max_examples=25)
@given(seed=st.integers(0, 2**31), plies=st.integers(1, 14), asker=st.integers(0, 2))
def test_a_take_back_is_the_game_replayed_without_it(seed: int, plies: int, asker: int) -> None:
    """Whatever has been played, a take-back leaves exactly the position of the log without that action,
    and a refused one changes nothing."""
    game: Any = SealedBid() if seed % 2 else Shells()
    with temporarily_registered(game):
        match = Match.new(game, players=3, seed=seed)
        rng = Rng(seed)
        for _ in range(plies):
            if match.state.is_terminal():
                break
            seat = rng.choice(match.state.to_move())
            legal = match.state.legal_actions(seat)
            match.play(legal[rng.randrange(len(legal))], seat)
        before, actions = match.state.fingerprint(), list(match.actions)
        try:
            step = match.take_back(asker)
        except UndoRefusedError as exc:
            assert exc.reason
            assert match.state.fingerprint() == before and match.actions == actions
            return
        assert step.seat == asker
        index = next(i for i in range(len(actions) - 1, -1, -1) if actions[i] == (step.seat, step.text))
        rebuilt = Match(game, match.config, match.seed, actions[:index] + actions[index + 1:])
        assert rebuilt.state.fingerprint() == match.state.fingerprint()
