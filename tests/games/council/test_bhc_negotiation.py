"""The live Negotiate phase: BHC-NEG-PREP, BHC-NEG, BHC-BRIBE, table talk and the clock (BHC-DIG-01/02).

Negotiate is an unsealed multi-seat decision: every seat with moves left is asked and each action
is applied at once. The clock is outside the engine: the table sends ``deadline``.
"""

from __future__ import annotations

import pytest
from bhc_helpers import GAME, BState, arranged, call_and_vote, coins_in_play, new_state, play, rejected

from holotable.engine import MalformedActionError, NotYourTurnError
from holotable.games.council import actions as A


# ---------------------------------------------------------------------- Prepare
def test_BHC_NEG_PREP_01_02_03_04_prepare() -> None:
    """BHC-NEG-PREP-01: the Bribe Space holds exactly 1 coin; BHC-NEG-PREP-02 (assumed:AMB-12): the top five
    planets go to Settle..Black Hole in draw order; BHC-NEG-PREP-03: that is the Leader's starting Proposal;
    BHC-NEG-PREP-04: Negotiate starts at once (every seat is asked, and the timer setting is public)."""
    deck = new_state(5, seed=7).data
    st = arranged(5, seed=7, table=deck.table, deck_top_first=deck.deck)
    order = st.data.table + st.data.deck
    call_and_vote(st, [1, 2, 3, 4])
    while st.data.phase == "advance":
        st.apply("get paid", st.to_move()[0])
    assert st.data.table == order[5:10]
    assert st.data.bribe_space == 1
    assert st.data.phase == "negotiate" and st.to_move() == (0, 1, 2, 3, 4)
    assert st.view(None)["negotiation_seconds"] == 120


def test_BHC_NEG_PREP_01_trims_a_full_bribe_space() -> None:
    """BHC-NEG-PREP-01 / assumed:AMB-15: leftovers of an approved Proposal 3 (3 coins) go back to the Stock."""
    st = arranged(5, proposal=3, leader=0)
    total = coins_in_play(st.data)
    call_and_vote(st, [1, 2, 3, 4])
    assert st.data.bribe_space == 3
    while st.data.phase == "advance":
        st.apply("get paid", st.to_move()[0])
    assert st.data.bribe_space == 1
    assert coins_in_play(st.data) == total


# ---------------------------------------------------------------------- rearranging
def test_BHC_NEG_01_03_04_only_the_leader_rearranges() -> None:
    """BHC-NEG-01: only the Leader moves planets, as often as they like; BHC-NEG-03: always a bijection;
    BHC-NEG-04: the same five planets stay on the table."""
    st = new_state(5)
    planets = sorted(st.data.table)
    for _ in range(3):
        play(st, (0, "swap settle tax"), (0, "swap mine black_hole"), (0, "swap tax conquer"))
    assert sorted(st.data.table) == planets and len(set(st.data.table)) == 5
    rejected(st, 1, "swap settle tax", "BHC-NEG-01")
    with pytest.raises(MalformedActionError):
        st.apply("swap tax tax", 0)


def test_BHC_NEG_02_suggestions_change_nothing_but_the_talk() -> None:
    """BHC-NEG-02: everyone, the Leader too, may suggest at any time; a suggestion changes no game state,
    only the public talk (assumed:AMB-33)."""
    st = new_state(5)
    table, banks = list(st.data.table), list(st.data.banks)
    play(st, (2, "suggest swap mine conquer"), (0, "suggest swap settle tax"), (3, "support"), (4, "oppose"),
         (1, "claim 2 settle red"), (1, "ask bribe 2"), (3, "say I will pass if Mine gets the blue planet"))
    assert st.data.table == table and st.data.banks == banks
    assert [t["text"] for t in st.view(None)["talk"]] == [
        "suggest swap mine conquer", "suggest swap settle tax", "support", "oppose", "claim 2 settle red",
        "ask bribe 2", "say I will pass if Mine gets the blue planet"]
    rejected(st, 0, "support", "BHC-VOTE-02")


def test_BHC_NEG_05_07_leader_calls_the_vote_at_once() -> None:
    """BHC-NEG-05 / BHC-NEG-07: the Leader may call the Vote straight away without changing anything."""
    st = new_state(5)
    st.apply("call vote", 0)
    assert st.data.phase == "vote" and st.to_move() == (1, 2, 3, 4)
    rejected_seat = 2
    with pytest.raises(NotYourTurnError):
        st.apply("vote pass", 0)  # the Leader does not vote
    assert st.data.phase == "vote" and rejected_seat in st.to_move()


