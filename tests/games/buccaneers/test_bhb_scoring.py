"""The scoring phase: relics, steps A-H, ties (BHB-REL-*, BHB-SCORE-*, BHB-TIE-*).

Positions are arranged at the start of step A of the last round (see ``bhb_helpers.scoring``), so the pad,
the tableaux and the piles can be read after step H.
"""

from __future__ import annotations

import pytest
from bhb_helpers import cards_of, decide, item, pad, play, scoring, selection, vw

from holotable.engine import IllegalActionError
from holotable.games.buccaneers import cards as tb

PILE3 = ["TM-CC-1", "TM-CC-2", "TM-CC-3"]
PILE5 = ["TM-CC-1", "TM-CC-2", "TM-CC-3", "TM-RS-1", "TM-RS-2"]


# ---------------------------------------------------------------------------------------------- order of steps


def test_BHB_SCORE_00_01_steps_in_order_and_events() -> None:
    """BHB-SCORE-00-01, BHB-REL-00-01, BHB-REL-00-02: steps A-H run in order, each logged with its numbers;
    steps whose relic is not in play are logged as skipped."""
    st = selection([["SHIP-07", "TM-CC-1"], ["SHIP-08", "TM-CC-2"], ["SHIP-09", "TM-CC-3"]], round_=3,
                   script={"reveal": ["TM-CC-1"]})
    play(st, "SHIP-07", "SHIP-08", "SHIP-09")
    steps = [e.data["step"] for e in st.events if e.kind == "score_step"]
    assert steps == ["A", "B", "C", "D", "E", "F", "G", "H"]
    skipped = {e.data["step"] for e in st.events if e.kind == "score_step" and e.data.get("skipped")}
    assert skipped == {"A", "B", "D"}
    h = next(e for e in st.events if e.kind == "score_step" and e.data["step"] == "H")
    assert h.data["values"] == [7, 8, 9] and h.data["points"] == [5, 10, 15] and h.data["places"] == [3, 2, 1]
    f = next(e for e in st.events if e.kind == "score_step" and e.data["step"] == "F")
    assert f.data["base"] == 22 and f.data["weight"] == 5 and f.data["thresholds"] == [27, 27, 27]


# ---------------------------------------------------------------------------------------------- Surprise Egg


def test_BHB_REL_EGG_01_keep_is_an_ordinary_card() -> None:
    """BHB-REL-EGG-01, BHB-REL-00-04, BHB-DEC-05: the Egg is optional; kept, it counts as a 1/1 card; only its
    owner is asked, with exactly use/keep."""
    st = scoring([["SHIP-07"], ["REL-EGG", "SHIP-08"], ["SHIP-09"]], PILE3, draw_top=["SHIP-14"])
    assert st.to_move() == (1,)
    assert [str(a) for a in st.legal_actions(1)] == ["use egg", "keep egg"]
    with pytest.raises(IllegalActionError) as err:
        st.apply("use pool", 1)
    assert err.value.rule == "BHB-DEC-05"
    decide(st, "keep egg")
    assert cards_of(st, 1) == ["REL-EGG", "SHIP-08"] and st.data.draw[0] == "SHIP-14"
    assert pad(st)["value"][1] == 9 and pad(st)["e_weight"][1] == 7


def test_BHB_REL_EGG_03_04_robot_upright_artifact_ignored() -> None:
    """SC-EGG-02: BHB-REL-EGG-03, BHB-REL-EGG-04, BHB-CARD-ROBOT-06: a robot from the Egg stays upright (6/3); an
    artifact from the Egg does nothing (Gyro: no flip) and an ongoing one is never active. assumed:AMB-18
    assumed:AMB-23"""
    st = scoring([["ROBOT-4-2-a"], ["REL-EGG"], ["SHIP-09"]], PILE3, draw_top=["ROBOT-6-3-b"])
    decide(st, "use egg")
    assert vw(st, 1, "ROBOT-6-3-b") == (6, 3)
    st = scoring([["SHIP-07"], ["REL-EGG"], ["SHIP-09"]], PILE3, draw_top=["ART-GYRO"], direction="CW")
    decide(st, "use egg")
    assert st.data.direction == "CW" and vw(st, 1, "ART-GYRO") == (4, 2) and item(st, 1, "ART-GYRO").suppressed
    st = scoring([["SHIP-07"], ["REL-EGG", {"card": "TOY-5-6", "face_down": True}], ["SHIP-09"]], PILE3,
                 draw_top=["ART-LOOT"])
    decide(st, "use egg")
    assert item(st, 1, "ART-LOOT").turns == 0 and not item(st, 1, "ART-LOOT").active
    st = scoring([["SHIP-07"], ["REL-EGG", {"card": "TOY-5-6", "face_down": True}], ["SHIP-09"]], PILE3,
                 draw_top=["ART-LOOT"], params={"egg_pool_ignore": "on_reveal"})
    decide(st, "use egg")
    assert item(st, 1, "ART-LOOT").turns == 1  # the AMB-18 alternative: it reacts to the toy turned up in C


