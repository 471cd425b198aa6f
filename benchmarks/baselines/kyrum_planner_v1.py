"""A frozen copy of Kyrum's ``planner`` bot before issue 18 (its blind spots: hoarded uncommons for
objective I, unstudied narratives, Thoth items bought and never used, always option 1, never a planet
whose distance die is above 4), used only by benchmarks/kyrum_planner.py as the "previous planner"
baseline. Do not change it. It builds on the ``heuristic`` bot (holotable.games.kyrum.bots), which
issue 18 left unchanged.

The original docstring follows.

Kyrum's objective-aware agent, registered as ``planner``: the ``heuristic`` agent that also plays for
the objectives it cannot see.

The ``heuristic`` agent (spec §8 GreedyBot) only steers towards the gauge objectives (A-D, N); it
spends every element it gets and never tops fuel up past 5, so objectives that ask to *keep*
elements (I, J, K, Q) or fuel (M), or to study given discovery types (G, L, O), are met by chance
only (``holotable simulate kyrum --schedule`` showed 0 wins in 120 games with J and in 90 with M).
To judge the schedule's difficulty, this agent adds, from the objectives in its view only:

* a reserve of elements that the element objectives ask for; studying, distance crafts and
  non-urgent fuel use only the elements above it (health and ship repairs may still use any, a
  suit repair only while a breach could be fatal);
* studying discoveries of the types an objective needs first;
* with objective M, topping fuel up to the mark once every other objective holds.

Everything else is the heuristic's. Like it, it reads only the view and the public pack.
"""

from __future__ import annotations

from typing import Any

from holotable.games.kyrum.bots import KyrumHeuristic
from holotable.games.kyrum.pack import ELEMENTS, Pack

#: Elements to keep for each element objective of the demo pack (letters are pack data; unknown
#: letters ask for nothing).
RESERVES: dict[str, dict[str, int]] = {
    "I": {"uncommon": 6},
    "J": {"common": 6, "uncommon": 2},
    "K": {"rare": 5},
    "Q": {"rare": 2, "uncommon": 4},
}
#: Discovery types an objective wants studied.
WANTED_TYPES: dict[str, tuple[str, ...]] = {"G": ("plant",), "O": ("mineral", "fossil")}
FUEL_MARK = {"M": 12}


def letters(view: dict[str, Any]) -> list[str]:
    """The letters of this game's objectives."""
    return [str(o["letter"]) for o in view["objectives"]]


def reserve(view: dict[str, Any]) -> dict[str, int]:
    """Elements of each kind to keep for this game's element objectives."""
    keep = dict.fromkeys(ELEMENTS, 0)
    for letter in letters(view):
        for el, n in RESERVES.get(letter, {}).items():
            keep[el] = max(keep[el], n)
    return keep


def spare(view: dict[str, Any], el: str) -> int:
    """Elements of kind ``el`` held above the reserve (negative when short)."""
    return int(view["elements"][el]) - reserve(view)[el]


class KyrumPlannerV1(KyrumHeuristic):
    """The heuristic agent plus element reserves, wanted discovery types and a fuel mark."""

    name = "planner-v1"

    def _choose(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str:
        if view["decision"] is None and "validate" not in legal:
            pick = self._fuel_mark(view, legal)
            if pick is not None:
                return pick
        return super()._choose(view, legal, pack)

    def _fuel_mark(self, view: dict[str, Any], legal: list[str]) -> str | None:
        """Objective M: once every other objective holds, craft fuel up to the mark with spare elements."""
        marks = [FUEL_MARK[x] for x in letters(view) if x in FUEL_MARK]
        others = [o for o in view["objectives"] if o["letter"] not in FUEL_MARK]
        if not marks or not all(o["satisfied"] for o in others) or view["gauges"]["fuel"] >= max(marks):
            return None
        for el in ("rare", "uncommon", "common"):
            if f"craft {el} fuel" in legal and spare(view, el) > 0:
                return f"craft {el} fuel"
        return None

    @staticmethod
    def _stay_alive(view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        """A suit repair from the reserve only when a breach could be fatal (a breach costs 1 health)."""
        pick = KyrumHeuristic._stay_alive(view, legal, pack)
        if pick == "craft uncommon suit" and spare(view, "uncommon") <= 0 and view["gauges"]["health"] > 2:
            return None
        return pick

    def _fix_objectives(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        pick = super()._fix_objectives(view, legal, pack)
        if pick is not None and spare(view, pick.split()[1]) <= 0:
            return None
        return pick

    def _study(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        if view["gauges"]["fuel"] < 3 and self._fuel_equivalents(view) - view["gauges"]["fuel"] < 4:
            return None
        types = {card["ref"]: card["type"] for card in view["inventory"]}
        wanted = {t for x in letters(view) for t in WANTED_TYPES.get(x, ())}
        studies = []
        for a in legal:
            words = a.split()
            if words[0] != "study" or not words[1].startswith("d"):
                continue
            if int(words[3]) > spare(view, words[2]):
                continue
            studies.append((types.get(words[1]) in wanted, int(words[3]), a))
        return max(studies)[2] if studies else None

    def _distance(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        pick = super()._distance(view, legal, pack)
        if pick is not None and spare(view, pick.split()[1]) < 2:
            return None
        return pick

    def _refuel(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        fuel = view["gauges"]["fuel"]
        if fuel >= 5:
            return None
        urgent = fuel < 2
        for el in ("common",) if fuel >= 2 else ("common", "uncommon", "rare"):
            if f"craft {el} fuel" in legal and (urgent or spare(view, el) > 0):
                return f"craft {el} fuel"
        return None
