"""Objectives and validation, notoriety, the end of a game, the Thoth market and items.

KYR-OBJ, KYR-NOTORIETY, KYR-END, KYR-THOTH, KYR-SETUP-06.
"""

from __future__ import annotations

import pytest
from kyr_helpers import MINI, QUIET_TOP, arranged, campaign, campaign_state, kinds, play, slots, texts

from holotable.engine import IllegalActionError
from holotable.games.kyrum import gauges, predicates
from holotable.games.kyrum.campaign import CampaignState, fold_game
from holotable.games.kyrum.decisions import Offer
from holotable.games.kyrum.ending import knowledge_np
from holotable.games.kyrum.pack import load_pack
from holotable.games.kyrum.rules import table

PACK = load_pack(MINI)


def holds(letter: str, **arr: object) -> bool:
    st = arranged(planet_deck_top_first=QUIET_TOP, **arr)  # type: ignore[arg-type]
    return predicates.holds(table(st), PACK.objectives[letter]["predicate"])


def test_KYR_OBJ_01_to_04_full_gauges() -> None:
    """KYR-OBJ-01 health 6, KYR-OBJ-02 ship 6, KYR-OBJ-03 firepower 6 (assumed:KYR-AMB-09), KYR-OBJ-04 suit 6."""
    assert holds("A") and not holds("A", gauges={"health": 5})
    assert holds("B") and not holds("B", gauges={"ship": 5})
    assert holds("C", gauges={"firepower": 6}) and not holds("C", gauges={"firepower": 5})
    assert holds("D") and not holds("D", gauges={"suit": 5})


def test_KYR_OBJ_05_to_11() -> None:
    """KYR-OBJ-05 knowledge >= 9; KYR-OBJ-06 3 studied; KYR-OBJ-07 2 studied plants; KYR-OBJ-08 5 cards;
    KYR-OBJ-09 6 U; KYR-OBJ-10 >= 6 C and >= 2 U (assumed:KYR-AMB-10); KYR-OBJ-11 >= 5 R."""
    three = [{"id": "D01", "studied": True}, {"id": "D04", "studied": True}, {"id": "D07", "studied": True}]
    assert holds("E", gauges={"knowledge": 9}) and not holds("E", gauges={"knowledge": 8})
    assert holds("F", inventory=three) and not holds("F", inventory=[*three[:2], {"id": "D09"}])
    assert holds("G", inventory=[{"id": "D01", "studied": True}, {"id": "D03", "studied": True}])
    assert not holds("G", inventory=[{"id": "D01", "studied": True}, {"id": "D03"}])
    five = [{"id": f"D0{i}"} for i in range(1, 6)]
    assert holds("H", inventory=five) and not holds("H", inventory=five[:4])
    assert holds("I", elements={"uncommon": 6}) and not holds("I", elements={"uncommon": 5})
    assert holds("J", elements={"common": 6, "uncommon": 3}) and not holds("J", elements={"common": 6, "uncommon": 1})
    assert holds("K", elements={"rare": 5}) and not holds("K", elements={"rare": 4})


def test_KYR_OBJ_12_pack_defined_objectives() -> None:
    """KYR-OBJ-12 (assumed:KYR-AMB-50): L..R come from the pack; L = 3 distinct studied types, P knowledge >= 12."""
    three_types = [{"id": "D01", "studied": True}, {"id": "D04", "studied": True}, {"id": "D07", "studied": True}]
    assert holds("L", inventory=three_types) and not holds("L", inventory=three_types[:2])
    assert holds("P", gauges={"knowledge": 12}) and not holds("P", gauges={"knowledge": 11})
    assert holds("M", gauges={"fuel": 12})


def victory_state() -> object:
    return arranged(journey=2, gauges={"ship": 6, "firepower": 3, "fuel": 1, "knowledge": 7},
                    inventory=[{"id": "D01", "studied": True}, {"id": "D04", "studied": True},
                               {"id": "D07", "studied": True}], planet_deck_top_first=QUIET_TOP)


def test_KYR_OBJ_14_victory_np_T_KYR_20() -> None:
    """T-KYR-20, KYR-NOTORIETY-02, KYR-NOTORIETY-03, KYR-NOTORIETY-04, KYR-END-03, KYR-DISC-06: game 1 (B F N) in
    journey 2 -> fuel 0, victory,
    NP 2 + 2 + 3 = 7 (bank 7: KYR-NOTORIETY-06; scoreboard 7: KYR-NOTORIETY-07)."""
    st = victory_state()
    assert "validate" in texts(st)  # type: ignore[arg-type]
    play(st, "validate")  # type: ignore[arg-type]
    d = st.data  # type: ignore[attr-defined]
    assert d.gauges["fuel"] == 0 and d.result["outcome"] == "victory"
    assert d.result["np"] == {"knowledge": 2, "discovery": 2, "journey": 3, "script": 0, "total": 7}
    assert d.camp["np_bank"] == 7 and d.camp["scoreboard"][0]["np"] == 7 and d.camp["scoreboard"][0]["result"] \
        == "victory"