def test_BHB_REL_EGG_05_time_machine_part_joins_a_group() -> None:
    """SC-EGG-01: BHB-REL-EGG-05, BHB-CARD-TM-04, BHB-DEC-02: the Egg's TM-QC-1 joins G1 = {TM-CC-1, TM-WE-1}:
    all three at orientation 2 (5/3 each, 15/9). assumed:AMB-19"""
    st = scoring([[{"card": "TM-CC-1", "group": 1}, {"card": "TM-WE-1", "group": 1}, "REL-EGG"], ["SHIP-08"],
                  ["SHIP-09"]], ["TOY-1-2", "TOY-2-2", "TOY-2-3"], draw_top=["TM-QC-1"])
    decide(st, "use egg")
    assert st.view(0)["ask"] == {"kind": "group", "seat": 0, "card": "TM-QC-1", "groups": [1]}
    decide(st, "group 1")
    assert [vw(st, 0, c) for c in ("TM-CC-1", "TM-WE-1", "TM-QC-1")] == [(5, 3)] * 3
    assert pad(st)["e_weight"][0] == 9 and pad(st)["value"][0] == 15


def test_BHB_REL_00_03_relic_from_the_egg_is_usable() -> None:
    """BHB-REL-00-03, BHB-REL-EGG-05: a Pool from the Egg may be used in step B. assumed:AMB-19"""
    st = scoring([["SHIP-07"], ["REL-EGG"], ["SHIP-09"]], ["TOY-1-2", "TOY-2-2", "TOY-2-3"], draw_top=["REL-POOL"],
                 script={"pool": ["TOY-2-3"]})
    decide(st, "use egg")
    assert st.view(1)["ask"]["kind"] == "pool"
    decide(st, "use pool")
    assert "TOY-2-3" in cards_of(st, 1) and len(st.data.bh_pile) == 2


def test_BHB_REL_EGG_06_no_cards_to_draw() -> None:
    """BHB-REL-EGG-06: with the draw pile and the discards empty the Egg cannot be used (nobody is asked).
    assumed:AMB-36 assumed:AMB-11"""
    cards = [c for c in tb.CARDS if c not in ("REL-EGG", "TOY-1-2", "TOY-2-2", "TOY-2-3")]
    parts = [c for c in cards if c.startswith("TM-")]
    rest = [c for c in cards if not c.startswith("TM-")]
    st = scoring([["REL-EGG", *rest[:20]], [{"card": c, "group": i + 1} for i, c in enumerate(parts)], rest[20:]],
                 ["TOY-1-2", "TOY-2-2", "TOY-2-3"])
    assert st.data.draw == [] and st.data.discard == []
    assert st.data.step == "B" and st.view(0)["ask"]["kind"] == "pool"  # step A passed without asking


# ---------------------------------------------------------------------------------------------- Alien Wading Pool


def test_BHB_REL_POOL_01_to_06() -> None:
    """SC-POOL-01: BHB-REL-POOL-01, BHB-REL-POOL-02, BHB-REL-POOL-03, BHB-REL-POOL-04, BHB-REL-POOL-06,
    BHB-SCORE-B-01: the Pool takes a random black-hole card (here the Egg, which has no effect any more); the
    pile keeps 2 cards and step F reveals one of them."""
    revealed = set()
    for seed in range(12):
        st = scoring([["REL-POOL"], ["SHIP-08"], ["SHIP-09"]], [["REL-EGG", 1], ["SHIP-07", 2], ["TOY-1-2", 0]],
                     seed=seed, script={"pool": ["REL-EGG"]})
        assert st.to_move() == (0,)
        decide(st, "use pool")
        d = st.data
        assert cards_of(st, 0) == ["REL-EGG"] and "REL-POOL" in d.discard
        assert sorted(d.bh_pile) == ["SHIP-07", "TOY-1-2"] and len(d.bh_from) == 2
        assert not any(e.kind == "egg" for e in st.events)
        revealed.add(d.bh_revealed)
    assert revealed == {"SHIP-07", "TOY-1-2"}


