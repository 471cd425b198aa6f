"""Robots and the eight artifacts in step 2 of the selection phase (BHB-CARD-ROBOT, BHB-ART-*, BHB-SEL-05/06).

Positions are arranged at step 1 of a turn with three cards in hand, so one turn can be played and inspected
before the round ends. Players a scenario does not mention lay a light toy face down.
"""

from __future__ import annotations

import pytest
from bhb_helpers import cards_of, decide, events, item, play, scoring, selection, vw

from holotable.engine import IllegalActionError, NotYourTurnError

FILL = [["TM-WE-2", "TM-WE-3"], ["TM-RS-2", "TM-RS-3"], ["TM-QC-2", "TM-QC-3"], ["REL-BLANKET", "REL-XXL"]]


def hands(*first: str) -> list[list[str]]:
    """Each seat holds its given card plus two light toys."""
    return [[card, *FILL[seat]] for seat, card in enumerate(first)]


# ---------------------------------------------------------------------------------------------- robots


def test_BHB_CARD_ROBOT_02_03_04_08_robot_rotation() -> None:
    """SC-ROBOT-01: BHB-CARD-ROBOT-02, BHB-CARD-ROBOT-03, BHB-CARD-ROBOT-04, BHB-CARD-ROBOT-08, BHB-ROT-01,
    BHB-ROT-02, BHB-SEL-05: A and B reveal robots: both turn once (swap value and weight); A's older robot stays."""
    st = selection(hands("ROBOT-4-2-a", "ROBOT-6-3-a", "SHIP-07"), tableaux=[["ROBOT-7-3"], [], []])
    play(st, "ROBOT-4-2-a", "ROBOT-6-3-a", "SHIP-07")
    assert vw(st, 0, "ROBOT-4-2-a") == (2, 4) and item(st, 0, "ROBOT-4-2-a").turns == 1
    assert vw(st, 1, "ROBOT-6-3-a") == (3, 6)
    assert vw(st, 0, "ROBOT-7-3") == (7, 3) and item(st, 0, "ROBOT-7-3").turns == 0
    assert vw(st, 2, "SHIP-07") == (7, 5)


def test_BHB_CARD_ROBOT_02_three_robots_turn_once_and_lone_robot_stays() -> None:
    """SC-ROBOT-02: BHB-CARD-ROBOT-02, BHB-CARD-ROBOT-08: three robots each turn exactly once; a lone robot none."""
    st = selection(hands("ROBOT-4-2-a", "ROBOT-6-3-a", "ROBOT-5-2"))
    play(st, "ROBOT-4-2-a", "ROBOT-6-3-a", "ROBOT-5-2")
    assert [item(st, s, c).turns for s, c in enumerate(("ROBOT-4-2-a", "ROBOT-6-3-a", "ROBOT-5-2"))] == [1, 1, 1]
    assert vw(st, 2, "ROBOT-5-2") == (2, 5)
    st = selection(hands("ROBOT-7-3", "SHIP-07", "SHIP-08"))
    play(st, "ROBOT-7-3", "SHIP-07", "SHIP-08")
    assert vw(st, 0, "ROBOT-7-3") == (7, 3)


def test_BHB_ART_TENTACLE_robot_from_the_rulebook() -> None:
    """SC-ROBOT-03: BHB-ART-TENTACLE-01, BHB-ART-TENTACLE-02, BHB-ART-TENTACLE-03, BHB-ART-TENTACLE-05,
    BHB-ART-TENTACLE-06, BHB-CARD-ROBOT-05, BHB-CARD-ROBOT-07, BHB-DEC-04, BHB-INFO-02: B's Tentacle draws three
    cards only B sees, B must pick one of them; the picked robot joins the robot check; rejects are discarded face
    up and trigger nothing (C's active Cubus Librae stays). assumed:AMB-17 assumed:AMB-37"""
    st = selection(hands("ROBOT-6-3-a", "ART-TENTACLE", "SHIP-07"), tableaux=[[], [], ["ART-CUBUS"]],
                   draw_top=["ROBOT-4-2-b", "TOY-5-6", "SHIP-12"])
    play(st, "ROBOT-6-3-a", "ART-TENTACLE", "SHIP-07")
    assert st.to_move() == (1,)
    assert sorted(st.view(1)["tentacle"]) == ["ROBOT-4-2-b", "SHIP-12", "TOY-5-6"]
    assert st.view(0)["tentacle"] is None and st.view(2)["tentacle"] is None and st.view(0)["tentacle_size"] == 3
    assert sorted(map(str, st.legal_actions(1))) == ["take ROBOT-4-2-b", "take SHIP-12", "take TOY-5-6"]
    with pytest.raises(IllegalActionError) as err:
        st.apply("take SHIP-07", 1)
    assert err.value.rule == "BHB-DEC-04"
    with pytest.raises(NotYourTurnError):
        st.apply("take SHIP-12", 0)
    decide(st, "take ROBOT-4-2-b")
    assert vw(st, 0, "ROBOT-6-3-a") == (3, 6)
    assert vw(st, 1, "ROBOT-4-2-b") == (2, 4)
    assert cards_of(st, 1) == ["ART-TENTACLE", "ROBOT-4-2-b"]
    assert st.data.discard == ["TOY-5-6", "SHIP-12"]
    assert item(st, 2, "ART-CUBUS").turns == 0  # SHIP-12 (weight 9) was discarded, not laid out


