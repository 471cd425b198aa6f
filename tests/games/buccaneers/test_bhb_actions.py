"""Action text forms and the integer action space (BHB-DEC-01..06)."""

from __future__ import annotations

import pytest
from bhb_helpers import GAME, new

from holotable.engine import MalformedActionError
from holotable.games.buccaneers import Group, Laser, Play, Relic, Take
from holotable.games.buccaneers import actions as act


def test_BHB_DEC_text_forms_round_trip() -> None:
    """BHB-DEC-01, BHB-DEC-02, BHB-DEC-03, BHB-DEC-04, BHB-DEC-05: every action kind has a readable text form
    that parses back to the same action (card ids are case-insensitive)."""
    actions = [Play("SHAPE-3-a"), Take("TOY-4-6"), Group(0), Group(12), Laser(-4), Laser(2), Relic("egg", True),
               Relic("ring", False)]
    for a in actions:
        assert GAME.parse_action(str(a)) == a
    assert GAME.parse_action("PLAY shape-3-A") == Play("SHAPE-3-a")
    assert str(Group(0)) == "group new" and str(Laser(4)) == "laser +4" and str(Relic("pool", True)) == "use pool"


def test_BHB_DEC_integer_space_is_stable_and_complete() -> None:
    """BHB-DEC-06: 157 indices for every player count; index and action are inverse over the whole space."""
    assert {GAME.num_actions(new(n).config) for n in (3, 4, 5, 6)} == {157}
    for i in range(act.NUM_ACTIONS):
        assert GAME.action_index(GAME.index_action(i)) == i
    assert GAME.action_index(Play("SHIP-N5")) == 0 and GAME.action_index(Take("SHIP-N5")) == 67
    assert GAME.action_index(Group(0)) == 134 and GAME.action_index(Laser(-4)) == 147
    assert GAME.action_index(Relic("egg", True)) == 151 and GAME.action_index(Relic("ring", False)) == 156


@pytest.mark.parametrize("text", ["play", "play NOPE-1", "group 13", "group 0", "laser 5", "use hat", "draw 3", ""])
def test_BHB_DEC_06_malformed_text(text: str) -> None:
    """BHB-DEC-06: unreadable text is refused as malformed."""
    with pytest.raises(MalformedActionError):
        GAME.parse_action(text)


def test_BHB_DEC_01_mask_matches_hand() -> None:
    """BHB-DEC-01: in step 1 the mask has exactly the hand's cards set."""
    st = new(4, 3)
    for seat in range(4):
        mask = st.action_mask(seat)
        assert sum(mask) == len(st.data.hands[seat])
        assert {act.CARD_IDS[i] for i, bit in enumerate(mask) if bit} == set(st.data.hands[seat])


def test_BHB_SEL_01_single_asked_seat_goes_through_apply() -> None:
    """BHB-SEL-01, BHB-ART-GPS-01: when only one seat is asked in step 1 (here the other two are forced to play at
    random) the engine calls ``apply``; the step still resolves for everyone."""
    st = new(3, 8)
    st.data.gps_now = [False, True, True]
    assert st.to_move() == (0,)
    card = sorted(st.data.hands[0])[0]
    st.apply(f"play {card}", 0)
    d = st.data
    assert [len(t) for t in d.tableaux] == [1, 1, 1] and d.tableaux[0][0].card == card
    assert d.turn == 2 or d.ask[0] != "choose"