def test_BHC_NEG_06_BHC_BRIBE_01_frozen_after_the_call() -> None:
    """BHC-NEG-06: after the call the arrangement, bribes and offers are frozen; BHC-BRIBE-01: bribing,
    offering or accepting is rejected once Negotiate has ended; assumed:AMB-16f open offers lapse."""
    st = new_state(5)
    play(st, (2, "offer"), (0, "call vote"))
    assert st.data.offers == []
    rejected(st, 1, "offer", "BHC-BRIBE-01")
    rejected(st, 1, "suggest swap settle tax", "BHC-NEG-06")
    with pytest.raises(NotYourTurnError):
        st.apply("swap settle tax", 0)


def test_BHC_DIG_01_the_deadline_comes_from_the_table() -> None:
    """BHC-DIG-01 (assumed:AMB-11): the engine has no clock; whoever runs the table sends ``deadline`` and the
    current arrangement goes to the vote. A Leader's swap before it counts; nothing after it does."""
    st = new_state(5)
    play(st, (0, "swap settle tax"))
    table = list(st.data.table)
    st.apply("deadline", 3)
    assert st.data.phase == "vote" and st.data.table == table
    with pytest.raises(NotYourTurnError):
        st.apply("swap settle tax", 0)
    assert A.parse("deadline") not in GAME.legal_actions(new_state(5), 0)


def test_BHC_DIG_02_no_clock_on_bot_tables_and_bounded_talk() -> None:
    """BHC-DIG-02: with ``negotiation_seconds=0`` there is no deadline; negotiation is bounded instead: each
    non-Leader has ``negotiation_ticks`` moves per Proposal and then is no longer asked, and the Leader's
    ticks x leader_actions_per_tick moves end Negotiate by themselves."""
    st = new_state(5, negotiation_seconds=0, negotiation_ticks=2, leader_actions_per_tick=2)
    rejected(st, 0, "deadline", "BHC-DIG-02")
    play(st, (1, "support"), (1, "oppose"))
    assert 1 not in st.to_move()
    with pytest.raises(NotYourTurnError):
        st.apply("support", 1)
    play(st, (0, "swap settle tax"), (0, "swap settle tax"), (0, "swap settle tax"))
    assert st.data.phase == "negotiate" and st.view(None)["moves_left"][0] == 1
    st.apply("suggest swap mine conquer", 0)
    assert st.data.phase == "vote"


def test_done_ends_a_seats_negotiation() -> None:
    """BHC-DIG-02: ``done`` gives up a non-Leader's remaining moves for this Proposal (it is no longer asked and
    says so publicly); the Leader ends Negotiate with ``call vote`` instead (BHC-NEG-05)."""
    st = new_state(5)
    st.apply("done", 2)
    assert st.to_move() == (0, 1, 3, 4)
    assert {k: st.data.talk[-1][k] for k in ("seat", "text", "kind")} == {"seat": 2, "text": "done", "kind": "done"}
    rejected(st, 0, "done", "BHC-NEG-05")
    all_moves = A.parse("done")
    assert all_moves in GAME.legal_actions(st, 1)
    assert GAME.action_index(all_moves) == len(A.SPACE) - 1 - 2 * len(A.PAIRS)  # the swap pledges came after it
    call_and_vote(st, [1, 2])
    assert st.data.proposal == 2 and 2 in st.to_move()  # a new Proposal gives every seat its moves back


def test_chat_is_public_bounded_and_sanitised() -> None:
    """BHC-INFO-02 / assumed:AMB-33: chat is free public text, never checked for truth; control characters are
    stripped and the table's ``chat_max_chars`` limit is enforced. Chat has no integer index and is not listed
    among the legal actions, but ``parse_action`` and ``check`` accept it."""
    st = new_state(5, chat_max_chars=20)
    st.apply("say  I\x00hold\nAG-01 ", 2)
    assert st.data.talk[-1] == {"seat": 2, "text": "say I hold AG-01", "kind": "say", "table": st.data.table}
    rejected(st, 2, "say this message is too long", "BHC-INFO-02")
    with pytest.raises(MalformedActionError):
        A.parse("say \x00\x01  ")
    chat = A.parse("say hello")
    assert chat not in GAME.legal_actions(st, 1)
    with pytest.raises(MalformedActionError):
        GAME.action_index(chat)


# ---------------------------------------------------------------------- bribes
def ex05() -> BState:
    return arranged(5, leader=1, proposal=2, banks=[3, 3, 3, 3, 3])