def test_BHB_ART_TENTACLE_04_on_reveal_pick_is_ignored() -> None:
    """BHB-ART-TENTACLE-04, BHB-ART-GYRO-02, BHB-ART-00-02, BHB-ART-TIIT-05, BHB-ART-LASER-04: an on-reveal
    artifact picked with the Tentacle does nothing: no flip, no draws, no threshold card. assumed:AMB-31"""
    for pick, check in (("ART-GYRO", "gyro"), ("ART-TIIT", "tiit"), ("ART-LASER", "laser")):
        st = selection(hands("SHIP-07", "ART-TENTACLE", "SHIP-08"), draw_top=[pick, "TOY-5-6", "SHIP-12"])
        before = [len(h) for h in st.data.hands]
        play(st, "SHIP-07", "ART-TENTACLE", "SHIP-08")
        decide(st, f"take {pick}")
        d = st.data
        assert d.direction == "CW" and d.thresholds == [] and [len(h) for h in d.hands] == [b - 1 for b in before]
        assert item(st, 1, pick).suppressed and pick in cards_of(st, 1)
        assert d.ask[0] == "choose" and not events(st, check), check


def test_BHB_CARD_TOY_06_tentacle_toy_lies_face_up() -> None:
    """BHB-CARD-TOY-06, BHB-ART-LOOT-02: a toy picked with the Tentacle lies face up and counts as a toy at step C;
    it feeds its owner's active Lootbox. assumed:AMB-16"""
    st = selection(hands("ART-TENTACLE", "SHIP-07", "SHIP-08"), tableaux=[[{"card": "ART-LOOT", "turns": 1}], [], []],
                   draw_top=["TOY-4-6", "SHIP-12", "SHIP-11"])
    play(st, "ART-TENTACLE", "SHIP-07", "SHIP-08")
    decide(st, "take TOY-4-6")
    assert not item(st, 0, "TOY-4-6").face_down
    assert st.view(1)["tableaux"][0][-1]["card"] == "TOY-4-6"
    assert item(st, 0, "ART-LOOT").turns == 2 and vw(st, 0, "ART-LOOT") == (0, 1)  # SC-LOOT-01 turn 3


# ---------------------------------------------------------------------------------------------- GPS


def test_BHB_ART_GPS_01_02_03_random_card_next_turn() -> None:
    """SC-GPS-01: BHB-ART-GPS-01, BHB-ART-GPS-02, BHB-ART-GPS-03, BHB-DEC-01, BHB-SEL-03: after revealing the GPS,
    A is not asked next turn; A sees the hand but the card is drawn at random (here a toy, laid face down); on the
    turn after A chooses freely again. assumed:AMB-15"""
    four = [["ART-GPS", "SHIP-07", "SHIP-08", "SHIP-09"], ["TOY-2-3", "TOY-3-3", "SHIP-10", "SHIP-11"],
            ["TOY-3-4", "TOY-4-4", "TOY-1-2", "SHIP-12"]]
    st = selection(four, script={"gps": ["TOY-1-2"]})
    play(st, "ART-GPS", "TOY-2-3", "TOY-3-4")
    assert st.data.gps_now == [True, False, False]
    assert st.to_move() == (1, 2)
    assert st.legal_actions(0) == () and sorted(st.view(0)["hand"]) == ["SHIP-12", "TOY-1-2", "TOY-4-4"]
    st.apply("play SHIP-07", 1)
    st.apply("play TOY-3-3", 2)
    assert item(st, 0, "TOY-1-2").face_down
    assert st.view(1)["tableaux"][0][-1] == {"card": None, "face_down": True}
    assert [e.data["card"] for e in events(st, "gps_pick_private", 0)] == ["TOY-1-2"]
    assert events(st, "gps_pick_private", 1) == []
    assert st.to_move() == (0, 1, 2)


