"""Card behaviour in play: shapeshifters, time-machine groups, rotation limits (BHB-CARD-*, BHB-ROT-*)."""

from __future__ import annotations

import pytest
from bhb_helpers import decide, item, play, selection, vw

from holotable.engine import IllegalActionError, NotYourTurnError
from holotable.games.buccaneers import cards as tb
from holotable.games.buccaneers.data import JunkType, OrientationError

FILL = [["TM-WE-2", "TM-WE-3"], ["TM-RS-2", "TM-RS-3"], ["TM-QC-2", "TM-QC-3"]]


def test_BHB_CARD_SHAPE_07_printed_stats_outside_a_tableau() -> None:
    """BHB-CARD-SHAPE-07, BHB-CARD-SHAPE-06, BHB-ROT-05: a shapeshifter in a hand or the black-hole pile has its
    printed stats; in a tableau it takes the top card's weight but never turns."""
    st = selection([["SHAPE-8-a", *FILL[0]], ["SHAPE-4-a", *FILL[1]], ["SHIP-07", *FILL[2]]],
                   tableaux=[["SHAPE-3-a"], [], []])
    play(st, "SHAPE-8-a", "SHAPE-4-a", "SHIP-07")
    assert vw(st, 0, "SHAPE-3-a") == (3, 8) and item(st, 0, "SHAPE-3-a").turns == 0
    assert tb.CARDS["SHAPE-3-b"].printed.weight == 3  # still in the deck: printed stats
    assert vw(st, 1, "SHAPE-4-a") == (4, 4)  # another player's stack is unaffected (BHB-CARD-SHAPE-05)


def test_BHB_CARD_TM_07_groups_never_merge_and_DEC_06() -> None:
    """BHB-CARD-TM-07, BHB-CARD-TM-03, BHB-DEC-02, BHB-DEC-06: a part may open a new group even when a group could
    take it; adding to a group that already holds the part is refused without any change; groups never merge.
    assumed:AMB-32"""
    st = selection([["TM-QC-2", "SHIP-07", "SHIP-08"], ["SHIP-09", "SHIP-10", "SHIP-11"],
                    ["SHIP-12", "SHIP-14", "SHIP-N3"]],
                   tableaux=[[{"card": "TM-QC-1", "group": 1}, {"card": "TM-WE-1", "group": 1},
                              {"card": "TM-CC-1", "group": 2}], [], []])
    play(st, "TM-QC-2", "SHIP-09", "SHIP-12")
    assert [str(a) for a in st.legal_actions(0)] == ["group new", "group 2"]
    before = st.fingerprint()
    with pytest.raises(IllegalActionError) as err:
        st.apply("group 1", 0)
    assert err.value.rule == "BHB-CARD-TM-03" and st.fingerprint() == before
    with pytest.raises(NotYourTurnError):
        st.apply("group 2", 1)
    decide(st, "group new")
    d = st.data
    assert [it.group for it in d.tableaux[0]] == [1, 1, 2, 3]
    assert [it.turns for it in d.tableaux[0]] == [1, 1, 0, 0]
    assert vw(st, 0, "TM-QC-2") == (2, 5)


def test_BHB_ROT_05_06_reachable_orientations() -> None:
    """BHB-ROT-05, BHB-ROT-06, BHB-ROT-04: only robots, time-machine parts and the three rotating artifacts can
    turn; asking any other card for a turned orientation is an engine bug (OrientationError); the rotating
    artifacts wrap modulo 4. assumed:AMB-09"""
    for card in tb.DATA.junk:
        if card.kind is JunkType.ROBOT:
            assert card.reachable == (0, 1)
        elif card.kind is JunkType.TIME_MACHINE or tb.effect_of(card.id) in tb.ONGOING:
            assert card.reachable == (0, 1, 2, 3)
        else:
            assert card.reachable == (0,)
            with pytest.raises(OrientationError):
                card.at(1)
    morpho = tb.CARDS["ART-MORPHO"]
    assert morpho.at(5) == morpho.at(1) and morpho.at(4) == morpho.at(0)


@pytest.mark.parametrize(("choice", "total"), [("group 1", (22, 13)), ("group 2", (23, 17)), ("group new", (19, 19))])
def test_BHB_CARD_TM_05_06_ex_tm_01_third_part_choices(choice: str, total: tuple[int, int]) -> None:
    """EX-TM-01 turn t+2: BHB-CARD-TM-04, BHB-CARD-TM-05, BHB-CARD-TM-06, BHB-DEC-02: with G1 = 3 parts (15/9) and
    G2 = 1 part (2/5), a Reflector Shield may join G1 (22/13), G2 (23/17) or a new group (19/19)."""
    tm = [{"card": "TM-QC-1", "group": 1}, {"card": "TM-WE-1", "group": 1}, {"card": "TM-CC-1", "group": 1},
          {"card": "TM-QC-2", "group": 2}]
    st = selection([["TM-RS-1", *FILL[0][:1], "SHIP-07"], ["SHIP-08", "SHIP-09", "SHIP-10"],
                    ["SHIP-11", "SHIP-12", "SHIP-14"]], tableaux=[tm, [], []])
    assert sum(vw(st, 0, c)[0] for c in ("TM-QC-1", "TM-WE-1", "TM-CC-1")) == 15
    play(st, "TM-RS-1", "SHIP-08", "SHIP-11")
    assert [str(a) for a in st.legal_actions(0)] == ["group new", "group 1", "group 2"]
    decide(st, choice)
    parts = [it.card for it in st.data.tableaux[0] if it.card.startswith("TM-")]
    value = sum(vw(st, 0, c)[0] for c in parts)
    weight = sum(vw(st, 0, c)[1] for c in parts)
    assert (value, weight) == total
    for members in tb.groups(st.data.tableaux[0]).values():
        assert all(m.turns == len(members) - 1 for m in members)
