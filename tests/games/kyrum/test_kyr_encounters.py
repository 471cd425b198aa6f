"""Encounters: danger checks, the Itinerant Trader, the Black Hole (KYR-ENC, KYR-SETUP-04, KYR-COMP-05)."""

from __future__ import annotations

import pytest
from kyr_helpers import arranged, kinds, play, slots, texts

ALERT_NEXT = [20, 22, 23, 25, 12, 27]  # next area quiet planets; the top back after it (Venthe) has the alert


def meet(card: str, white: int, black: int, **arr: object) -> object:
    base = {"slots": slots(10, 11, 13, 15), "planet_deck_top_first": ALERT_NEXT,
            "encounter_deck_top_first": [card, "ENC-02"], "dice": [white, black, 1, 2, 3, 4]}
    base.update(arr)
    st = arranged(**base)  # type: ignore[arg-type]
    play(st, "leave")
    return st


@pytest.mark.parametrize(("white", "black", "firepower", "ship_after"),
                         [(5, 2, 1, 4), (5, 2, 2, 6), (2, 5, 2, 4), (2, 5, 3, 6)])
def test_KYR_ENC_05_pirates_firepower_T_KYR_11(white: int, black: int, firepower: int, ship_after: int) -> None:
    """T-KYR-11, KYR-ENC-04 (strictly less; assumed:KYR-AMB-30): Pirates ENC-07 white fp<2 -> -2 ship; black fp<3."""
    st = meet("ENC-07", white, black, gauges={"firepower": firepower, "ship": 6})
    assert st.data.gauges["ship"] == ship_after  # type: ignore[attr-defined]


@pytest.mark.parametrize(("white", "black", "ship", "health_after"),
                         [(5, 2, 1, 4), (5, 2, 2, 6), (2, 5, 4, 5), (2, 5, 5, 6)])
def test_KYR_ENC_06_dark_threat_ship_T_KYR_12(white: int, black: int, ship: int, health_after: int) -> None:
    """T-KYR-12: ENC-03 white ship<2 -> -2 HP; black ship<5 -> -1 HP."""
    st = meet("ENC-03", white, black, gauges={"ship": ship, "health": 6})
    assert st.data.gauges["health"] == health_after  # type: ignore[attr-defined]


def test_KYR_ENC_03_double_cancels_T_KYR_13() -> None:
    """T-KYR-13, KYR-ENC-01 (assumed:KYR-AMB-40): a 3/3 double cancels the danger; the card is still removed."""
    st = meet("ENC-07", 3, 3, gauges={"firepower": 0})
    d = st.data  # type: ignore[attr-defined]
    assert d.gauges["ship"] == 6 and d.encounter_removed[-1] == "ENC-07" and d.encounter_in_play is None
    assert "encounter_cancelled" in kinds(st)  # type: ignore[arg-type]


def test_KYR_ENC_02_empty_encounter_deck_T_KYR_16() -> None:
    """T-KYR-16: encounter deck empty, alert shown: no encounter, no error."""
    st = arranged(slots=slots(10, 11, 13, 15), planet_deck_top_first=ALERT_NEXT, encounter_deck_top_first=[],
                  dice=[1, 2, 3, 4])
    play(st, "leave")
    assert "encounter" not in kinds(st) and st.data.slot_dice == [1, 2, 3, 4]


def test_KYR_ENC_07_trader_T_KYR_17() -> None:
    """T-KYR-17, KYR-ENC-08 (assumed:KYR-AMB-18): D14 unstudied, D01 + D07 studied: a, b, c offered; c gives
    +1 R for the two studied; only one trade."""
    st = meet("ENC-09", 1, 1, inventory=[{"id": "D14"}, {"id": "D01", "studied": True},
                                         {"id": "D07", "studied": True}])
    legal = texts(st)  # type: ignore[arg-type]
    assert legal == ["trade a d14", "trade b d1", "trade b d7", "trade c d1 d7", "pass"]
    play(st, "trade c d1 d7")  # type: ignore[arg-type]
    d = st.data  # type: ignore[attr-defined]
    assert d.elements["rare"] == 1 and [c["id"] for c in d.inventory] == ["D14"]
    assert {"D01", "D07"} <= set(d.discovery_discard) and d.decision is None