def test_BHB_ART_GPS_04_constraint_lapses_at_round_end() -> None:
    """SC-GPS-02: BHB-ART-GPS-04, BHB-CLEAN-07: a GPS revealed on the last turn lapses; round 2 starts free."""
    st = selection([["ART-GPS", "SHIP-07"], ["TOY-2-3", "SHIP-08"], ["TOY-3-4", "SHIP-09"]])
    play(st, "ART-GPS", "TOY-2-3", "TOY-3-4")
    d = st.data
    assert d.round == 2 and d.gps_now == [False] * 3 and d.gps_next == [False] * 3
    assert st.to_move() == (0, 1, 2)


def test_BHB_ART_GPS_and_TIIT_extra_turn() -> None:
    """SC-GPS-03: BHB-ART-GPS-01, BHB-ART-TIIT-03, BHB-SEL-10: GPS and TIIT on the same last turn: the extra turn
    exists and A's card on it is random."""
    st = selection([["ART-GPS", "SHIP-07"], ["ART-TIIT", "SHIP-08"], ["TOY-3-4", "SHIP-09"]], round_=3)
    play(st, "ART-GPS", "ART-TIIT", "TOY-3-4")
    assert st.data.phase == "selection" and st.to_move() == (1, 2)
    assert [len(h) for h in st.data.hands] == [2, 2, 2]


def test_BHB_ART_GPS_05_via_tentacle() -> None:
    """BHB-ART-GPS-05: a GPS picked with the Tentacle constrains nobody; the AMB-14 alternative param does.
    assumed:AMB-14"""
    for via, constrained in ((False, False), (True, True)):
        st = selection(hands("ART-TENTACLE", "SHIP-07", "SHIP-08"), draw_top=["ART-GPS", "SHIP-12", "SHIP-11"],
                       params={"gps_via_tentacle": via})
        play(st, "ART-TENTACLE", "SHIP-07", "SHIP-08")
        decide(st, "take ART-GPS")
        assert st.data.gps_now[0] is constrained


# ---------------------------------------------------------------------------------------------- TIIT


def test_BHB_ART_TIIT_01_02_03_04_draws_and_extra_turn() -> None:
    """SC-TIIT-01: BHB-ART-TIIT-01, BHB-ART-TIIT-02, BHB-ART-TIIT-03, BHB-ART-TIIT-04, BHB-SEL-10, BHB-SEL-12:
    everyone draws one (owner first, then in passing direction), TH+3 goes to the black hole, the drawn cards are
    passed on and the round of h=6 lasts 6 turns with 6 cards in each tableau. assumed:AMB-13 assumed:AMB-45"""
    five = [["SHIP-07", "TOY-1-2", "TOY-2-2", "SHAPE-3-a", "SHAPE-3-b"],
            ["ART-TIIT", "TOY-2-3", "TOY-3-3", "SHAPE-4-a", "SHAPE-4-b"],
            ["SHIP-08", "TOY-3-4", "TOY-4-4", "SHAPE-5", "SHAPE-6"]]
    st = selection(five, tableaux=[["SHIP-N3"], ["SHIP-N4"], ["SHIP-N5"]], turn=2, round_=3,
                   draw_top=["TM-CC-1", "TM-CC-2", "TM-CC-3"])
    draw_before = len(st.data.draw)
    play(st, "SHIP-07", "ART-TIIT", "SHIP-08")
    d = st.data
    assert d.thresholds == ["TH+3"] and d.tiit_done
    assert len(d.draw) == draw_before - 3
    assert events(st, "tiit_draw_private", None) == []  # private: a spectator sees none of them
    got = [(e.data["seat"], e.data["card"]) for e in st.events if e.kind == "tiit_draw_private"]
    assert got == [(1, "TM-CC-1"), (2, "TM-CC-2"), (0, "TM-CC-3")]
    assert [len(h) for h in d.hands] == [5, 5, 5]
    assert "TM-CC-1" in d.hands[2]  # B's drawn card was passed on to C
    while d.phase == "selection":
        hand_cards = [sorted(h) for h in d.hands]
        for seat in st.to_move():
            st.apply(f"play {hand_cards[seat][0]}", seat)
        while st.data.ask[0] == "group":
            st.apply("group new")
    assert max(e.data["turn"] for e in st.events if e.kind == "pass") == 6  # the last turn played
    laid = [sum(1 for e in st.events if e.kind in ("reveal", "lay_toy") and e.data["seat"] == s) for s in range(3)]
    assert laid == [5, 5, 5]  # turns 2-6, plus the card arranged from turn 1: 6 each


