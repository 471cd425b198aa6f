"""The scenario ``arrange`` hook: accepted positions and refused ones (ScenarioError, nothing changed)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from bhb_helpers import arranged, new

from holotable.engine import ScenarioError
from holotable.games.buccaneers import cards as tb

HANDS = [["SHIP-07", "SHIP-08"], ["SHIP-09", "SHIP-10"], ["SHIP-11", "SHIP-12"]]


def test_arrange_selection_start_keeps_every_card() -> None:
    """INV-01: an arranged position still holds each of the 67 cards exactly once; unplaced cards go below
    ``draw_top``; TM parts get their group's orientation."""
    st = arranged(3, {"hands": HANDS, "draw_top": ["REL-XXL", "TOY-4-6"], "discard": ["SHIP-14"],
                      "tableaux": [[{"card": "TM-CC-1", "group": 1}, {"card": "TM-WE-1", "group": 1}], [], []],
                      "turn": 3, "direction": "CCW", "scores": [1, 2, 3]})
    d = st.data
    assert Counter(tb.all_cards(d)) == Counter(list(tb.CARDS))
    assert d.draw[:2] == ["REL-XXL", "TOY-4-6"] and d.turn == 3 and d.direction == "CCW" and d.scores == [1, 2, 3]
    assert [it.turns for it in d.tableaux[0]] == [1, 1]
    assert st.to_move() == (0, 1, 2)


BAD: list[tuple[dict[str, Any], str]] = [
    ({"hands": HANDS, "colour": "red"}, "unknown arrangement key"),
    ({"hands": [["SHIP-07", "SHIP-08"], ["SHIP-07", "SHIP-10"], ["SHIP-11", "SHIP-12"]]}, "placed twice"),
    ({"hands": [["SHIP-07"], ["SHIP-09"], ["SHIP-11"]]}, "same number"),
    ({"hands": [["SHIP-07", "SHIP-08"], ["SHIP-09"], ["SHIP-11", "SHIP-12"]]}, "same number"),
    ({}, "hands: required"),
    ({"hands": HANDS, "tableaux": [[{"card": "SHIP-14", "face_down": True}], [], []]}, "only a toy"),
    ({"hands": HANDS, "tableaux": [["TM-CC-1"], [], []]}, "group number"),
    ({"hands": HANDS, "tableaux": [[{"card": "TM-CC-1", "group": 1}, {"card": "TM-CC-2", "group": 1}], [], []]},
     "holds a part twice"),
    ({"hands": HANDS, "tableaux": [[{"card": "ROBOT-7-3", "turns": 2}], [], []]}, "cannot be turned"),
    ({"hands": HANDS, "tableaux": [[{"card": "SHIP-14", "active": True}], [], []]}, "can be active"),
    ({"hands": HANDS, "bh_pile": ["TOY-1-2"]}, "only at the end of the selection phase"),
    ({"phase": "scoring", "bh_pile": []}, "1..3 cards"),
    ({"hands": HANDS, "thresholds": ["TH-4", "TH+2"]}, "at most one from the Laser"),
    ({"hands": HANDS, "tokens": {"W-7": 0}}, "tokens"),
    ({"hands": HANDS, "tokens": {"W-6": 5}}, "tokens.W-6"),
    ({"hands": HANDS, "black_holes": ["BH-M1", "BH-M1", "BH-D2"]}, "3 distinct"),
    ({"hands": HANDS, "gps": [0, 1]}, "only one Analog GPS Tracker"),
    ({"hands": HANDS, "script": {"dice": ["SHIP-14"]}}, "script"),
    ({"hands": HANDS, "script": {"reveal": ["NOPE"]}}, "script: chance.reveal\\[0\\]: 'NOPE' is not a space-junk card"),
    ({"hands": HANDS, "script": {"shuffle": ["SHIP-14"]}}, "script: chance.shuffle\\[0\\]: expected the shuffled"),
    ({"hands": [["NOPE", "SHIP-08"], ["SHIP-09", "SHIP-10"], ["SHIP-11", "SHIP-12"]]}, "not a space-junk card"),
    ({"phase": "scoring", "hands": HANDS, "bh_pile": ["TOY-1-2"]}, "must be empty"),
]


@pytest.mark.parametrize(("arrangement", "message"), BAD)
def test_bad_arrangements_are_refused_and_change_nothing(arrangement: dict[str, Any], message: str) -> None:
    """Every refused arrangement raises ScenarioError naming the problem and leaves the state as it was."""
    st = new(3, 2)
    before = st.fingerprint()
    with pytest.raises(ScenarioError, match=message):
        st.arrange(arrangement)
    assert st.fingerprint() == before
