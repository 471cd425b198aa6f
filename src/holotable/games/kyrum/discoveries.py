"""Discovery cards and narrative discoveries (KYR-DISC): drawing, discarding, study and waivers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from . import card_text, gauges, predicates, script, story, words
from .decisions import Discard
from .pack import ELEMENTS
from .tasks import KyrumTask, Stack

if TYPE_CHECKING:
    from .mechanics import Table


@dataclass(frozen=True, slots=True)
class NarrativeRead(KyrumTask):
    """A narrative discovery was completed: read its script (KYR-DISC-09)."""

    t: ClassVar[str] = "narrative_read"
    code: str

    def run(self, tab: Table, stack: Stack) -> None:
        script.read_script(tab, self.code, eog=False)


def draw_discovery(tab: Table) -> None:
    d = tab.d
    if not d.discovery_deck:
        tab.emit("discovery_none", "The discovery deck is empty: nothing is drawn")  # KYR-AMB-17
        return
    did = d.discovery_deck.pop(0)
    tab.reveal()
    zero = dict.fromkeys(ELEMENTS, 0)
    d.inventory.append({"id": did, "paid": dict(zero), "waived": dict(zero), "studied": False})
    tab.emit("discovery", f"Drew the discovery card {tab.pack.discoveries[did].name}", id=did)


def discard_discovery(tab: Table, op: Mapping[str, Any], src: str) -> None:
    n = op.get("n", 1)
    flt = {"studied": op.get("studied")}
    if op["which"] == "random":
        for _ in range(n):
            cands = predicates.discoveries_matching(tab, flt)
            if not cands:
                return
            remove_discovery(tab, gauges.random_discovery(tab, cands), src)
    elif predicates.discoveries_matching(tab, flt):
        tab.d.tasks.push(Discard(n, op.get("studied"), src))


def remove_discovery(tab: Table, did: str, cause: str) -> None:
    d = tab.d
    d.inventory = [c for c in d.inventory if c["id"] != did]
    d.discovery_discard.append(did)
    why = words.source(tab.pack, cause)
    tab.emit("discovery_discarded", f"Discarded {tab.pack.discoveries[did].name} ({why})", id=did)


def pick_discard(tab: Table, did: str) -> None:
    stack = tab.d.tasks
    dec = stack.top
    assert isinstance(dec, Discard)
    with story.recording(tab, dec.src):  # the script's page says which card went
        remove_discovery(tab, did, dec.src)
    left = dec.left - 1
    if left <= 0 or not predicates.discoveries_matching(tab, {"studied": dec.studied}):
        stack.pop()
    else:
        stack.replace_top(Discard(left, dec.studied, dec.src))
    script.run(tab)


def add_narrative(tab: Table, op: Mapping[str, Any]) -> None:
    nars = tab.d.camp["narratives"]
    same = [nd for nd in nars if nd["nd_id"] == op["nd_id"]]
    if any(nd["state"] == "active" for nd in same):
        return
    if any(nd["state"] == "done" for nd in same) and not op.get("repeatable", False):
        return
    zero = dict.fromkeys((*ELEMENTS, "any"), 0)
    cost = {**zero, **op["cost"]}
    nars.append({"nd_id": op["nd_id"], "name": op["name"], "cost": cost, "paid": dict(zero),
                 "waived": dict(zero), "on_complete": op["on_complete"],
                 "keep_after_study": bool(op.get("keep_after_study", False)), "state": "active",
                 "text": op.get("text", "")})
    tab.emit("narrative_added", f"A new narrative discovery: {op['name']}", nd_id=op["nd_id"])


def active_narratives(tab: Table) -> list[dict[str, Any]]:
    return [nd for nd in tab.d.camp["narratives"] if nd["state"] == "active"]


def owed(card: Mapping[str, Any], cost: Mapping[str, int], key: str) -> int:
    return int(cost.get(key, 0)) - int(card["paid"].get(key, 0)) - int(card["waived"].get(key, 0))


def payable(card: Mapping[str, Any], cost: Mapping[str, int], el: str) -> int:
    """How many elements of ``el`` can go into this card now (KYR-DISC-03/12)."""
    return owed(card, cost, el) + (owed(card, cost, "any") if "any" in cost else 0)


def credit(card: dict[str, Any], cost: Mapping[str, int], el: str, n: int, field: str) -> None:
    own = min(n, owed(card, cost, el))
    card[field][el] = card[field].get(el, 0) + own
    if n > own:
        card[field]["any"] = card[field].get("any", 0) + n - own


def study(tab: Table, ref: str, el: str, n: int) -> None:
    if ref.startswith("d"):
        card = card_of(tab, ref)
        disc = tab.pack.discoveries[card["id"]]
        gauges.pay(tab, el, n, f"study {disc.name}")
        credit(card, disc.cost, el, n, "paid")
        tab.emit("study", f"Study {disc.name}: {card_text.amount(el, n)} paid", id=disc.id)
        finish_study_if_done(tab, card, disc.cost)
    else:
        nd = narrative_of(tab, ref)
        gauges.pay(tab, el, n, f"study {nd['name']}")
        credit(nd, nd["cost"], el, n, "paid")
        tab.emit("study", f"Study {nd['name']}: {card_text.amount(el, n)} paid", nd_id=nd["nd_id"])
        finish_study_if_done(tab, nd, nd["cost"])
    script.run(tab)


def finish_study_if_done(tab: Table, card: dict[str, Any], cost: Mapping[str, int]) -> None:
    if any(owed(card, cost, k) > 0 for k in cost):
        return
    if "nd_id" in card:
        card["state"] = "done"  # KYR-DISC-09: set aside (keep_after_study keeps it listed as done)
        tab.emit("narrative_completed", f"{card['name']} is studied", nd_id=card["nd_id"])
        tab.d.tasks.push(NarrativeRead(card["on_complete"]))
    else:
        card["studied"] = True
        disc = tab.pack.discoveries[card["id"]]
        tab.emit("studied", f"{disc.name} is studied", id=disc.id)
        if disc.knowledge:
            gauges.gain(tab, "knowledge", disc.knowledge, f"studied {disc.name}")


def card_of(tab: Table, ref: str) -> dict[str, Any]:
    """The inventory card of discovery reference ``dN``."""
    did = tab.pack.discovery_order[int(ref[1:]) - 1]
    return next(c for c in tab.d.inventory if c["id"] == did)


def narrative_of(tab: Table, ref: str) -> dict[str, Any]:
    """The active narrative discovery of reference ``nN``."""
    return active_narratives(tab)[int(ref[1:]) - 1]


def waive(tab: Table, ref: str, el: str, n: int) -> None:
    """T07-style items: reduce the remaining cost without paying (P-K-09)."""
    if ref.startswith("d"):
        card = card_of(tab, ref)
        cost: Mapping[str, int] = tab.pack.discoveries[card["id"]].cost
    else:
        card = narrative_of(tab, ref)
        cost = card["cost"]
    if el == "any":
        card["waived"]["any"] = card["waived"].get("any", 0) + n
    else:
        credit(card, cost, el, n, "waived")
    finish_study_if_done(tab, card, cost)
