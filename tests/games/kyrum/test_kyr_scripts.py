"""Scripts and the effect language, discoveries and narrative discoveries.

KYR-SCRIPT, KYR-DISC, KYR-COMP-06, KYR-TLDP-02 and the §6.6 interpreter (resumable frames).
"""

from __future__ import annotations

from typing import Any

import pytest
from kyr_helpers import QUIET_TOP, arranged, kinds, play, slots, texts

from holotable.engine import IllegalActionError
from holotable.games.kyrum import discoveries, encounters, predicates, script
from holotable.games.kyrum.rules import table


def oskarel(double: int, **arr: object) -> object:
    """Oskarel (11) in slot 0 with a double of ``double`` queued."""
    base = {"slots": slots(11, 10, 12, 13), "gauges": {"fuel": 10}, "dice": [double, double],
            "planet_deck_top_first": QUIET_TOP}
    base.update(arr)
    return arranged(**base)  # type: ignore[arg-type]


def test_KYR_SCRIPT_02_choice_is_an_action_and_resumes() -> None:
    """KYR-SCRIPT-02: the program stops at a choice; `option 2` runs that option, then the program resumes."""
    st = oskarel(4)
    play(st, "explore 0", "read")  # A.11.08 in the test pack is a roll; use A.10.08's choice instead
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[4, 4], planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0", "read")
    assert st.view(0)["phase"] == "SCRIPT" and texts(st) == ["option 1", "option 2"]
    play(st, "option 2")
    assert st.data.elements["uncommon"] == 2 and st.data.decision is None


def test_KYR_TLDP_02_fuel_crafts_during_choice_AMB_42() -> None:
    """KYR-TLDP-02, KYR-CRAFT-07 (assumed:KYR-AMB-42): option 'pay 3 fuel' is disabled at fuel 1 but fuel
    crafts are legal while the choice is pending, and enable it."""
    st = oskarel(1, gauges={"fuel": 3}, slots=slots(11, 10, 12, 13, dice=(2, 2, 3, 4)), elements={"common": 1})
    play(st, "explore 0", "read")
    assert st.data.gauges["fuel"] == 1
    assert "option 1" not in texts(st) and "craft common fuel" in texts(st)
    assert not any(t.startswith("craft common reroll") for t in texts(st))
    play(st, "craft common fuel")
    assert "option 1" in texts(st)
    play(st, "option 1")
    assert st.data.gauges["fuel"] == 0 and st.data.elements["rare"] == 1


def test_KYR_AMB_42_choice_skipped_when_nothing_can_enable() -> None:
    """KYR-SCRIPT-02 (assumed:KYR-AMB-42): no option affordable and no fuel craft could help -> skipped."""
    st = oskarel(1, gauges={"fuel": 2}, slots=slots(11, 10, 12, 13, dice=(1, 2, 3, 4)))
    play(st, "explore 0", "read")
    assert st.data.decision is None and "choice_skipped" in kinds(st) and st.data.result is None


def test_KYR_SCRIPT_03_read_again_choose_differently() -> None:
    """KYR-SCRIPT-03: A.10.08 read twice; first 'strip' (+2 U), then 'keep' (narrative)."""
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[4, 4], planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0", "read", "option 2")
    st.data.slot_explored[0] = False
    st.script_chance({"die": [4, 4]})
    play(st, "explore 0", "read", "option 1")
    assert st.data.elements["uncommon"] == 2
    assert [nd["nd_id"] for nd in st.data.camp["narratives"]] == ["ND-HERON"]
    assert st.data.camp["scripts_seen"].count("A.10.08") == 1


def test_KYR_SCRIPT_04_defeat_stops_the_script() -> None:
    """KYR-SCRIPT-04 (assumed:KYR-AMB-33): A.11.04 sets health 0 (a lowering set is a loss) -> defeat; its
    following 'gain knowledge 5' never runs."""
    st = oskarel(2)
    play(st, "explore 0", "read")
    assert st.data.result is not None and st.data.result["reason"] == "health"
    assert st.data.gauges["knowledge"] == 0


