"""Kyrum's pending work as typed tasks (KYR-TLDP-01, spec §4.2): the decision on top, values never
edited in place, clones independent, and the saved form (``full()``) the one of the old stack of dicts."""

from __future__ import annotations

from typing import Any

from kyr_helpers import QUIET_TOP, arranged, play

from holotable.games.kyrum import script
from holotable.games.kyrum.decisions import Choice
from holotable.games.kyrum.rules import table

OPTIONS: list[dict[str, Any]] = [
    {"label": "Take", "do": [{"op": "gain", "res": "knowledge", "n": 2}]},
    {"label": "Leave it", "do": []},
]
OPS: list[dict[str, Any]] = [
    {"op": "gain", "res": "knowledge", "n": 1},
    {"op": "choice", "prompt": "Take it?", "options": OPTIONS},
    {"op": "gain", "res": "knowledge", "n": 1},
]


def at_choice() -> Any:
    st = arranged(gauges={"knowledge": 0}, planet_deck_top_first=QUIET_TOP)
    tab = table(st)
    script.push_ops(tab, OPS, "test")
    script.run(tab)
    return st


def test_a_choice_waits_on_top_of_its_frame() -> None:
    st = at_choice()
    tasks = list(st.data.tasks)  # top first
    assert st.data.decision is tasks[0]
    assert tasks[0] == Choice("Take it?", ("Take", "Leave it"), "test", False, OPTIONS)
    frame = tasks[1]
    assert isinstance(frame, script.Ops) and (frame.src, frame.i, frame.ops) == ("test", 2, OPS)
    assert st.data.gauges["knowledge"] == 1


def test_the_saved_form_is_the_stack_of_dicts_it_replaced() -> None:
    data = at_choice().full()["data"]
    assert data["todo"] == [{"t": "ops", "src": "test", "i": 2, "eog": False}]
    assert data["decision"] == {"kind": "choice", "prompt": "Take it?", "labels": ["Take", "Leave it"],
                                "src": "test", "eog": False}
    assert list(data)[-1] == "todo"  # the keys keep their order (replays and renderings show it)


def test_answering_a_clone_leaves_the_original_as_it_was() -> None:
    st = at_choice()
    before = list(st.data.tasks)
    other = st.clone()
    play(other, "option 1")
    assert other.data.decision is None and other.data.gauges["knowledge"] == 4
    assert list(st.data.tasks) == before and before[1].i == 2  # frames are replaced, never advanced in place
    assert st.data.decision is not None and st.data.gauges["knowledge"] == 1


def test_the_frame_runs_on_after_the_chosen_option() -> None:
    st = play(at_choice(), "option 2")
    assert st.data.gauges["knowledge"] == 2 and not st.data.tasks
    assert [e.text for e in st.events or [] if e.kind == "option"] == ["You chose 'Leave it'"]
