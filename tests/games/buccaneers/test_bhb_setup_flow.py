"""Set-up, the course of a game, cleanup and final scoring (BHB-SETUP, BHB-FLOW, BHB-CLEAN, BHB-FINAL)."""

from __future__ import annotations

from collections import Counter

import pytest
from bhb_helpers import arranged, new, pad, play, scoring, selection

from holotable.engine import ConfigError, Rng
from holotable.games.buccaneers import cards as tb


def _finish(st, seed: int = 0) -> None:  # type: ignore[no-untyped-def]
    rng = Rng(seed)
    while not st.is_terminal():
        seat = st.to_move()[0]
        legal = list(st.legal_actions(seat))
        st.apply(legal[rng.randrange(len(legal))], seat)


def test_BHB_SETUP_01_COMP_06_player_counts() -> None:
    """BHB-SETUP-01, BHB-COMP-06: 3 to 6 players; 2 and 7 are refused. assumed:AMB-06"""
    for n in (3, 4, 5, 6):
        assert len(new(n).data.hands) == n
    for n in (2, 7):
        with pytest.raises(ConfigError):
            new(n)


def test_BHB_SETUP_02_first_game_stack() -> None:
    """BHB-SETUP-02, BHB-SETUP-05, BHB-SETUP-06, BHB-SETUP-07: BH-M2 on top, then BH-R2, BH-D4; 4 hands of 6;
    the draw pile holds the other 43; the discards are empty. assumed:AMB-03"""
    st = new(4, seed=3, setup="first_game")
    d = st.data
    assert d.stack == ["BH-M2", "BH-R2", "BH-D4"]
    assert sorted(d.box) == sorted(h.id for h in tb.DATA.black_holes if h.id not in d.stack)
    assert [len(h) for h in d.hands] == [6, 6, 6, 6]
    assert len(d.draw) == 43 and d.discard == []
    assert st.view(0)["black_hole"] == {"id": "BH-M2", "category": "menacing", "cards": 6, "threshold": 18}
    assert Counter(tb.all_cards(d)) == Counter(list(tb.CARDS))


def test_BHB_SETUP_03_standard_mode_hides_later_holes() -> None:
    """BHB-SETUP-03, BHB-SETUP-05: three distinct shuffled black holes, the top one revealed, later ones
    hidden from every view. assumed:AMB-04"""
    stacks = {tuple(new(3, seed=s).data.stack) for s in range(8)}
    assert len(stacks) > 1
    for stack in stacks:
        assert len(set(stack)) == 3
    st = new(3, seed=1)
    view = st.view(1)
    assert view["black_holes"] == [st.data.stack[0], None, None]
    assert view["black_hole"]["id"] == st.data.stack[0]
    assert [len(h) for h in st.data.hands] == [tb.HOLES[st.data.stack[0]].cards] * 3


def test_BHB_SETUP_04_custom_stack() -> None:
    """BHB-SETUP-04: an agreed ordered list of 3 distinct black holes; bad lists are refused. assumed:AMB-44"""
    st = new(3, black_holes="BH-D1,BH-M4,BH-R3")
    assert st.data.stack == ["BH-D1", "BH-M4", "BH-R3"]
    assert st.view(0)["black_holes"] == ["BH-D1", "BH-M4", "BH-R3"]  # an agreed stack is public
    assert [len(h) for h in st.data.hands] == [5, 5, 5]
    for bad in ("BH-D1,BH-D1,BH-R3", "BH-D1,BH-M4", "BH-X1,BH-M4,BH-R3"):
        with pytest.raises(ConfigError):
            new(3, black_holes=bad)


def test_BHB_SETUP_08_random_direction_and_param() -> None:
    """BHB-SETUP-08, BHB-COMP-05: the direction card starts on a random side (or the side asked for)."""
    sides = {new(3, seed=s).data.direction for s in range(20)}
    assert sides == {"CW", "CCW"}
    assert new(3, direction="CCW").data.direction == "CCW"


def test_BHB_SETUP_09_supply_and_scores() -> None:
    """BHB-SETUP-09, BHB-COMP-03, BHB-COMP-04: all tokens and threshold cards start in the supply; scores 0."""
    d = new(5).data
    assert d.tokens == {} and d.thresholds == [] and d.scores == [0] * 5


def test_BHB_SETUP_10_only_own_hand() -> None:
    """BHB-SETUP-10: each seat's view shows its own hand and only the sizes of the others."""
    st = new(4, seed=2)
    for seat in range(4):
        view = st.view(seat)
        assert view["hand"] == tb.sort_cards(st.data.hands[seat])
        assert view["hand_sizes"] == [len(h) for h in st.data.hands]
        others = {c for s, h in enumerate(st.data.hands) if s != seat for c in h}
        text = str(view)
        assert not any(f"'{c}'" in text for c in others)


