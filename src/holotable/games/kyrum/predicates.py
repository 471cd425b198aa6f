"""Spec §6.6 conditions: script predicates, roll tests and the objectives' live status (KYR-OBJ-17)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from . import gauges

if TYPE_CHECKING:
    from .mechanics import Table

CMP: dict[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def discoveries_matching(tab: Table, flt: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for card in tab.d.inventory:
        if "studied" in flt and flt["studied"] is not None and card["studied"] != flt["studied"]:
            continue
        if "type" in flt and tab.pack.discoveries[card["id"]].type != flt["type"]:
            continue
        out.append(card)
    return out


def holds(tab: Table, p: Mapping[str, Any], roll: Mapping[str, Any] | None = None) -> bool:
    """Whether predicate ``p`` holds now (``roll``: the dice a script's ``roll`` op just threw)."""
    d = tab.d
    camp = d.camp
    if "res" in p:
        v = d.peaks.get(p["res"], 0) if p.get("check") == "peak" else gauges.value(tab, p["res"])
        return CMP[p["cmp"]](v, p["value"])
    if "flag" in p:
        return CMP[p["cmp"]](int(camp["flags"].get(p["flag"], 0)), int(p["value"]))
    if "discoveries" in p:
        return CMP[p["cmp"]](len(discoveries_matching(tab, p["discoveries"])), p["value"])
    if "distinct_studied_types" in p:
        q = p["distinct_studied_types"]
        n = len({tab.pack.discoveries[c["id"]].type for c in d.inventory if c["studied"]})
        return CMP[q["cmp"]](n, q["value"])
    if "script_seen" in p:
        return bool(p["script_seen"] in camp["scripts_seen"])
    if "narrative" in p:
        return any(nd["nd_id"] == p["narrative"] and nd["state"] == p["state"] for nd in camp["narratives"])
    if "game" in p:
        return CMP[p["game"]["cmp"]](d.game, p["game"]["value"])
    if "journey" in p:
        return CMP[p["journey"]["cmp"]](d.journey, p["journey"]["value"])
    if "item" in p:
        return gauges.owned(tab, p["item"]) > 0
    if "partner" in p:
        return bool(camp["partner"]["enabled"]) == bool(p["partner"])
    if "true" in p:
        return bool(p["true"])
    if "all" in p:
        return all(holds(tab, q, roll) for q in p["all"])
    if "any" in p:
        return any(holds(tab, q, roll) for q in p["any"])
    if "not" in p:
        return not holds(tab, p["not"], roll)
    if roll is not None:
        if "roll" in p:
            return CMP[p["roll"]["cmp"]](roll["total"], p["roll"]["value"])
        if "roll_double" in p:
            return (len(roll["dice"]) == 2 and roll["dice"][0] == roll["dice"][1]) == bool(p["roll_double"])
        if "roll_black_gt_white" in p:
            return (len(roll["dice"]) == 2 and roll["dice"][1] > roll["dice"][0]) == bool(
                p["roll_black_gt_white"])
    return False


def objective_status(tab: Table) -> dict[str, bool]:
    """Live status of each objective of the game (KYR-OBJ-17); narratives never count (KYR-OBJ-13)."""
    return {letter: holds(tab, tab.pack.objectives[letter]["predicate"]) for letter in tab.d.objectives}