def test_KYR_SCRIPT_05_only_doubles_may_be_refused() -> None:
    """KYR-SCRIPT-05 (assumed:KYR-AMB-16): a `read` op (A.11.06 -> A.11.81) is read without an offer."""
    st = oskarel(3)
    play(st, "explore 0", "read")
    assert "A.11.81" in st.data.camp["scripts_seen"] and st.data.gauges["knowledge"] == 1
    assert kinds(st).count("script_offered") == 1 and st.data.script_np == 1


def test_KYR_SCRIPT_06_glossary_links_unlock() -> None:
    """KYR-SCRIPT-06: reading A.10.08 (text links [[jaakub|...]]) unlocks 'jaakub'; `glossary` ops unlock too."""
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[4, 4], planet_deck_top_first=QUIET_TOP)
    assert st.view(0)["glossary_unlocked"] == []
    play(st, "explore 0", "read")
    assert st.view(0)["glossary_unlocked"] == ["jaakub"]


def test_KYR_SCRIPT_07_journal_op_and_notes() -> None:
    """KYR-SCRIPT-07: the campaign journal takes free notes and `journal` ops."""
    from kyr_helpers import campaign

    from holotable.games.kyrum.campaign import add_journal_note

    camp = add_journal_note(campaign(), "Rymios looks rich.")
    assert camp.journal == [{"game": 1, "text": "Rymios looks rich."}]
    st = arranged(planet_deck_top_first=QUIET_TOP)
    script.do_op(table(st), {"op": "journal", "text": "First entry."}, script.Ops("t", ()))
    assert st.data.camp["journal"][-1] == {"game": 1, "text": "First entry."}


def test_effect_language_roll_discount_flag_set() -> None:
    """§6.6 ops: `roll` d6 >= 4 -> +1 R, `travel_discount`; KYR-DIST-08 then applies to the next exploration."""
    st = oskarel(4, dice=[4, 4, 5])
    play(st, "explore 0", "read")
    assert st.data.elements["rare"] == 1 and st.data.discounts == [[2, 1]]
    st = oskarel(4, dice=[4, 4, 2])
    play(st, "explore 0", "read")
    assert st.data.elements["rare"] == 0 and st.data.gauges["suit"] == 5


def test_effect_language_predicates() -> None:
    """§6.6 predicates: res/peak, flag, discoveries, distinct types, script_seen, narrative, game, journey, item,
    partner, all/any/not."""
    st = arranged(gauges={"firepower": 2}, inventory=[{"id": "D01", "studied": True}, {"id": "D04", "studied": True},
                                                      {"id": "D02"}], flags={"x": 2}, items={"T05": 1},
                  planet_deck_top_first=QUIET_TOP)
    t = table(st)

    def holds(p: dict[str, Any]) -> bool:
        return predicates.holds(t, p)

    st.data.peaks["firepower"] = 5
    assert holds({"res": "firepower", "cmp": ">=", "value": 5, "check": "peak"})
    assert not holds({"res": "firepower", "cmp": ">=", "value": 5})
    assert holds({"flag": "x", "cmp": "==", "value": 2}) and holds({"flag": "y", "cmp": "==", "value": 0})
    assert holds({"discoveries": {"studied": True, "type": "plant"}, "cmp": "==", "value": 1})
    assert holds({"discoveries": {}, "cmp": "==", "value": 3})
    assert holds({"distinct_studied_types": {"cmp": "==", "value": 2}})
    assert not holds({"script_seen": "A.10.08"})
    assert holds({"game": {"cmp": "==", "value": 1}}) and holds({"journey": {"cmp": "<", "value": 2}})
    assert holds({"item": "T05"}) and not holds({"item": "T06"})
    assert holds({"partner": False}) and holds({"not": {"partner": True}})
    assert holds({"all": [{"true": True}, {"any": [{"true": False}, {"item": "T05"}]}]})