def test_BHB_REL_POOL_02_uniform_choice_and_keep() -> None:
    """BHB-REL-POOL-02, BHB-REL-POOL-01: without a script the Pool's card is random (several cards occur over
    seeds); keeping the Pool leaves the pile alone."""
    got = set()
    for seed in range(15):
        st = scoring([["REL-POOL"], ["SHIP-08"], ["SHIP-09"]], ["SHIP-07", "TOY-1-2", "TOY-2-2"], seed=seed)
        decide(st, "use pool")
        got.add(cards_of(st, 0)[0])
    assert len(got) >= 2
    st = scoring([["REL-POOL"], ["SHIP-08"], ["SHIP-09"]], ["SHIP-07", "TOY-1-2", "TOY-2-2"])
    decide(st, "keep pool")
    assert cards_of(st, 0) == ["REL-POOL"] and len(st.data.bh_pile) == 3


def test_BHB_REL_POOL_05_later_relic_works() -> None:
    """BHB-REL-POOL-05, BHB-REL-XXL-01: an XXL Paperweight from the Pool doubles the step-F weight for its new
    owner. assumed:AMB-38"""
    st = scoring([["REL-POOL"], ["SHIP-08"], ["SHIP-09"]], ["REL-XXL", "SHIP-07", "TOY-1-2"],
                 script={"pool": ["REL-XXL"], "reveal": ["SHIP-07"]})
    decide(st, "use pool")
    assert pad(st)["threshold"] == [28, 23, 23]


# ---------------------------------------------------------------------------------------------- One Ring


@pytest.mark.parametrize(("discard", "weight", "value"), [(True, 15, 23), (False, 20, 31)])
def test_BHB_REL_RING_01_02(discard: bool, weight: int, value: int) -> None:
    """SC-RING-01: BHB-REL-RING-01, BHB-REL-RING-02, BHB-SCORE-D-01: discarding the One Ring (8/5) in step D
    removes its value and weight before step E; it goes face up to the discards; nothing else happens.
    assumed:AMB-25 assumed:AMB-41"""
    st = scoring([["REL-RING", "SHIP-07", "SHIP-11", "ROBOT-5-2"], ["SHIP-08"], ["SHIP-09"]], PILE3)
    assert st.view(0)["ask"] == {"kind": "ring", "seat": 0}
    decide(st, f"{'use' if discard else 'keep'} ring")
    assert pad(st)["e_weight"][0] == weight and pad(st)["value"][0] == value
    assert ("REL-RING" in st.data.discard) is discard


# ---------------------------------------------------------------------------------------------- Carpet, Exoskeleton


EXO = ["REL-EXO", "SHIP-14", "SHIP-12", "SHIP-09"]  # weight 30
MID = ["SHIP-11", "SHIP-10", "SHAPE-5", "SHIP-07"]  # weight 25
CARPET = ["REL-CARPET", "SHIP-08", "ROBOT-7-3", {"card": "TM-CC-1", "group": 1}, "ROBOT-4-2-a", "SHAPE-3-a"]  # 20


def test_BHB_REL_EXO_01_02_05_CARPET_01() -> None:
    """SC-EXO-01: BHB-REL-EXO-01, BHB-REL-EXO-02, BHB-REL-EXO-03, BHB-REL-EXO-05, BHB-REL-CARPET-01,
    BHB-SCORE-E-01, BHB-SCORE-E-02, BHB-CARD-VW-01, BHB-CARD-VW-02, BHB-SCORE-G-02: E-weights 30 / 25 / 20: the
    Exoskeleton takes W-10 (G-weight 20, the pad keeps 30) and the Carpet V+10. With threshold 27 - 2 = 25 the
    Exoskeleton owner survives thanks to W-10 and B at exactly 25 is safe. assumed:AMB-26 assumed:AMB-38"""
    st = scoring([EXO, MID, CARPET], ["SHIP-N3", "TOY-1-2", "TOY-2-2"], hole="BH-R4", script={"reveal": ["SHIP-N3"]})
    record = pad(st)
    assert record["e_weight"] == [30, 25, 20]
    assert st.data.tokens == {"W-10": 0, "V+10": 2}
    assert record["threshold"] == [25, 25, 25]
    assert record["pulled_in"] == [False, False, False]
    assert record["value"] == [2 + 14 + 12 + 9, 11 + 10 + 5 + 7, 1 + 8 + 7 + 2 + 4 + 3 + 10]