# ---------------------------------------------------------------------------------------------- Laser


@pytest.mark.parametrize(("choice", "stays"), [("+4", False), ("+2", False), ("-2", True), ("-4", True)])
def test_BHB_ART_LASER_01_02_03(choice: str, stays: bool) -> None:
    """SC-LASER-01..02: BHB-ART-LASER-01, BHB-ART-LASER-02, BHB-ART-LASER-03, BHB-DEC-03: the chosen card lies at
    the black hole; a plus card discards the Laser face up, a minus card keeps it (3/2) in the tableau."""
    st = selection(hands("ART-LASER", "SHIP-07", "SHIP-08"))
    play(st, "ART-LASER", "SHIP-07", "SHIP-08")
    assert st.to_move() == (0,)
    assert [str(a) for a in st.legal_actions(0)] == ["laser -4", "laser -2", "laser +2", "laser +4"]
    decide(st, f"laser {choice}")
    assert st.data.thresholds == [f"TH{choice}"]
    assert ("ART-LASER" in cards_of(st, 0)) is stays
    assert ("ART-LASER" in st.data.discard) is not stays
    if stays:
        assert vw(st, 0, "ART-LASER") == (3, 2)


def test_BHB_ART_LASER_01_plus_three_refused_and_order_with_tiit() -> None:
    """BHB-ART-LASER-01, BHB-DEC-06, BHB-ART-00-05, BHB-SEL-06: +3 is refused without any change; TIIT resolves
    before the Laser, and the threshold cards add up (TH+3 and TH-4: -1). assumed:AMB-13"""
    st = selection(hands("ART-LASER", "ART-TIIT", "SHIP-08"))
    play(st, "ART-LASER", "ART-TIIT", "SHIP-08")
    assert st.data.thresholds == ["TH+3"]  # TIIT already resolved when the Laser asks
    assert [len(h) for h in st.data.hands] == [3, 3, 3]
    before = st.fingerprint()
    with pytest.raises(IllegalActionError) as err:
        st.apply("laser +3", 0)
    assert err.value.rule == "BHB-ART-LASER-01" and st.fingerprint() == before
    decide(st, "laser -4")
    assert st.data.thresholds == ["TH+3", "TH-4"]


def test_BHB_ART_LASER_threshold_reaches_step_f() -> None:
    """BHB-SCORE-F-02: with TH+4 at the black hole step F uses T + w + 4."""
    st = scoring([["SHIP-07"], ["SHIP-08"], ["SHIP-09"]], ["TM-CC-1", "TM-CC-2", "TM-CC-3"], thresholds=["TH+4"])
    assert st.data.pad[0]["threshold"] == [18 + 5 + 4] * 3


# ---------------------------------------------------------------------------------------------- Gyro


def test_BHB_ART_GYRO_01_flip_applies_to_this_pass_and_later_rounds() -> None:
    """SC-GYRO-01: BHB-ART-GYRO-01, BHB-PASS-02, BHB-PASS-03, BHB-CLEAN-04: C's Gyro flips CW to CCW at once: in
    this turn's step 3 seat 0 passes to seat 2; after cleanup round 2 still passes CCW."""
    st = selection(hands("SHIP-07", "SHIP-08", "ART-GYRO"))
    old = [list(h) for h in st.data.hands]
    play(st, "SHIP-07", "SHIP-08", "ART-GYRO")
    assert st.data.direction == "CCW"
    assert sorted(st.data.hands[2]) == sorted(c for c in old[0] if c != "SHIP-07")
    st = selection([["SHIP-07", "TOY-1-2"], ["SHIP-08", "TOY-2-2"], ["ART-GYRO", "TOY-2-3"]])
    play(st, "SHIP-07", "SHIP-08", "ART-GYRO")
    assert st.data.round == 2 and st.data.direction == "CCW"