def test_KYR_DISC_01_draw_and_empty_deck() -> None:
    """KYR-DISC-01 (assumed:KYR-AMB-17): a draw moves the top card, unstudied; an empty deck draws nothing."""
    st = arranged(discovery_deck_top_first=["D07", "D03"], planet_deck_top_first=QUIET_TOP)
    t = table(st)
    discoveries.draw_discovery(t)
    assert st.data.inventory == [{"id": "D07", "paid": {"common": 0, "uncommon": 0, "rare": 0},
                                  "waived": {"common": 0, "uncommon": 0, "rare": 0}, "studied": False}]
    st.data.discovery_deck = []
    discoveries.draw_discovery(t)
    assert len(st.data.inventory) == 1


def test_KYR_DISC_03_04_study_in_payments_T_KYR_25() -> None:
    """T-KYR-25, KYR-DISC-03, KYR-DISC-04, KYR-DISC-02 (assumed:KYR-AMB-41): D01 (2 C): pay 1 C, leave, pay 1 C ->
    studied, +2 knowledge."""
    st = arranged(inventory=[{"id": "D01"}], elements={"common": 2}, planet_deck_top_first=[*QUIET_TOP, 26, 27],
                  encounter_deck_top_first=[])
    assert "study d1 common 2" in texts(st) and "study d1 common 3" not in texts(st)
    play(st, "study d1 common 1")
    assert st.data.inventory[0]["paid"]["common"] == 1 and not st.data.inventory[0]["studied"]
    play(st, "leave", "study d1 common 1")
    assert st.data.inventory[0]["studied"] and st.data.gauges["knowledge"] == 2
    assert not any(t.startswith("study d1") for t in texts(st))
    with pytest.raises(IllegalActionError):
        st.apply("study d1 common 1")


def test_KYR_DISC_12_any_component_and_narrative_instalments() -> None:
    """KYR-DISC-08/12 (assumed:KYR-AMB-23): cost {uncommon 1, any 2}: paying 2 U credits 1 U + 1 any."""
    nd = {"nd_id": "ND-T", "name": "T", "cost": {"common": 0, "uncommon": 1, "rare": 0, "any": 2},
          "paid": {"common": 0, "uncommon": 0, "rare": 0, "any": 0}, "waived": {"common": 0, "uncommon": 0, "rare": 0,
                                                                                  "any": 0},
          "on_complete": "A.11.81", "keep_after_study": False, "state": "active", "text": ""}
    st = arranged(narratives=[nd], elements={"uncommon": 2, "rare": 1}, planet_deck_top_first=QUIET_TOP)
    assert "study n1 uncommon 2" in texts(st) and "study n1 common 1" not in texts(st)
    play(st, "study n1 uncommon 2")
    assert st.data.camp["narratives"][0]["paid"] == {"common": 0, "uncommon": 1, "rare": 0, "any": 1}
    play(st, "study n1 rare 1")
    assert st.data.camp["narratives"][0]["state"] == "done"
    assert "A.11.81" in st.data.camp["scripts_seen"] and st.data.gauges["knowledge"] == 1


def test_KYR_DISC_07_09_narrative_created_and_completed() -> None:
    """KYR-DISC-07, KYR-COMP-06: A.10.08 'keep' creates ND-HERON (3 C, A.10.81); KYR-DISC-09: paying the last C
    reads A.10.81 at once (assumed:KYR-AMB-24: knowledge only from the script), then it is set aside."""
    st = arranged(slots=slots(10, 11, 12, 13), gauges={"fuel": 10}, dice=[4, 4], elements={"common": 3},
                  planet_deck_top_first=QUIET_TOP)
    play(st, "explore 0", "read", "option 1")
    (nd,) = st.data.camp["narratives"]
    assert nd["cost"] == {"common": 3, "uncommon": 0, "rare": 0, "any": 0} and nd["on_complete"] == "A.10.81"
    play(st, "study n1 common 2")
    assert "A.10.81" not in st.data.camp["scripts_seen"]
    play(st, "study n1 common 1")
    assert st.data.camp["scripts_seen"][-1] == "A.10.81" and st.data.gauges["knowledge"] == 1 + 2
    assert nd["nd_id"] == "ND-HERON" and st.data.camp["narratives"][0]["state"] == "done"
    assert not any(t.startswith("study n1") for t in texts(st))