def test_KYR_OBJ_15_validation_needs_fuel_T_KYR_21() -> None:
    """T-KYR-21 (assumed:KYR-AMB-14/15): objectives met, fuel 0, 1 C: validate illegal; craft C -> 2; validate -> 1."""
    st = victory_state()
    st.data.gauges["fuel"] = 0  # type: ignore[attr-defined]
    st.data.elements["common"] = 1  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError) as err:
        st.apply("validate")  # type: ignore[attr-defined]
    assert err.value.rule == "KYR-OBJ-15"
    play(st, "craft common fuel", "validate")  # type: ignore[arg-type]
    assert st.data.gauges["fuel"] == 1 and st.data.result["outcome"] == "victory"  # type: ignore[attr-defined]


def test_KYR_OBJ_16_17_live_status() -> None:
    """KYR-OBJ-16, KYR-OBJ-17: the view shows live status; losing a met objective makes validation illegal again."""
    st = victory_state()
    assert [o["satisfied"] for o in st.view(0)["objectives"]] == [True, True, True]  # type: ignore[attr-defined]
    gauges.lose(table(st), "ship", 1, "test")  # type: ignore[arg-type]
    assert [o["satisfied"] for o in st.view(0)["objectives"]] == [False, True, True]  # type: ignore[attr-defined]
    assert "validate" not in texts(st) and st.data.result is None  # type: ignore[arg-type, attr-defined]


@pytest.mark.parametrize(("knowledge", "np"), list(zip((4, 5, 6, 7, 9, 11, 12, 15, 16), (0, 1, 1, 2, 3, 3, 4, 4, 5),
                                                       strict=True)))
def test_KYR_NOTORIETY_01_knowledge_np_T_KYR_22(knowledge: int, np: int) -> None:
    """T-KYR-22 (assumed:KYR-AMB-12): non-cumulative thresholds."""
    assert knowledge_np(knowledge, PACK.rules["knowledge_np"]) == np


def test_KYR_NOTORIETY_05_defeat_halved_T_KYR_23() -> None:
    """T-KYR-23 (assumed:KYR-AMB-11/13): defeat with knowledge 9 (3 NP) and studied D12 (2 NP): floor(3/2) = 1."""
    st = arranged(gauges={"knowledge": 9}, inventory=[{"id": "D12", "studied": True}], planet_deck_top_first=QUIET_TOP)
    play(st, "concede")
    assert st.data.result["np"] == {"knowledge": 3, "discovery": 0, "journey": 0, "script": 0, "total": 1}
    st = arranged(params={"discovery_np_on_defeat": True}, gauges={"knowledge": 9},
                  inventory=[{"id": "D12", "studied": True}], planet_deck_top_first=QUIET_TOP)
    play(st, "concede")
    assert st.data.result["np"]["total"] == 2  # (3 + 2) // 2 with the alternative