def test_BHB_REL_EXO_ties_give_nothing() -> None:
    """SC-EXO-01 variants: BHB-REL-EXO-01, BHB-REL-CARPET-01: a tie for heaviest gives no W-10; a tie for lightest
    no V+10 (assumed:AMB-38)."""
    st = scoring([EXO, ["SHIP-11", "SHIP-10", "SHAPE-5", "SHIP-07", "ROBOT-6-3-a", "ROBOT-4-2-b"], CARPET],
                 ["SHIP-N3", "TOY-1-2", "TOY-2-2"], hole="BH-R4")
    assert pad(st)["e_weight"][:2] == [30, 30] and "W-10" not in st.data.tokens and st.data.tokens["V+10"] == 2
    st = scoring([EXO, ["SHIP-11", "SHIP-10", "ROBOT-6-3-a", "ROBOT-4-2-b"], CARPET],
                 ["SHIP-N3", "TOY-1-2", "TOY-2-2"], hole="BH-R4")
    assert pad(st)["e_weight"][1:] == [20, 20] and "V+10" not in st.data.tokens and st.data.tokens["W-10"] == 0


def test_BHB_REL_EXO_04_both_relics_at_most_one() -> None:
    """BHB-REL-EXO-04: an owner of both relics who is the lightest gets only V+10 (being heaviest at once is
    impossible)."""
    st = scoring([["REL-EXO", "REL-CARPET"], ["SHIP-11"], ["SHIP-12"]], PILE3)
    assert st.data.tokens == {"V+10": 0}


def test_BHB_REL_XXL_02_negative_card_and_everyone_pulled_in() -> None:
    """EX-SCORE-01-NEG: BHB-REL-XXL-02, BHB-SCORE-H-04: the step-F card SHIP-N5 (w -4) gives 14, and 10 for the
    XXL owner (18 - 8); everyone is pulled in and nobody scores."""
    st = scoring([["REL-CARPET", {"card": "TOY-5-6", "face_down": True}, {"card": "TOY-4-5", "face_down": True},
                   "SHIP-10", "SHIP-12"],
                  ["SHIP-14", "SHIP-09", {"card": "TOY-3-4", "face_down": True}, "ROBOT-4-2-a", "SHAPE-4-a"],
                  ["REL-EGG", "SHIP-11", "SHAPE-8-a", "ROBOT-6-3-a", {"card": "TOY-2-2", "face_down": True}]],
                 [["SHAPE-3-a", 0], ["SHIP-N5", 1], ["TM-QC-1", 2]], draw_top=["REL-XXL", "TOY-4-6"],
                 script={"reveal": ["SHIP-N5"]})
    decide(st, "use egg")
    record = pad(st)
    assert record["threshold"] == [14, 14, 10]
    assert record["pulled_in"] == [True, True, True]
    assert record["points"] == [0, 0, 0] and st.data.scores == [0, 0, 0]
    assert st.outcome().winners == (0, 1, 2)


def test_BHB_REL_CARPET_01_tie_case() -> None:
    """EX-SCORE-01-TIE-E: BHB-REL-CARPET-01: Andrea with SHAPE-4-b ties Lisa at 22: no V+10; Lisa 32 beats
    Andrea 24. assumed:AMB-38"""
    st = scoring([["REL-CARPET", {"card": "TOY-5-6", "face_down": True}, {"card": "TOY-4-5", "face_down": True},
                   "SHIP-10", "SHIP-12"],
                  ["SHIP-14", "SHIP-09", {"card": "TOY-3-4", "face_down": True}, "ROBOT-4-2-a", "SHAPE-4-a"],
                  ["REL-EGG", "SHIP-11", "SHAPE-4-b", "ROBOT-6-3-a", {"card": "TOY-2-2", "face_down": True}]],
                 [["SHAPE-3-a", 0], ["TOY-4-6", 1], ["TM-QC-1", 2]], draw_top=["REL-XXL", "SHAPE-8-a"],
                 script={"reveal": ["TOY-4-6"]})
    decide(st, "use egg")
    record = pad(st)
    assert record["e_weight"] == [22, 27, 22] and "V+10" not in st.data.tokens
    assert record["value"] == [32, None, 24] and record["points"] == [15, 0, 10]


