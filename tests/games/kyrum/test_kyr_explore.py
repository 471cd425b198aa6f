"""Areas, distance dice, exploration, crafting and gauges.

KYR-AREA, KYR-DIST, KYR-EXPLORE, KYR-CRAFT, KYR-GAUGE, KYR-JOURNEY, KYR-TLDP.
"""

from __future__ import annotations

import pytest
from kyr_helpers import QUIET_TOP, arranged, kinds, play, slots, texts

from holotable.engine import IllegalActionError
from holotable.games.kyrum.decisions import Offer

NEXT_AREA = [20, 22, 23, 25, 27, 29, 10, 11]  # two quiet areas (no alert on the top back after either)


def test_KYR_DIST_01_sorted_distance_dice_T_KYR_01() -> None:
    """T-KYR-01, KYR-DIST-01, P-K-08: rolls 6, 3, 2, 3 are placed 2, 3, 3, 6; KYR-AREA-01 top 4 in order;
    KYR-AREA-07 leaving is free and discards the 4 slot cards. assumed:KYR-AMB-31 (roll right after reveal)."""
    st = arranged(slots=slots(10, 11, 12, 13), planet_deck_top_first=NEXT_AREA, dice=[6, 3, 2, 3],
                  gauges={"fuel": 7})
    play(st, "leave")
    d = st.data
    assert d.slot_planets == [20, 22, 23, 25]
    assert d.slot_dice == [2, 3, 3, 6]
    assert d.gauges["fuel"] == 7
    assert sorted(d.planet_discard)[:4] == [10, 11, 12, 13]
    assert d.area == 2 and d.window_open