# ---------------------------------------------------------------------------------------------- Morphosucker


def test_BHB_ART_MORPHO_04_not_on_its_own_turn() -> None:
    """BHB-ART-MORPHO-04, BHB-ART-00-03, BHB-ART-00-01: a Morphosucker laid out this turn ignores this turn's
    shapeshifters and is active from the next turn. assumed:AMB-14 assumed:AMB-40"""
    st = selection(hands("ART-MORPHO", "SHAPE-3-a", "SHIP-07"))
    play(st, "ART-MORPHO", "SHAPE-3-a", "SHIP-07")
    assert item(st, 0, "ART-MORPHO").turns == 0 and item(st, 0, "ART-MORPHO").active


def test_BHB_ART_MORPHO_01_03_07_counts_other_players_shapeshifters() -> None:
    """SC-MORPHO-01 turn 2: BHB-ART-MORPHO-01, BHB-ART-MORPHO-03, BHB-ART-MORPHO-07, BHB-ART-00-04: B and C lay
    shapeshifters (+2), A's own does not count: orientation 2, value/weight 7/3. assumed:AMB-09 assumed:AMB-42"""
    st = selection([["SHAPE-6", *FILL[0]], ["SHAPE-4-a", *FILL[1]], ["SHAPE-5", *FILL[2]], ["SHIP-07", *FILL[3]]],
                   tableaux=[["ART-MORPHO"], [], [], []])
    play(st, "SHAPE-6", "SHAPE-4-a", "SHAPE-5", "SHIP-07")
    assert item(st, 0, "ART-MORPHO").turns == 2 and vw(st, 0, "ART-MORPHO") == (7, 3)


def test_BHB_ART_MORPHO_02_ROT_04_tentacle_shapeshifter_and_wrap() -> None:
    """SC-MORPHO-01 turn 3: BHB-ART-MORPHO-02, BHB-ROT-04, BHB-ROT-06, BHB-ART-MORPHO-06: D's Tentacle pick and
    B's shapeshifter turn it twice more: count 4 wraps to orientation 0 (1/1); the discarded rejects (a
    shapeshifter among them) do not count. assumed:AMB-09 assumed:AMB-17"""
    st = selection([["TOY-1-2", *FILL[0]], ["SHAPE-7-a", *FILL[1]], ["TOY-3-4", *FILL[2]], ["ART-TENTACLE", *FILL[3]]],
                   tableaux=[[{"card": "ART-MORPHO", "turns": 2}], [], [], []],
                   draw_top=["SHAPE-8-a", "SHAPE-8-b", "TOY-2-3"])
    play(st, "TOY-1-2", "SHAPE-7-a", "TOY-3-4", "ART-TENTACLE")
    decide(st, "take SHAPE-8-a")
    it = item(st, 0, "ART-MORPHO")
    assert it.turns == 4 and it.turns % 4 == 0 and vw(st, 0, "ART-MORPHO") == (1, 1)


def test_BHB_ART_MORPHO_05_egg_shapeshifter_in_scoring() -> None:
    """SC-MORPHO-01 step A: BHB-ART-MORPHO-05, BHB-ART-MORPHO-06, BHB-REL-EGG-05: B's Egg brings SHAPE-8-b: A's
    Morphosucker turns once (5 -> 6, orientation 2, 7/3); B's stack now weighs 8 each; the step-F shapeshifter does
    not turn it. assumed:AMB-19 assumed:AMB-21"""
    st = scoring([[{"card": "ART-MORPHO", "turns": 5}], ["SHAPE-3-a", "SHAPE-4-a", "SHAPE-7-a", "REL-EGG"],
                  ["TOY-1-2"], ["TOY-2-2"]],
                 ["SHAPE-5", "TOY-2-3", "TOY-3-3", "TOY-3-4"], hole="BH-R4", draw_top=["SHAPE-8-b"],
                 script={"reveal": ["SHAPE-5"]})
    decide(st, "use egg")
    assert item(st, 0, "ART-MORPHO").turns == 6 and vw(st, 0, "ART-MORPHO") == (7, 3)
    shapes = [c for c in cards_of(st, 1) if c.startswith("SHAPE")]
    assert shapes == ["SHAPE-3-a", "SHAPE-4-a", "SHAPE-7-a", "SHAPE-8-b"]
    assert [vw(st, 1, c) for c in shapes] == [(3, 8), (4, 8), (7, 8), (8, 8)]  # 22 value, 32 weight
    st = scoring([[{"card": "ART-MORPHO", "turns": 5}], ["SHAPE-3-a", "REL-EGG"], ["TOY-1-2"], ["TOY-2-2"]],
                 ["SHAPE-5", "TOY-2-3", "TOY-3-3", "TOY-3-4"], hole="BH-R4", draw_top=["SHAPE-8-b"],
                 script={"reveal": ["SHAPE-5"]}, params={"scoring_triggers": False})
    decide(st, "use egg")
    assert item(st, 0, "ART-MORPHO").turns == 5  # the AMB-19 alternative