# ---------------------------------------------------------------------------------------------- Space Blanket


def test_BHB_REL_BLANKET_01_02_SCORE_G_03() -> None:
    """SC-BLANKET-01: BHB-REL-BLANKET-01, BHB-REL-BLANKET-02, BHB-SCORE-G-03, BHB-SCORE-H-03, BHB-SCORE-H-06:
    threshold 24; A (Blanket, 30) is pulled in, loses every card and scores 5; D (29) scores 0; B and C take 1st
    and 2nd. A Blanket owner who stays under the threshold is ranked as usual.
    assumed:AMB-27 assumed:AMB-35 assumed:AMB-38"""
    st = scoring([["REL-BLANKET", "SHIP-14", "SHIP-12", "SHIP-11", "ROBOT-5-2"],
                  ["SHIP-10", "ROBOT-7-3", "ROBOT-6-3-a", "ROBOT-6-3-b"],
                  ["SHIP-09", "SHIP-08", "ROBOT-4-2-a", "ROBOT-4-2-b", "ART-TIIT"],
                  ["SHIP-07", "SHAPE-8-a", "SHAPE-7-a", {"card": "TM-CC-1", "group": 1},
                   {"card": "TM-CC-2", "group": 2}]],
                 ["TOY-4-6", "TOY-1-2", "TOY-2-2", "TOY-2-3"], script={"reveal": ["TOY-4-6"]})
    record = pad(st)
    assert record["e_weight"] == [30, 16, 19, 29]
    assert record["threshold"] == [24] * 4
    assert record["pulled_in"] == [True, False, False, True]
    assert record["points"] == [5, 15, 10, 0]
    assert st.data.tableaux[0] == [] and "REL-BLANKET" in st.data.discard
    st = scoring([["REL-BLANKET", "SHIP-07"], ["SHIP-08"], ["SHIP-09"]], PILE3)
    assert pad(st)["points"] == [5, 10, 15] and pad(st)["place"] == [3, 2, 1]


# ---------------------------------------------------------------------------------------------- steps C, G, H


def test_BHB_SCORE_C_03_toy_ties() -> None:
    """SC-C-TIE-01: BHB-SCORE-C-01, BHB-SCORE-C-02, BHB-SCORE-C-03, BHB-CARD-VW-03: toy totals 7 / 7 / 3: nobody
    takes W-6; without toys nobody does either; weight tokens never count as toys. assumed:AMB-24"""
    st = scoring([[{"card": "TOY-3-4", "face_down": True}, "TOY-2-3"], ["TOY-4-5", "TOY-2-2"], ["TOY-3-3"]], PILE3)
    assert "W-6" not in st.data.tokens
    assert pad(st)["toy_weight"] == [7, 7, 3]
    st = scoring([["SHIP-07"], ["SHIP-08"], ["SHIP-09"]], PILE3)
    assert "W-6" not in st.data.tokens
    st = scoring([["TOY-1-2"], ["TOY-2-3"], ["SHIP-09"]], PILE3, tokens={"W-10": 0})
    assert st.data.tokens["W-6"] == 1


def test_BHB_SCORE_G_02_equal_is_safe_and_G_04() -> None:
    """SC-G-EQ-01: BHB-SCORE-G-01, BHB-SCORE-G-02, BHB-SCORE-G-04: T 18 + 6: a weight of exactly 24 is safe, 25 is
    pulled in; each player is judged alone."""
    st = scoring([["SHIP-14", "SHIP-12", "ROBOT-6-3-a", "ROBOT-4-2-a"],
                  ["SHIP-11", "SHIP-10", "SHIP-09", "ROBOT-6-3-b"], ["SHIP-07"]], ["TOY-4-6", "TOY-1-2", "TOY-2-2"],
                 script={"reveal": ["TOY-4-6"]})
    record = pad(st)
    assert record["e_weight"][:2] == [24, 25]
    assert record["pulled_in"] == [False, True, False]


def test_BHB_SCORE_H_05_zero_or_negative_value_scores() -> None:
    """BHB-SCORE-H-05: a survivor with value -5 still takes the 3rd place's points. assumed:AMB-46"""
    st = scoring([["SHIP-N5"], ["SHIP-08"], ["SHIP-09"]], PILE3)
    assert pad(st)["value"][0] == -5 and pad(st)["points"] == [5, 10, 15]


