"""The planner without the blind spots of issue 18 (spec §8): it uses the Thoth items it owns, takes a later
option when it is worth more, studies narrative discoveries, explores a die-5/6 planet when worth it, and
with C and I (game 12) crafts firepower from the uncommons I asks to keep. All on the demo pack."""

from __future__ import annotations

from collections import Counter
from typing import Any

from kyr_helpers import GAME, slots

from holotable.agents import make_agent
from holotable.agents.base import observe
from holotable.engine import derive_seed
from holotable.games.kyrum.campaign import new_campaign
from holotable.games.kyrum.pack import load_pack

PACK = load_pack("kyrum-demo")
#: Item references of the demo pack (``use tN`` names items by their place in the pack).
REF = {iid: f"t{i}" for i, iid in enumerate(PACK.item_order, start=1)}


def demo_state(number: int = 1, seed: int = 0, objectives: str | None = None, **arrangement: Any) -> Any:
    """Scheduled game ``number`` of a fresh demo campaign, at a quiet TLDP, then arranged; ``objectives``
    (``"C I"``) sets that game's objectives through the schedule setting, so a test does not depend on
    which letters the demo schedule gives that game."""
    camp = new_campaign(PACK, seed=0, partner=False)
    camp.next_game = number
    data = {f"schedule.{number}.objectives": objectives} if objectives else {}
    for s in range(seed, seed + 200):
        state = GAME.new_state(1, seed=s, campaign=camp.to_json(), data=data)
        if state.data.decision is None:
            state.arrange(arrangement)
            return state
    raise AssertionError("no quiet seed")


def acts(name: str, state: Any) -> str:
    return str(make_agent(name, GAME, seed=0).act(observe(state, 0)))


def old_acts(state: Any) -> str:
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[3])
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks.baselines.kyrum_planner_v1 import KyrumPlannerV1

    return str(KyrumPlannerV1(GAME, seed=0).act(observe(state, 0)))


QUIET: dict[str, Any] = {"planet_deck_top_first": [10, 11, 17, 23], "window_open": False}


def test_planner_takes_a_later_option_when_it_is_worth_more() -> None:
    """A.20.08 offers fuel 4 or ship +2: with a full tank and a dented hull the planner takes the hull
    plates (option 2), the heuristic the first option."""
    state = demo_state(gauges={"fuel": 16, "ship": 4}, slots=slots(20, 11, 17, 23, dice=(1, 2, 2, 2)), dice=[4, 4],
                       **QUIET)
    state.apply("explore 0")
    assert state.view(0)["decision"] == {"kind": "offer", "code": "A.20.08"}
    state.apply("read")
    assert state.view(0)["decision"]["kind"] == "choice"
    assert acts("heuristic", state) == "option 1"
    assert acts("planner", state) == "option 2"
    state.apply(acts("planner", state))
    assert state.data.gauges["ship"] == 6


def test_planner_takes_the_first_option_when_it_is_the_better_one() -> None:
    """The same script with an empty tank and a sound hull: fuel is worth more, so option 1."""
    state = demo_state(gauges={"fuel": 4, "ship": 6}, slots=slots(20, 11, 17, 23, dice=(1, 2, 2, 2)), dice=[4, 4],
                       **QUIET)
    state.apply("explore 0")
    state.apply("read")
    assert acts("planner", state) == "option 1"


def narrative() -> dict[str, Any]:
    """An open narrative discovery (a fresh copy: the game pays into its nested records)."""
    return {"nd_id": "ND-HERON", "name": "Heron Recorder", "cost": {"common": 3, "uncommon": 0, "rare": 0, "any": 0},
            "paid": {"common": 0, "uncommon": 0, "rare": 0, "any": 0},
            "waived": {"common": 0, "uncommon": 0, "rare": 0, "any": 0}, "on_complete": "A.10.81",
            "keep_after_study": False, "state": "active", "text": "Once studied, read A.10.81."}


def test_planner_studies_a_narrative_discovery_the_previous_planner_ignored() -> None:
    """With all six commons held (the supply is empty: a further common would be lost) and a narrative open,
    the planner pays it (KYR-DISC-09 reads its script when done); the previous planner never studied
    narratives."""
    state = demo_state(gauges={"fuel": 10}, elements={"common": 6, "uncommon": 0, "rare": 0}, narratives=[narrative()],
                       slots=slots(10, 11, 17, 23, dice=(3, 3, 3, 3)), **QUIET)
    assert "study n1 common 3" in {str(a) for a in state.legal_actions(0)}
    assert acts("planner", state) == "study n1 common 3"
    assert not old_acts(state).startswith("study n")
    state.apply("study n1 common 3")
    assert state.data.camp["narratives"][0]["state"] == "done"
    assert state.data.story and state.data.story[-1].code == "A.10.81"  # its completion script is read