# ---------------------------------------------------------------------------------------------- Cubus Librae


def test_BHB_ART_CUBUS_01_03_04_heavy_cards_of_others() -> None:
    """SC-CUBUS-01 turns 1-2: BHB-ART-CUBUS-01, BHB-ART-CUBUS-03, BHB-ART-CUBUS-04, BHB-ART-CUBUS-06, BHB-ART-00-06:
    not active on its own turn; then B's SHIP-09 (7) counts, C's robot turned to 3/7 and A's own SHIP-12 do not:
    orientation 1, 3/2. assumed:AMB-09 assumed:AMB-22"""
    st = selection([["ART-CUBUS", *FILL[0]], ["SHIP-14", *FILL[1]], ["TOY-3-4", *FILL[2]], ["TOY-4-5", *FILL[3]]])
    play(st, "ART-CUBUS", "SHIP-14", "TOY-3-4", "TOY-4-5")
    assert item(st, 0, "ART-CUBUS").turns == 0
    st = selection([["SHIP-12", *FILL[0]], ["SHIP-09", *FILL[1]], ["ROBOT-7-3", *FILL[2]], ["ROBOT-6-3-a", *FILL[3]]],
                   tableaux=[["ART-CUBUS"], [], [], []])
    play(st, "SHIP-12", "SHIP-09", "ROBOT-7-3", "ROBOT-6-3-a")
    assert vw(st, 2, "ROBOT-7-3") == (3, 7)
    assert item(st, 0, "ART-CUBUS").turns == 1 and vw(st, 0, "ART-CUBUS") == (3, 2)


def test_BHB_ART_CUBUS_02_05_tentacle_counts_and_printed_weight() -> None:
    """SC-CUBUS-01 turn 3 and step F: BHB-ART-CUBUS-02, BHB-ART-CUBUS-05, BHB-ART-00-06: C's SHAPE-7-a and D's
    Tentacle pick SHAPE-8-a count (+2: orientation 3, 3/-2); the rejected SHIP-11 and SHIP-10 do not. A shapeshifter
    of printed weight 4 laid on a heavier stack does not count. assumed:AMB-17 assumed:AMB-22 assumed:AMB-19"""
    st = selection([["TOY-1-2", *FILL[0]], ["SHAPE-4-a", *FILL[1]], ["SHAPE-7-a", *FILL[2]],
                    ["ART-TENTACLE", *FILL[3]]],
                   tableaux=[[{"card": "ART-CUBUS", "turns": 1}], ["SHAPE-8-b"], [], []],
                   draw_top=["SHAPE-8-a", "SHIP-11", "SHIP-10"])
    play(st, "TOY-1-2", "SHAPE-4-a", "SHAPE-7-a", "ART-TENTACLE")
    decide(st, "take SHAPE-8-a")
    assert item(st, 0, "ART-CUBUS").turns == 3 and vw(st, 0, "ART-CUBUS") == (3, -2)


def test_BHB_ART_CUBUS_05_step_f_and_egg() -> None:
    """BHB-ART-CUBUS-05, BHB-SCORE-F-04, BHB-ROT-08: the step-F card (SHAPE-8-b) stays in the black-hole pile and
    turns nothing; a heavy card another player gets from the Egg turns the Cubus. assumed:AMB-19 assumed:AMB-21"""
    st = scoring([[{"card": "ART-CUBUS", "turns": 1}], ["REL-EGG"], ["TOY-1-2"]], ["SHAPE-8-b", "TOY-2-3", "TOY-3-3"],
                 draw_top=["SHIP-12"], script={"reveal": ["SHAPE-8-b"]})
    decide(st, "use egg")
    d = st.data
    assert item(st, 0, "ART-CUBUS").turns == 2
    assert d.bh_revealed == "SHAPE-8-b" and "SHAPE-8-b" in d.bh_pile
    assert d.pad[0]["threshold"][0] == 18 + 8


