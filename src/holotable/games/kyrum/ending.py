"""Validation, notoriety and the end-of-game procedure (KYR-OBJ, KYR-NOTORIETY, KYR-END)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from . import gauges, script, story
from .decisions import Market
from .pack import ELEMENTS, Item
from .tasks import KyrumTask, Stack

if TYPE_CHECKING:
    from .mechanics import Table


def knowledge_np(knowledge: int, table: list[list[int]]) -> int:
    """Knowledge NP, a non-cumulative step function (KYR-NOTORIETY-01, KYR-AMB-12).

    >>> [knowledge_np(k, [[5, 1], [7, 2], [9, 3], [12, 4], [16, 5]]) for k in (4, 5, 9, 16)]
    [0, 1, 3, 5]
    """
    best = 0
    for threshold, np in table:
        if knowledge >= threshold:
            best = max(best, np)
    return best


@dataclass(frozen=True, slots=True)
class EndStep(KyrumTask):
    """One of KYR-END-04's steps 3-6: ``script``, ``market``, ``discard`` or ``finish``."""

    t: ClassVar[str] = "end_step"
    step: str

    def run(self, tab: Table, stack: Stack) -> None:
        d = tab.d
        if self.step == "script":
            code = tab.pack.game_entry(d.game).get("end_script")
            if code:
                script.read_script(tab, code, eog=True)
        elif self.step == "market":
            stack.push(Market())
            tab.emit("market", "The Thoth market is open")
        elif self.step == "discard":
            for card in d.inventory:  # KYR-DISC-05
                d.discovery_discard.append(card["id"])
            d.inventory = []
            tab.emit("discard_all", "All discovery cards are discarded; narrative discoveries are kept")
        elif self.step == "finish":
            d.camp["next_game"] = d.game + 1
            d.finished = True
            tab.emit("finished", f"Game {d.game} is over")


def check_fuel_out(tab: Table) -> bool:
    """KYR-END-01/02, KYR-AMB-08: at a TLDP, fuel 0 and no way to craft or get fuel is a defeat."""
    d = tab.d
    if d.gauges["fuel"] > 0 or any(d.elements[e] > 0 for e in ELEMENTS):
        return False
    for item in tab.pack.items.values():
        if item.fuel_source and gauges.item_usable(tab, item):
            return False
    end_game(tab, "defeat", "fuel")
    return True


def validate(tab: Table) -> None:
    gauges.pay(tab, "fuel", int(tab.pack.rules["validation_fuel_cost"]), "validation")
    tab.emit("validated", "Objectives validated: " + ", ".join(
        f"{tab.pack.objectives[o]['title']} ({o})" if o in tab.pack.objectives else o for o in tab.d.objectives))
    end_game(tab, "victory", f"validated in journey {tab.d.journey}")
    script.run(tab)


def end_game(tab: Table, outcome: str, reason: str) -> None:
    """KYR-END-04 steps 1-2 now; 3-6 as tasks (end script, market, discard, finish)."""
    d = tab.d
    rules = tab.pack.rules
    d.tasks.clear()  # in place: the task loop may be running this very stack
    d.window_open = False
    k_np = knowledge_np(d.gauges["knowledge"], rules["knowledge_np"])
    disc_np = sum(tab.pack.discoveries[c["id"]].notoriety for c in d.inventory if c["studied"])
    if outcome == "victory":
        j_np = int(rules["journey_np"][d.journey - 1])
        np = {"knowledge": k_np, "discovery": disc_np, "journey": j_np, "script": d.script_np}
        total = k_np + disc_np + j_np + d.script_np
    else:
        with_disc = bool(tab.opt.get("discovery_np_on_defeat"))  # KYR-AMB-11
        np = {"knowledge": k_np, "discovery": disc_np if with_disc else 0, "journey": 0, "script": d.script_np}
        total = (k_np + d.script_np + (disc_np if with_disc else 0)) // 2  # KYR-AMB-13
    np["total"] = total
    d.result = {"outcome": outcome, "reason": reason, "journey_at_end": d.journey, "np": np}
    tab.emit("game_ended", f"{outcome.capitalize()}: {story.reason_words(reason)}", outcome=outcome, reason=reason)
    camp = d.camp
    camp["np_bank"] += total
    tab.emit("notoriety_computed", f"Notoriety: {total} points this game ({camp['np_bank']} in the bank)", **np)
    row = next(r for r in camp["scoreboard"] if r["game"] == d.game)
    row["result"] = outcome
    row["np"] = total
    tab.emit("scoreboard", f"Game {d.game} is written on the scoreboard", game=d.game)
    d.tasks.push(EndStep("script"), EndStep("market"), EndStep("discard"), EndStep("finish"))


def buy(tab: Table, item: Item) -> None:
    tab.d.camp["np_bank"] -= item.cost
    gauges.grant_item(tab, item.id, f"bought for {item.cost} NP")


def close_market(tab: Table) -> None:
    tab.d.tasks.pop()  # the market decision
    script.run(tab)
