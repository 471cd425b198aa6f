"""Kyrum's mechanics (spec §3): areas, distance dice, exploration, the script interpreter, encounters,
crafting, study, validation, notoriety and the end-of-game procedure.

A :class:`Table` wraps one game's data with its pack, RNG and options. Work that may stop for a
player decision is a stack of tasks (``data.todo``) run by :meth:`Table.run` until a decision is
needed (``data.decision``) or nothing is left (a TLDP, KYR-TLDP-01). That makes scripts resumable
(spec §4.2): a frame is (source label, op list, next index).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from holotable.engine import Rng
from holotable.engine import chance as chances

from .pack import ELEMENTS, GAUGES, LINK_RE, Item, Pack, recipe_name
from .state import KyrumData

if TYPE_CHECKING:
    from holotable.engine import State

Emit = Callable[..., None]
CMP: dict[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
MAX_READ_DEPTH = 16


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


class Table:
    """One game's data with what acting on it needs. Cheap to build per call."""

    def __init__(self, data: KyrumData, pack: Pack, rng: Rng, options: Any, emit: Emit,
                 reveal: Callable[[], None] = lambda: None, state: State[KyrumData, Any] | None = None) -> None:
        self.d = data
        self.pack = pack
        self.rng = rng
        self.opt = options
        self.emit = emit
        #: ``State.reveal``: the player just read or drew something hidden (a script, a card), or a
        #: message left for the partner, so the action cannot be taken back.
        self.reveal = reveal
        #: The engine state, whose scripted chance (a scenario's ``chance``) comes before the RNG.
        self.st = state

    # ------------------------------------------------------------------ chance
    def die(self) -> int:
        if self.st is not None and self.st.script:
            face = chances.take(self.st, "die")
            if face is not None:
                return int(face)
        return self.rng.randint(1, 6)

    def _random_discovery(self, cands: list[dict[str, Any]]) -> str:
        """A discovery discarded at random (one ``randrange``), or a scenario's scripted ``discard``."""
        if self.st is None:
            return str(cands[self.rng.randrange(len(cands))]["id"])
        return str(chances.pick(self.st, "discard", [c["id"] for c in cands]))

    # ------------------------------------------------------------------ gauges (KYR-GAUGE)
    def maximum(self, res: str) -> int:
        if res in ELEMENTS:
            return int(self.pack.rules["elements"][res])
        return int(self.pack.rules["gauges"][res]["max"])

    def value(self, res: str) -> int:
        return self.d.elements[res] if res in ELEMENTS else self.d.gauges[res]

    def _store(self, res: str, v: int) -> None:
        if res in ELEMENTS:
            self.d.elements[res] = v
        else:
            self.d.gauges[res] = v
        if v > self.d.peaks.get(res, 0):  # KYR-AMB-09: peaks for objectives with "check": "peak"
            self.d.peaks[res] = v

    def gain(self, res: str, n: int, cause: str) -> None:
        old = self.value(res)
        new = min(self.maximum(res), old + n)  # KYR-GAUGE-05 clamp
        self._store(res, new)
        self.emit("gauge", f"{res} {old} -> {new} ({cause})", name=res, old=old, new=new, cause=cause)

    def lose(self, res: str, n: int, cause: str) -> None:
        old = self.value(res)
        new = max(0, old - n)  # KYR-GAUGE-06 clamp
        self._store(res, new)
        self.emit("gauge", f"{res} {old} -> {new} ({cause})", name=res, old=old, new=new, cause=cause)
        self.after_loss(res)

    def set_to(self, res: str, value: int, cause: str) -> None:
        old = self.value(res)
        new = max(0, min(self.maximum(res), value))
        self._store(res, new)
        self.emit("gauge", f"{res} {old} -> {new} ({cause})", name=res, old=old, new=new, cause=cause)
        if new < old:
            self.after_loss(res)

    def pay(self, res: str, n: int, cause: str) -> None:
        """A payment (KYR-GAUGE-07): the caller has checked it is affordable."""
        old = self.value(res)
        self._store(res, old - n)
        self.emit("pay", f"paid {n} {res} ({cause})", name=res, old=old, new=old - n, cause=cause)

    def after_loss(self, res: str) -> None:
        """Suit breach once per loss event, then the immediate defeats (KYR-GAUGE-08..10, KYR-AMB-02/47)."""
        g = self.d.gauges
        if res == "suit" and g["suit"] == 0:
            g["suit"] = 1
            old = g["health"]
            g["health"] = max(0, old - 1)
            self.emit("suit_breach", f"spacesuit breached: health {old} -> {g['health']}, suit set to 1")
        reasons = [r for r in ("health", "ship") if g[r] == 0]
        if reasons and self.d.result is None:
            self.end_game("defeat", "+".join(reasons))

    # ------------------------------------------------------------------ predicates (spec §6.6)
    def discoveries_matching(self, flt: Mapping[str, Any]) -> list[dict[str, Any]]:
        out = []
        for card in self.d.inventory:
            if "studied" in flt and flt["studied"] is not None and card["studied"] != flt["studied"]:
                continue
            if "type" in flt and self.pack.discoveries[card["id"]].type != flt["type"]:
                continue
            out.append(card)
        return out

    def test(self, p: Mapping[str, Any], roll: Mapping[str, Any] | None = None) -> bool:
        camp = self.d.camp
        if "res" in p:
            v = self.d.peaks.get(p["res"], 0) if p.get("check") == "peak" else self.value(p["res"])
            return CMP[p["cmp"]](v, p["value"])
        if "flag" in p:
            return CMP[p["cmp"]](int(camp["flags"].get(p["flag"], 0)), int(p["value"]))
        if "discoveries" in p:
            return CMP[p["cmp"]](len(self.discoveries_matching(p["discoveries"])), p["value"])
        if "distinct_studied_types" in p:
            q = p["distinct_studied_types"]
            n = len({self.pack.discoveries[c["id"]].type for c in self.d.inventory if c["studied"]})
            return CMP[q["cmp"]](n, q["value"])
        if "script_seen" in p:
            return bool(p["script_seen"] in camp["scripts_seen"])
        if "narrative" in p:
            return any(nd["nd_id"] == p["narrative"] and nd["state"] == p["state"] for nd in camp["narratives"])
        if "game" in p:
            return CMP[p["game"]["cmp"]](self.d.game, p["game"]["value"])
        if "journey" in p:
            return CMP[p["journey"]["cmp"]](self.d.journey, p["journey"]["value"])
        if "item" in p:
            return self.owned(p["item"]) > 0
        if "partner" in p:
            return bool(camp["partner"]["enabled"]) == bool(p["partner"])
        if "true" in p:
            return bool(p["true"])
        if "all" in p:
            return all(self.test(q, roll) for q in p["all"])
        if "any" in p:
            return any(self.test(q, roll) for q in p["any"])
        if "not" in p:
            return not self.test(p["not"], roll)
        if roll is not None:
            if "roll" in p:
                return CMP[p["roll"]["cmp"]](roll["total"], p["roll"]["value"])
            if "roll_double" in p:
                return (len(roll["dice"]) == 2 and roll["dice"][0] == roll["dice"][1]) == bool(p["roll_double"])
            if "roll_black_gt_white" in p:
                return (len(roll["dice"]) == 2 and roll["dice"][1] > roll["dice"][0]) == bool(
                    p["roll_black_gt_white"])
        return False

    def objective_status(self) -> dict[str, bool]:
        """Live status of each objective of the game (KYR-OBJ-17); narratives never count (KYR-OBJ-13)."""
        return {letter: self.test(self.pack.objectives[letter]["predicate"]) for letter in self.d.objectives}

    # ------------------------------------------------------------------ items
    def owned(self, item_id: str) -> int:
        rec = self.d.camp["items"].get(item_id)
        return 0 if rec is None else int(rec["owned"]) - int(rec["consumed"])

    def item_usable(self, item: Item) -> bool:
        if self.owned(item.id) <= 0 or item.use is None:
            return False
        if item.kind == "per_game":
            return self.d.item_uses.get(item.id, 0) < item.uses_per_game
        return True

    def consume_item(self, item: Item) -> None:
        self.d.item_uses[item.id] = self.d.item_uses.get(item.id, 0) + 1
        if item.kind == "consumable":
            self.d.camp["items"][item.id]["consumed"] += 1
        self.emit("item_used", f"used {item.name}", item=item.id)

    def grant_item(self, item_id: str, cause: str) -> bool:
        item = self.pack.items[item_id]
        rec = self.d.camp["items"].setdefault(item_id, {"owned": 0, "consumed": 0})
        if self.owned(item_id) >= item.max_owned:
            return False
        rec["owned"] += 1
        self.emit("item_gained", f"gained {item.name} ({cause})", item=item_id)
        return True

    # ------------------------------------------------------------------ the task loop
    def push_ops(self, ops: Any, src: str, eog: bool = False) -> None:
        if ops:
            self.d.todo.append({"t": "ops", "src": src, "ops": ops, "i": 0, "eog": eog})

    def run(self) -> None:
        """Work until a decision is pending or nothing is left; then check the fuel-out defeat at a TLDP."""
        d = self.d
        while d.decision is None and d.todo:
            task = d.todo[-1]
            kind = task["t"]
            if kind == "ops":
                if task["i"] >= len(task["ops"]):
                    d.todo.pop()
                    continue
                op = task["ops"][task["i"]]
                task["i"] += 1
                self.op(op, task)
                continue
            d.todo.pop()
            if kind == "distance":
                self.roll_distance()
            elif kind == "encounter":
                self.encounter()
            elif kind == "end_encounter":
                self.end_encounter()
            elif kind == "end_step":
                self.end_step(task["step"])
            elif kind == "resolve_roll":
                self.resolve_roll()
            elif kind == "narrative_read":
                self.read_script(task["code"], eog=False)
            elif kind == "explored":
                d.exploring = None
                d.dice = []
        if d.decision is None and not d.todo and d.result is None and self.check_fuel_out():
            self.run()  # the end-of-game procedure

    def check_fuel_out(self) -> bool:
        """KYR-END-01/02, KYR-AMB-08: at a TLDP, fuel 0 and no way to craft or get fuel is a defeat."""
        if self.d.gauges["fuel"] > 0 or any(self.d.elements[e] > 0 for e in ELEMENTS):
            return False
        for item in self.pack.items.values():
            if item.fuel_source and self.item_usable(item):
                return False
        self.end_game("defeat", "fuel")
        return True

    # ------------------------------------------------------------------ effect ops (spec §6.6)
    def op(self, op: Mapping[str, Any], frame: dict[str, Any]) -> None:
        name = op["op"]
        src = frame["src"]
        eog = bool(frame.get("eog"))
        if name == "say":
            self.emit("say", op["text"])
            if self.d.reading is not None:
                self.d.reading.setdefault("says", []).append(op["text"])
        elif name == "gain":
            self.gain(op["res"], op["n"], src)
        elif name == "lose":
            self.lose(op["res"], op["n"], src)
        elif name == "set":
            self.set_to(op["res"], op["value"], src)
        elif name == "draw_discovery":
            for _ in range(op.get("n", 1)):
                self.draw_discovery()
        elif name == "discard_discovery":
            self.discard_discovery(op, src)
        elif name == "add_narrative":
            self.add_narrative(op)
        elif name == "choice":
            self.offer_choice(op, frame)
        elif name == "if":
            branch = op["then"] if self.test(op["cond"]) else op.get("else", [])
            self.push_ops(branch, f"{src}/if", eog)
        elif name == "read":
            depth = sum(1 for t in self.d.todo if t["t"] == "ops")
            if depth <= MAX_READ_DEPTH:
                self.read_script(op["code"], eog)
        elif name == "flag":
            flags = self.d.camp["flags"]
            if "clear" in op:
                flags.pop(op["name"], None)
            elif "set" in op:
                flags[op["name"]] = op["set"]
            else:
                flags[op["name"]] = int(flags.get(op["name"], 0)) + op["add"]
        elif name == "journal":
            self.d.camp["journal"].append({"game": self.d.game, "text": op["text"]})
        elif name == "glossary":
            self.unlock(op["term"])
        elif name == "travel_discount":
            self.d.discounts.append([op["amount"], op.get("uses", 1)])
        elif name == "roll":
            self.roll_op(op, src, eog)
        elif name == "encounter":
            self.d.todo.append({"t": "encounter"})
        elif name == "notoriety":
            if eog:  # KYR-AMB-43 / KYR-AMB-25: end-of-game NP go straight to the bank
                self.d.camp["np_bank"] += op["n"]
            else:
                self.d.script_np += op["n"]
            self.emit("notoriety", f"+{op['n']} NP", n=op["n"], bank=eog)
        elif name == "gain_item":
            self.grant_item(op["item"], src)
        elif name == "partner_exchange":
            self.emit("partner", op["prompt"])
            if self.d.camp["partner"]["enabled"]:
                log = self.d.camp["partner_log"]
                received = next((e.get("received") for e in reversed(log) if e.get("received")), None)
                self.d.decision = {"kind": "partner", "prompt": op["prompt"], "received": received}
        elif name == "end_game" and self.d.result is None:
            self.end_game(op["outcome"], op.get("reason", "script"))

    def unlock(self, term: str) -> None:
        unlocked = self.d.camp["glossary"]
        if term not in unlocked:
            unlocked.append(term)

    def roll_op(self, op: Mapping[str, Any], src: str, eog: bool) -> None:
        dice = [self.die()] if op["dice"] == "d6" else [self.die(), self.die()]
        roll = {"dice": dice, "total": sum(dice)}
        self.emit("dice", f"rolled {dice}", dice_kind="script", values=dice)
        for b in op["branches"]:
            if self.test(b["when"], roll):
                self.push_ops(b["do"], f"{src}/roll", eog)
                return

    def offer_choice(self, op: Mapping[str, Any], frame: dict[str, Any]) -> None:
        enabled = self.enabled_options(op["options"])
        could = any(self.fuel_could_enable(o) for o in op["options"])
        if not any(enabled) and not could:
            self.emit("choice_skipped", f"no option of '{op['prompt']}' can be taken (KYR-AMB-42)")
            return
        self.d.decision = {
            "kind": "choice", "prompt": op["prompt"], "labels": [o["label"] for o in op["options"]],
            "src": frame["src"], "eog": bool(frame.get("eog")), "ops": op["options"],
        }

    def enabled_options(self, options: list[dict[str, Any]]) -> list[bool]:
        out = []
        for o in options:
            ok = ("if" not in o or self.test(o["if"])) and all(
                self.value(res) >= n for res, n in o.get("cost", {}).items())
            out.append(ok)
        return out

    def fuel_could_enable(self, o: Mapping[str, Any]) -> bool:
        """Whether fuel crafts could make this option affordable (KYR-AMB-42)."""
        cost = o.get("cost", {})
        if "if" in o and not self.test(o["if"]):
            return False
        if any(self.value(res) < n for res, n in cost.items() if res != "fuel"):
            return False
        fuel = int(cost.get("fuel", 0))
        need = fuel - self.d.gauges["fuel"]
        return need > 0 and self.fuel_craft_potential() >= need and self.maximum("fuel") >= fuel

    def fuel_craft_potential(self) -> int:
        total = 0
        for el, recipes in self.pack.rules["crafting"].items():
            best = max((r["gain"]["fuel"] for r in recipes if recipe_name(r) == "fuel"), default=0)
            total += best * self.d.elements.get(el, 0)
        return total

    def choose_option(self, i: int) -> None:
        dec = self.d.decision
        assert dec is not None
        option = dec["ops"][i]
        self.d.decision = None
        for res, n in option.get("cost", {}).items():
            if n:
                self.pay(res, n, f"{dec['src']} option {i + 1}")
        self.emit("option", f"chose '{option['label']}'", index=i + 1)
        self.push_ops(option["do"], f"{dec['src']}/o{i + 1}", dec["eog"])
        self.run()

    # ------------------------------------------------------------------ scripts (KYR-SCRIPT)
    def read_script(self, code: str, eog: bool, main: bool = False) -> None:
        script = self.pack.scripts[code]
        camp = self.d.camp
        if code not in camp["scripts_seen"]:
            camp["scripts_seen"].append(code)
        if main and code not in camp["main_seen"]:
            camp["main_seen"].append(code)  # KYR-EXPLORE-11 tracking list
        for m in LINK_RE.finditer(script["text"]):
            self.unlock(m.group(1))  # KYR-SCRIPT-06
        self.d.reading = {"code": code, "title": script["title"], "text": script["text"], "says": []}
        self.reveal()  # the booklet's page is read
        self.emit("script_read", f"read {code}: {script['title']}", code=code)
        self.push_ops(script["effects"], code, eog or script["kind"] == "end_of_game")

    # ------------------------------------------------------------------ discoveries (KYR-DISC)
    def draw_discovery(self) -> None:
        if not self.d.discovery_deck:
            self.emit("discovery_none", "the discovery deck is empty: nothing drawn (KYR-AMB-17)")
            return
        did = self.d.discovery_deck.pop(0)
        self.reveal()
        zero = dict.fromkeys(ELEMENTS, 0)
        self.d.inventory.append({"id": did, "paid": dict(zero), "waived": dict(zero), "studied": False})
        self.emit("discovery", f"drew discovery {self.pack.discoveries[did].name}", id=did)

    def discard_discovery(self, op: Mapping[str, Any], src: str) -> None:
        n = op.get("n", 1)
        flt = {"studied": op.get("studied")}
        if op["which"] == "random":
            for _ in range(n):
                cands = self.discoveries_matching(flt)
                if not cands:
                    return
                self.remove_discovery(self._random_discovery(cands), src)
        elif self.discoveries_matching(flt):
            self.d.decision = {"kind": "discard", "left": n, "studied": op.get("studied"), "src": src}

    def remove_discovery(self, did: str, cause: str) -> None:
        self.d.inventory = [c for c in self.d.inventory if c["id"] != did]
        self.d.discovery_discard.append(did)
        self.emit("discovery_discarded", f"discarded {self.pack.discoveries[did].name} ({cause})", id=did)

    def pick_discard(self, did: str) -> None:
        dec = self.d.decision
        assert dec is not None
        self.remove_discovery(did, dec["src"])
        dec["left"] -= 1
        if dec["left"] <= 0 or not self.discoveries_matching({"studied": dec["studied"]}):
            self.d.decision = None
        self.run()

    def add_narrative(self, op: Mapping[str, Any]) -> None:
        nars = self.d.camp["narratives"]
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
        self.emit("narrative_added", f"new narrative discovery {op['name']}", nd_id=op["nd_id"])

    def active_narratives(self) -> list[dict[str, Any]]:
        return [nd for nd in self.d.camp["narratives"] if nd["state"] == "active"]

    @staticmethod
    def owed(card: Mapping[str, Any], cost: Mapping[str, int], key: str) -> int:
        return int(cost.get(key, 0)) - int(card["paid"].get(key, 0)) - int(card["waived"].get(key, 0))

    def payable(self, card: Mapping[str, Any], cost: Mapping[str, int], el: str) -> int:
        """How many elements of ``el`` can go into this card now (KYR-DISC-03/12)."""
        return self.owed(card, cost, el) + (self.owed(card, cost, "any") if "any" in cost else 0)

    def credit(self, card: dict[str, Any], cost: Mapping[str, int], el: str, n: int, field: str) -> None:
        own = min(n, self.owed(card, cost, el))
        card[field][el] = card[field].get(el, 0) + own
        if n > own:
            card[field]["any"] = card[field].get("any", 0) + n - own

    def study(self, ref: str, el: str, n: int) -> None:
        if ref.startswith("d"):
            card = self.card(ref)
            disc = self.pack.discoveries[card["id"]]
            self.pay(el, n, f"study {disc.name}")
            self.credit(card, disc.cost, el, n, "paid")
            self.emit("study", f"study {disc.name}: {n} {el}", id=disc.id)
            self.finish_study_if_done(card, disc.cost)
        else:
            nd = self.narrative(ref)
            self.pay(el, n, f"study {nd['name']}")
            self.credit(nd, nd["cost"], el, n, "paid")
            self.emit("study", f"study {nd['name']}: {n} {el}", nd_id=nd["nd_id"])
            self.finish_study_if_done(nd, nd["cost"])
        self.run()

    def finish_study_if_done(self, card: dict[str, Any], cost: Mapping[str, int]) -> None:
        if any(self.owed(card, cost, k) > 0 for k in cost):
            return
        if "nd_id" in card:
            card["state"] = "done"  # KYR-DISC-09: set aside (keep_after_study keeps it listed as done)
            self.emit("narrative_completed", f"{card['name']} studied", nd_id=card["nd_id"])
            self.d.todo.append({"t": "narrative_read", "code": card["on_complete"]})
        else:
            card["studied"] = True
            disc = self.pack.discoveries[card["id"]]
            self.emit("studied", f"{disc.name} studied", id=disc.id)
            self.gain("knowledge", disc.knowledge, f"studied {disc.name}") if disc.knowledge else None

    def card(self, ref: str) -> dict[str, Any]:
        did = self.pack.discovery_order[int(ref[1:]) - 1]
        return next(c for c in self.d.inventory if c["id"] == did)

    def narrative(self, ref: str) -> dict[str, Any]:
        return self.active_narratives()[int(ref[1:]) - 1]

    def waive(self, ref: str, el: str, n: int) -> None:
        """T07-style items: reduce the remaining cost without paying (P-K-09)."""
        if ref.startswith("d"):
            card = self.card(ref)
            cost: Mapping[str, int] = self.pack.discoveries[card["id"]].cost
        else:
            card = self.narrative(ref)
            cost = card["cost"]
        if el == "any":
            card["waived"]["any"] = card["waived"].get("any", 0) + n
        else:
            self.credit(card, cost, el, n, "waived")
        self.finish_study_if_done(card, cost)

    # ------------------------------------------------------------------ areas and distance (KYR-AREA, KYR-DIST)
    def reveal_area(self) -> None:
        d = self.d
        d.area += 1
        d.areas_revealed += 1
        d.slot_planets = [d.planet_deck.pop(0) for _ in range(4)]
        self.reveal()
        d.slot_dice = [0, 0, 0, 0]
        d.slot_explored = [False] * 4
        d.window_open = False
        names = ", ".join(self.pack.planets[p].name for p in d.slot_planets)
        self.emit("area", f"journey {d.journey} area {d.area}: {names}", planets=list(d.slot_planets))
        d.todo.append({"t": "distance"})
        if d.planet_deck:  # KYR-AREA-02/03
            alert = self.pack.planets[d.planet_deck[0]].back_alert
            self.emit("alert", f"top planet back: {'alert' if alert else 'no alert'}", alert=alert)
            if alert:
                if d.encounter_deck:
                    d.todo.append({"t": "encounter"})
                else:
                    self.emit("encounter_none", "the encounter deck is empty: no encounter (KYR-ENC-02)")

    def roll_distance(self) -> None:
        d = self.d
        rolls = [self.die() for _ in range(4)]
        d.slot_dice = sorted(rolls)  # KYR-DIST-01
        d.window_open = True
        self.emit("dice", f"distance dice {rolls} -> {d.slot_dice}", dice_kind="distance", values=rolls,
                  assigned=list(d.slot_dice))

    def craft(self, el: str, recipe: str, slot: int | None) -> None:
        self.pay(el, 1, f"craft {recipe}")
        if recipe == "reroll":
            assert slot is not None
            old = self.d.slot_dice[slot]
            self.d.slot_dice[slot] = self.die()
            self.emit("die_rerolled", f"slot {slot} die {old} -> {self.d.slot_dice[slot]}", slot=slot)
            self.resort()
        elif recipe == "set1":
            assert slot is not None
            self.d.slot_dice[slot] = 1
            self.emit("die_set", f"slot {slot} die set to 1", slot=slot)
            self.resort()
        else:
            recipes = self.pack.rules["crafting"][el]
            amount = next(r["gain"][recipe] for r in recipes if recipe_name(r) == recipe)
            self.gain(recipe, amount, f"craft {el}")
        dec = self.d.decision
        if dec is not None and dec["kind"] == "choice" and not any(self.enabled_options(dec["ops"])) and not any(
                self.fuel_could_enable(o) for o in dec["ops"]):
            # KYR-AMB-42: options are recomputed after each craft; nothing can be taken any more
            self.emit("choice_skipped", f"no option of '{dec['prompt']}' can be taken (KYR-AMB-42)")
            self.d.decision = None
        if self.d.decision is None:
            self.run()

    def resort(self) -> None:
        if self.opt.get("resort_after_reroll"):  # KYR-AMB-03 alternative
            self.d.slot_dice.sort()

    def leave_area(self) -> None:
        d = self.d
        d.window_open = False
        d.planet_discard += d.slot_planets
        d.slot_planets, d.slot_dice, d.slot_explored = [], [], []
        self.emit("leave", f"left area {d.area} of journey {d.journey}")
        if d.planet_deck:
            self.reveal_area()
        elif d.journey >= int(self.pack.rules["journeys"]):
            self.end_game("defeat", "journeys")  # KYR-JOURNEY-04
        else:
            d.journey += 1  # KYR-JOURNEY-02/03, KYR-AMB-05
            d.area = 0
            d.planet_deck = list(d.planet_discard)
            if self.st is not None:
                chances.shuffle(self.st, "shuffle", d.planet_deck)
            else:
                self.rng.shuffle(d.planet_deck)
            d.planet_discard = []
            self.emit("journey", f"journey {d.journey} begins", journey=d.journey)
            self.reveal_area()
        self.run()

    # ------------------------------------------------------------------ exploration (KYR-EXPLORE)
    def travel_cost(self, slot: int) -> int:
        discount = self.d.discounts[0][0] if self.d.discounts else 0
        return max(0, self.d.slot_dice[slot] - discount)

    def explore(self, slot: int) -> None:
        d = self.d
        cost = self.travel_cost(slot)
        if d.discounts:  # KYR-AMB-44: consumed by the declared exploration
            d.discounts[0][1] -= 1
            if d.discounts[0][1] <= 0:
                d.discounts.pop(0)
        d.window_open = False  # KYR-DIST-07
        if cost:
            self.pay("fuel", cost, f"travel to slot {slot}")
        d.slot_explored[slot] = True
        d.exploring = slot
        planet = self.pack.planets[d.slot_planets[slot]]
        self.emit("explore", f"explore {planet.name} (slot {slot}) for {cost} fuel", slot=slot, planet=planet.number)
        d.todo.append({"t": "explored"})
        self.roll_exploration()
        self.run()

    def roll_exploration(self) -> None:
        d = self.d
        d.dice = [self.die(), self.die()]  # white first, then black (spec §4.4)
        self.emit("dice", f"exploration dice white {d.dice[0]} black {d.dice[1]}", dice_kind="exploration",
                  values=list(d.dice))
        timing = [i.id for i in self.pack.items.values() if self.timing_item_fits(i)]
        if timing:
            d.decision = {"kind": "item_timing", "items": timing}
        else:
            d.todo.append({"t": "resolve_roll"})

    def timing_item_fits(self, item: Item) -> bool:
        if not self.item_usable(item) or item.use is None or item.use["when"] != "after_exploration_roll":
            return False
        double = self.d.dice[0] == self.d.dice[1]
        req = item.use.get("requires", {})
        return not ((req.get("double") and not double) or (req.get("not_double") and double))

    def use_dice_item(self, item: Item, arg: str | None) -> None:
        d = self.d
        assert item.use is not None
        self.consume_item(item)
        mod = item.use.get("dice")
        if mod == "white_equals_black":
            d.dice[0] = d.dice[1]
        elif mod == "choose_double_value" and arg is not None:
            d.dice = [int(arg), int(arg)]
        elif mod == "die_minus_1" and arg is not None:
            i = 0 if arg == "white" else 1
            d.dice[i] = max(1, d.dice[i] - 1)
        self.emit("dice", f"dice changed to white {d.dice[0]} black {d.dice[1]}", dice_kind="item",
                  values=list(d.dice))
        d.decision = None
        if item.use.get("do"):
            self.push_ops(item.use["do"], item.id)
        d.todo.append({"t": "resolve_roll"})
        self.run()

    def resolve_roll(self) -> None:
        d = self.d
        assert d.exploring is not None
        planet = self.pack.planets[d.slot_planets[d.exploring]]
        white, black = d.dice
        if white == black:  # KYR-EXPLORE-05/06
            code = planet.double_script or f"A.{planet.number:02d}.{white + black:02d}"
            d.decision = {"kind": "offer", "code": code}
            self.emit("script_offered", f"double {white}: script {code} offered", code=code)
            return
        colour = "black" if black > white else "white"  # KYR-EXPLORE-03/04
        self.emit("arrow", f"{colour} arrow of {planet.name}", colour=colour)
        self.push_ops(list(getattr(planet, colour)), f"{planet.number}/{colour}")

    def read_offered(self) -> None:
        dec = self.d.decision
        assert dec is not None
        self.d.decision = None
        self.read_script(dec["code"], eog=False, main=True)
        self.run()

    def refuse_offered(self) -> None:
        dec = self.d.decision
        assert dec is not None
        self.d.decision = None
        self.emit("script_refused", f"refused {dec['code']}; re-rolling", code=dec["code"])
        self.roll_exploration()  # KYR-EXPLORE-07: free re-roll
        self.run()

    # ------------------------------------------------------------------ encounters (KYR-ENC)
    def encounter(self) -> None:
        d = self.d
        if not d.encounter_deck:
            return
        eid = d.encounter_deck.pop(0)
        self.reveal()
        d.encounter_in_play = eid
        enc = self.pack.encounters[eid]
        self.emit("encounter", f"encounter: {enc.name}", id=eid)
        d.todo.append({"t": "end_encounter"})
        if enc.kind == "danger":
            if self.opt.get("craft_before_encounter_roll"):
                d.decision = {"kind": "encounter_roll", "id": eid}
            else:
                self.danger_roll()
        elif enc.kind == "trader":
            if self.trades():
                d.decision = {"kind": "trader"}
            else:
                self.emit("trader_nothing", "nothing to trade")
        else:
            self.read_script(self.pack.rules["black_hole_script"], eog=False)  # KYR-ENC-09

    def danger_roll(self) -> None:
        d = self.d
        assert d.encounter_in_play is not None
        enc = self.pack.encounters[d.encounter_in_play]
        white, black = self.die(), self.die()
        self.emit("dice", f"encounter dice white {white} black {black}", dice_kind="encounter", values=[white, black])
        if white == black:  # KYR-ENC-03, KYR-AMB-40
            self.emit("encounter_cancelled", f"{enc.name} cancelled by a double")
            return
        arrow = enc.black if black > white else enc.white
        assert arrow is not None
        check = arrow.get("check")
        if check is None or self.value(check["res"]) < check["lt"]:  # KYR-ENC-04 strictly less
            self.push_ops(arrow["effects"], f"{enc.id}/{'black' if black > white else 'white'}")
        else:
            self.emit("encounter_passed", f"{enc.name}: check passed, no effect")

    def end_encounter(self) -> None:
        d = self.d
        if d.encounter_in_play is not None:
            d.encounter_removed.append(d.encounter_in_play)
            d.encounter_in_play = None

    def trades(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every legal trade (KYR-ENC-07/08, KYR-AMB-18) as (id, discovery refs)."""
        order = self.pack.discovery_order
        studied = [f"d{order.index(c['id']) + 1}" for c in self.d.inventory if c["studied"]]
        unstudied = [f"d{order.index(c['id']) + 1}" for c in self.d.inventory if not c["studied"]]
        out: list[tuple[str, tuple[str, ...]]] = []
        for t in self.pack.rules["trader"]:
            ((kind, n),) = t["give"].items()
            pool = sorted(studied if kind == "studied" else unstudied, key=lambda r: int(r[1:]))
            if n == 1:
                out += [(t["id"], (r,)) for r in pool]
            else:
                out += [(t["id"], (a, b)) for i, a in enumerate(pool) for b in pool[i + 1:]]
        return out

    def trade(self, tid: str, refs: tuple[str, ...]) -> None:
        trade = next(t for t in self.pack.rules["trader"] if t["id"] == tid)
        for ref in refs:
            self.remove_discovery(self.card(ref)["id"], "trade")
        for el, n in trade["get"].items():
            self.gain(el, n, f"trade {tid}")
        self.emit("traded", f"trade {tid}")
        self.d.decision = None
        self.run()

    # ------------------------------------------------------------------ validation and the end (KYR-OBJ, KYR-END)
    def validate(self) -> None:
        self.pay("fuel", int(self.pack.rules["validation_fuel_cost"]), "validation")
        self.emit("validated", f"objectives {' '.join(self.d.objectives)} validated")
        self.end_game("victory", f"validated in journey {self.d.journey}")
        self.run()

    def end_game(self, outcome: str, reason: str) -> None:
        """KYR-END-04 steps 1-2 now; 3-6 as tasks (end script, market, discard, finish)."""
        d = self.d
        d.todo.clear()
        d.decision = None
        d.window_open = False
        k_np = knowledge_np(d.gauges["knowledge"], self.pack.rules["knowledge_np"])
        disc_np = sum(self.pack.discoveries[c["id"]].notoriety for c in d.inventory if c["studied"])
        if outcome == "victory":
            j_np = int(self.pack.rules["journey_np"][d.journey - 1])
            np = {"knowledge": k_np, "discovery": disc_np, "journey": j_np, "script": d.script_np}
            total = k_np + disc_np + j_np + d.script_np
        else:
            with_disc = bool(self.opt.get("discovery_np_on_defeat"))  # KYR-AMB-11
            np = {"knowledge": k_np, "discovery": disc_np if with_disc else 0, "journey": 0, "script": d.script_np}
            total = (k_np + d.script_np + (disc_np if with_disc else 0)) // 2  # KYR-AMB-13
        np["total"] = total
        d.result = {"outcome": outcome, "reason": reason, "journey_at_end": d.journey, "np": np}
        self.emit("game_ended", f"{outcome}: {reason}", outcome=outcome, reason=reason)
        camp = d.camp
        camp["np_bank"] += total
        self.emit("notoriety_computed", f"NP {total} (bank {camp['np_bank']})", **np)
        row = next(r for r in camp["scoreboard"] if r["game"] == d.game)
        row["result"] = outcome
        row["np"] = total
        self.emit("scoreboard", f"scoreboard row for game {d.game} written", game=d.game)
        d.todo += [{"t": "end_step", "step": s} for s in ("finish", "discard", "market", "script")]

    def end_step(self, step: str) -> None:
        d = self.d
        if step == "script":
            code = self.pack.game_entry(d.game).get("end_script")
            if code:
                self.read_script(code, eog=True)
        elif step == "market":
            d.reading = None
            d.decision = {"kind": "market"}
            self.emit("market", "the Thoth market is open")
        elif step == "discard":
            for card in d.inventory:  # KYR-DISC-05
                d.discovery_discard.append(card["id"])
            d.inventory = []
            self.emit("discard_all", "all discovery cards discarded; narrative discoveries kept")
        elif step == "finish":
            d.camp["next_game"] = d.game + 1
            d.finished = True
            self.emit("finished", f"game {d.game} finished")

    def buy(self, item: Item) -> None:
        self.d.camp["np_bank"] -= item.cost
        self.grant_item(item.id, f"bought for {item.cost} NP")

    def close_market(self) -> None:
        self.d.decision = None
        self.run()


GAUGE_NAMES = GAUGES
