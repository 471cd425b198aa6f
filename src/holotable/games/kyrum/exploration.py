"""Areas, distance dice, crafting and exploration (KYR-AREA, KYR-DIST, KYR-EXPLORE, KYR-JOURNEY)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from holotable.engine import chance as chances

from . import encounters, ending, gauges, script, words
from .decisions import Choice, ItemTiming, Offer
from .pack import Item, recipe_name
from .tasks import KyrumTask, Stack, pending

if TYPE_CHECKING:
    from .mechanics import Table


@dataclass(frozen=True, slots=True)
class RollDistance(KyrumTask):
    """Roll the area's distance dice (KYR-DIST-01), after a possible encounter."""

    t: ClassVar[str] = "distance"

    def run(self, tab: Table, stack: Stack) -> None:
        roll_distance(tab)


@dataclass(frozen=True, slots=True)
class ResolveRoll(KyrumTask):
    """Read the exploration dice: an arrow, or a double's script offer."""

    t: ClassVar[str] = "resolve_roll"

    def run(self, tab: Table, stack: Stack) -> None:
        resolve_roll(tab)


@dataclass(frozen=True, slots=True)
class Explored(KyrumTask):
    """The exploration's effects are over: its dice leave the table."""

    t: ClassVar[str] = "explored"

    def run(self, tab: Table, stack: Stack) -> None:
        tab.d.exploring = None
        tab.d.dice = []


# ---------------------------------------------------------------------------------------------- areas, distance
def reveal_area(tab: Table) -> None:
    d = tab.d
    d.area += 1
    d.areas_revealed += 1
    d.slot_planets = [d.planet_deck.pop(0) for _ in range(4)]
    tab.reveal()
    d.slot_dice = [0, 0, 0, 0]
    d.slot_explored = [False] * 4
    d.window_open = False
    names = ", ".join(tab.pack.planets[p].name for p in d.slot_planets)
    tab.emit("area", f"Journey {d.journey}, area {d.area}: {names}", planets=list(d.slot_planets))
    d.tasks.push(RollDistance())
    if d.planet_deck:  # KYR-AREA-02/03
        alert = tab.pack.planets[d.planet_deck[0]].back_alert
        tab.emit("alert", f"The next planet card's back: {'an alert' if alert else 'no alert'}", alert=alert)
        if alert:
            if d.encounter_deck:
                d.tasks.push(encounters.Encounter())
            else:
                tab.emit("encounter_none", "The encounter deck is empty: no encounter")  # KYR-ENC-02


def roll_distance(tab: Table) -> None:
    d = tab.d
    rolls = [gauges.die(tab) for _ in range(4)]
    d.slot_dice = sorted(rolls)  # KYR-DIST-01
    d.window_open = True
    rolled, laid = ", ".join(map(str, rolls)), ", ".join(map(str, d.slot_dice))
    tab.emit("dice", f"Distance dice: {rolled}, laid out as {laid}", dice_kind="distance", values=rolls,
             assigned=list(d.slot_dice))


def craft(tab: Table, el: str, recipe: str, slot: int | None) -> None:
    d = tab.d
    gauges.pay(tab, el, 1, f"crafting: {words.recipe(recipe)}")
    if recipe == "reroll":
        assert slot is not None
        old = d.slot_dice[slot]
        d.slot_dice[slot] = gauges.die(tab)
        die = words.slot_die(tab.pack, d.slot_planets, slot)
        tab.emit("die_rerolled", f"{die} is rolled again: {old} → {d.slot_dice[slot]}", slot=slot)
        resort(tab)
    elif recipe == "set1":
        assert slot is not None
        d.slot_dice[slot] = 1
        tab.emit("die_set", f"{words.slot_die(tab.pack, d.slot_planets, slot)} is set to 1", slot=slot)
        resort(tab)
    else:
        recipes = tab.pack.rules["crafting"][el]
        amount = next(r["gain"][recipe] for r in recipes if recipe_name(r) == recipe)
        gauges.gain(tab, recipe, amount, f"crafted from {words.resource(el)}")
    if script.choice_closed(tab):
        # KYR-AMB-42: options are recomputed after each craft; nothing can be taken any more
        dec = d.tasks.pop()
        assert isinstance(dec, Choice)
        tab.emit("choice_skipped", f"No option of '{dec.prompt}' can be taken")  # KYR-AMB-42
    if pending(d.tasks) is None:
        script.run(tab)


def resort(tab: Table) -> None:
    if tab.opt.get("resort_after_reroll"):  # KYR-AMB-03 alternative
        tab.d.slot_dice.sort()


