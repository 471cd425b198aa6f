"""Scoring, the Advance phase and Intrigue cards: BHC-SCORE, BHC-ADV, BHC-INTRIGUE (BHC-EX-01, EX-02, EX-04)."""

from __future__ import annotations

import pytest
from bhc_helpers import DATA, EX01_TABLE, GAME, PLANET_IDS, BState, agendas, all_pass, arranged, get_paid_all
from hypothesis import given, settings
from hypothesis import strategies as st_

from holotable.engine import IllegalActionError, MalformedActionError
from holotable.games.council.scoring import round_points

#: Tables giving AG-01 exactly these points (non-matching planets are worth 0 or sit elsewhere).
TABLE_FOR = {
    -1: ["RBW-MINUS", "YEL-A", "BLU-A", "BLK-A", "GRN-A"],
    0: ["GRN-A", "YEL-A", "BLU-A", "BLK-A", "RED-A"],
    1: ["RED-B", "YEL-A", "BLU-A", "BLK-A", "GRN-A"],
    2: ["RED-D", "YEL-A", "BLU-A", "BLK-A", "GRN-A"],
    3: ["RED-F", "YEL-A", "BLU-A", "BLK-A", "GRN-A"],
    5: ["RED-F", "GRN-D", "BLU-A", "BLK-A", "YEL-A"],
}


def advance_phase(table: list[str], *, position: int = 3, bank: int = 5, players: int = 4, record: bool = False,
                  **extra: object) -> BState:
    """Seat 0 holds AG-01, leads and is first to Advance on ``table``."""
    arrangement: dict[str, object] = {
        "agendas": agendas(*range(1, players + 1)), "leader": 0, "table": table,
        "positions": [position] + [1] * (players - 1), "banks": [bank] + [1] * (players - 1), **extra}
    st = arranged(players, record=record, **arrangement)
    all_pass(st)
    assert st.to_move() == (0,)
    return st


def test_tables_give_the_points_they_claim() -> None:
    for points, table in TABLE_FOR.items():
        assert round_points(DATA, DATA.agendas[0], table) == points


def test_BHC_EX_01_advance_example_and_follow_on() -> None:
    """BHC-EX-01: BHC-SCORE-01/02/03 and BHC-COMP-08: -1 + 2 + 3 = 4 with the Rainbow matching at Settle.
    Follow-on: on space 5 (cost 3) Advance Naturally is legal; on space 8 (cost 5) it is rejected and paying
    1 coin is legal (BHC-ADV-02/03/04)."""
    st = advance_phase(EX01_TABLE, position=5, bank=2)
    assert st.view(0)["you"]["points"] == 4
    st.apply("natural", 0)
    assert (st.data.positions[0], st.data.banks[0]) == (6, 2)
    st = advance_phase(EX01_TABLE, position=8, bank=2)
    assert st.data.cost(0) == 5
    with pytest.raises(IllegalActionError) as info:
        st.apply("natural", 0)
    assert info.value.rule == "BHC-ADV-03"
    st.apply("pay 1", 0)
    assert (st.data.positions[0], st.data.banks[0]) == (9, 1)


EX02 = [
    ("a", 2, 5, "natural", (4, 5)),
    ("b", 1, 5, "pay 1", (4, 4)),
    ("c", 0, 5, "pay 2", (4, 3)),
    ("d", 3, 5, "pay 1", (4, 4)),
    ("e", 5, 5, "pay 5", (4, 0)),
    ("f", 1, 5, "natural", "BHC-ADV-03"),
    ("g", 0, 5, "pay 1", "BHC-ADV-08"),
    ("h", 2, 5, "get paid", (3, 6)),
    ("i", -1, 5, "pay 3", (4, 2)),
    ("j", -1, 5, "pay 2", "BHC-ADV-08"),
    ("k", 0, 1, "pay 2", "BHC-ADV-04"),
]