def test_BHB_TIE_01_03_negative_ship_beats_none() -> None:
    """SC-TIE-02: BHB-TIE-01, BHB-TIE-03, BHB-TIE-04: P1 (20 with SHIP-N5) is 2nd; P2 and P3 (20, no spaceship)
    share 3rd-4th and get 4 each. assumed:AMB-29"""
    st = scoring([["SHIP-07", "SHIP-14", "ROBOT-7-3", "TOY-2-2"],
                  ["SHIP-N5", "ROBOT-6-3-a", "ROBOT-6-3-b", "ROBOT-4-2-a", "ROBOT-4-2-b", "ROBOT-5-2"],
                  ["ROBOT-6-3-c", "ROBOT-6-3-d", "ROBOT-4-2-c", "ROBOT-4-2-d"],
                  ["SHAPE-8-a", "SHAPE-7-a", "SHAPE-5"],
                  ["SHAPE-6", "TOY-4-5"]], PILE5, hole="BH-R4")
    record = pad(st)
    assert record["value"] == [30, 20, 20, 20, 10]
    assert record["points"] == [15, 10, 4, 4, 2]


def test_BHB_TIE_02_spaceship_order() -> None:
    """SC-TIE-03: BHB-TIE-02, BHB-CARD-SHIP-04: at 20 each, SHIP-07 ranks ahead of SHIP-N3, which beats SHIP-N5:
    10 / 7 / 4. assumed:AMB-28"""
    st = scoring([["SHIP-14", "SHIP-09", "ROBOT-7-3"],
                  ["SHIP-N3", "ROBOT-6-3-a", "ROBOT-6-3-b", "ROBOT-4-2-a", "SHAPE-7-a"],
                  ["SHIP-N5", "ROBOT-6-3-c", "ROBOT-6-3-d", "ROBOT-4-2-c", "ROBOT-5-2", "SHAPE-4-b"],
                  ["SHIP-07", "SHAPE-5", "SHAPE-4-a", "ROBOT-4-2-d"],
                  ["SHAPE-6", "TOY-4-5"]], PILE5, hole="BH-R4")
    record = pad(st)
    assert record["value"] == [30, 20, 20, 20, 10]
    assert record["points"] == [15, 7, 4, 10, 2]
    assert record["place"] == [1, 3, 4, 2, 5]


def test_BHB_TIE_04_all_tied_at_the_top_and_worst_for_all_variant() -> None:
    """SC-TIE-04, SC-TIE-05: BHB-TIE-04, BHB-SCORE-H-03: three players tie at 25 without spaceships: 5 each;
    a pulled-in player plus a tie between the other two: 10 each. The AMB-29 alternative gives everyone in a
    mixed tie the worst place. assumed:AMB-29"""
    st = scoring([["ROBOT-7-3", "ROBOT-6-3-a", "ROBOT-6-3-b", "ROBOT-4-2-a", "TOY-2-2"],
                  ["ROBOT-6-3-c", "ROBOT-6-3-d", "ROBOT-5-2", "ROBOT-4-2-b", "TOY-4-4"],
                  ["ROBOT-4-2-c", "ROBOT-4-2-d", "SHAPE-8-a", "SHAPE-5", "TOY-4-5"]], PILE3, hole="BH-R4")
    assert pad(st)["value"] == [25, 25, 25] and pad(st)["points"] == [5, 5, 5]
    st = scoring([["SHIP-14", "SHIP-12", "SHAPE-8-a"], ["ROBOT-6-3-a"], ["ROBOT-6-3-b"]], PILE3)
    assert pad(st)["points"] == [0, 10, 10]
    rows = [["SHIP-07", "SHIP-14", "ROBOT-7-3", "TOY-2-2"], ["SHIP-N5", "ROBOT-6-3-a", "ROBOT-6-3-b", "ROBOT-4-2-a",
            "ROBOT-4-2-b", "ROBOT-5-2"], ["ROBOT-6-3-c", "ROBOT-6-3-d", "ROBOT-4-2-c", "ROBOT-4-2-d"],
            ["SHAPE-8-a", "SHAPE-7-a", "SHAPE-5"], ["SHAPE-6", "TOY-4-5"]]
    st = scoring(rows, PILE5, hole="BH-R4", params={"tie_rule": "worst_for_all"})
    assert pad(st)["points"] == [15, 4, 4, 4, 2]