# ---------------------------------------------------------------------------------------------- Lootbox


def test_BHB_ART_LOOT_01_05_owner_heavy_cards() -> None:
    """SC-LOOT-01 turn 2: BHB-ART-LOOT-01, BHB-ART-LOOT-05, BHB-ART-LOOT-07: A's SHIP-08 (weight 6) turns the
    Lootbox to 6/2; B's SHIP-14 does not count. assumed:AMB-09"""
    st = selection(hands("SHIP-08", "SHIP-14", "TOY-3-4"), tableaux=[["ART-LOOT"], [], []])
    play(st, "SHIP-08", "SHIP-14", "TOY-3-4")
    assert item(st, 0, "ART-LOOT").turns == 1 and vw(st, 0, "ART-LOOT") == (6, 2)


def test_BHB_ART_LOOT_03_04_face_down_toy_robot_and_step_c() -> None:
    """SC-LOOT-01 turns 4-5 and step C: BHB-ART-LOOT-03, BHB-ART-LOOT-04, BHB-CARD-TOY-03, BHB-CARD-ROBOT-07: a toy
    laid face down and a robot (even turned to 3/6) do not count; turning TOY-5-6 up in step C does: 9/3.
    assumed:AMB-20"""
    st = selection(hands("TOY-5-6", "SHIP-07", "TOY-3-4"), tableaux=[[{"card": "ART-LOOT", "turns": 2}], [], []])
    play(st, "TOY-5-6", "SHIP-07", "TOY-3-4")
    assert item(st, 0, "ART-LOOT").turns == 2
    st = selection(hands("ROBOT-6-3-a", "ROBOT-4-2-a", "TOY-3-4"),
                   tableaux=[[{"card": "ART-LOOT", "turns": 2}], [], []])
    play(st, "ROBOT-6-3-a", "ROBOT-4-2-a", "TOY-3-4")
    assert vw(st, 0, "ROBOT-6-3-a") == (3, 6) and item(st, 0, "ART-LOOT").turns == 2
    for flag, turns in ((True, 3), (False, 2)):
        st = scoring([[{"card": "ART-LOOT", "turns": 2}, {"card": "TOY-5-6", "face_down": True}], ["TOY-1-2"],
                      ["TOY-2-2"]], ["TM-CC-1", "TM-CC-2", "TM-CC-3"], params={"step_c_lootbox": flag})
        assert not item(st, 0, "TOY-5-6").face_down
        assert item(st, 0, "ART-LOOT").turns == turns
    assert vw(st, 0, "ART-LOOT") == (0, 1)


def test_BHB_ART_LOOT_06_egg_card() -> None:
    """BHB-ART-LOOT-06: a heavy card the owner gets from the Egg turns the owner's Lootbox. assumed:AMB-19"""
    st = scoring([["ART-LOOT", "REL-EGG"], ["TOY-1-2"], ["TOY-2-2"]], ["TM-CC-1", "TM-CC-2", "TM-CC-3"],
                 draw_top=["SHIP-08"])
    decide(st, "use egg")
    assert item(st, 0, "ART-LOOT").turns == 1


def test_BHB_ART_00_03_last_turn_artifact_acts_in_scoring() -> None:
    """BHB-ART-00-03: an ongoing artifact laid on the last turn is active in the scoring phase (default: step C
    turns A's toy up and the Lootbox turns) or not (the AMB-40 alternative). assumed:AMB-40"""
    for flag in (True, False):
        st = selection([["ART-LOOT", "TOY-1-2"], ["SHIP-07", "TOY-2-2"], ["SHIP-08", "TOY-2-3"]], round_=3,
                       tableaux=[[{"card": "TOY-5-6", "face_down": True}], [], []], turn=5,
                       params={"ongoing_last_turn": flag})
        play(st, "ART-LOOT", "SHIP-07", "SHIP-08")
        assert st.data.phase == "over"
        assert item(st, 0, "ART-LOOT").turns == (1 if flag else 0)
