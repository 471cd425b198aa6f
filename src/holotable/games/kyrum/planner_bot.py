"""Kyrum's objective-aware agent, registered as ``planner``: the ``heuristic`` agent that also plays for
the objectives it cannot see, spends and keeps elements on a plan, and uses what it owns.

The ``heuristic`` agent (spec §8 GreedyBot) only steers towards the gauge objectives (A-D, N) and
spends every element it gets. This agent adds, from its view and the public pack only (the objectives'
predicates are printed on the objective cards):

* **Reserves, on a plan.** The element objectives (I, J, K, Q...) set a reserve. The reserve guards
  only *optional* spending (other studies, narratives, distance crafts, non-urgent fuel): crafts for an
  unmet gauge objective and studies an objective needs may take reserved elements, since both must
  hold at validation and elements come back. A reserve the supply cannot hold (the pack's element
  count) is cut to what can still be held, and dropped when the areas left cannot bring it (the
  objective is lost; the elements are better spent). (The first planner let the reserve block
  objective crafts: with C and I, firepower 6 needs six uncommons and I keeps all six, so it never
  won game 12.)
* **Studies.** Discoveries of the types an objective needs first, then narrative discoveries (story,
  knowledge and flags when studied: paid with spare elements the supply could not take more of, or in
  the last areas, since paid early they starve the objectives), then the rest.
* **Thoth items.** Star Charts (T04) before an exploration that costs 3 fuel or more; the Resonance
  Tuner (T05) to turn a poor arrow into a main script worth more (an unseen one, or a seen one whose
  effects it knows); the Harmonic Dial (T06) to choose the best main script of a double; the Field Lab
  (T07) on the costliest owed element of a study it is paying.
* **Choices.** Every enabled option is valued from its cost and its ``do`` ops (public: the script is
  being read); the best one is taken, not the first.
* **Exploring.** Planets are ranked like the heuristic's (value per fuel, cheap first), but a distance
  die of 5 or 6 is no longer out: such a planet is explored when its value per fuel is good and the fuel
  left, with what spare elements can craft, still covers a budget for the areas that remain.
* **Fuel.** Below 5 fuel it crafts from a spare element that no unmet gauge objective crafts with (commons,
  then rares, then uncommons), but only from commons while an objective wants studies; below 2 from any.
* **Fuel mark** (objective M): fuel is topped up to the mark once every other objective holds.

Like the heuristic it reads only the view, the legal actions and the public pack, and it draws no
random numbers (deterministic for a seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .bot_values import choice_options, double_code, option_value, script_value
from .bots import GAUGE_GOALS, KyrumHeuristic, arrow_value
from .pack import ELEMENTS, Pack

#: Worth of an unseen main script when choosing dice items and offers: about the mean worth of the demo
#: pack's main scripts (4.5 by :func:`ops_value`), and its story on top.
UNSEEN_SCRIPT = 5.0
#: Fuel kept for the validation itself and a margin.
FUEL_FLOOR = 2
#: Fuel (or fuel-equivalents) budgeted per area still to come when weighing a costly exploration.
FUEL_PER_AREA = 1.5
#: Least value per fuel for a planet whose distance die is 5 or 6.
COSTLY_VALUE_PER_FUEL = 0.5
FUEL_PER_ELEMENT = {"common": 2, "uncommon": 3, "rare": 6}
#: Elements of one kind an area can be counted on to bring (to judge whether a reserve can still be met).
GAINS_PER_AREA = 2
#: Least fuel held before paying into a narrative discovery.
NARRATIVE_FUEL = 7
#: Areas left in the game from which narratives are paid whatever the objectives.
NARRATIVE_LAST_AREAS = 3


# ---------------------------------------------------------------------------------------------- objectives
def letters(view: Mapping[str, Any]) -> list[str]:
    """The letters of this game's objectives."""
    return [str(o["letter"]) for o in view["objectives"]]