@pytest.mark.parametrize(("case", "points", "bank", "action", "expected"), EX02, ids=[c[0] for c in EX02])
def test_BHC_EX_02_blue_token(case: str, points: int, bank: int, action: str, expected: object) -> None:
    """BHC-EX-02, the Blue Token on space 3 (3->4 costs 2): BHC-ADV-03 (natural), BHC-ADV-04 (pay c, c <= bank),
    BHC-ADV-05 (overpaying allowed), BHC-ADV-06 (get paid), BHC-ADV-08 (honesty enforced), BHC-ADV-09
    (negative points need more coins, assumed:AMB-21), assumed:AMB-23."""
    st = advance_phase(TABLE_FOR[points], position=3, bank=bank)
    assert st.data.cost(0) == 2 and GAME.points(st.data, 0) == points
    if isinstance(expected, str):
        before = st.fingerprint()
        with pytest.raises(IllegalActionError) as info:
            st.apply(action, 0)
        assert info.value.rule == expected and st.fingerprint() == before
        assert GAME.parse_action(action) not in GAME.legal_actions(st, 0)
    else:
        assert GAME.parse_action(action) in GAME.legal_actions(st, 0)
        st.apply(action, 0)
        assert (st.data.positions[0], st.data.banks[0]) == expected


def test_BHC_EX_02_l_pay_zero_is_not_an_action() -> None:
    """BHC-EX-02 case l: 'pay 0' is malformed: with c = 0 it is Advance Naturally (assumed:AMB-23)."""
    with pytest.raises(MalformedActionError):
        GAME.parse_action("pay 0")


def test_BHC_ADV_10_INFO_04_the_log_shows_the_choice_not_the_points() -> None:
    """BHC-ADV-10 / BHC-INFO-04: 'Blue advanced, paying 1 coin' is public; the points are never logged."""
    st = advance_phase(TABLE_FOR[1], record=True)
    st.apply("pay 1", 0)
    public = [e for e in st.log_for(2) if e.kind == "advance"]
    assert [e.text for e in public] == ["Seat 1 advances, paying 1 coin"]
    assert "points" not in public[0].data
    assert st.view(2)["advances"][-1]["coins"] == 1 and "points" not in st.view(2)["advances"][-1]


def test_BHC_ADV_01_12_turn_order_from_the_leader() -> None:
    """BHC-ADV-01: one turn each, clockwise from the Leader of the approved Proposal; BHC-ADV-12: one after
    another, each seeing the earlier announcements."""
    st = arranged(5, leader=3)
    all_pass(st)
    order = []
    while st.data.phase == "advance":
        seat = st.to_move()[0]
        assert len(st.view(seat)["advances"]) == len(order)
        order.append(seat)
        st.apply("get paid", seat)
    assert order == [3, 4, 0, 1, 2]


def test_BHC_ADV_07_11_one_space_and_the_last_space() -> None:
    """BHC-ADV-07: at most one space per round, however many points; BHC-ADV-11 (assumed:AMB-22): on the last
    space only Get Paid (with or without Intrigue) is possible."""
    st = advance_phase(TABLE_FOR[5], position=1)
    st.apply("natural", 0)
    assert st.data.positions[0] == 2
    st = advance_phase(TABLE_FOR[5], position=15)
    assert {str(a) for a in GAME.legal_actions(st, 0)} == {"get paid", "get paid +intrigue"}
    with pytest.raises(IllegalActionError) as info:
        st.apply("natural", 0)
    assert info.value.rule == "BHC-ADV-11"


def test_BHC_ADV_13_SCORE_05_points_do_not_carry_over() -> None:
    """BHC-ADV-13 / BHC-SCORE-05: a 5-point round followed by Get Paid leaves nothing for the next round:
    the next round's points are those of its own table only."""
    st = advance_phase(TABLE_FOR[5], position=1)
    get_paid_all(st)
    assert st.data.round == 1
    assert GAME.points(st.data, 0) == round_points(DATA, DATA.agendas[0], st.data.table)


