"""Deduction Rounds: BHC-DED, BHC-LEADER-03 (BHC-EX-08; the exact coins are in the scenario files)."""

from __future__ import annotations

import pytest
from bhc_helpers import DATA, GAME, PLANET_IDS, BState, agendas, arranged, coins_in_play
from hypothesis import given, settings
from hypothesis import strategies as st_

from holotable.engine import IllegalActionError, MalformedActionError
from holotable.games.council.data import DEDUCTION_GOALS

EX08 = agendas(1, 8, 15, 17, 4)


def deduction(number: int, *, leader: int = 0, players: int = 5, ids: list[str] | None = None,
              banks: list[int] | None = None) -> BState:
    space = {1: 3, 2: 6, 3: 9}[number]
    finished = {1: 2, 2: 4, 3: 6}[number]
    return arranged(players, round=space, leader=leader, agendas=ids or EX08[:players],
                    banks=banks or [0] * players,
                    history=[{"planets": PLANET_IDS[i:i + 5]} for i in range(0, 5 * finished, 5)])


def test_BHC_DED_01_02_03_sealed_choice_then_resolve() -> None:
    """BHC-DED-01: everyone chooses at once in secret, then Resolve; BHC-DED-02: one colour card and an allowed
    target each (assumed:AMB-27: nobody opts out); BHC-DED-03: who is targeted is public once all have chosen,
    the colour is not."""
    st = deduction(1)
    assert st.to_move() == (0, 1, 2, 3, 4) and GAME.sealed(st)
    assert {str(a) for a in GAME.legal_actions(st, 2)} == {f"guess {c} left" for c in
                                                            ("red", "green", "yellow", "blue", "black")}
    st.apply("guess yellow left", 0)
    assert st.view(1)["committed"] == [0] and st.data.deductions == []
    for seat in (1, 2, 3, 4):
        st.apply("guess red left", seat)
    records = st.view(2)["deductions"][0]
    assert [(r["guesser"], r["target"]) for r in records] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]
    assert "colour" not in records[0]  # seat 2 is neither guesser nor target of card 0
    assert st.view(1)["deductions"][0][0]["colour"] == "yellow"  # the target is shown its card


def test_BHC_DED_1_01_2_01_3_01_targets() -> None:
    """BHC-DED-1-01: D1 guesses the left neighbour only; BHC-DED-2-01: D2 the right neighbour only;
    BHC-DED-3-01: D3 either; nobody else can be pointed at (there is no such action)."""
    st = deduction(1)
    with pytest.raises(IllegalActionError) as info:
        st.apply("guess red right", 0)
    assert info.value.rule == "BHC-DED-1-01"
    st = deduction(2)
    with pytest.raises(IllegalActionError) as info:
        st.apply("guess red left", 0)
    assert info.value.rule == "BHC-DED-2-01"
    st = deduction(3)
    assert len(GAME.legal_actions(st, 0)) == 10
    with pytest.raises(MalformedActionError):
        st.apply("guess red across", 0)


def test_BHC_DED_04_1_02_one_card_checks_both_goals() -> None:
    """BHC-DED-04 / BHC-DED-1-02: one card counts if it names either the Settle or the Tax colour."""
    for colour, right in (("black", True), ("yellow", True), ("red", False), ("blue", False)):
        st = deduction(1)
        st.apply(f"guess {colour} left", 0)  # seat 1 holds AG-08: Settle black, Tax yellow
        for seat in (1, 2, 3, 4):
            st.apply("guess red left", seat)
        assert st.data.deductions[0][0]["correct"] is right


def test_BHC_DED_2_02_3_02_goals_checked() -> None:
    """BHC-DED-2-02: D2 checks Mine or Conquer; BHC-DED-3-02: D3 checks Black Hole and collects 2 coins."""
    st = deduction(2)
    for seat, text in enumerate(["guess black right", "guess red right", "guess blue right", "guess green right",
                                 "guess blue right"]):
        st.apply(text, seat)
    assert [r["correct"] for r in st.data.deductions[0]] == [True, False, True, True, True]
    st = deduction(3)
    for seat, text in enumerate(["guess green left", "guess red left", "guess red left", "guess green left",
                                 "guess yellow right"]):
        st.apply(text, seat)
    assert [r["correct"] for r in st.data.deductions[0]] == [True, True, False, True, True]
    assert {r["coins"] for r in st.data.deductions[0]} == {2}