def _parts(pred: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [p for sub in pred["all"] for p in _parts(sub)] if "all" in pred else [pred]


def _predicates(view: Mapping[str, Any], pack: Pack, *, unmet: bool = False) -> list[Mapping[str, Any]]:
    out = []
    for o in view["objectives"]:
        if unmet and o["satisfied"]:
            continue
        obj = pack.objectives.get(str(o["letter"]))
        if obj is not None:
            out += _parts(obj["predicate"])
    return out


def element_needs(view: Mapping[str, Any], pack: Pack) -> dict[str, int]:
    """Elements of each kind the objectives ask to hold at validation, capped by the supply; none of a kind
    still so far short that the areas left cannot bring them (the objective is lost: spend them)."""
    keep = dict.fromkeys(ELEMENTS, 0)
    for p in _predicates(view, pack):
        if p.get("res") in ELEMENTS and p.get("cmp") in ("==", ">="):
            el = str(p["res"])
            keep[el] = max(keep[el], min(int(p["value"]), int(pack.rules["elements"][el])))
    reach = GAINS_PER_AREA * (areas_left(view, pack) + 1)  # the current area too
    for el, n in keep.items():
        if n - int(view["elements"][el]) > reach:
            keep[el] = 0
    return keep


def fuel_mark(view: Mapping[str, Any], pack: Pack) -> int | None:
    marks = [int(p["value"]) for p in _predicates(view, pack) if p.get("res") == "fuel" and p.get("cmp") == ">="]
    return max(marks) if marks else None


def wanted_types(view: Mapping[str, Any], pack: Pack) -> set[str]:
    """Discovery types an unmet objective wants studied."""
    return {str(p["discoveries"]["type"]) for p in _predicates(view, pack, unmet=True)
            if "type" in p.get("discoveries", {})}


def wants_any_study(view: Mapping[str, Any], pack: Pack) -> bool:
    """An unmet objective counts studied discoveries of any type (F, R) or distinct types (L)."""
    return any(("discoveries" in p and p["discoveries"].get("studied") and "type" not in p["discoveries"])
               or "distinct_studied_types" in p for p in _predicates(view, pack, unmet=True))


def spare(view: Mapping[str, Any], pack: Pack, el: str) -> int:
    """Elements of kind ``el`` held above the reserve (negative when short)."""
    return int(view["elements"][el]) - element_needs(view, pack)[el]


def crafting_elements(view: Mapping[str, Any]) -> set[str]:
    """Elements that the crafts of an unmet gauge objective use (uncommons for C's firepower...)."""
    return {GAUGE_GOALS[o["letter"]][2] for o in view["objectives"]
            if o["letter"] in GAUGE_GOALS and not o["satisfied"]}


def areas_left(view: Mapping[str, Any], pack: Pack) -> int:
    total = int(pack.rules["journeys"]) * int(pack.rules["areas_per_journey"])
    return max(0, total - int(view["areas_revealed"]))


def item_ref(pack: Pack, iid: str) -> str:
    return f"t{pack.item_order.index(iid) + 1}" if iid in pack.item_order else "t?"


class KyrumPlanner(KyrumHeuristic):
    """The heuristic agent plus plans for elements, studies, items, choices and costly planets."""

    name = "planner"

    # ------------------------------------------------------------------ decisions
    def _choose(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str:
        if view["decision"] is None and "validate" not in legal:
            for step in (self._fuel_mark, self._field_lab):
                pick = step(view, legal, pack)
                if pick is not None and pick in legal:
                    return pick
        return super()._choose(view, legal, pack)

    def _decide(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str:
        kind = dec["kind"]
        pick = None
        if kind == "choice":
            pick = self._best_option(dec, view, legal, pack)
        elif kind == "item_timing":
            pick = self._dice_item(dec, view, legal, pack)
        elif kind == "offer":
            pick = self._offer(dec, view, legal, pack)
        return pick if pick is not None and pick in legal else super()._decide(dec, view, legal, pack)

    def _best_option(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """The enabled option with the best value (its cost deducted), the first one on a tie."""
        options = choice_options(dec, pack)
        taken = [a for a in legal if a.startswith("option ")]
        if options is None or not taken:
            return None
        scored = [(option_value(options[int(a.split()[1]) - 1], view, pack), -int(a.split()[1]), a) for a in taken]
        return max(scored)[2]

    def _offer(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """Read an unseen script; a seen one only when its known effects beat a re-roll's arrow."""
        code = str(dec["code"])
        if code not in view["main_scripts_seen"]:
            return "read"
        if view["exploring"] is None:
            return None
        planet = pack.planets[view["slots"][view["exploring"]]["planet"]]
        reroll = (arrow_value(planet.white, view) + arrow_value(planet.black, view)) / 2
        return "read" if script_value(code, view, pack, UNSEEN_SCRIPT) >= reroll else "refuse"

    def _dice_item(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """T05 turns a poor arrow into a better script; T06 picks the best script of a double."""
        if view["exploring"] is None:
            return None
        planet = pack.planets[view["slots"][view["exploring"]]["planet"]]
        white, black = view["dice"]
        best: tuple[float, str] = (0.0, "skip")
        for iid in dec["items"]:
            use = (pack.items[iid].use or {}).get("dice")
            ref = item_ref(pack, iid)
            if use == "white_equals_black" and white != black:
                arrow = arrow_value(planet.black if black > white else planet.white, view)
                gain = script_value(double_code(planet.number, black, pack), view, pack, UNSEEN_SCRIPT) - arrow
                best = max(best, (gain - 0.5, f"use {ref}"))  # half a point: the item is good once a game
            elif use == "choose_double_value" and white == black:
                now = script_value(double_code(planet.number, white, pack), view, pack, UNSEEN_SCRIPT)
                for v in range(1, 7):
                    if v != white and f"use {ref} {v}" in legal:
                        gain = script_value(double_code(planet.number, v, pack), view, pack, UNSEEN_SCRIPT) - now
                        best = max(best, (gain - 0.5, f"use {ref} {v}"))
        return best[1]

    # ------------------------------------------------------------------ TLDP steps
    def _fuel_mark(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """Objective M: once every other objective holds, craft fuel up to the mark with spare elements."""
        mark = fuel_mark(view, pack)
        others = [o for o in view["objectives"] if not o["satisfied"]]
        if mark is None or view["gauges"]["fuel"] >= mark or len(others) > 1:
            return None
        if others and pack.objectives.get(str(others[0]["letter"]), {}).get("predicate", {}).get("res") != "fuel":
            return None
        for el in ("rare", "uncommon", "common"):
            if f"craft {el} fuel" in legal and spare(view, pack, el) > 0:
                return f"craft {el} fuel"
        return None

    def _field_lab(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """T07: waive the costliest still-owed element of the study it would pay first."""
        uses = [a.split() for a in legal if a.startswith("use ") and len(a.split()) == 4]
        if not uses:
            return None
        rank = {"rare": 3, "any": 2, "uncommon": 2, "common": 1}
        wanted = wanted_types(view, pack)
        types = {card["ref"]: card["type"] for card in view["inventory"]}
        best = max(uses, key=lambda w: (types.get(w[2]) in wanted, rank.get(w[3], 0), w[2].startswith("n"), w[2]))
        return " ".join(best)

    @staticmethod
    def _stay_alive(view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """A suit repair from the reserve only when a breach could be fatal (a breach costs 1 health)."""
        pick = KyrumHeuristic._stay_alive(view, legal, pack)
        if pick == "craft uncommon suit" and spare(view, pack, "uncommon") <= 0 and view["gauges"]["health"] > 2:
            return None
        return pick

    def _fix_objectives(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """Crafts for an unmet gauge objective may use reserved elements: both must hold at validation."""
        for obj in view["objectives"]:
            goal = GAUGE_GOALS.get(obj["letter"])
            if goal is None or obj["satisfied"]:
                continue
            gauge, target, element = goal
            if view["gauges"][gauge] < target and f"craft {element} {gauge}" in legal:
                return f"craft {element} {gauge}"
        return None

    def _study(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """Studies an objective needs first (they may use reserved elements), then narrative discoveries, then
        the rest; optional ones only from spare elements that no unmet gauge objective's crafts want, and
        narratives only when :meth:`_narrative_time` says so."""
        fuel = int(view["gauges"]["fuel"])
        if fuel < 3 and self._fuel_equivalents(view) - fuel < 4:
            return None  # keep elements for fuel (spec §8 item 2)
        types = {card["ref"]: card["type"] for card in view["inventory"]}
        wanted = wanted_types(view, pack)
        any_study = wants_any_study(view, pack)
        crafting = crafting_elements(view)
        studies = []
        for a in legal:
            words = a.split()
            if words[0] != "study":
                continue
            ref, el, n = words[1], words[2], int(words[3])
            kind = types.get(ref)
            needed = ref.startswith("d") and (kind in wanted or any_study)
            if not needed and (n > spare(view, pack, el) or el in crafting):
                continue  # optional spending only from elements above the reserve and the crafts' needs
            if ref.startswith("n") and not self._narrative_time(view, pack, el):
                continue
            rank = 3 if needed and kind in wanted else 2 if needed else 1 if ref.startswith("n") else 0
            studies.append((rank, n, a))
        return max(studies)[2] if studies else None

    @staticmethod
    def _narrative_time(view: dict[str, Any], pack: Pack, el: str) -> bool:
        """Whether to pay ``el`` into a narrative discovery now. A narrative is studied once a campaign and
        its script gives knowledge and story, but paying early starves the objectives (with five narratives
        open the planner won a third as often, even for knowledge objectives): so only when ``el`` is at the
        supply's limit (further gains would be lost) or in the last areas of the game."""
        if view["gauges"]["fuel"] < NARRATIVE_FUEL:
            return False
        return int(view["supply"][el]) == 0 or areas_left(view, pack) <= NARRATIVE_LAST_AREAS

    def _distance(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        pick = super()._distance(view, legal, pack)
        if pick is not None and spare(view, pack, pick.split()[1]) < 2:
            return None
        return pick

    def _refuel(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """Below 5 fuel, craft fuel from an element above the reserve that no unmet gauge objective crafts with:
        commons, then rares, then uncommons (the heuristic waits for fuel 2 before it burns anything but a
        common); below 2, from anything. While an objective wants studies (F, G, L, O, R) only commons go
        before fuel 2: the rares and uncommons pay the studies (burning them cost those games a fifth of
        their wins)."""
        fuel = int(view["gauges"]["fuel"])
        if fuel >= 5:
            return None
        top = int(pack.rules["gauges"]["fuel"]["max"])
        order = [el for el in ("common", "rare", "uncommon") if fuel + FUEL_PER_ELEMENT[el] <= top]
        if fuel >= 2 and (wants_any_study(view, pack) or wanted_types(view, pack)):
            order = order[:1] if order[:1] == ["common"] else []
        crafting = crafting_elements(view)
        for el in order:
            if el in crafting and el != "common":
                continue  # kept for an unmet gauge objective's crafts
            if f"craft {el} fuel" in legal and spare(view, pack, el) > 0:
                return f"craft {el} fuel"
        if fuel < 2:
            for el in ("common", "rare", "uncommon"):
                if f"craft {el} fuel" in legal and fuel + FUEL_PER_ELEMENT[el] <= top:
                    return f"craft {el} fuel"
        return None

    def _explore(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """The heuristic's ranking (value per fuel, cheap first) with a Star Chart discount and, for a
        die of 5 or 6, a fuel budget for the areas still to come."""
        discount = view["travel_discounts"][0][0] if view["travel_discounts"] else 0
        fuel = int(view["gauges"]["fuel"])
        spare_fuel = sum(FUEL_PER_ELEMENT[el] * max(0, spare(view, pack, el)) for el in ELEMENTS)
        budget = FUEL_FLOOR + FUEL_PER_AREA * min(areas_left(view, pack), 6)
        chart = item_ref(pack, "T04")
        chart_ready = not view["travel_discounts"] and f"use {chart}" in legal
        options = []
        for s in view["slots"]:
            if f"explore {s['slot']}" not in legal:
                continue
            value = self._planet_value(s["planet"], view, pack)
            charted = chart_ready and s["die"] >= 3
            cost = max(0, s["die"] - (2 if charted else discount))
            left = fuel + 2 * view["elements"]["common"] - cost
            if value <= -0.5 or left < 1:
                continue
            if cost > 4 and (value / cost < COSTLY_VALUE_PER_FUEL or fuel + spare_fuel - cost < budget):
                continue
            options.append((value / max(1, cost) - cost, s["slot"], charted))
        if not options:
            return None
        _, slot, charted = max(options)
        return f"use {chart}" if charted else f"explore {slot}"