def test_BHC_SCORE_06_only_the_approved_arrangement_scores() -> None:
    """BHC-SCORE-06: swaps during Negotiate count; the arrangement voted on is the one scored."""
    st = arranged(4, agendas=agendas(1, 2, 3, 4), leader=0, table=TABLE_FOR[0])
    st.apply("swap settle black_hole", 0)  # RED-A to Black Hole, GRN-A to Settle: still 0
    st.apply("swap tax settle", 0)
    table = list(st.data.table)
    all_pass(st)
    assert GAME.points(st.data, 0) == round_points(DATA, DATA.agendas[0], table)
    assert st.data.table == table


@settings(max_examples=40)
@given(st_.permutations(PLANET_IDS))
def test_BHC_SCORE_02_INV_22_points_summed_over_all_agendas(order: list[str]) -> None:
    """BHC-INV-22 / BHC-SCORE-02: for any table the points summed over all 20 Agendas are
    4 x (coloured points) + 20 x (rainbow points); one Agenda's points lie in [-1, 15], [-2, 18] with Intrigue."""
    table = order[:5]
    coloured = sum(DATA.planet(p).points for p in table if not DATA.planet(p).rainbow)
    rainbow = sum(DATA.planet(p).points for p in table if DATA.planet(p).rainbow)
    assert sum(round_points(DATA, a, table) for a in DATA.agendas) == 4 * coloured + 20 * rainbow
    for agenda in DATA.agendas:
        assert -1 <= round_points(DATA, agenda, table) <= 15
        for kind in range(5):
            assert -2 <= round_points(DATA, agenda, table, kind, 2) <= 18


# ---------------------------------------------------------------------- Intrigue (BHC-EX-04)
EX04 = [
    (None, 4),
    ("settle", 3),
    ("tax", 4),
    ("mine", -1),
    ("conquer", 5),
    ("black_hole", 6),
]


@pytest.mark.parametrize(("card", "points"), EX04, ids=[str(c[0]) for c in EX04])
def test_BHC_EX_04_intrigue_points(card: str | None, points: int) -> None:
    """BHC-EX-04 for X (AG-01) on the EX-01 table, approved on Proposal 3: BHC-INTRIGUE-SETTLE-01 (-1 doubled),
    BHC-INTRIGUE-TAX-01 (points unchanged), BHC-INTRIGUE-MINE-01 (Tax and Mine swapped for X only),
    BHC-INTRIGUE-CONQUER-01, BHC-INTRIGUE-BH-01 (+2 for two failures), assumed:AMB-24."""
    cards = [card or "settle", "tax", "mine", "conquer"]
    st = advance_phase(EX01_TABLE, position=5, bank=2, proposal=3, intrigue=cards)
    with_card = st.view(0)["you"]["points_with_intrigue"]
    assert (with_card if card else st.view(0)["you"]["points"]) == points


def test_BHC_EX_04_black_hole_on_proposal_1_adds_nothing() -> None:
    """BHC-INTRIGUE-BH-01 / assumed:AMB-24(5): approved on Proposal 1, the Black Hole card adds 0."""
    st = advance_phase(EX01_TABLE, position=5, bank=2, intrigue=["black_hole", "tax", "mine", "conquer"])
    assert st.view(0)["you"]["points_with_intrigue"] == 4


def test_BHC_EX_04_tax_with_get_paid_and_with_natural() -> None:
    """BHC-INTRIGUE-TAX-01: Get Paid + Tax = 1 + 2 (GRN-E above Tax, no match needed) = 5 coins from 2; with
    Advance Naturally the card has no effect (space 6, coins 2) but is used up."""
    st = advance_phase(EX01_TABLE, position=5, bank=2, intrigue=["tax", "settle", "mine", "conquer"])
    st.apply("get paid +intrigue", 0)
    assert (st.data.positions[0], st.data.banks[0]) == (5, 5)
    st = advance_phase(EX01_TABLE, position=5, bank=2, intrigue=["tax", "settle", "mine", "conquer"])
    st.apply("natural +intrigue", 0)
    assert (st.data.positions[0], st.data.banks[0]) == (6, 2)
    assert st.data.intrigue_played[0] == 1


