"""Kyrum's heuristic agent (spec §8 GreedyBot), registered as ``heuristic``.

It reads only the player's view, the legal actions and the (public) content pack: planet arrows
are printed on the cards, so valuing them is what a human does too. Its own RNG never touches the
game's dice (spec §4.4).
"""

from __future__ import annotations

from typing import Any

from holotable.agents.base import Agent, Observation

from .pack import Pack, pack_with_overrides

#: Rough worth of one unit of each outcome (spec §8 item 4: value / cost ordering).
WORTH = {"common": 1.0, "uncommon": 1.6, "rare": 3.0, "draw_discovery": 2.2, "suit": -0.8, "ship": -1.5,
         "health": -2.5, "fuel": 0.5, "knowledge": 1.5, "firepower": 1.0}
MARKET_PRIORITY = ("T01", "T02", "T08", "T05", "T06", "T03", "T07", "T04")
GAUGE_GOALS = {"B": ("ship", 6, "uncommon"), "A": ("health", 6, "rare"), "D": ("suit", 6, "uncommon"),
               "C": ("firepower", 6, "uncommon"), "N": ("firepower", 3, "uncommon")}


def arrow_value(ops: Any, view: dict[str, Any]) -> float:
    total = 0.0
    for op in ops:
        if op["op"] == "draw_discovery":
            total += WORTH["draw_discovery"] * op.get("n", 1)
        elif op["op"] in ("gain", "lose"):
            sign = 1 if op["op"] == "gain" else -1
            w = WORTH.get(op["res"], 0.5)
            if op["op"] == "lose":
                w = abs(w)
                if op["res"] == "suit" and view["gauges"]["suit"] <= op["n"]:
                    w += 2.5  # a breach costs health
                if op["res"] in ("health", "ship") and view["gauges"][op["res"]] <= op["n"] + 1:
                    w += 6.0  # close to a defeat
            total += sign * w * op["n"]
    return total


class KyrumHeuristic(Agent):
    """Greedy: validate when possible, fix gauge objectives, study, explore by value per fuel, leave."""

    name = "heuristic"

    def act(self, obs: Observation) -> Any:
        view = obs.view
        legal = {str(a): a for a in obs.legal}
        pack = pack_with_overrides(obs.config["pack"], obs.config.data)  # the data overrides too
        choice = self._choose(view, list(legal), pack)
        return legal[choice] if choice in legal else obs.legal[0]

    # ------------------------------------------------------------------ decisions
    def _choose(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str:
        dec = view["decision"]
        if dec is not None:
            return self._decide(dec, view, legal, pack)
        if "validate" in legal:
            return "validate"
        for step in (self._stay_alive, self._fix_objectives, self._study, self._distance, self._refuel, self._explore):
            pick = step(view, legal, pack)
            if pick is not None and pick in legal:
                return pick
        return "leave" if "leave" in legal else legal[0]

    def _decide(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str:
        kind = dec["kind"]
        if kind == "offer":
            seen = dec["code"] in view["main_scripts_seen"]
            return "refuse" if seen and view["gauges"]["suit"] <= 2 and "refuse" in legal else "read"
        if kind == "market":
            for iid in MARKET_PRIORITY:
                if iid in pack.item_order:
                    buy = f"buy t{pack.item_order.index(iid) + 1}"
                    if buy in legal:
                        return buy
            return "close"
        if kind == "trader":
            needs_cards = any(o["letter"] in "FGHLOR" for o in view["objectives"])
            trade_a = [a for a in legal if a.startswith("trade a")]
            return trade_a[0] if trade_a and not needs_cards else "pass"
        if kind == "item_timing":
            return "skip"
        if kind == "choice":
            options = [a for a in legal if a.startswith("option")]
            if options:
                return options[0]
            fuel = [a for a in legal if a.startswith("craft")]
            return fuel[0] if fuel else legal[0]
        if kind == "encounter_roll":
            return "roll"
        return legal[0]

    # ------------------------------------------------------------------ TLDP steps
    @staticmethod
    def _fuel_equivalents(view: dict[str, Any]) -> int:
        el = view["elements"]
        return int(view["gauges"]["fuel"] + 2 * el["common"] + 3 * el["uncommon"] + 6 * el["rare"])

    @staticmethod
    def _stay_alive(view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        g = view["gauges"]
        for gauge, limit, element in (("health", 3, "rare"), ("ship", 3, "uncommon"), ("suit", 2, "uncommon")):
            if g[gauge] <= limit and f"craft {element} {gauge}" in legal:
                return f"craft {element} {gauge}"
        return None

    def _fix_objectives(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        for obj in view["objectives"]:
            goal = GAUGE_GOALS.get(obj["letter"])
            if goal is None or obj["satisfied"]:
                continue
            gauge, target, element = goal
            if view["gauges"][gauge] < target and view["elements"][element] > 0:
                return f"craft {element} {gauge}"
        return None

    def _study(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        if view["gauges"]["fuel"] < 3 and self._fuel_equivalents(view) - view["gauges"]["fuel"] < 4:
            return None  # keep elements for fuel (spec §8 item 2)
        studies = [a for a in legal if a.startswith("study d")]
        if not studies:
            return None
        return max(studies, key=lambda a: int(a.split()[-1]))

    def _distance(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        if not view["distance_window"]:
            return None
        best = self._best_slot(view, pack)
        if best is None:
            return None
        slot, _ = best
        die = view["slots"][slot]["die"]
        if die >= 4 and view["elements"]["uncommon"] >= 2 and f"craft uncommon set1 {slot}" in legal:
            return f"craft uncommon set1 {slot}"
        if die >= 5 and view["elements"]["common"] >= 2 and f"craft common reroll {slot}" in legal:
            return f"craft common reroll {slot}"
        return None

    def _planet_value(self, planet_number: int, view: dict[str, Any], pack: Pack) -> float:
        """Expected worth of exploring a planet (spec §8 item 4): each arrow 5/12, a double's script 1/6 × 3."""
        planet = pack.planets[planet_number]
        return 5 / 12 * arrow_value(planet.white, view) + 5 / 12 * arrow_value(planet.black, view) + 1 / 6 * 3.0

    def _best_slot(self, view: dict[str, Any], pack: Pack) -> tuple[int, float] | None:
        scored = [(s["slot"], self._planet_value(s["planet"], view, pack) / max(1, s["die"]))
                  for s in view["slots"] if not s["explored"]]
        return max(scored, key=lambda x: x[1]) if scored else None

    def _explore(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        options = []
        for s in view["slots"]:
            if f"explore {s['slot']}" not in legal:
                continue
            value = self._planet_value(s["planet"], view, pack)
            left = view["gauges"]["fuel"] + 2 * view["elements"]["common"] - s["die"]
            if value <= -0.5 or left < 1 or s["die"] > 4:
                continue
            options.append((value / max(1, s["die"]) - s["die"], s["slot"]))
        if not options:
            return None
        return f"explore {max(options)[1]}"

    def _refuel(self, view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        if view["gauges"]["fuel"] >= 5:
            return None
        for el in ("common",) if view["gauges"]["fuel"] >= 2 else ("common", "uncommon", "rare"):
            if f"craft {el} fuel" in legal:
                return f"craft {el} fuel"
        return None
