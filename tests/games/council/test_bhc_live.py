"""Live negotiation at a table with people (issue 17): no move budgets, every seat heard at any moment,
whole-arrangement suggestions, conditional pledges, forgiving names and the decision key.

The rulebook: "While the timer runs, only the Leader may rearrange the Planets ... making any number of
changes. All players may make suggestions for changes simultaneously"; "You're allowed to say anything
you like at any time". Move budgets are for bot-only play only (BHC-DIG-02).
"""

from __future__ import annotations

import pytest
from bhc_helpers import GAME, BState, call_and_vote, new_state, play, rejected
from hypothesis import given, settings
from hypothesis import strategies as st_

from holotable.engine import MalformedActionError
from holotable.games.council import actions as A
from holotable.games.council.data import OUTCOMES


def live(players: int = 5, **params: object) -> BState:
    return new_state(players, live_negotiation=True, **params)


def test_a_table_with_people_negotiates_live_and_simulations_tick() -> None:
    """BHC-DIG-02: budgets only where every seat is a bot. A human table's config (``table=True``) is live."""
    assert GAME.spec.make_config(5, table=True)["live_negotiation"] is True
    assert GAME.spec.make_config(5)["live_negotiation"] is False
    assert live().view(0)["live"] is True and new_state(5).view(0)["live"] is False


def test_BHC_NEG_02_live_every_seat_speaks_without_a_budget() -> None:
    """BHC-NEG-02: every player may make suggestions while the timer runs; a live table counts no moves, so a
    seat is never refused for talking too much, and ``done`` does not silence it."""
    st = live(5)
    for _ in range(12):  # far beyond the bot-only budget of 5 moves
        play(st, (2, "suggest swap mine conquer"), (3, "say swap them!"), (1, "support"))
    assert st.to_move() == (0, 1, 2, 3, 4) and st.view(None)["moves_left"] == [None] * 5
    st.apply("done", 2)
    assert 2 in st.to_move()
    st.apply("oppose", 2)  # it may speak again
    assert st.data.talk[-1]["vote"] == "fail"


def test_BHC_NEG_01_05_live_leader_rearranges_freely_until_the_call() -> None:
    """BHC-NEG-01: the Leader makes any number of changes; BHC-NEG-05: Negotiate ends only with the call for
    the Vote or the timer (in ticked play the Leader's last budgeted move starts the Vote)."""
    st = live(5)
    for _ in range(40):  # 80 swaps: more than the ticked Leader's 50 moves
        play(st, (0, "swap settle tax"), (0, "swap settle tax"))
    assert st.data.phase == "negotiate" and st.data.swaps[-1] == [0, 1] and len(st.data.swaps) == 80
    st.apply("deadline", 3)  # the table's clock, played for the first seat asked
    assert st.data.phase == "vote"


def test_BHC_BRIBE_07_live_an_offer_can_be_withdrawn_until_accepted() -> None:
    """BHC-BRIBE-07 / assumed:AMB-16: an open offer may be taken back at any moment until the Leader accepts;
    then it is gone (BHC-BRIBE-08)."""
    st = live(5)
    for _ in range(8):
        play(st, (1, "offer"), (1, "withdraw"))
    play(st, (1, "offer"), (0, "accept 1"))
    rejected(st, 1, "withdraw", "BHC-BRIBE-07")