def leave_area(tab: Table) -> None:
    d = tab.d
    d.window_open = False
    d.planet_discard += d.slot_planets
    d.slot_planets, d.slot_dice, d.slot_explored = [], [], []
    tab.emit("leave", f"You leave area {d.area} of journey {d.journey}")
    if d.planet_deck:
        reveal_area(tab)
    elif d.journey >= int(tab.pack.rules["journeys"]):
        ending.end_game(tab, "defeat", "journeys")  # KYR-JOURNEY-04
    else:
        d.journey += 1  # KYR-JOURNEY-02/03, KYR-AMB-05
        d.area = 0
        d.planet_deck = list(d.planet_discard)
        if tab.st is not None:
            chances.shuffle(tab.st, "shuffle", d.planet_deck)
        else:
            tab.rng.shuffle(d.planet_deck)
        d.planet_discard = []
        tab.emit("journey", f"Journey {d.journey} begins", journey=d.journey)
        reveal_area(tab)
    script.run(tab)


# ---------------------------------------------------------------------------------------------- exploring
def travel_cost(tab: Table, slot: int) -> int:
    discount = tab.d.discounts[0][0] if tab.d.discounts else 0
    return max(0, tab.d.slot_dice[slot] - discount)


def explore(tab: Table, slot: int) -> None:
    d = tab.d
    cost = travel_cost(tab, slot)
    if d.discounts:  # KYR-AMB-44: consumed by the declared exploration
        d.discounts[0][1] -= 1
        if d.discounts[0][1] <= 0:
            d.discounts.pop(0)
    d.window_open = False  # KYR-DIST-07
    if cost:
        gauges.pay(tab, "fuel", cost, f"travel to {tab.pack.planets[d.slot_planets[slot]].name}")
    d.slot_explored[slot] = True
    d.exploring = slot
    planet = tab.pack.planets[d.slot_planets[slot]]
    tab.emit("explore", f"You explore {planet.name} for {cost} fuel", slot=slot,
             planet=planet.number)
    d.tasks.push(Explored())
    roll_exploration(tab)
    script.run(tab)


def roll_exploration(tab: Table) -> None:
    d = tab.d
    d.dice = [gauges.die(tab), gauges.die(tab)]  # white first, then black (spec §4.4)
    tab.emit("dice", f"Exploration dice: white {d.dice[0]}, black {d.dice[1]}", dice_kind="exploration",
             values=list(d.dice))
    timing = tuple(i.id for i in tab.pack.items.values() if timing_item_fits(tab, i))
    if timing:
        d.tasks.push(ItemTiming(timing))
    else:
        d.tasks.push(ResolveRoll())


def timing_item_fits(tab: Table, item: Item) -> bool:
    if not gauges.item_usable(tab, item) or item.use is None or item.use["when"] != "after_exploration_roll":
        return False
    double = tab.d.dice[0] == tab.d.dice[1]
    req = item.use.get("requires", {})
    return not ((req.get("double") and not double) or (req.get("not_double") and double))


def use_dice_item(tab: Table, item: Item, arg: str | None) -> None:
    d = tab.d
    assert item.use is not None
    gauges.consume_item(tab, item)
    mod = item.use.get("dice")
    if mod == "white_equals_black":
        d.dice[0] = d.dice[1]
    elif mod == "choose_double_value" and arg is not None:
        d.dice = [int(arg), int(arg)]
    elif mod == "die_minus_1" and arg is not None:
        i = 0 if arg == "white" else 1
        d.dice[i] = max(1, d.dice[i] - 1)
    tab.emit("dice", f"The dice become white {d.dice[0]}, black {d.dice[1]}", dice_kind="item",
             values=list(d.dice))
    d.tasks.pop()  # the item-timing decision
    if item.use.get("do"):
        script.push_ops(tab, item.use["do"], item.id)
    d.tasks.push(ResolveRoll())
    script.run(tab)


def skip_items(tab: Table) -> None:
    """No item for the exploration dice: read them as they are."""
    tab.d.tasks.pop()  # the item-timing decision
    tab.d.tasks.push(ResolveRoll())
    script.run(tab)


def resolve_roll(tab: Table) -> None:
    d = tab.d
    assert d.exploring is not None
    planet = tab.pack.planets[d.slot_planets[d.exploring]]
    white, black = d.dice
    if white == black:  # KYR-EXPLORE-05/06
        code = planet.double_script or f"A.{planet.number:02d}.{white + black:02d}"
        d.tasks.push(Offer(code))
        tab.emit("script_offered", f"A double {white}: booklet entry {code} may be read", code=code)
        return
    colour = "black" if black > white else "white"  # KYR-EXPLORE-03/04
    tab.emit("arrow", f"{planet.name}'s {colour} arrow", colour=colour)
    script.push_ops(tab, list(getattr(planet, colour)), f"{planet.number}/{colour}")


def read_offered(tab: Table) -> None:
    dec = tab.d.tasks.pop()
    assert isinstance(dec, Offer)
    script.read_script(tab, dec.code, eog=False, main=True)
    script.run(tab)


def refuse_offered(tab: Table) -> None:
    dec = tab.d.tasks.pop()
    assert isinstance(dec, Offer)
    tab.emit("script_refused", f"Booklet entry {dec.code} not read: the dice are rolled again", code=dec.code)
    roll_exploration(tab)  # KYR-EXPLORE-07: free re-roll
    script.run(tab)
