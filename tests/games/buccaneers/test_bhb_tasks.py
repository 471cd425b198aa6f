"""Pending work as typed tasks (``BHBData.tasks``, an engine ``TaskStack``): what is asked, the order of the
scoring steps behind a decision, and clones that share no pending work."""

from __future__ import annotations

from bhb_helpers import decide, play, scoring, selection

from holotable.games.buccaneers.decisions import ChooseGroup, UseEgg
from holotable.games.buccaneers.scoring import SCORING_TASKS

PILE3 = ["TM-CC-1", "TM-CC-2", "TM-CC-3"]
STEPS_AFTER_A = [{"task": name} for name in ("StepB", "StepC", "StepD", "StepE", "StepF", "StepG", "StepH",
                                              "EndRound")]


def test_a_relic_decision_waits_on_top_of_the_remaining_scoring_steps() -> None:
    """BHB-SCORE-00-01: the Egg's owner is asked in step A, with steps B-H and the round's end queued below."""
    st = scoring([["SHIP-07"], ["REL-EGG", "SHIP-08"], ["SHIP-09"]], PILE3, draw_top=["SHIP-14"])
    assert st.data.asked == UseEgg(1) and st.data.ask == ("egg", 1)
    assert st.full()["data"]["tasks"] == [{"task": "UseEgg", "seat": 1}, *STEPS_AFTER_A]
    decide(st, "keep egg")
    assert st.is_terminal() and not st.data.tasks and st.data.asked is None and st.data.ask == ("", -1)


def test_the_scoring_steps_run_in_the_rules_order() -> None:
    assert [type(t).__name__ for t in SCORING_TASKS] == ["StepA", "StepB", "StepC", "StepD", "StepE", "StepF",
                                                         "StepG", "StepH", "EndRound"]


def test_a_time_machine_part_asks_for_its_group_before_the_rest_of_step_2() -> None:
    """BHB-DEC-02, AMB-32: the group is asked once every card is face up, ahead of robots, triggers and the
    pass."""
    st = selection([["TM-QC-1", "SHIP-07", "SHIP-12"], ["SHIP-08", "SHIP-09", "TOY-1-2"],
                    ["SHIP-10", "SHIP-11", "SHIP-14"]],
                   tableaux=[[{"card": "TM-CC-1", "group": 1}], [], []])
    play(st, "TM-QC-1", "SHIP-08", "SHIP-10")
    assert st.data.asked == ChooseGroup(0, "TM-QC-1")
    assert [t["task"] for t in st.full()["data"]["tasks"]] == ["ChooseGroup", "Robots", "Triggers", "PassHands"]
    decide(st, "group 1")
    assert st.data.asked is None and not st.data.tasks and st.data.turn == 2


def test_a_clone_has_its_own_pending_work() -> None:
    """Answering a decision in a clone leaves the original's task stack and decision as they were."""
    st = scoring([["SHIP-07"], ["REL-EGG", "SHIP-08"], ["SHIP-09"]], PILE3, draw_top=["SHIP-14"])
    before = st.fingerprint()
    twin = st.clone()
    twin.apply("use egg", 1)
    assert twin.is_terminal() and not twin.data.tasks
    assert st.data.asked == UseEgg(1) and len(st.data.tasks) == 9 and st.fingerprint() == before