def test_planner_pays_narratives_late_and_keeps_elements_for_the_objectives_early() -> None:
    """Three commons early in the game go to fuel and objectives; in the last areas they go to the narrative."""
    early = demo_state(gauges={"fuel": 10}, elements={"common": 3, "uncommon": 0, "rare": 0}, narratives=[narrative()],
                       slots=slots(10, 11, 17, 23, dice=(3, 3, 3, 3)), **QUIET)
    assert not acts("planner", early).startswith("study n")
    late = demo_state(gauges={"fuel": 10}, elements={"common": 3, "uncommon": 0, "rare": 0}, narratives=[narrative()],
                      journey=4, area=3, slots=slots(10, 11, 17, 23, dice=(3, 3, 3, 3)), **QUIET)
    assert acts("planner", late) == "study n1 common 3"


def test_planner_explores_a_die_6_planet_when_fuel_is_plenty_late_in_the_game() -> None:
    """Last area of the last journey, a full tank and only dice of 5 and 6 left: Idrune (three commons or a
    discovery) at 5 fuel is worth it; the previous planner left such areas unexplored."""
    state = demo_state(gauges={"fuel": 16}, journey=4, area=5, slots=slots(14, 20, 23, 10, dice=(5, 6, 6, 6)),
                       **QUIET)
    assert acts("planner", state) == "explore 0"
    assert old_acts(state) == "leave"


def test_planner_keeps_costly_planets_for_later_when_fuel_is_short() -> None:
    """Early in the game with 7 fuel the same area is left: the fuel is budgeted for the areas to come."""
    state = demo_state(gauges={"fuel": 7}, elements={"common": 0, "uncommon": 0, "rare": 0},
                       slots=slots(14, 20, 23, 10, dice=(5, 6, 6, 6)), **QUIET)
    assert acts("planner", state) == "leave"


def test_planner_uses_a_star_chart_before_a_costly_exploration() -> None:
    """T04 takes 2 off the declared exploration: used before exploring a 3-fuel planet, not a 1-fuel one."""
    state = demo_state(gauges={"fuel": 10}, items={"T04": 1}, slots=slots(14, 20, 23, 10, dice=(3, 6, 6, 6)), **QUIET)
    assert acts("planner", state) == f"use {REF['T04']}"
    state.apply(f"use {REF['T04']}")
    assert acts("planner", state) == "explore 0"
    state.apply("explore 0")
    assert state.data.gauges["fuel"] == 9
    cheap = demo_state(gauges={"fuel": 10}, items={"T04": 1}, slots=slots(14, 20, 23, 10, dice=(1, 6, 6, 6)), **QUIET)
    assert acts("planner", cheap) == "explore 0"


def test_planner_turns_a_poor_arrow_into_an_unread_script_with_the_tuner() -> None:
    """T05 after white 2 / black 5 on Oskarel (black: a discovery for 1 ship) makes a double 5: A.11.10, unread."""
    state = demo_state(gauges={"fuel": 10, "ship": 2}, items={"T05": 1}, dice=[2, 5],
                       slots=slots(11, 10, 17, 23, dice=(1, 6, 6, 6)), **QUIET)
    state.apply("explore 0")
    assert state.view(0)["decision"]["kind"] == "item_timing"
    assert acts("planner", state) == f"use {REF['T05']}"
    assert acts("heuristic", state) == "skip"


def test_planner_chooses_an_unread_script_with_the_dial() -> None:
    """A double 2 on Rymios whose script the campaign has read: T06 turns it to an unread one."""
    camp = new_campaign(PACK, seed=0, partner=False)
    camp.main_seen.append("A.10.04")
    state = None
    for s in range(200):
        state = GAME.new_state(1, seed=s, campaign=camp.to_json())
        if state.data.decision is None:
            break
    assert state is not None
    state.arrange({"gauges": {"fuel": 10}, "items": {"T06": 1}, "dice": [2, 2], "slots": slots(10, 11, 17, 23),
                   **QUIET})
    state.apply("explore 0")
    pick = acts("planner", state)
    assert pick.startswith(f"use {REF['T06']} ")
    assert f"A.10.{2 * int(pick.split()[2]):02d}" not in camp.main_seen


def test_planner_waives_the_costliest_element_with_the_field_lab() -> None:
    """T07 waives one owed element of a study: the rare of Oskarel's... any held card, the rarest owed first."""
    rare_card = next(d for d in PACK.discovery_order if PACK.discoveries[d].cost.get("rare", 0) > 0)
    state = demo_state(gauges={"fuel": 10}, items={"T07": 1}, inventory=[{"id": rare_card}],
                       slots=slots(10, 11, 17, 23), **QUIET)
    ref = f"d{PACK.discovery_order.index(rare_card) + 1}"
    assert acts("planner", state) == f"use {REF['T07']} {ref} rare"