def test_KYR_DISC_11_OBJ_13_narratives_neither_traded_nor_counted() -> None:
    """KYR-DISC-11, KYR-OBJ-13 (assumed:KYR-AMB-18/36): a done narrative is no studied discovery for F, and the
    trader offers nothing for narratives."""
    nd = {"nd_id": "ND-T", "name": "T", "cost": {"common": 1, "uncommon": 0, "rare": 0, "any": 0},
          "paid": {"common": 1, "uncommon": 0, "rare": 0, "any": 0},
          "waived": {"common": 0, "uncommon": 0, "rare": 0, "any": 0}, "on_complete": "A.11.81",
          "keep_after_study": True, "state": "done", "text": ""}
    st = arranged(narratives=[nd], planet_deck_top_first=QUIET_TOP)
    t = table(st)
    assert predicates.holds(t, {"discoveries": {"studied": True}, "cmp": "==", "value": 0})
    assert encounters.trades(t) == []


def test_discard_discovery_choice_decision() -> None:
    """§6.6 `discard_discovery` with `which: choice` asks the player (A.11.10 in the test pack)."""
    st = oskarel(5, inventory=[{"id": "D01"}, {"id": "D02", "studied": True}])
    play(st, "explore 0", "read")
    assert texts(st) == ["discard d1", "discard d2"]
    play(st, "discard d2")
    assert [c["id"] for c in st.data.inventory] == ["D01"] and "D02" in st.data.discovery_discard
    assert st.data.gauges["knowledge"] == 1


def test_encounter_op_inside_a_script() -> None:
    """§6.6 `encounter`: A.11.12 resolves one encounter (a trader decision) and then the script continues."""
    st = oskarel(6, encounter_deck_top_first=["ENC-09"], inventory=[{"id": "D01"}])
    play(st, "explore 0", "read")
    assert st.view(0)["phase"] == "TRADER"
    play(st, "pass")
    assert st.data.gauges["knowledge"] == 1 and st.data.encounter_removed[-1] == "ENC-09"


def test_KYR_TLDP_02_choice_recomputed_after_each_fuel_craft() -> None:
    """KYR-TLDP-02 (assumed:KYR-AMB-42): an option costing 5 fuel + 1 rare at fuel 0 with 1 rare: crafting the rare
    into fuel is legal, but then nothing can ever be taken, so the choice is skipped (never stuck)."""
    st = arranged(gauges={"fuel": 0}, elements={"rare": 1}, planet_deck_top_first=QUIET_TOP)
    t = table(st)
    options = [{"label": "Costly", "cost": {"fuel": 5, "rare": 1}, "do": [{"op": "gain", "res": "knowledge", "n": 1}]}]
    script.push_ops(t, [{"op": "choice", "prompt": "Pay?", "options": options}], "test")
    script.run(t)
    assert st.data.decision is not None and texts(st) == ["craft rare fuel"]
    play(st, "craft rare fuel")
    assert st.data.decision is None and "choice_skipped" in kinds(st) and st.data.gauges["fuel"] == 6


def test_interpreter_resumes_from_a_save_mid_choice() -> None:
    """Spec §4.2: a match saved while a script choice is pending reloads to the same choice, then continues."""
    from kyr_helpers import GAME, MINI

    from holotable.engine import Match

    # Arranged positions cannot be saved as a Match: find a seeded game whose first exploration reaches a choice.
    for seed in range(400):
        fresh_st = GAME.new_state(1, seed=seed, pack=MINI)
        legal = [str(a) for a in fresh_st.legal_actions()]
        path = [a for a in legal if a.startswith("explore")]
        if not path:
            continue
        probe = fresh_st.clone()
        probe.apply(path[0])
        if probe.data.decision and probe.data.decision.kind == "offer":
            probe.apply("read")
            if probe.data.decision and probe.data.decision.kind == "choice":
                match = Match(GAME, fresh_st.config, seed, [(0, path[0]), (0, "read")])
                loaded = Match.from_json(match.to_json())
                assert loaded.state.full() == probe.full()
                assert [str(a) for a in loaded.state.legal_actions()] == [str(a) for a in probe.legal_actions()]
                return
    raise AssertionError("no seed reached a script choice")  # pragma: no cover