def test_BHC_NEG_02_whole_arrangement_suggestions_and_conditional_pledges() -> None:
    """BHC-NEG-02 (spec 6.4): SuggestArrangement and Pledge(vote, condition) are structured talk: they change
    nothing but are recorded with the arrangement they ask for; BHC-NEG-04: only the five table planets."""
    st = live(5)
    table = list(st.data.table)
    wanted = [table[1], table[0], table[2], table[4], table[3]]
    before = st.fingerprint()
    st.apply("suggest table " + " ".join(p.lower() for p in wanted), 2)
    st.apply("pledge pass if swap settle tax", 3)
    st.apply("pledge fail if table " + " ".join(wanted), 4)
    assert st.data.table == table and st.fingerprint() != before
    suggestion, swap_pledge, table_pledge = st.data.talk[-3:]
    assert suggestion["kind"] == "suggest table" and suggestion["wants"] == wanted and "vote" not in suggestion
    assert swap_pledge["vote"] == "pass" and swap_pledge["wants"] == [table[1], table[0], *table[2:]]
    assert table_pledge["vote"] == "fail" and table_pledge["wants"] == wanted and table_pledge["table"] == table
    outsider = next(p for p in GAME.data.by_id if p not in table)
    rejected(st, 2, "suggest table " + " ".join([outsider, *table[1:]]), "BHC-NEG-04")
    rejected(st, 0, "pledge pass if swap mine conquer", "BHC-VOTE-02")  # the Leader does not vote
    st.apply("suggest table " + " ".join(wanted), 0)  # the Leader may suggest too (BHC-NEG-02)


def test_BHC_NEG_02_pledges_are_recorded_with_their_vote() -> None:
    """``support``/``oppose`` are ``pledge pass``/``pledge fail`` on the arrangement as it stands."""
    st = live(4)
    assert A.parse("pledge pass") == A.SUPPORT_ACT and A.parse("pledge fail") == A.OPPOSE_ACT
    play(st, (1, "pledge pass"), (2, "oppose"))
    assert [(t["vote"], t["wants"]) for t in st.data.talk] == [("pass", st.data.table), ("fail", st.data.table)]


def test_BHC_INFO_02_names_are_forgiving() -> None:
    """Outcome names take ``black hole`` and unambiguous prefixes; colours prefixes; planet ids any case. A name
    that fits none (or several) is refused with the choices."""
    assert A.parse("swap settle black hole") == A.swap(0, 4)
    assert A.parse("SWAP Tax blackhole") == A.swap(1, 4)
    assert A.parse("suggest swap m c") == A.suggest(2, 3)
    assert A.parse("claim 2 con blu") == A.claim(2, 3, 3)
    with pytest.raises(MalformedActionError, match="not a colour"):
        A.parse("guess bl left")  # blue or black
    with pytest.raises(MalformedActionError, match="not an outcome"):
        A.parse("swap settle moon")


def test_decision_key_ignores_talk_but_not_swaps() -> None:
    """At a live table an action chosen before other seats talked still means the same; a Leader swap changes
    what a suggestion refers to. Outside live Negotiate every ply counts (the engine default)."""
    st = live(5)
    key = st.decision_key(2)
    play(st, (3, "say hello"), (1, "offer"), (0, "bribe 4 1"), (4, "pledge pass"))
    assert st.decision_key(2) == key
    st.apply("swap mine conquer", 0)
    assert st.decision_key(2) != key
    ticked = new_state(5)
    before = ticked.decision_key(2)
    ticked.apply("say hello", 3)
    assert ticked.decision_key(2) != before
    call_and_vote(st, [1, 2, 3, 4])
    assert st.decision_key(1) == st.ply


_TALK = st_.sampled_from([
    "suggest swap {a} {b}", "pledge pass if swap {a} {b}", "pledge fail if swap {a} {b}", "swap {a} {b}",
])


@settings(max_examples=60, deadline=None)
@given(_TALK, st_.sampled_from(OUTCOMES), st_.sampled_from(OUTCOMES), st_.booleans())
def test_talk_texts_read_back_exactly(form: str, a: str, b: str, spaced: bool) -> None:
    """Every negotiation text reads back to the same action (the log replays), written either way."""
    if a == b:
        return
    name = (lambda o: o.replace("_", " ")) if spaced else (lambda o: o)
    act = A.parse(form.format(a=name(a), b=name(b)))
    assert A.parse(str(act)) == act and A.is_act(act)
    if act.kind != "suggest table":
        assert GAME.index_action(GAME.action_index(act)) == act
