"""The task loop and the script interpreter (spec §4.2, §6.6; KYR-SCRIPT), with a script's choices.

A script's effects run as an :class:`Ops` frame (source label, op list, next op): each step puts the
frame back one op further before carrying the op out, so whatever the op pushes (a branch, a read
script) runs first and the rest of the frame after it. :func:`run` carries tasks out until a
decision is pending or nothing is left, then checks the fuel-out defeat at that TLDP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from holotable.engine.tasks import run_tasks

from . import discoveries, encounters, ending, gauges, predicates, story
from .decisions import Choice, Partner
from .pack import LINK_RE, recipe_name
from .tasks import KyrumTask, Stack, pending

if TYPE_CHECKING:
    from .mechanics import Table

MAX_READ_DEPTH = 16


@dataclass(slots=True, eq=True, unsafe_hash=True)  # a value like every task, but not frozen: the
class Ops(KyrumTask):  # interpreter makes one per op read, and a frozen one costs four times as much
    """A script frame: the ops of ``src`` from index ``i`` on (``eog``: part of the end-of-game script).
    Never changed once made (the next op is a new frame), like every task."""

    t: ClassVar[str] = "ops"
    src: str
    ops: Sequence[Mapping[str, Any]]
    i: int = 0
    eog: bool = False

    def run(self, tab: Table, stack: Stack) -> None:
        i = self.i
        if i >= len(self.ops):
            return  # the frame is done
        # the frame stays on the stack, one op further, under what its op pushes
        stack.push(Ops(self.src, self.ops, i + 1, self.eog))
        with story.recording(tab, self.src):  # what the op does is written on its page
            do_op(tab, self.ops[i], self)


def push_ops(tab: Table, ops: Any, src: str, eog: bool = False) -> None:
    if ops:
        tab.d.tasks.push(Ops(src, ops, 0, eog))


def run(tab: Table) -> None:
    """Work until a decision is pending or nothing is left; then check the fuel-out defeat at a TLDP."""
    d = tab.d
    if run_tasks(d.tasks, tab) is None and d.result is None and ending.check_fuel_out(tab):
        run(tab)  # the end-of-game procedure


# ---------------------------------------------------------------------------------------------- effect ops
def do_op(tab: Table, op: Mapping[str, Any], frame: Ops) -> None:
    """Carry out one effect op (spec §6.6) of ``frame``."""
    d = tab.d
    name = op["op"]
    src = frame.src
    eog = frame.eog
    if name == "say":
        tab.emit("say", op["text"])
        story.say(d, src, op["text"])
    elif name == "gain":
        gauges.gain(tab, op["res"], op["n"], src)
    elif name == "lose":
        gauges.lose(tab, op["res"], op["n"], src)
    elif name == "set":
        gauges.set_to(tab, op["res"], op["value"], src)
    elif name == "draw_discovery":
        for _ in range(op.get("n", 1)):
            discoveries.draw_discovery(tab)
    elif name == "discard_discovery":
        discoveries.discard_discovery(tab, op, src)
    elif name == "add_narrative":
        discoveries.add_narrative(tab, op)
    elif name == "choice":
        offer_choice(tab, op, frame)
    elif name == "if":
        branch = op["then"] if predicates.holds(tab, op["cond"]) else op.get("else", [])
        push_ops(tab, branch, f"{src}/if", eog)
    elif name == "read":
        if len(d.tasks.of_type(Ops)) <= MAX_READ_DEPTH:
            read_script(tab, op["code"], eog)
    elif name == "flag":
        flags = d.camp["flags"]
        if "clear" in op:
            flags.pop(op["name"], None)
        elif "set" in op:
            flags[op["name"]] = op["set"]
        else:
            flags[op["name"]] = int(flags.get(op["name"], 0)) + op["add"]
        story.note(d, src, story.flag_line(op, flags.get(op["name"])))
    elif name == "journal":
        d.camp["journal"].append({"game": d.game, "text": op["text"]})
        story.note(d, src, f"journal: {op['text']}")
    elif name == "glossary":
        if unlock(tab, op["term"]):
            entry = tab.pack.glossary.get(op["term"], {})
            story.note(d, src, f"glossary entry unlocked: {entry.get('title', op['term'])}")
    elif name == "travel_discount":
        d.discounts.append([op["amount"], op.get("uses", 1)])
        uses = op.get("uses", 1)
        story.note(d, src, f"travel discount: −{op['amount']} fuel on the next {uses} exploration"
                           f"{'s' if uses != 1 else ''}")
    elif name == "roll":
        roll_op(tab, op, src, eog)
    elif name == "encounter":
        d.tasks.push(encounters.Encounter())
    elif name == "notoriety":
        if eog:  # KYR-AMB-43 / KYR-AMB-25: end-of-game NP go straight to the bank
            d.camp["np_bank"] += op["n"]
        else:
            d.script_np += op["n"]
        tab.emit("notoriety", f"+{op['n']} notoriety points", n=op["n"], bank=eog)
    elif name == "gain_item":
        gauges.grant_item(tab, op["item"], src)
    elif name == "partner_exchange":
        tab.emit("partner", op["prompt"])
        if d.camp["partner"]["enabled"]:
            log = d.camp["partner_log"]
            received = next((e.get("received") for e in reversed(log) if e.get("received")), None)
            heard = hear_partner(d)
            if heard:
                story.note(d, src, f"{heard} transmission{'s' if heard != 1 else ''} from your partner heard")
            d.tasks.push(Partner(op["prompt"], received))
    elif name == "end_game" and d.result is None:
        ending.end_game(tab, op["outcome"], op.get("reason", "script"))


def hear_partner(d: Any) -> int:
    """Every received partner message not heard yet is heard now, oldest first (KYR-ENC-09): each is
    marked with the game that heard it; how many were."""
    n = 0
    for entry in d.camp["partner_log"]:
        if entry.get("received") and entry.get("heard_in") is None:
            entry["heard_in"] = d.game
            n += 1
    return n


def unlock(tab: Table, term: str) -> bool:
    """Unlock a glossary term; whether it was locked."""
    unlocked = tab.d.camp["glossary"]
    if term in unlocked:
        return False
    unlocked.append(term)
    return True


def send_message(tab: Table, text: str) -> None:
    """The Black Hole message is written (or not): it leaves for the partner and cannot be called back."""
    d = tab.d
    d.camp["partner_log"].append({"game": d.game, "sent": text, "received": None})
    tab.reveal()
    tab.emit("partner_sent", "Message for your partner written" if text else "No message written")
    story.note(d, tab.pack.rules["black_hole_script"],
               f"message sent to your partner: “{text}”" if text else "no message sent to your partner")
    d.tasks.pop()  # the partner decision
    run(tab)


def roll_op(tab: Table, op: Mapping[str, Any], src: str, eog: bool) -> None:
    dice = [gauges.die(tab)] if op["dice"] == "d6" else [gauges.die(tab), gauges.die(tab)]
    roll = {"dice": dice, "total": sum(dice)}
    tab.emit("dice", f"Rolled {' and '.join(map(str, dice))}", dice_kind="script", values=dice)
    for b in op["branches"]:
        if predicates.holds(tab, b["when"], roll):
            push_ops(tab, b["do"], f"{src}/roll", eog)
            return


def read_script(tab: Table, code: str, eog: bool, main: bool = False) -> None:
    script = tab.pack.scripts[code]
    camp = tab.d.camp
    if code not in camp["scripts_seen"]:
        camp["scripts_seen"].append(code)
    if main and code not in camp["main_seen"]:
        camp["main_seen"].append(code)  # KYR-EXPLORE-11 tracking list
    for m in LINK_RE.finditer(script["text"]):
        unlock(tab, m.group(1))  # KYR-SCRIPT-06
    story.open_page(tab.d, story.Page(script["kind"], code, script["title"], script["text"]))
    tab.reveal()  # the booklet's page is read
    tab.emit("script_read", f"Read booklet entry {code}: {script['title']}", code=code)
    push_ops(tab, script["effects"], code, eog or script["kind"] == "end_of_game")


# ---------------------------------------------------------------------------------------------- choices
def offer_choice(tab: Table, op: Mapping[str, Any], frame: Ops) -> None:
    enabled = enabled_options(tab, op["options"])
    could = any(fuel_could_enable(tab, o) for o in op["options"])
    if not any(enabled) and not could:
        tab.emit("choice_skipped", f"No option of '{op['prompt']}' can be taken")  # KYR-AMB-42
        return
    tab.d.tasks.push(Choice(op["prompt"], tuple(o["label"] for o in op["options"]), frame.src, bool(frame.eog),
                            op["options"]))


def enabled_options(tab: Table, options: Sequence[Mapping[str, Any]]) -> list[bool]:
    out = []
    for o in options:
        ok = ("if" not in o or predicates.holds(tab, o["if"])) and all(
            gauges.value(tab, res) >= n for res, n in o.get("cost", {}).items())
        out.append(ok)
    return out


def fuel_could_enable(tab: Table, o: Mapping[str, Any]) -> bool:
    """Whether fuel crafts could make this option affordable (KYR-AMB-42)."""
    cost = o.get("cost", {})
    if "if" in o and not predicates.holds(tab, o["if"]):
        return False
    if any(gauges.value(tab, res) < n for res, n in cost.items() if res != "fuel"):
        return False
    fuel = int(cost.get("fuel", 0))
    need = fuel - tab.d.gauges["fuel"]
    return need > 0 and fuel_craft_potential(tab) >= need and gauges.maximum(tab, "fuel") >= fuel


def fuel_craft_potential(tab: Table) -> int:
    total = 0
    for el, recipes in tab.pack.rules["crafting"].items():
        best = max((r["gain"]["fuel"] for r in recipes if recipe_name(r) == "fuel"), default=0)
        total += best * tab.d.elements.get(el, 0)
    return total


def choice_closed(tab: Table) -> bool:
    """After a craft: the pending choice has no option left that could be taken (KYR-AMB-42)."""
    dec = pending(tab.d.tasks)
    return isinstance(dec, Choice) and not any(enabled_options(tab, dec.ops)) and not any(
        fuel_could_enable(tab, o) for o in dec.ops)


def choose_option(tab: Table, i: int) -> None:
    dec = tab.d.tasks.pop()
    assert isinstance(dec, Choice)
    option = dec.ops[i]
    with story.recording(tab, dec.src):
        for res, n in option.get("cost", {}).items():
            if n:
                gauges.pay(tab, res, n, f"{dec.src}/o{i + 1}")
        tab.emit("option", f"You chose '{option['label']}'", index=i + 1)
    push_ops(tab, option["do"], f"{dec.src}/o{i + 1}", dec.eog)
    run(tab)