def test_BHC_EX_05_bribe_flow_with_restrictions() -> None:
    """BHC-EX-05 steps 1-7: BHC-BRIBE-03 (to another player's pending area), BHC-BRIBE-10 (assumed:AMB-17: not
    both directions with one player, either order), BHC-BRIBE-09 (the accepted coin leaves the Bank),
    assumed:AMB-16d (no new offers after an acceptance), BHC-BRIBE-04 (not more than the Bribe Space holds)."""
    st = ex05()
    assert st.data.bribe_space == 2
    st.apply("bribe 2 1", 1)
    assert st.data.bribe_space == 1 and st.data.pending[2] == 1
    st.apply("offer", 2)
    rejected(st, 1, "accept 2", "BHC-BRIBE-10")
    play(st, (3, "offer"), (1, "accept 3"))
    assert st.data.banks[3] == 2 and st.view(None)["leader_pending"] == 1
    rejected(st, 4, "offer", "BHC-BRIBE-08")
    rejected(st, 1, "bribe 3 1", "BHC-BRIBE-10")
    st.apply("bribe 4 1", 1)
    assert st.data.bribe_space == 0 and st.data.pending[4] == 1
    rejected(st, 1, "bribe 0 1", "BHC-BRIBE-04")
    assert not [a for a in GAME.legal_actions(st, 1) if a.kind == A.BRIBE]


def test_BHC_BRIBE_02_03_only_the_leader_and_never_to_themself() -> None:
    """BHC-BRIBE-02: bribes come from the Bribe Space only (there is no action that spends the Leader's own
    Bank); BHC-BRIBE-03 / assumed:AMB-38: never to the Leader; a non-Leader cannot give bribes."""
    st = new_state(5)
    rejected(st, 0, "bribe 0 1", "BHC-BRIBE-03")
    rejected(st, 2, "bribe 3 1", "BHC-BRIBE-02")
    rejected(st, 0, "bribe 1 2", "BHC-BRIBE-04")
    bank = st.data.banks[0]
    st.apply("bribe 1 1", 0)
    assert st.data.banks[0] == bank


def test_BHC_BRIBE_04_05_06_several_bribes_binding_no_one() -> None:
    """BHC-BRIBE-04: several bribes to one player; BHC-BRIBE-05: no action takes a bribe back or refuses it;
    BHC-BRIBE-06: a bribed player still votes freely (Fail here)."""
    st = arranged(5, proposal=3, leader=0)
    play(st, (0, "bribe 1 1"), (0, "bribe 1 2"))
    assert st.data.pending[1] == 3 and st.data.bribe_space == 0
    assert all(a.kind not in ("refuse", "take back") for a in GAME.legal_actions(st, 1))
    call_and_vote(st, [2, 3, 4])
    assert st.data.votes[-1]["votes"][1] == "fail" and st.data.banks[1] == 4


def test_BHC_BRIBE_07_08_offers() -> None:
    """BHC-BRIBE-07 (assumed:AMB-16): a non-Leader with a coin may offer exactly 1 coin, once, and may withdraw
    it; the Leader cannot offer; BHC-BRIBE-08: one accepted offer per Proposal."""
    st = arranged(5, banks=[1, 0, 1, 1, 1])
    rejected(st, 0, "offer", "BHC-BRIBE-07")
    rejected(st, 1, "offer", "BHC-BRIBE-11")
    play(st, (2, "offer"), (3, "offer"))
    rejected(st, 2, "offer", "BHC-BRIBE-07")
    st.apply("withdraw", 2)
    rejected(st, 2, "withdraw", "BHC-BRIBE-07")
    rejected(st, 0, "accept 2", "BHC-BRIBE-07")
    st.apply("accept 3", 0)
    assert st.data.accepted_from == 3 and st.data.offers == []
    rejected(st, 0, "accept 4", "BHC-BRIBE-07")


def test_BHC_BRIBE_11_pending_coins_cannot_be_offered() -> None:
    """BHC-BRIBE-11 (assumed:AMB-18): a player whose only coins are pending cannot offer them."""
    st = arranged(5, banks=[1, 0, 1, 1, 1])
    st.apply("bribe 1 1", 0)
    assert st.data.pending[1] == 1
    rejected(st, 1, "offer", "BHC-BRIBE-11")


def test_BHC_BRIBE_12_13_settle_or_return() -> None:
    """BHC-BRIBE-12: approved, pending coins (the Leader's included) move onto the Banks; BHC-BRIBE-13: failed,
    Bribe-Space coins go back there and the accepted coin to its owner."""
    for passing, banks, space in (([2, 3, 4], [3, 4, 4, 2, 4], 0), ([2, 3], [3, 3, 3, 3, 3], 3)):
        st = ex05()
        play(st, (1, "bribe 2 1"), (3, "offer"), (1, "accept 3"), (1, "bribe 4 1"))
        stock = st.data.stock
        call_and_vote(st, passing)
        assert st.data.banks == banks and st.data.bribe_space == space
        assert st.data.pending == [0] * 5
        assert st.data.stock == stock - (1 if space == 3 else 0)  # the failed vote's extra coin (BHC-FAIL-03)
        assert coins_in_play(st.data) == 0  # BHC-INV-01