def test_BHB_FLOW_01_02_03_three_rounds_then_final() -> None:
    """BHB-FLOW-01, BHB-FLOW-02, BHB-FLOW-03, BHB-CLEAN-01, BHB-FINAL-01: exactly three scoring phases and two
    cleanups; the game ends only after round 3 and the points are the sum of the round points."""
    st = new(4, seed=9)
    _finish(st, 9)
    d = st.data
    assert [r["round"] for r in d.pad] == [1, 2, 3]
    assert [r["black_hole"] for r in d.pad] == d.stack
    assert len([e for e in st.events if e.kind == "round_start"]) == 2  # rounds 2 and 3 (cleanups)
    assert d.scores == [sum(r["points"][s] for r in d.pad) for s in range(4)]
    assert st.outcome().scores == tuple(float(s) for s in d.scores)
    assert any(d.tableaux)  # no cleanup after round 3: the last tableaux stay


def test_BHB_CLEAN_02_to_08_cleanup() -> None:
    """SC-CLEAN-01: BHB-CLEAN-02, BHB-CLEAN-03, BHB-CLEAN-04, BHB-CLEAN-05, BHB-CLEAN-06, BHB-CLEAN-07,
    BHB-CLEAN-08, BHB-PASS-02, BHB-ROT-07: after round 1 (first game, 4 players, CCW, W-6 held,
    TH+3 and TH-4 at the black hole): tokens back, direction kept, BH-R2 revealed, 4 hands of 7, draw 39, empty
    zones, orientations reset, scores kept."""
    st = arranged(4, {"phase": "scoring", "tableaux": [["ROBOT-4-2-a"], ["SHIP-07"], [], []],
                      "bh_pile": ["TOY-1-2", "TOY-2-2", "TOY-3-3", "TOY-4-4"], "tokens": {"W-6": 0},
                      "thresholds": ["TH+3", "TH-4"], "direction": "CCW", "scores": [5, 6, 7, 8]},
                  setup="first_game", seed=4)
    d = st.data
    assert d.round == 2 and d.phase == "selection" and d.turn == 1
    assert d.tokens == {} and d.thresholds == []
    assert d.direction == "CCW"
    assert "BH-M2" in d.box and d.black_hole == "BH-R2"
    assert [len(h) for h in d.hands] == [7, 7, 7, 7] and len(d.draw) == 67 - 28
    assert d.discard == [] and d.bh_pile == [] and all(t == [] for t in d.tableaux)
    assert d.gps_now == [False] * 4 and d.revealed == [] and not d.tiit_done
    assert d.pad[0]["points"] == [10, 15, 3, 3]  # seats 2 and 3 tie on 0 without spaceships: both 4th
    assert d.scores == [15, 21, 10, 11]
    assert Counter(tb.all_cards(d)) == Counter(list(tb.CARDS))


def test_BHB_FINAL_02_to_05_winner_and_tiebreak() -> None:
    """SC-FINAL-01: BHB-FINAL-02, BHB-FINAL-03, BHB-FINAL-04, BHB-FINAL-05, BHB-CARD-SHIP-03: the top total wins;
    equal totals go to the best spaceship in play (a negative one beats none); without spaceships they share."""
    pile = ["TM-CC-1", "TM-CC-2", "TM-CC-3"]
    # Values A 0 (SHIP-N4 + toy 4/4), B 4, C 1: B 15, C 10, A 5.
    st = scoring([["SHIP-N4", "TOY-4-4"], ["TOY-2-2", "TOY-2-3"], ["TOY-1-2"]], pile, scores=[25, 25, 35])
    assert st.data.scores == [30, 40, 45] and st.outcome().winners == (2,)
    st = scoring([["SHIP-N4", "TOY-4-4"], ["TOY-2-2", "TOY-2-3"], ["TOY-1-2"]], pile, scores=[35, 25, 30])
    assert st.data.scores == [40, 40, 40]
    assert st.outcome().winners == (0,)  # only A has a spaceship in play (value -4)
    assert st.outcome().ranks == (1, 2, 2)
    # Nobody has a spaceship: A 15, B 10, C 5 bring everyone to 45 and all three share the win.
    st = scoring([["TOY-5-5"], ["TOY-2-2", "TOY-2-3"], ["TOY-1-2"]], pile, scores=[30, 35, 40])
    assert st.data.scores == [45, 45, 45] and st.outcome().winners == (0, 1, 2)


