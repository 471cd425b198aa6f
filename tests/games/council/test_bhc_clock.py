"""Council's timed Negotiate phase is part of its rules (BHC-DIG-01): one period per Proposal
(BHC-FAIL-08), ``deadline`` once it is over (BHC-NEG-05), none without a clock (BHC-DIG-02)."""

from __future__ import annotations

import random

import holotable
from holotable.engine import Period

GAME = holotable.load("council")


def test_BHC_DIG_01_each_Proposal_is_one_period_of_negotiation_seconds() -> None:
    st = GAME.new_state(players=5, seed=4, first_leader=0, negotiation_seconds=90)
    assert GAME.period(st) == Period(("proposal", 1), 90.0, "deadline")
    rng = random.Random(4)
    keys = []
    while not st.is_terminal():
        period = GAME.period(st)
        if st.data.phase == "negotiate":
            assert period is not None and period.key == ("proposal", st.data.proposals_made)
            st.clone(keep_events=False).apply(period.action, st.to_move()[0])  # the table may play it now
            keys.append(period.key)
        else:
            assert period is None
        seat = st.to_move()[0]
        legal = st.legal_actions(seat)
        st.apply(legal[rng.randrange(len(legal))], seat)
    assert GAME.period(st) is None
    assert len(set(keys)) == st.data.proposals_made  # a new key (a full restart) for every Proposal


def test_BHC_NEG_05_the_periods_action_ends_Negotiate() -> None:
    st = GAME.new_state(players=5, seed=1, first_leader=0)
    period = GAME.period(st)
    assert period is not None
    st.apply(period.action, st.to_move()[0])
    assert st.data.phase == "vote" and GAME.period(st) is None


def test_BHC_DIG_02_a_table_without_a_clock_has_no_period() -> None:
    st = GAME.new_state(players=5, seed=1, first_leader=0, negotiation_seconds=0)
    assert st.data.phase == "negotiate" and GAME.period(st) is None
