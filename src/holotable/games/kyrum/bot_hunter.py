"""Kyrum's script hunter (spec §8 ScriptHunterBot), registered as ``hunter``: the ``heuristic`` agent
playing to read main scripts it has not read yet (for content QA: how much of the booklet a campaign
reaches).

Main scripts come from exploration doubles (KYR-EXPLORE-05/06): a planet's double ``v`` reads its
script ``A.<planet>.<2v>`` (or the planet's one special script). Which of them the campaign has read
is public (the tracking list), so the hunter:

* values a planet by its unread scripts too: each unread one is a 1-in-36 chance per exploration,
  worth :data:`UNSEEN_BONUS`;
* reads every unread script offered, and refuses a read one while the planet still has unread
  scripts (the re-roll is free and may roll a new double);
* uses the dice items on unread scripts: the Resonance Tuner (T05) when setting the white die to the
  black one gives an unread script, the Harmonic Dial (T06) to turn a double into one of an unread script;
* buys those two items first at the Thoth market.

Everything else is the heuristic's. It reads only the view, the legal actions and the public pack,
and draws no random numbers.
"""

from __future__ import annotations

from typing import Any

from .bot_values import double_code
from .bots import MARKET_PRIORITY, KyrumHeuristic, arrow_value
from .pack import Pack

#: Worth of reading one unread main script, in the heuristic's unit (a common element is 1).
UNSEEN_BONUS = 12.0
#: Dice items first, then the heuristic's order.
HUNTER_MARKET = ("T05", "T06", *(i for i in MARKET_PRIORITY if i not in ("T05", "T06")))


def unread_doubles(planet_number: int, view: dict[str, Any], pack: Pack) -> list[int]:
    """The double values (1-6) of this planet whose main script the campaign has not read."""
    seen = set(view["main_scripts_seen"])
    return [v for v in range(1, 7) if double_code(planet_number, v, pack) not in seen]


class KyrumScriptHunter(KyrumHeuristic):
    """The heuristic agent that values, reads and steers the dice towards unread main scripts."""

    name = "hunter"

    def _decide(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str:
        kind = dec["kind"]
        pick = None
        if kind == "offer":
            pick = self._offer(dec, view, legal, pack)
        elif kind == "item_timing":
            pick = self._dice_item(dec, view, legal, pack)
        elif kind == "market":
            pick = self._market(legal, pack)
        return pick if pick is not None and pick in legal else super()._decide(dec, view, legal, pack)

    def _exploring_planet(self, view: dict[str, Any]) -> int | None:
        slot = view["exploring"]
        return None if slot is None else int(view["slots"][slot]["planet"])

    def _offer(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        if dec["code"] not in view["main_scripts_seen"]:
            return "read"
        planet = self._exploring_planet(view)
        hope = planet is not None and unread_doubles(planet, view, pack)
        return "refuse" if hope else "read"

    def _dice_item(self, dec: dict[str, Any], view: dict[str, Any], legal: list[str], pack: Pack) -> str | None:
        planet = self._exploring_planet(view)
        if planet is None:
            return None
        white, black = view["dice"]
        unread = unread_doubles(planet, view, pack)
        for iid in dec["items"]:
            use = (pack.items[iid].use or {}).get("dice")
            ref = f"t{pack.item_order.index(iid) + 1}"
            if use == "white_equals_black" and white != black and black in unread:
                return f"use {ref}"
            if use == "choose_double_value" and white == black and white not in unread:
                for v in unread:
                    if f"use {ref} {v}" in legal:
                        return f"use {ref} {v}"
        return "skip"

    @staticmethod
    def _market(legal: list[str], pack: Pack) -> str:
        for iid in HUNTER_MARKET:
            if iid in pack.item_order and f"buy t{pack.item_order.index(iid) + 1}" in legal:
                return f"buy t{pack.item_order.index(iid) + 1}"
        return "close"

    def _planet_value(self, planet_number: int, view: dict[str, Any], pack: Pack) -> float:
        planet = pack.planets[planet_number]
        arrows = 5 / 12 * arrow_value(planet.white, view) + 5 / 12 * arrow_value(planet.black, view)
        return arrows + len(unread_doubles(planet_number, view, pack)) / 36 * UNSEEN_BONUS
