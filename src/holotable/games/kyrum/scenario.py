"""Arranged starts for Kyrum scenarios (the ``arrange`` hook, docs/scenarios.md; spec §10 test helper).

Keys (all optional): ``gauges`` and ``elements`` (partial objects), ``journey``, ``area``,
``slots`` ([{planet, die, explored}] x 4), ``window_open``, ``planet_deck_top_first``,
``encounter_deck_top_first``, ``discovery_deck_top_first``, ``inventory`` ([{id, paid?, studied?}]),
``narratives`` (campaign records), ``items`` ({id: owned}), ``flags``, ``np_bank``, ``script_np``,
``dice`` (die faces used before the RNG, spec §10 ``FixedDice``: the same as the scenario's
``"chance": {"die": [...]}``, which also scripts the journey-end reshuffle, ``shuffle``, and a
discovery discarded at random, ``discard``).
Card conservation (P-K-04) is restored: planets not placed go to the discard pile, encounters not
in the deck are removed, discoveries not in deck or inventory are discarded.

>>> import holotable
>>> st = holotable.load("kyrum").new_state(1, seed=0)
>>> st.arrange({"gauges": {"fuel": 3}, "dice": [6, 6]})
>>> st.data.gauges["fuel"], st.script["die"]
(3, (6, 6))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from holotable.engine import ScenarioError, State
from holotable.engine import chance as chances

from .pack import ELEMENTS, GAUGES, Pack
from .state import KyrumData

KEYS = ("gauges", "elements", "journey", "area", "slots", "window_open", "planet_deck_top_first",
        "encounter_deck_top_first", "discovery_deck_top_first", "inventory", "narratives", "items", "flags",
        "np_bank", "script_np", "dice")


def _int(name: str, v: Any, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ScenarioError(f"{name!r} must be an integer {lo}..{hi}, got {v!r}")
    return v


def chance_events(st: State[KyrumData, Any]) -> dict[str, chances.Check]:
    """``die``: die faces (1..6) in the order rolled; ``shuffle``: the planet deck reshuffled from the
    discards at a journey's end (KYR-JOURNEY-02), top first; ``discard``: the id of a discovery
    discarded at random."""
    from .rules import pack_of  # rules imports this module

    pack = pack_of(st.config)

    def planet(value: Any, where: str) -> int:
        if isinstance(value, bool) or value not in pack.planets:
            raise ScenarioError(f"{where}: unknown planet {value!r}")
        return int(value)

    def discovery(value: Any, where: str) -> str:
        if value not in pack.discoveries:
            raise ScenarioError(f"{where}: unknown discovery {value!r}")
        return str(value)

    return {"die": chances.integer(1, 6), "shuffle": chances.order(planet), "discard": discovery}


def arrange(st: State[KyrumData, Any], arrangement: Mapping[str, Any]) -> None:
    from .rules import pack_of  # rules imports this module

    data, pack = st.data, pack_of(st.config)
    unknown = sorted(set(arrangement) - set(KEYS))
    if unknown:
        raise ScenarioError(f"unknown arrangement key(s) {unknown} for kyrum; known: {list(KEYS)}")
    if data.decision is not None:
        raise ScenarioError("the set-up stopped at a decision; use another seed")
    d = data.copy()
    a = arrangement
    for g, v in dict(a.get("gauges", {})).items():
        if g not in GAUGES:
            raise ScenarioError(f"unknown gauge {g!r}")
        d.gauges[g] = _int(f"gauges.{g}", v, 0, int(pack.rules["gauges"][g]["max"]))
        d.peaks[g] = max(d.peaks.get(g, 0), d.gauges[g])
    for e, v in dict(a.get("elements", {})).items():
        if e not in ELEMENTS:
            raise ScenarioError(f"unknown element {e!r}")
        d.elements[e] = _int(f"elements.{e}", v, 0, int(pack.rules["elements"][e]))
    if "journey" in a:
        d.journey = _int("journey", a["journey"], 1, int(pack.rules["journeys"]))
    if "area" in a:
        d.area = _int("area", a["area"], 1, int(pack.rules["areas_per_journey"]))
        d.areas_revealed = (d.journey - 1) * int(pack.rules["areas_per_journey"]) + d.area
    if "slots" in a:
        slots = a["slots"]
        if not isinstance(slots, list) or len(slots) != 4:
            raise ScenarioError("'slots' lists 4 slots {planet, die, explored}")
        d.slot_planets = [_planet(pack, s.get("planet")) for s in slots]
        d.slot_dice = [_int("slots.die", s.get("die", 1), 1, 6) for s in slots]
        d.slot_explored = [bool(s.get("explored", False)) for s in slots]
    if "window_open" in a:
        d.window_open = bool(a["window_open"])
    all_planets = set(pack.planets)
    if "planet_deck_top_first" in a:
        d.planet_deck = [_planet(pack, p) for p in a["planet_deck_top_first"]]
    d.planet_deck = [p for p in d.planet_deck if p not in d.slot_planets]
    used = set(d.planet_deck) | set(d.slot_planets)
    if len(used) != len(d.planet_deck) + len(d.slot_planets):
        raise ScenarioError("a planet appears twice in the deck and the slots")
    d.planet_discard = sorted(all_planets - used)
    if "encounter_deck_top_first" in a:
        deck = list(a["encounter_deck_top_first"])
        if any(e not in pack.encounters for e in deck) or len(set(deck)) != len(deck):
            raise ScenarioError(f"bad encounter deck {deck}")
        in_game = set(d.encounter_deck) | set(d.encounter_removed)
        d.encounter_deck = deck
        d.encounter_removed = sorted(in_game - set(deck))
        if set(deck) - in_game:
            raise ScenarioError("the Black Hole is out of the game without a partner (KYR-SETUP-04)")
    if "inventory" in a:
        inv = []
        for rec in a["inventory"]:
            did = rec.get("id")
            if did not in pack.discoveries:
                raise ScenarioError(f"unknown discovery {did!r}")
            paid = dict.fromkeys(ELEMENTS, 0) | dict(rec.get("paid", {}))
            studied = bool(rec.get("studied", False))
            if studied:
                paid = dict(pack.discoveries[did].cost)
            inv.append({"id": did, "paid": paid, "waived": dict.fromkeys(ELEMENTS, 0), "studied": studied})
        d.inventory = inv
    if "discovery_deck_top_first" in a:
        d.discovery_deck = list(a["discovery_deck_top_first"])
    held = {c["id"] for c in d.inventory}
    d.discovery_deck = [x for x in d.discovery_deck if x not in held]
    if any(x not in pack.discoveries for x in d.discovery_deck) or len(set(d.discovery_deck)) != len(d.discovery_deck):
        raise ScenarioError("bad discovery deck")
    d.discovery_discard = sorted(set(pack.discoveries) - held - set(d.discovery_deck))
    if "narratives" in a:
        d.camp["narratives"] = [dict(n) for n in a["narratives"]]
    if "items" in a:
        d.camp["items"] = {iid: {"owned": _int(f"items.{iid}", n, 0, 9), "consumed": 0}
                           for iid, n in dict(a["items"]).items() if iid in pack.items}
    if "flags" in a:
        d.camp["flags"] = {str(k): int(v) for k, v in dict(a["flags"]).items()}
    if "np_bank" in a:
        d.camp["np_bank"] = _int("np_bank", a["np_bank"], 0, 10_000)
    if "script_np" in a:
        d.script_np = _int("script_np", a["script_np"], 0, 1000)
    st.data = d
    if "dice" in a:
        if not isinstance(a["dice"], list):
            raise ScenarioError(f"'dice' must be a list of die faces, got {a['dice']!r}")
        st.script_chance({"die": [_int("dice", v, 1, 6) for v in a["dice"]]})


def _planet(pack: Pack, p: Any) -> int:
    if p not in pack.planets:
        raise ScenarioError(f"unknown planet {p!r}")
    return int(p)
