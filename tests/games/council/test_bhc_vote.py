"""The Vote and failed Proposals: BHC-VOTE, BHC-FAIL, BHC-FAIL3 (BHC-EX-03, EX-06, EX-07)."""

from __future__ import annotations

import itertools

import pytest
from bhc_helpers import GAME, all_fail, arranged, call_and_vote, coins_in_play, new_state
from hypothesis import given, settings
from hypothesis import strategies as st_

from holotable.engine import IllegalActionError, NotYourTurnError


def test_BHC_VOTE_01_02_03_06_sealed_votes_revealed_together() -> None:
    """BHC-VOTE-01: every player but the Leader votes in secret (a sealed decision: others see only who has
    voted); BHC-VOTE-02: all revealed at once; BHC-VOTE-03: one vote each, no changes, no abstaining;
    BHC-VOTE-06: after the reveal each vote is public."""
    st = new_state(5)
    st.apply("call vote", 0)
    assert GAME.sealed(st)
    st.apply("vote pass", 1)
    assert st.view(2)["committed"] == [1] and "my_choice" not in st.view(2)
    assert st.view(1)["my_choice"] == "vote pass"
    assert st.data.votes == []
    with pytest.raises(NotYourTurnError):
        st.apply("vote fail", 1)
    for seat in (2, 3, 4):
        st.apply("vote fail", seat)
    record = st.data.votes[-1]
    assert record["votes"] == [None, "pass", "fail", "fail", "fail"] and record["approved"] is False
    assert st.view(3)["votes"][-1]["votes"] == record["votes"]
    # The arrangement voted on is public: the same four planets, and the Black Hole one just discarded.
    assert st.view(None)["votes"][-1]["table"] == record["table"]
    assert record["table"][:4] == st.data.table[:4] and record["table"][4] == st.data.discards[-1]["planet"]


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_BHC_EX_03_BHC_VOTE_04_05_thresholds(n: int) -> None:
    """BHC-EX-03 / BHC-VOTE-04/05 (assumed:AMB-19): Approved iff 2*Pass > n-1; otherwise Failed, ties included.
    Every vote vector of n-1 voters is played through the engine."""
    approve_at = {4: 2, 5: 3, 6: 3, 7: 4, 8: 4}[n]
    voters = [s for s in range(n) if s != 0]
    for passes in range(n):
        for yes in itertools.islice(itertools.combinations(voters, passes), 2):
            st = new_state(n)
            call_and_vote(st, yes)
            approved = st.data.votes[-1]["approved"]
            assert approved == (passes >= approve_at) == (2 * passes > n - 1)
            assert st.data.phase == ("advance" if approved else "negotiate")


@settings(max_examples=30)
@given(st_.integers(4, 8), st_.data())
def test_BHC_VOTE_04_05_exactly_one_result(n: int, data: st_.DataObject) -> None:
    """BHC-EX-03 property: for every vote vector exactly one of Approved and Failed holds (BHC-INV-13)."""
    ballots = data.draw(st_.lists(st_.booleans(), min_size=n - 1, max_size=n - 1))
    st = new_state(n)
    call_and_vote(st, [s + 1 for s, yes in enumerate(ballots) if yes])
    record = st.data.votes[-1]
    assert sum(v is not None for v in record["votes"]) == n - 1 and record["votes"][0] is None
    assert record["approved"] == (2 * sum(ballots) > n - 1)


def test_BHC_VOTE_07_BHC_FAIL_01_to_09_failed_proposals() -> None:
    """BHC-VOTE-07: a failure on Proposal 1 or 2 runs BHC-FAIL; BHC-FAIL-01..08: bribes back, +1 coin to the
    Bribe Space (assumed:AMB-13), Proposal +1, Leader to the left, the Black Hole planet to the bottom of the
    deck (public, assumed:AMB-35) and the deck's top planet in its place, others unmoved (assumed:AMB-20),
    a fresh Negotiate; BHC-FAIL-09: never more than 3 Proposals."""
    st = new_state(6)
    st.apply("bribe 3 1", 0)
    first = list(st.data.table)
    top = st.data.deck[0]
    all_fail(st)
    d = st.data
    assert d.pending == [0] * 6 and d.bribe_space == 2
    assert (d.proposal, d.leader) == (2, 1)
    assert d.table == [*first[:4], top] and d.deck[-1] == first[4] and d.deck_known == 1
    assert st.view(2)["discards"] == [{"round": 1, "proposal": 1, "planet": first[4]}]
    assert d.phase == "negotiate" and d.talk_used == [0] * 6
    all_fail(st)
    assert (d.proposal, d.leader, d.bribe_space) == (3, 2, 3)
    all_fail(st)
    assert (d.proposal, d.leader, d.negotiation_round) == (1, 3, 2)
    assert len(d.history) == 1 and d.history[0]["written_off"]


def test_BHC_FAIL_03_the_alternative_increment() -> None:
    """assumed:AMB-13 alternative: with ``bribe_increment=2`` Proposals start with 1, 3, 5 coins."""
    st = new_state(5, bribe_increment=2)
    spaces = [st.data.bribe_space]
    all_fail(st)
    spaces.append(st.data.bribe_space)
    all_fail(st)
    spaces.append(st.data.bribe_space)
    assert spaces == [1, 3, 5]


def test_BHC_FAIL3_01_to_07_third_failure() -> None:
    """BHC-EX-07: BHC-FAIL3-01: the planets are turned face-down; BHC-FAIL3-02: no points, no Advance, no
    Intrigue (assumed:AMB-25); BHC-FAIL3-03: each Pass voter takes 1 coin; BHC-FAIL3-04 (assumed:AMB-14):
    bribes go back; BHC-FAIL3-05: no view names the planets; BHC-FAIL3-06: play continues with Chronicle;
    BHC-FAIL3-07: no failed-vote preparation (no replacement, no extra coin)."""
    st = arranged(6, leader=2, proposal=3)
    st.apply("bribe 4 2", 2)
    st.apply("offer", 5)
    st.apply("accept 5", 2)
    planets = list(st.data.table)
    deck = list(st.data.deck)
    stock = st.data.stock
    call_and_vote(st, [3, 4])
    d = st.data
    assert d.banks == [1, 1, 1, 2, 2, 1]
    assert d.stock == stock  # two Pass coins issued, two Bribe-Space coins trimmed by the next Prepare
    assert d.positions == [1] * 6 and d.advances == []
    assert d.history[0] == {"round": 1, "written_off": True, "planets": planets, "proposal": 3, "failed": 2}
    assert d.table == deck[:5] and d.deck == deck[5:] and d.deck_known == 0  # no replacement, no discard
    for seat in [None, *range(6)]:
        view = st.view(seat)
        assert view["history"] == [{"round": 1, "written_off": True, "planets": None}]
        text = str(view)
        assert not any(p in text for p in planets), "a written-off planet is named in a view"
        assert view["votes"][-1]["table"] is None  # the arrangement voted on is not shown either
    assert (d.leader, d.proposal, d.round) == (3, 1, 1)
    assert coins_in_play(d) == 0
    assert d.intrigue_played == [-1] * 6
    with pytest.raises(IllegalActionError) as info:
        st.apply("get paid +intrigue", 3)  # the next thing that happens is N2's Negotiate, not an Advance
    assert info.value.rule == "BHC-INTRIGUE-02"