def test_BHB_FINAL_03_pulled_in_ship_does_not_count() -> None:
    """BHB-FINAL-03, BHB-FINAL-05, BHB-FINAL-06: B's SHIP-14 is discarded by a pull-in in round 3, so A's SHIP-N4
    wins the three-way tie alone; the standings below share 2nd. assumed:AMB-33"""
    st = scoring([["SHIP-N4", "TOY-4-4"], ["SHIP-14", "SHIP-12", "SHAPE-8-a"], ["TOY-1-2"]],
                 ["TM-CC-1", "TM-CC-2", "TM-CC-3"], scores=[35, 45, 30])
    d = st.data
    assert d.pad[0]["pulled_in"] == [False, True, False]  # B weighs 27 > 18 + 5
    assert d.pad[0]["points"] == [10, 0, 15]
    assert d.scores == [45, 45, 45]
    assert d.tableaux[1] == []
    assert st.outcome().winners == (0,)
    assert st.outcome().ranks == (1, 2, 2)


def test_BHB_COMP_09_pad_records() -> None:
    """BHB-COMP-09, BHB-SCORE-H-06: the pad keeps E-weight, value, points and running total per round.
    assumed:AMB-30 assumed:AMB-35"""
    st = scoring([["SHIP-07"], ["SHIP-14", "SHIP-12", "SHAPE-8-a"], ["TOY-1-2"]], ["TM-CC-1", "TM-CC-2", "TM-CC-3"],
                 scores=[3, 4, 5], script={"reveal": ["TM-CC-1"]})
    record = pad(st)
    assert record["e_weight"] == [5, 27, -4]  # C has the only toy: W-6
    assert record["value"] == [7, None, 1]  # blank for the pulled-in player
    assert record["points"] == [15, 0, 10]
    assert record["total"] == [18, 4, 15]


def test_BHB_SEL_01_09_10_11_12_round_length_and_hands() -> None:
    """BHB-SEL-01, BHB-SEL-09, BHB-SEL-10, BHB-SEL-11, BHB-SEL-12, BHB-SEL-02: a round of h=6 lasts 5 turns, all
    hands stay equal, each tableau gets one card per turn and the black hole gets one card per player."""
    st = new(3, seed=21, setup="first_game", direction="CW")
    turns = 0
    while st.data.phase == "selection":
        d = st.data
        assert len({len(h) for h in d.hands}) == 1
        if d.ask[0] == "choose":
            hands = [tb.sort_cards(h) for h in d.hands]
            safe = [next((c for c in h if tb.is_toy(c) or tb.effect_of(c) is None), h[0]) for h in hands]
            if d.turn > turns:
                turns = d.turn
            for seat in st.to_move():
                st.apply(f"play {safe[seat]}", seat)
        else:
            st.apply(st.legal_actions()[0])
        if st.data.phase != "selection" and st.data.round == 1:
            break
    record_turns = turns
    tiit = any(e.kind == "tiit" for e in st.events)
    assert record_turns == 6 - 1 + tiit


def test_BHB_SEL_07_08_PASS_01_pass_and_black_hole() -> None:
    """BHB-SEL-07, BHB-SEL-08, BHB-PASS-01: CW passes seat i's hand to seat i+1; with one card left each, they go
    face down to the black hole and scoring begins. assumed:AMB-12"""
    hands = [["TOY-1-2", "SHIP-07", "SHIP-N3"], ["TOY-2-2", "SHIP-08", "SHIP-N4"], ["TOY-2-3", "SHIP-09", "SHIP-N5"]]
    st = selection(hands, direction="CW", turn=4, round_=3)
    play(st, "TOY-1-2", "TOY-2-2", "TOY-2-3")
    assert st.data.hands == [["SHIP-09", "SHIP-N5"], ["SHIP-07", "SHIP-N3"], ["SHIP-08", "SHIP-N4"]]
    play(st, "SHIP-09", "SHIP-07", "SHIP-08")
    d = st.data
    assert d.bh_pile == ["SHIP-N5", "SHIP-N3", "SHIP-N4"] and d.bh_from == [0, 1, 2]
    assert d.phase == "over" and d.pad[0]["e_weight"] == [9, 7, 3]  # scoring ran on the 2 cards laid each
    st2 = selection(hands, direction="CCW")
    play(st2, "TOY-1-2", "TOY-2-2", "TOY-2-3")
    assert st2.data.hands == [["SHIP-08", "SHIP-N4"], ["SHIP-09", "SHIP-N5"], ["SHIP-07", "SHIP-N3"]]
