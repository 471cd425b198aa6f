"""The ``arrange`` hook for scenarios: every key is validated and a refused arrangement changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from bhc_helpers import PLANET_IDS, arranged, coins_in_play, new_state

from holotable.engine import ScenarioError

#: The end of a game right after Pay-Out: every seat on space 1 with no coins, every set written off.
AFTER_PAYOUT: dict[str, Any] = {
    "round": 10, "payout": [0, 0, 0, 0, 0], "banks": [0, 0, 0, 0, 0],
    "history": [{"planets": PLANET_IDS[i:i + 5], "written_off": True} for i in range(0, 30, 5)],
}


@pytest.mark.parametrize(
    ("arrangement", "message"),
    [
        ({"colour": "blue"}, "unknown arrangement key"),
        ({"round": 11}, "'round' must be 1..10"),
        ({"leader": 5}, "'leader' must be 0..4"),
        ({"proposal": 4}, "'proposal' must be 1..3"),
        ({"banks": [1, 1, 1, 1]}, "one entry per seat"),
        ({"banks": [1, 1, -1, 1, 1]}, "'banks\\[2\\]' must be >= 0"),
        ({"positions": [1, 1, 1, 1, 16]}, "'positions\\[4\\]' must be 1..15"),
        ({"agendas": ["AG-01", "AG-01", "AG-02", "AG-03", "AG-04"]}, "all be different"),
        ({"agendas": ["AG-21", "AG-01", "AG-02", "AG-03", "AG-04"]}, "agenda ids"),
        ({"intrigue": ["tax", "tax", "tax", "mine", "mine"]}, "only 2 tax cards"),
        ({"table": ["RED-A", "RED-B", "RED-C", "RED-D"]}, "five planets"),
        ({"table": ["RED-A", "RED-A", "RED-C", "RED-D", "RED-E"]}, "each of the 32 planets once"),
        ({"table": ["PLUTO", "RED-B", "RED-C", "RED-D", "RED-E"]}, "planet ids"),
        ({"round": 3}, "one set per finished Negotiation Round \\(2\\)"),
        ({"round": 3, "table": PLANET_IDS[:5]}, "in a Negotiation Round"),
        ({"deck_top_first": PLANET_IDS[5:31]}, "each of the 32 planets once"),
        ({"intrigue_played": [True, 0, False, False, False]}, "true/false"),
        ({"payout": [0, 0, 0, 0, 0]}, "'payout' needs the Pay-Out round"),
        ({"final_moves": [0, 0, 0, 0, 0]}, "give 'payout' too"),
        ({**AFTER_PAYOUT, "payout": [1, 1, 1, 1]}, "'payout' must be a list with one entry per seat"),
        ({**AFTER_PAYOUT, "final_moves": [0, 1, 0, 0, 0]}, "'final_moves\\[1\\]' must be 0..0"),
        ({**AFTER_PAYOUT, "banks": [0, 0, 9, 0, 0]}, "'banks': seat 2 could still pay"),
    ],
)
def test_bad_arrangements_are_refused_and_change_nothing(arrangement: dict[str, Any], message: str) -> None:
    st = new_state(5)
    before = st.fingerprint()
    with pytest.raises(ScenarioError, match=message):
        st.arrange(arrangement)
    assert st.fingerprint() == before


def test_an_arranged_position_adds_up() -> None:
    """BHC-INV-01/02 hold in an arranged position: the Stock ledger is recomputed and the deck holds the rest."""
    st = arranged(5, round=4, banks=[3, 0, 7, 1, 2], proposal=2,
                  history=[{"planets": PLANET_IDS[i:i + 5]} for i in (0, 5)])
    d = st.data
    assert coins_in_play(d) == 0 and d.bribe_space == 2 and d.failed == 1
    assert d.negotiation_round == 3 and d.deduction_round == 1 and d.phase == "negotiate"
    assert sorted(d.table + d.deck) == sorted(PLANET_IDS[10:]) and len(d.deck) == 17


def test_only_a_fresh_state_can_be_arranged() -> None:
    st = new_state(5)
    st.apply("call vote", 0)
    with pytest.raises(ScenarioError):
        st.arrange({"banks": [1] * 5})


def test_a_position_right_after_payout_is_over_and_pays_nothing_again() -> None:
    """BHC-PAYOUT-01, BHC-FINAL-02: with ``payout`` the arranged positions and banks are the final ones."""
    st = arranged(5, **{**AFTER_PAYOUT, "positions": [3, 1, 1, 1, 2], "banks": [1, 0, 0, 0, 0],
                        "payout": [4, 0, 0, 0, 1], "final_moves": [2, 0, 0, 0, 1]})
    d = st.data
    assert st.is_terminal() and d.phase == "over" and d.bribe_space == 0
    assert d.positions == [3, 1, 1, 1, 2] and d.banks == [1, 0, 0, 0, 0] and d.payout == [4, 0, 0, 0, 1]
    assert coins_in_play(d) == 0 and st.outcome().winners == (0,)