def test_KYR_ENC_08_partly_paid_counts_as_unstudied() -> None:
    """KYR-ENC-08: a partly paid discovery is traded as unstudied (a) and its paid elements are lost."""
    st = meet("ENC-09", 1, 1, inventory=[{"id": "D04", "paid": {"common": 2}}], elements={"common": 5})
    assert texts(st) == ["trade a d4", "pass"]  # type: ignore[arg-type]
    play(st, "trade a d4")  # type: ignore[arg-type]
    assert st.data.elements["common"] == 6  # type: ignore[attr-defined]


def test_KYR_ENC_10_no_free_actions_during_encounter() -> None:
    """KYR-ENC-10 (assumed:KYR-AMB-07): during the trader only trades and pass are legal."""
    st = meet("ENC-09", 1, 1, inventory=[{"id": "D14"}], elements={"common": 2})
    assert all(t.startswith(("trade", "pass")) for t in texts(st))  # type: ignore[arg-type]


def test_KYR_AMB_07_craft_before_encounter_roll_option() -> None:
    """KYR-ENC-10 alternative (config craft_before_encounter_roll, assumed:KYR-AMB-07): craft, then roll."""
    st = meet("ENC-07", 5, 2, params={"craft_before_encounter_roll": True}, elements={"uncommon": 2})
    assert "roll" in texts(st) and "craft uncommon firepower" in texts(st)  # type: ignore[arg-type]
    play(st, "craft uncommon firepower", "craft uncommon firepower", "roll")  # type: ignore[arg-type]
    assert st.data.gauges["ship"] == 6 and st.data.gauges["firepower"] == 2  # type: ignore[attr-defined]


def test_KYR_SETUP_04_partner_off_nine_cards_T_KYR_34() -> None:
    """T-KYR-34, KYR-COMP-05: without a partner the encounter deck is 9 cards, no Black Hole (ENC-10)."""
    st = arranged()
    cards = st.data.encounter_deck + st.data.encounter_removed
    assert len(cards) == 9 and "ENC-10" not in cards
    st = arranged(params={"partner": True})
    assert len(st.data.encounter_deck + st.data.encounter_removed) == 10


def test_KYR_ENC_09_black_hole_T_KYR_35() -> None:
    """T-KYR-35 (assumed:KYR-AMB-19): partner on, ENC-10 drawn: A.53.11 read, partner message pending; then
    'send ...' is logged and the script continues (+1 knowledge). KYR-CAMPAIGN-09: exchange only here."""
    st = meet("ENC-10", 1, 1, params={"partner": True})
    d = st.data  # type: ignore[attr-defined]
    assert "A.53.11" in d.camp["scripts_seen"] and d.decision.kind == "partner"
    assert texts(st) == ["send"]  # type: ignore[arg-type]
    play(st, "send Jaakub's ship is the Quiet Heron")  # type: ignore[arg-type]
    assert d.camp["partner_log"] == [{"game": 1, "sent": "Jaakub's ship is the Quiet Heron", "received": None}]
    assert d.gauges["knowledge"] == 1 and d.encounter_removed[-1] == "ENC-10"


def test_KYR_AMB_19_a_message_object_is_held_to_the_text_rule() -> None:
    """assumed:KYR-AMB-19: a partner message is one line of at most 500 characters, whether it comes as
    text or as an action object (an object of 618 characters over two lines was once stored)."""
    from holotable.engine import IllegalActionError, MalformedActionError
    from holotable.games.kyrum.actions import MAX_MESSAGE, KAction

    st = meet("ENC-10", 1, 1, params={"partner": True})
    before = st.fingerprint()  # type: ignore[attr-defined]
    too_long = KAction("send", ("x" * 300 + "\n" + "y" * 317,))
    for bad in (too_long, KAction("send", ("z" * (MAX_MESSAGE + 1),)), KAction("send", ("two", "words")),
                KAction("send", (" padded ",)), KAction("send", ("",)), KAction("send", ("bell\x07",))):
        with pytest.raises(IllegalActionError, match="one line of at most 500 characters") as err:
            st.apply(bad)  # type: ignore[attr-defined]
        assert err.value.rule == "KYR-AMB-19"
        assert st.fingerprint() == before  # type: ignore[attr-defined]  # refused: nothing changed
    with pytest.raises(MalformedActionError, match="one line of at most 500 characters"):
        st.apply("send " + "z" * (MAX_MESSAGE + 1))  # type: ignore[attr-defined]
    st.apply(KAction("send", ("a" * MAX_MESSAGE,)))  # type: ignore[attr-defined]  # the longest allowed
    assert st.data.camp["partner_log"][-1]["sent"] == "a" * MAX_MESSAGE  # type: ignore[attr-defined]