def test_BHC_INTRIGUE_01_02_03_once_on_your_own_turn() -> None:
    """BHC-INTRIGUE-01: once per game (a second play is rejected); BHC-INTRIGUE-02: only on the owner's
    Advance turn; BHC-INTRIGUE-03: revealed publicly onto the discard pile."""
    st = advance_phase(EX01_TABLE, position=5, bank=2, intrigue=["conquer", "settle", "mine", "tax"])
    st.apply("natural +intrigue", 0)
    assert st.view(2)["intrigue_discards"] == [{"seat": 0, "kind": "conquer", "round": 1}]
    get_paid_all(st)
    st.apply("call vote", 1)
    for seat in (0, 2, 3):
        st.apply("vote pass", seat)
    while st.to_move() != (0,):
        st.apply("get paid", st.to_move()[0])
    with pytest.raises(IllegalActionError) as info:
        st.apply("get paid +intrigue", 0)
    assert info.value.rule == "BHC-INTRIGUE-01"
    assert all(not a.b for a in GAME.legal_actions(st, 0))


def test_BHC_INTRIGUE_04_05_only_the_owner_and_any_number() -> None:
    """BHC-INTRIGUE-04: a card changes only its owner's points or coins (the Mine swap leaves the board and
    everyone else's points alone); BHC-INTRIGUE-05: several cards in one round (see also the EX-04 scenario)."""
    st = advance_phase(EX01_TABLE, players=4, intrigue=["mine", "conquer", "settle", "tax"])
    others = [GAME.points(st.data, s) for s in range(4)]
    table = list(st.data.table)
    st.apply("get paid +intrigue", 0)
    assert st.data.table == table and [GAME.points(st.data, s) for s in range(4)] == others
    st.apply("get paid +intrigue", 1)
    assert st.data.intrigue_played[:2] == [1, 1]


def test_BHC_INTRIGUE_06_not_in_deduction_rounds() -> None:
    """BHC-INTRIGUE-06 (assumed:AMB-25): no Intrigue in a Deduction Round (nor after a write-off, see
    test_bhc_vote)."""
    st = arranged(5, round=3, history=[{"planets": PLANET_IDS[:5]}, {"planets": PLANET_IDS[5:10]}])
    with pytest.raises(IllegalActionError) as info:
        st.apply("get paid +intrigue", 0)
    assert info.value.rule == "BHC-INTRIGUE-06"


def test_BHC_ADV_14_legality_uses_the_card_in_the_same_turn() -> None:
    """BHC-ADV-14: the points checked are those after the card played in the same turn; Tax never adds points."""
    st = advance_phase(["RED-B", "YEL-A", "BLU-A", "GRN-D", "BLK-A"], position=3,
                       intrigue=["conquer", "tax", "mine", "settle"])
    assert GAME.points(st.data, 0) == 1 and GAME.points(st.data, 0, True) == 3
    with pytest.raises(IllegalActionError):
        st.apply("natural", 0)
    st.apply("natural +intrigue", 0)
    assert st.data.positions[0] == 4
    st = advance_phase(TABLE_FOR[1], position=3, intrigue=["tax", "conquer", "mine", "settle"])
    assert GAME.points(st.data, 0, True) == 1
    with pytest.raises(IllegalActionError):
        st.apply("natural +intrigue", 0)


def test_BHC_INTRIGUE_07_unplayed_cards_change_nothing_at_the_end() -> None:
    """BHC-INTRIGUE-07: two end positions differing only in unplayed Intrigue cards end the same."""
    history = [{"planets": PLANET_IDS[i:i + 5]} for i in range(0, 30, 5)]
    ends = []
    for cards in (["settle", "tax", "mine", "conquer"], ["black_hole", "black_hole", "tax", "tax"]):
        st = arranged(4, round=10, history=history, intrigue=cards, banks=[9, 4, 2, 0])
        ends.append((st.outcome().ranks, st.data.positions, st.data.banks))
    assert ends[0] == ends[1]