def test_KYR_DIST_02_KYR_EXPLORE_01_pay_die_value_T_KYR_02() -> None:
    """T-KYR-02: Rymios in slot 0 with die 2, fuel 10: Explore(0) -> fuel 8, slot explored (KYR-EXPLORE-02)."""
    st = arranged(slots=slots(10, 11, 12, 13, dice=(2, 3, 3, 6)), gauges={"fuel": 10}, dice=[5, 2],
                  planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    assert st.data.gauges["fuel"] == 8 and st.data.slot_explored == [True, False, False, False]
    assert "explore" in kinds(st) and "dice" in kinds(st)


def test_KYR_EXPLORE_03_04_arrows_T_KYR_05() -> None:
    """T-KYR-05, KYR-EXPLORE-03, KYR-EXPLORE-04, KYR-EXPLORE-08, KYR-EXPLORE-09: white 5 black 2 -> white arrow (+2
    C); white 1 black 6 -> black (+1 U, -1 suit).
    KYR-EXPLORE-12: play returns to a TLDP of the same area."""
    st = arranged(slots=slots(10, 10 + 1, 12, 13), gauges={"fuel": 10}, dice=[5, 2], planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    assert st.data.elements == {"common": 2, "uncommon": 0, "rare": 0}
    assert st.data.decision is None and st.data.area == 1
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[1, 6], planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    assert st.data.elements["uncommon"] == 1 and st.data.elements["common"] == 0
    assert st.data.gauges["suit"] == 5


def test_KYR_EXPLORE_05_double_offers_script_T_KYR_03() -> None:
    """T-KYR-03: double 4 on Rymios offers A.10.08; after Read its effects run (KYR-SCRIPT-02) and it is
    tracked (KYR-EXPLORE-11)."""
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[4, 4], planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    assert st.data.decision == Offer("A.10.08")
    assert texts(st) == ["read", "refuse"]
    play(st, "read")
    assert st.data.gauges["knowledge"] == 1 and st.data.camp["flags"]["heron_found"] == 1
    assert st.data.camp["main_seen"] == ["A.10.08"]
    assert st.data.decision is not None and st.data.decision.kind == "choice"


def test_KYR_EXPLORE_06_rahel_any_double_T_KYR_04() -> None:
    """T-KYR-04, KYR-EXPLORE-10 (assumed:KYR-AMB-52): RAHEL's doubles 2/2 and 5/5 both offer A.29.01."""
    for die in (2, 5):
        st = arranged(slots=slots(29, 11, 12, 13), gauges={"fuel": 10}, dice=[die, die],
                      planet_deck_top_first=QUIET_TOP)
        play(st, "explore 0")
        assert st.data.decision == Offer("A.29.01")


def test_KYR_EXPLORE_07_refuse_rerolls_free_T_KYR_06() -> None:
    """T-KYR-06 (assumed:KYR-AMB-16): refuse, re-roll 3/1 -> white arrow; no fuel; A.10.08 not seen.
    KYR-SCRIPT-05: refusal exists for exploration doubles; refusal may repeat."""
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[4, 4, 2, 2, 3, 1],
                  planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0", "refuse", "refuse")
    assert st.data.gauges["fuel"] == 9
    assert st.data.elements["common"] == 2
    assert "A.10.08" not in st.data.camp["scripts_seen"] and st.data.camp["main_seen"] == []
    assert kinds(st).count("script_refused") == 2


def test_KYR_AREA_06_once_per_planet_T_KYR_07() -> None:
    """T-KYR-07, KYR-AREA-05: explore slot 2, then Explore(2) again is illegal."""
    st = arranged(slots=slots(10, 11, 20, 23), gauges={"fuel": 10}, dice=[5, 2], planet_deck_top_first=QUIET_TOP)
    play(st, "explore 2")
    before = st.fingerprint()
    with pytest.raises(IllegalActionError) as err:
        st.apply("explore 2")
    assert err.value.rule == "KYR-AREA-06" and st.fingerprint() == before
    assert "explore 0" in texts(st) and "explore 3" in texts(st)


def test_KYR_EXPLORE_01_danger_needs_suit_T_KYR_08() -> None:
    """T-KYR-08 (assumed:KYR-AMB-22): danger 3, suit 2: illegal; craft 1 U -> suit 3: legal (KYR-CRAFT-04)."""
    st = arranged(slots=slots(13, 11, 12, 10), gauges={"fuel": 10, "suit": 2}, elements={"uncommon": 1},
                  planet_deck_top_first=QUIET_TOP)
    with pytest.raises(IllegalActionError, match="suit 2 < danger 3"):
        st.apply("explore 0")
    play(st, "craft uncommon suit")
    assert st.data.gauges["suit"] == 3 and "explore 0" in texts(st)


def test_KYR_EXPLORE_01_fuel_checked_last_and_paid_in_full() -> None:
    """KYR-EXPLORE-01, KYR-GAUGE-07: fuel 3 cannot pay die 4; nothing changes."""
    st = arranged(slots=slots(10, 11, 12, 13, dice=(4, 4, 5, 6)), gauges={"fuel": 3}, planet_deck_top_first=QUIET_TOP)
    with pytest.raises(IllegalActionError) as err:
        st.apply("explore 0")
    assert err.value.rule == "KYR-GAUGE-07" and st.data.gauges["fuel"] == 3


def test_KYR_DIST_03_05_reroll_and_set_no_resort_T_KYR_28() -> None:
    """T-KYR-28 (assumed:KYR-AMB-03): dice [1,2,4,6]; C re-rolls slot 3 -> 2: [1,2,4,2]; U sets slot 2: [1,2,1,2].
    KYR-DIST-04, KYR-CRAFT-03, KYR-DIST-06 (chained, window stays open; assumed:KYR-AMB-04)."""
    st = arranged(slots=slots(10, 11, 12, 13, dice=(1, 2, 4, 6)), elements={"common": 1, "uncommon": 1},
                  window_open=True, dice=[2], planet_deck_top_first=QUIET_TOP)
    play(st, "craft common reroll 3")
    assert st.data.slot_dice == [1, 2, 4, 2] and st.data.window_open
    play(st, "craft uncommon set1 2")
    assert st.data.slot_dice == [1, 2, 1, 2]
    assert st.data.elements == {"common": 0, "uncommon": 0, "rare": 0}


def test_KYR_DIST_05_resort_option() -> None:
    """KYR-DIST-05 alternative (config resort_after_reroll, assumed:KYR-AMB-03): the dice are re-sorted."""
    st = arranged(params={"resort_after_reroll": True}, slots=slots(10, 11, 12, 13, dice=(1, 2, 4, 6)),
                  elements={"common": 1}, window_open=True, dice=[2], planet_deck_top_first=QUIET_TOP)
    play(st, "craft common reroll 3")
    assert st.data.slot_dice == [1, 2, 2, 4]


def test_KYR_DIST_07_window_closes_on_explore_T_KYR_29() -> None:
    """T-KYR-29: after exploring slot 0, re-roll is illegal; other crafts do not close it (assumed:KYR-AMB-04)."""
    st = arranged(slots=slots(10, 11, 12, 13), elements={"common": 3}, gauges={"fuel": 10}, window_open=True,
                  dice=[5, 2], planet_deck_top_first=QUIET_TOP)
    play(st, "craft common fuel")
    assert st.data.window_open
    play(st, "explore 0")
    assert not st.data.window_open
    with pytest.raises(IllegalActionError) as err:
        st.apply("craft common reroll 1")
    assert err.value.rule == "KYR-DIST-07"


def test_KYR_DIST_08_discount_reduces_paid_fuel_only() -> None:
    """KYR-DIST-08 (assumed:KYR-AMB-44): a discount of 2 on die 1 costs 0 and is consumed; the die is unchanged."""
    st = arranged(slots=slots(10, 11, 12, 13, dice=(1, 3, 3, 4)), gauges={"fuel": 5}, dice=[5, 2],
                  planet_deck_top_first=QUIET_TOP)
    st.data.discounts = [[2, 1]]
    play(st, "explore 0")
    assert st.data.gauges["fuel"] == 5 and st.data.slot_dice[0] == 1 and st.data.discounts == []


def test_KYR_CRAFT_02_05_each_recipe_T_KYR_27() -> None:
    """T-KYR-27, KYR-CRAFT-01, KYR-CRAFT-02, KYR-CRAFT-04, KYR-CRAFT-05, KYR-CRAFT-08: +2 / +3 / +1 / +1 / +1 / +6
    / +1 from fuel 5 suit 4 ship 4 fp 0 health 5;
    each craft spends exactly one element."""
    st = arranged(gauges={"fuel": 5, "suit": 4, "ship": 4, "firepower": 0, "health": 5},
                  elements={"common": 1, "uncommon": 4, "rare": 2}, planet_deck_top_first=QUIET_TOP)
    steps = [("craft common fuel", "fuel", 7), ("craft uncommon fuel", "fuel", 10), ("craft uncommon suit", "suit", 5),
             ("craft uncommon ship", "ship", 5), ("craft uncommon firepower", "firepower", 1),
             ("craft rare fuel", "fuel", 16), ("craft rare health", "health", 6)]
    for action, gauge, value in steps:
        total = sum(st.data.elements.values())
        play(st, action)
        assert st.data.gauges[gauge] == value, action
        assert sum(st.data.elements.values()) == total - 1
    assert st.data.gauges["knowledge"] == 0
    assert not any(a.startswith("craft") and "knowledge" in a for a in texts(st))


def test_KYR_GAUGE_05_clamp_T_KYR_30() -> None:
    """T-KYR-30, KYR-CRAFT-06 (assumed:KYR-AMB-01): fuel 15 + 2 -> 16; 6 C + 2 C -> 6 (excess lost)."""
    st = arranged(gauges={"fuel": 15}, elements={"common": 6}, slots=slots(10, 11, 12, 13),
                  dice=[5, 2], planet_deck_top_first=QUIET_TOP)
    play(st, "craft common fuel")
    assert st.data.gauges["fuel"] == 16 and st.data.elements["common"] == 5
    st.data.elements["common"] = 6
    play(st, "explore 0")  # Rymios white: +2 C
    assert st.data.elements["common"] == 6


def test_KYR_GAUGE_08_suit_breach_once_T_KYR_09() -> None:
    """T-KYR-09 (assumed:KYR-AMB-02): suit 1 lose 1 -> suit 1, health -1; suit 2 lose 3 -> the same, once.
    KYR-GAUGE-06: losses clamp at 0."""
    for suit, planet, dice in ((1, 10, [1, 6]), (2, 13, [1, 6])):
        st = arranged(gauges={"suit": suit, "health": 6, "fuel": 10}, slots=slots(planet, 11, 12, 14),
                      dice=dice, planet_deck_top_first=QUIET_TOP)
        if planet == 13:  # Myrrak needs suit 3 to land; lower the danger check by landing first
            st.data.gauges["suit"] = 3
            play(st, "explore 0")  # black: -2 suit -> 1, no breach
            assert st.data.gauges["suit"] == 1 and st.data.gauges["health"] == 6
            continue
        play(st, "explore 0")
        assert st.data.gauges["suit"] == 1 and st.data.gauges["health"] == 5
        assert "suit_breach" in kinds(st)


def test_KYR_GAUGE_08_big_loss_breaches_once() -> None:
    """KYR-GAUGE-08: suit 2 losing 3 (a script `lose suit 3`) -> suit 1 and exactly one health lost."""
    from holotable.games.kyrum.gauges import lose
    from holotable.games.kyrum.rules import table

    st = arranged(gauges={"suit": 2, "health": 4}, planet_deck_top_first=QUIET_TOP)
    lose(table(st), "suit", 3, "test")
    assert st.data.gauges["suit"] == 1 and st.data.gauges["health"] == 3


def test_KYR_GAUGE_09_health_zero_defeat_T_KYR_10() -> None:
    """T-KYR-10: health 1 and ship 1, Dark Threat (ENC-03) white -> -2 HP -> defeat 'health' (KYR-END-01)."""
    st = arranged(gauges={"health": 1, "ship": 1}, slots=slots(10, 11, 12, 13),
                  planet_deck_top_first=[20, 22, 23, 25, 26, 27], encounter_deck_top_first=["ENC-03", "ENC-01"],
                  dice=[5, 2])
    play(st, "leave")
    assert st.data.result is not None and st.data.result["outcome"] == "defeat"
    assert st.data.result["reason"] == "health"


def test_KYR_GAUGE_10_ship_zero_defeat_and_11_no_trigger() -> None:
    """KYR-GAUGE-10: ship 0 is an immediate defeat. KYR-GAUGE-11: firepower/knowledge 0 trigger nothing."""
    from holotable.games.kyrum.gauges import lose
    from holotable.games.kyrum.rules import table

    st = arranged(gauges={"ship": 1, "firepower": 1, "knowledge": 1}, planet_deck_top_first=QUIET_TOP)
    tab = table(st)
    lose(tab, "firepower", 3, "t")
    lose(tab, "knowledge", 3, "t")
    assert st.data.result is None
    lose(tab, "ship", 1, "t")
    assert st.data.result is not None and st.data.result["reason"] == "ship"


def test_KYR_GAUGE_07_12_payments_return_to_supply() -> None:
    """KYR-GAUGE-07, KYR-GAUGE-12, KYR-COMP-03: crafting needs the element; spent cubes return: supply = 6 - held."""
    st = arranged(elements={"common": 2}, planet_deck_top_first=QUIET_TOP)
    play(st, "craft common fuel")
    v = st.view(0)
    assert v["supply"]["common"] == 5 and v["elements"]["common"] == 1
    with pytest.raises(IllegalActionError):
        st.apply("craft rare fuel")


def test_KYR_TLDP_01_02_free_actions_only_at_tldp() -> None:
    """KYR-TLDP-01/02, KYR-CRAFT-07 (assumed:KYR-AMB-07): while a script offer is pending, crafting, study,
    validation and leaving are refused with KYR-TLDP-02."""
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, elements={"common": 2}, dice=[4, 4],
                  planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0")
    assert st.view(0)["phase"] == "EXPLORATION"
    for action in ("craft common fuel", "leave", "validate", "explore 1"):
        with pytest.raises(IllegalActionError) as err:
            st.apply(action)
        assert err.value.rule == "KYR-TLDP-02"


def test_KYR_JOURNEY_02_03_new_journey_T_KYR_18() -> None:
    """T-KYR-18, KYR-JOURNEY-01: leaving 5 areas -> journey 2, new deck of 20 shuffled, area 1 revealed.
    KYR-JOURNEY-05 (assumed:KYR-AMB-05): encounter and discovery decks are not refreshed."""
    st = arranged(slots=slots(10, 11, 13, 15), planet_deck_top_first=[n for n in range(12, 30) if n not in (13, 15)],
                  encounter_deck_top_first=[])
    discoveries = list(st.data.discovery_deck)
    for _ in range(5):
        play(st, "leave")
    d = st.data
    assert d.journey == 2 and d.area == 1 and d.areas_revealed == 6
    assert len(d.planet_deck) == 16 and len(set(d.planet_deck + d.slot_planets)) == 20 and d.planet_discard == []
    assert d.discovery_deck == discoveries and d.encounter_deck == []
    assert "journey" in kinds(st)
    assert st.view(0)["journey_np"] == 3


def test_KYR_JOURNEY_04_end_of_journey_4_defeat_T_KYR_19() -> None:
    """T-KYR-19: journey 4, area 5, objectives unmet, LeaveArea -> defeat 'journeys'."""
    st = arranged(journey=4, area=5, planet_deck_top_first=[], encounter_deck_top_first=[])
    play(st, "leave")
    assert st.data.result is not None and st.data.result["reason"] == "journeys"
    assert st.data.result["outcome"] == "defeat"


def test_KYR_AREA_02_encounter_before_distance_T_KYR_14() -> None:
    """T-KYR-14, KYR-AREA-04: the top back has the alert mark: EncounterDrawn precedes the distance roll."""
    st = arranged(slots=slots(10, 11, 13, 15), planet_deck_top_first=[20, 22, 23, 25, 12, 27],
                  encounter_deck_top_first=["ENC-01", "ENC-02"], dice=[3, 3, 1, 2, 3, 4])
    play(st, "leave")
    k = kinds(st)
    assert k.index("encounter") < max(i for i, x in enumerate(k) if x == "dice" and i > k.index("encounter"))
    assert st.data.encounter_removed[-1] == "ENC-01" and st.data.slot_dice == [1, 2, 3, 4]
    assert st.view(0)["top_planet_back_alert"] is True


def test_KYR_AREA_03_no_check_after_fifth_area_T_KYR_15() -> None:
    """T-KYR-15 (assumed:KYR-AMB-06): revealing the 5th area empties the deck: no encounter check."""
    st = arranged(area=4, slots=slots(10, 11, 13, 15), planet_deck_top_first=[12, 14, 17, 19],
                  encounter_deck_top_first=["ENC-01"])
    play(st, "leave")
    assert st.data.planet_deck == [] and "encounter" not in kinds(st) and "alert" not in kinds(st)
    assert st.data.encounter_deck == ["ENC-01"]