def test_KYR_END_01_fuel_out_T_KYR_24() -> None:
    """T-KYR-24, KYR-END-02 (assumed:KYR-AMB-08): at the TLDP after landing, fuel 0 and no elements is a defeat;
    with 1 common it is not."""
    st = arranged(slots=slots(11, 10, 12, 13, dice=(2, 2, 3, 4)), gauges={"fuel": 2}, dice=[1, 6],
                  planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    assert st.data.result is not None and st.data.result["reason"] == "fuel"
    st = arranged(slots=slots(11, 10, 12, 13, dice=(2, 2, 3, 4)), gauges={"fuel": 2}, dice=[1, 6],
                  elements={"common": 1}, planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    assert st.data.result is None and st.data.gauges["fuel"] == 0


def test_KYR_END_06_concede() -> None:
    """KYR-END-06 (assumed:KYR-AMB-39): conceding at a TLDP is a defeat; the outcome ranks the solo seat 2."""
    st = arranged(planet_deck_top_first=QUIET_TOP)
    play(st, "concede")
    while not st.is_terminal():
        play(st, "close" if "close" in texts(st) else texts(st)[0])
    assert st.outcome().ranks == (2,) and st.outcome().reason == "Defeat: conceded"


def test_KYR_END_04_order_in_game_5_T_KYR_36() -> None:
    """T-KYR-36 (assumed:KYR-AMB-25): NP, scoreboard row, A.70.05, market, discard, in that order.
    KYR-DISC-05: every discovery card is discarded; KYR-THOTH-01: the market opens only now."""
    camp = CampaignState.from_dict({**campaign().to_dict(), "next_game": 5})
    st = campaign_state(camp)
    st.arrange({"inventory": [{"id": "D01", "studied": True}], "planet_deck_top_first": QUIET_TOP})
    assert not any(t.startswith("buy") or t == "close" for t in texts(st))
    play(st, "concede")
    k = kinds(st)
    order = [k.index(x) for x in ("notoriety_computed", "scoreboard", "script_read", "market")]
    assert order == sorted(order) and st.data.camp["flags"]["thoth_met"] == 1
    assert st.data.inventory == [{"id": "D01", "paid": {"common": 2, "uncommon": 0, "rare": 0},
                                  "waived": {"common": 0, "uncommon": 0, "rare": 0}, "studied": True}]
    play(st, "close")
    assert k.index("market") < kinds(st).index("discard_all") and st.data.inventory == [] and st.is_terminal()


def test_KYR_THOTH_01_to_04_market() -> None:
    """KYR-THOTH-01..04 (assumed:KYR-AMB-26): buy with bank NP, max_owned, unspent NP stay in the bank."""
    st = victory_state()
    st.data.camp["np_bank"] = 1  # type: ignore[attr-defined]
    play(st, "validate")  # type: ignore[arg-type]  # +7 -> 8
    legal = texts(st)  # type: ignore[arg-type]
    assert "buy t8" not in legal and {"buy t1", "buy t4", "buy t6", "close"} <= set(legal)  # T08 costs 10 > 8
    play(st, "buy t1")  # type: ignore[arg-type]
    assert st.data.camp["np_bank"] == 4 and "buy t1" not in texts(st)  # type: ignore[arg-type, attr-defined]
    play(st, "buy t4", "close")  # type: ignore[arg-type]
    assert st.data.camp["np_bank"] == 2 and st.data.camp["items"]["T04"] == {"owned": 1, "consumed": 0}  # type: ignore


def test_KYR_SETUP_06_permanent_items_next_game() -> None:
    """KYR-SETUP-06, KYR-THOTH-02: owning T01 (+2 fuel) and T02 (set firepower 2) changes the start values."""
    camp = campaign()
    camp.items = {"T01": {"owned": 1, "consumed": 0}, "T02": {"owned": 1, "consumed": 0}}
    st = campaign_state(camp)
    assert st.data.gauges["fuel"] == 12 and st.data.gauges["firepower"] == 2


def test_items_t04_t05_t06_t07() -> None:
    """Thoth item uses (assumed:KYR-AMB-26/44): T04 discount (consumable), T05 white = black, T06 choose the
    double, T07 waive one owed element (completing a study like a payment: P-K-09)."""
    st = arranged(items={"T04": 1, "T05": 1, "T06": 1, "T07": 1}, slots=slots(10, 11, 12, 13, dice=(3, 3, 4, 5)),
                  gauges={"fuel": 10}, dice=[5, 2, 1, 6], inventory=[{"id": "D07"}], planet_deck_top_first=QUIET_TOP)
    play(st, "use t4")
    assert st.data.discounts == [[2, 1]] and st.data.camp["items"]["T04"]["consumed"] == 1
    play(st, "explore 0")
    assert st.data.gauges["fuel"] == 9 and texts(st) == ["use t5", "skip"]
    play(st, "use t5")
    assert st.data.dice == [2, 2] and st.data.decision == Offer("A.10.04")
    play(st, "refuse")
    play(st, "use t7 d7 uncommon")
    assert st.data.inventory[0]["studied"] and st.data.gauges["knowledge"] == 1
    st2 = arranged(items={"T06": 1}, slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[3, 3],
                   planet_deck_top_first=QUIET_TOP)
    play(st2, "explore 0")
    assert "use t6 3" not in texts(st2) and "use t6 4" in texts(st2)
    play(st2, "use t6 4")
    assert st2.data.decision == Offer("A.10.08")


def test_KYR_END_05_finished_game_cannot_be_replayed() -> None:
    """KYR-END-05: folding a finished game advances next_game; the same game state cannot be folded twice."""
    camp = campaign()
    st = campaign_state(camp)
    play(st, "concede")
    while not st.is_terminal():
        play(st, "close" if "close" in texts(st) else texts(st)[0])
    after = fold_game(camp, st)
    assert after.next_game == 2
    with pytest.raises(IllegalActionError):
        fold_game(after, st)
