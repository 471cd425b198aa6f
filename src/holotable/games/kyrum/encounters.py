"""Encounters (KYR-ENC): danger cards, the trader and the Black Hole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from . import discoveries, gauges, script, story
from .decisions import EncounterRoll, Trader
from .tasks import KyrumTask, Stack

if TYPE_CHECKING:
    from .mechanics import Table


@dataclass(frozen=True, slots=True)
class Encounter(KyrumTask):
    """Draw and resolve the top encounter card."""

    t: ClassVar[str] = "encounter"

    def run(self, tab: Table, stack: Stack) -> None:
        encounter(tab)


@dataclass(frozen=True, slots=True)
class EndEncounter(KyrumTask):
    """The encounter's effects are over: its card is removed from the game."""

    t: ClassVar[str] = "end_encounter"

    def run(self, tab: Table, stack: Stack) -> None:
        d = tab.d
        if d.encounter_in_play is not None:
            d.encounter_removed.append(d.encounter_in_play)
            d.encounter_in_play = None


def encounter(tab: Table) -> None:
    d = tab.d
    if not d.encounter_deck:
        return
    eid = d.encounter_deck.pop(0)
    tab.reveal()
    d.encounter_in_play = eid
    enc = tab.pack.encounters[eid]
    tab.emit("encounter", f"Encounter: {enc.name}", id=eid)
    story.open_page(d, story.Page("encounter", eid, enc.name, CARD_TEXT.get(enc.kind, "")))
    d.tasks.push(EndEncounter())
    if enc.kind == "danger":
        if tab.opt.get("craft_before_encounter_roll"):
            d.tasks.push(EncounterRoll(eid))
        else:
            danger_roll(tab)
    elif enc.kind == "trader":
        if trades(tab):
            d.tasks.push(Trader())
        else:
            tab.emit("trader_nothing", "Nothing to trade")
            story.note(d, eid, "you have nothing the trader wants")
    else:
        script.read_script(tab, tab.pack.rules["black_hole_script"], eog=False)  # KYR-ENC-09


#: What an encounter card says, by kind (the cards carry icons, not prose).
CARD_TEXT = {
    "trader": "The Itinerant Trader offers one trade of discovery cards for elements.",
    "black_hole": "The Black Hole: read its script.",
}


def danger_roll(tab: Table) -> None:
    d = tab.d
    assert d.encounter_in_play is not None
    enc = tab.pack.encounters[d.encounter_in_play]
    white, black = gauges.die(tab), gauges.die(tab)
    tab.emit("dice", f"Encounter dice: white {white}, black {black}", dice_kind="encounter", values=[white, black])
    shown: dict[str, object] = {"white": white, "black": black, "arrow": None, "gauge": None, "value": None,
                                "threshold": None}
    if white == black:  # KYR-ENC-03, KYR-AMB-40
        tab.emit("encounter_cancelled", f"{enc.name} is cancelled by a double")
        story.set_check(d, enc.id, {**shown, "result": "cancelled"})
        return
    colour = "black" if black > white else "white"
    arrow = enc.black if black > white else enc.white
    assert arrow is not None
    check = arrow.get("check")
    shown["arrow"] = colour
    if check is not None:
        shown.update(gauge=check["res"], value=gauges.value(tab, check["res"]), threshold=check["lt"])
    if check is None or gauges.value(tab, check["res"]) < check["lt"]:  # KYR-ENC-04 strictly less
        story.set_check(d, enc.id, {**shown, "result": "failed" if check is not None else "no check"})
        script.push_ops(tab, arrow["effects"], f"{enc.id}/{colour}")
    else:
        tab.emit("encounter_passed", f"{enc.name}: check passed, no effect")
        story.set_check(d, enc.id, {**shown, "result": "passed"})


def roll_now(tab: Table) -> None:
    """The player rolls the waiting danger card's dice (KYR-AMB-07)."""
    tab.d.tasks.pop()  # the encounter-roll decision
    danger_roll(tab)
    script.run(tab)


def trades(tab: Table) -> list[tuple[str, tuple[str, ...]]]:
    """Every legal trade (KYR-ENC-07/08, KYR-AMB-18) as (id, discovery refs)."""
    order = tab.pack.discovery_order
    studied = [f"d{order.index(c['id']) + 1}" for c in tab.d.inventory if c["studied"]]
    unstudied = [f"d{order.index(c['id']) + 1}" for c in tab.d.inventory if not c["studied"]]
    out: list[tuple[str, tuple[str, ...]]] = []
    for t in tab.pack.rules["trader"]:
        ((kind, n),) = t["give"].items()
        pool = sorted(studied if kind == "studied" else unstudied, key=lambda r: int(r[1:]))
        if n == 1:
            out += [(t["id"], (r,)) for r in pool]
        else:
            out += [(t["id"], (a, b)) for i, a in enumerate(pool) for b in pool[i + 1:]]
    return out


def trade(tab: Table, tid: str, refs: tuple[str, ...]) -> None:
    deal = next(t for t in tab.pack.rules["trader"] if t["id"] == tid)
    with story.recording(tab, tab.d.encounter_in_play or ""):
        for ref in refs:
            discoveries.remove_discovery(tab, discoveries.card_of(tab, ref)["id"], "trade")
        for el, n in deal["get"].items():
            gauges.gain(tab, el, n, f"trade {tid.upper()}")
    tab.emit("traded", f"Trade {tid.upper()} made")
    tab.d.tasks.pop()  # the trader decision
    script.run(tab)


def pass_trade(tab: Table) -> None:
    tab.d.tasks.pop()  # the trader decision
    tab.emit("trader_pass", "No trade")
    story.note(tab.d, tab.d.encounter_in_play or "", "no trade")
    script.run(tab)