def test_planner_uses_every_thoth_item_it_owns_over_a_few_games() -> None:
    """With T04-T07 owned and half the booklet read (doubles 1-3), twenty games of scheduled game 1 use each
    of them (the previous planner used none)."""
    camp = new_campaign(PACK, seed=3, partner=False)
    camp.main_seen = [c for c in PACK.main_codes() if c.endswith((".02", ".04", ".06"))]
    camp.items = {iid: {"owned": 3 if iid == "T04" else 1, "consumed": 0} for iid in ("T04", "T05", "T06", "T07")}
    config = GAME.spec.make_config(1, campaign=camp.to_json())
    used: Counter[str] = Counter()
    for g in range(20):
        state = GAME.new_state(1, seed=derive_seed(3, g), campaign=config["campaign"])
        bot = make_agent("planner", GAME, seed=g)
        while not state.is_terminal():
            action = bot.act(observe(state, 0))
            if str(action).startswith("use "):
                used[str(action).split()[1]] += 1
            state.apply(action, 0)
    assert all(used[REF[iid]] > 0 for iid in ("T04", "T05", "T06", "T07")), used


def test_KYR_OBJ_15_planner_crafts_firepower_from_the_uncommons_objective_i_keeps() -> None:
    """Game 12 (C firepower 6, I six uncommons): the previous planner kept all six uncommons, so C could never
    hold and game 12 was never won; the planner crafts firepower (both objectives must hold at validation)."""
    state = demo_state(12, objectives="C I", gauges={"fuel": 10, "firepower": 3},
                       elements={"common": 0, "uncommon": 6, "rare": 0},
                       slots=slots(10, 11, 17, 23), **QUIET)
    assert "validate" not in {str(a) for a in state.legal_actions(0)}
    assert acts("planner", state) == "craft uncommon firepower"
    assert old_acts(state) != "craft uncommon firepower"


def test_planner_is_deterministic_and_uses_no_game_chance() -> None:
    """The same seed gives the same game; acting does not move the game's RNG (spec §4.4)."""
    def play(seed: int) -> str:
        state = GAME.new_state(1, seed=seed)
        bot = make_agent("planner", GAME, seed=seed)
        while not state.is_terminal():
            before = state.rng.fingerprint() if hasattr(state, "rng") else None
            action = bot.act(observe(state, 0))
            assert before is None or state.rng.fingerprint() == before
            state.apply(action, 0)
        return str(state.fingerprint())

    assert [play(s) for s in range(3)] == [play(s) for s in range(3)]


def test_planner_spends_a_reserve_the_areas_left_cannot_fill() -> None:
    """Game 12 with C held but one uncommon of the six I asks for: early on the planner keeps it (a study no
    objective needs is optional); in the last area, five short, I is lost and the uncommon goes to a study."""
    arrangement: dict[str, Any] = {"gauges": {"fuel": 10, "firepower": 6}, "inventory": [{"id": "D02"}],
                                   "elements": {"common": 0, "uncommon": 1, "rare": 0},
                                   "slots": slots(10, 11, 17, 23, dice=(3, 3, 3, 3)), **QUIET}
    early = demo_state(12, objectives="C I", **arrangement)
    assert not acts("planner", early).startswith("study")
    late = demo_state(12, objectives="C I", journey=4, area=5, **arrangement)
    assert acts("planner", late) == "study d2 uncommon 1"


def test_planner_burns_a_spare_rare_for_fuel_unless_studies_need_it() -> None:
    """Game 5 asks E and J (six commons and two uncommons): with 3 fuel and the six commons held, the planner
    crafts fuel from its rare where the heuristic spends a common; in game 1 (F: three studied discoveries)
    it keeps the rare for the studies at 3 fuel, and only below 2 fuel does it go."""
    quiet = {"slots": slots(10, 11, 17, 23, dice=(3, 3, 3, 3)), **QUIET}
    j = demo_state(5, objectives="E J", gauges={"fuel": 3}, elements={"common": 6, "uncommon": 2, "rare": 1}, **quiet)
    assert acts("planner", j) == "craft rare fuel"
    assert acts("heuristic", j) == "craft common fuel"
    plain = demo_state(1, gauges={"fuel": 3}, elements={"common": 0, "uncommon": 0, "rare": 1}, **quiet)
    assert acts("planner", plain) != "craft rare fuel"
    empty = demo_state(1, gauges={"fuel": 1}, elements={"common": 0, "uncommon": 0, "rare": 1}, **quiet)
    assert acts("planner", empty) == "craft rare fuel"