def test_BHC_DED_05_LEADER_03_resolution_from_the_current_leader() -> None:
    """BHC-DED-05: clockwise from the current Leader; BHC-LEADER-03 (assumed:AMB-26): the Leader does not change
    in a Deduction Round."""
    st = deduction(1, leader=3)
    for seat in range(5):
        st.apply("guess red left", seat)
    assert [r["guesser"] for r in st.data.deductions[0]] == [3, 4, 0, 1, 2]
    assert st.data.leader == 3 and st.data.proposal == 1


def test_BHC_DED_06_07_the_engine_says_right_or_wrong_and_pays() -> None:
    """BHC-DED-06: the engine decides right or wrong (no player input); BHC-DED-07: right pays the guesser,
    wrong pays the target, from the Stock."""
    st = deduction(1)
    for seat, text in enumerate(["guess yellow left", "guess red left", "guess green left", "guess blue left",
                                 "guess black left"]):
        st.apply(text, seat)
    assert [(r["correct"], r["paid"]) for r in st.data.deductions[0]] == [
        (True, 0), (False, 2), (True, 2), (True, 3), (False, 0)]
    assert coins_in_play(st.data) == 0


def test_BHC_DED_08_09_cards_come_back() -> None:
    """BHC-DED-08: Deduction cards return to their owners and can be played again (all five colours stay
    available in D2 and D3 whatever was played before); BHC-DED-09: notes are a front-end feature; what a
    reminder needs (the colour of each card the seat played) stays in its own view."""
    st = deduction(2)
    for seat in range(5):
        st.apply("guess red right", seat)
    assert st.view(0)["deductions"][0][0]["colour"] == "red"
    st = deduction(3)
    assert {a.a for a in GAME.legal_actions(st, 0)} == {0, 1, 2, 3, 4}


def test_BHC_DED_3_03_04_targeted_zero_or_twice() -> None:
    """BHC-DED-3-03: nobody pointing at you earns nothing for hiding; BHC-DED-3-04: two wrong cards at you pay
    you twice (0, 2 or 4 coins)."""
    st = deduction(3)
    # Seats 0 and 2 both point at seat 1 (AG-08, Black Hole green) with wrong colours; nobody points at seat 4.
    for seat, text in enumerate(["guess red left", "guess yellow right", "guess blue right", "guess red left",
                                 "guess red right"]):
        st.apply(text, seat)
    got = [0] * 5
    for r in st.data.deductions[0]:
        got[r["paid"]] += r["coins"]
    assert [r["target"] for r in st.data.deductions[0]] == [1, 0, 1, 4, 3]
    assert got[1] == 4  # hid from seat 0 and seat 2
    assert all(r["target"] != 2 for r in st.data.deductions[0]) and got[2] == 0


@settings(max_examples=25)
@given(st_.integers(4, 8), st_.integers(1, 3), st_.data())
def test_BHC_DED_10_INV_16_17_each_card_pays_once(n: int, number: int, data: st_.DataObject) -> None:
    """BHC-DED-10 / BHC-INV-16: a Deduction Round pays n coins (2n in D3); BHC-INV-17: exactly 2 of the 5 colours
    are right for a target in D1/D2, 1 in D3."""
    ids = data.draw(st_.permutations(range(1, 21)))[:n]
    st = deduction(number, players=n, ids=agendas(*ids))
    before = sum(st.data.banks)
    legal = GAME.legal_actions(st, 0)
    for seat in range(n):
        st.apply(data.draw(st_.sampled_from(list(legal))), seat)
    records = st.data.deductions[0]
    assert len(records) == n
    assert sum(r["coins"] for r in records) == n * (2 if number == 3 else 1)
    if number < 3:  # D3 is followed at once by Pay-Out and the final Advance, which move coins again
        assert sum(st.data.banks) - before == n
    for r in records:
        goals = DATA.agendas[st.data.agendas[r["target"]]]
        assert sum(1 for c in range(5) if goals[c] in DEDUCTION_GOALS[number - 1]) == (1 if number == 3 else 2)
