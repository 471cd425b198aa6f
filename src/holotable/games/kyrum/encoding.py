"""Black Hole: Kyrum's RL observation encoder: a fixed vector in [0, 1] from the player's view.

The layout does not depend on the content pack: cards are placed by their pack position
(planet ``k``-th in number order, discovery ``d1..``, encounter in pack order, item ``t1..``,
narrative ``n1..``) up to fixed caps, and gauges are divided by the pack's own maxima (the
factory reads them once per configuration). Counts are divided by a generous largest value
and clipped into [0, 1]. Only the view is read (:func:`make_encoder`), so an observation
carries nothing the player may not see (deck order, unread scripts, future dice); the tests
hold it to that under determinisation.

With the generic Gymnasium and PettingZoo adapters this gives the solo game's environments:

>>> from holotable.rl.gym_env import HolotableGymEnv
>>> env = HolotableGymEnv("kyrum", players=1, seat=0)
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape == (SIZE,), obs["action_mask"].shape
(True, (2676,))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from holotable.engine import Config
from holotable.rl.encoding import EncoderSpec

from .pack import ELEMENTS, GAUGES, MAX_ITEMS, MAX_NARRATIVES, MAX_OPTIONS, pack_with_overrides

MAX_PLANETS = 32
MAX_DISCOVERIES = 15
MAX_ENCOUNTERS = 16
MAX_GAMES = 30
SLOTS = 4
LETTERS = tuple(chr(c) for c in range(ord("A"), ord("Z") + 1))
PHASES = ("AREA", "DISTANCE_WINDOW", "EXPLORATION", "SCRIPT", "TRADER", "ENCOUNTER", "GAME_OVER")
DECISIONS = ("offer", "item_timing", "choice", "discard", "trader", "partner", "encounter_roll", "market")
_OWED = (*ELEMENTS, "any")

GLOBAL_FEATURES: tuple[str, ...] = (
    "terminal",
    "game_number",  # / 30
    *[f"phase_{p}" for p in PHASES],
    "journey",  # / journeys
    "journey_np",  # / 6
    "area",  # / areas per journey
    "areas_revealed",  # / (journeys x areas per journey)
    *[f"objective_{x}" for x in LETTERS],
    *[f"satisfied_{x}" for x in LETTERS],
    "all_satisfied",
    *[f"gauge_{g}" for g in GAUGES],  # / the gauge's maximum
    *[f"element_{e}" for e in ELEMENTS],  # / the supply's size
    "distance_window",
    "top_back_alert",
    "planet_deck",  # / 32
    "planet_discard",  # / 32
    "encounter_deck",  # / 16
    "discovery_deck",  # / 15
    "discovery_discard",  # / 15
    "travel_discounts",  # discounts waiting / 4
    "script_np",  # / 20
    "np_bank",  # / 100
    *[f"exploring_{s}" for s in range(SLOTS)],
    "dice",  # dice on the table
    "die_white",  # / 6
    "die_black",  # / 6
    *[f"decision_{k}" for k in DECISIONS],
    *[f"option_{i}" for i in range(1, MAX_OPTIONS + 1)],  # enabled options of a script choice
    "decision_eog",  # the choice belongs to the end-of-game script
    "discard_studied",  # a discard decision asks for a studied card
    "reading",  # a page (a script or an encounter card) is being read
    "victory",
    "defeat",
    "main_scripts_read",  # / the pack's main scripts
    "partner",
)
SLOT_FEATURES: tuple[str, ...] = ("present", "danger", "die", "explored", *[f"planet_{k}" for k in range(MAX_PLANETS)])
DISCOVERY_FEATURES: tuple[str, ...] = ("held", "studied", *[f"owed_{e}" for e in ELEMENTS])  # owed / 6
NARRATIVE_FEATURES: tuple[str, ...] = ("active", *[f"owed_{e}" for e in _OWED])  # owed / 6
ITEM_FEATURES: tuple[str, ...] = ("owned", "used")  # / 3
FEATURES: tuple[str, ...] = (
    *GLOBAL_FEATURES,
    *[f"slot{s}_{name}" for s in range(SLOTS) for name in SLOT_FEATURES],
    *[f"d{k}_{name}" for k in range(1, MAX_DISCOVERIES + 1) for name in DISCOVERY_FEATURES],
    *[f"n{k}_{name}" for k in range(1, MAX_NARRATIVES + 1) for name in NARRATIVE_FEATURES],
    *[f"t{k}_{name}" for k in range(1, MAX_ITEMS + 1) for name in ITEM_FEATURES],
    *[f"encounter_in_play_{k}" for k in range(MAX_ENCOUNTERS)],
    *[f"encounter_removed_{k}" for k in range(MAX_ENCOUNTERS)],
)
SIZE = len(FEATURES)
INDEX = {name: i for i, name in enumerate(FEATURES)}


def _unit(x: float) -> float:
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


def make_encoder(config: Config) -> Callable[[Mapping[str, Any]], list[float]]:
    """The encoder of one configuration: the pack's maxima and card orders are read once."""
    pack = pack_with_overrides(config["pack"], config.data)
    rules = pack.rules
    gauge_max = {g: max(1, int(rules["gauges"][g]["max"])) for g in GAUGES}
    supply = {e: max(1, int(rules["elements"][e])) for e in ELEMENTS}
    journeys, areas = max(1, int(rules["journeys"])), max(1, int(rules["areas_per_journey"]))
    planet_slot = {n: k for k, n in enumerate(sorted(pack.planets)) if k < MAX_PLANETS}
    encounter_slot = {e: k for k, e in enumerate(pack.encounters) if k < MAX_ENCOUNTERS}
    item_slot = {iid: k for k, iid in enumerate(pack.item_order, start=1) if k <= MAX_ITEMS}
    main_total = max(1, len(pack.main_codes()))

    def encode(view: Mapping[str, Any]) -> list[float]:
        out = [0.0] * SIZE

        def put(name: str, value: float) -> None:
            out[INDEX[name]] = _unit(value)

        put("terminal", float(bool(view["terminal"])))
        put("game_number", view["game_number"] / MAX_GAMES)
        _flag(out, "phase", view["phase"], PHASES)
        put("journey", view["journey"] / journeys)
        put("journey_np", view["journey_np"] / 6)
        put("area", view["area"] / areas)
        put("areas_revealed", view["areas_revealed"] / (journeys * areas))
        objectives: Sequence[Mapping[str, Any]] = view["objectives"]
        for obj in objectives:
            if obj["letter"] in LETTERS:
                put(f"objective_{obj['letter']}", 1.0)
                put(f"satisfied_{obj['letter']}", float(bool(obj["satisfied"])))
        put("all_satisfied", float(all(obj["satisfied"] for obj in objectives)))
        for g in GAUGES:
            put(f"gauge_{g}", view["gauges"][g] / gauge_max[g])
        for e in ELEMENTS:
            put(f"element_{e}", view["elements"][e] / supply[e])
        put("distance_window", float(bool(view["distance_window"])))
        put("top_back_alert", float(bool(view["top_planet_back_alert"])))
        put("planet_deck", view["planet_deck_size"] / MAX_PLANETS)
        put("planet_discard", len(view["planet_discard"]) / MAX_PLANETS)
        put("encounter_deck", view["encounter_deck_size"] / MAX_ENCOUNTERS)
        put("discovery_deck", view["discovery_deck_size"] / MAX_DISCOVERIES)
        put("discovery_discard", len(view["discovery_discard"]) / MAX_DISCOVERIES)
        put("travel_discounts", len(view["travel_discounts"]) / 4)
        put("script_np", view["script_np"] / 20)
        put("np_bank", view["np_bank"] / 100)
        if view["exploring"] is not None and 0 <= view["exploring"] < SLOTS:
            put(f"exploring_{view['exploring']}", 1.0)
        dice: Sequence[int] = view["dice"]
        if dice:
            put("dice", 1.0)
            put("die_white", dice[0] / 6)
            if len(dice) > 1:
                put("die_black", dice[1] / 6)
        _decision(out, view["decision"])
        put("reading", float(bool(view["pages"])))
        result = view["result"]
        if result is not None:
            put("victory" if result["outcome"] == "victory" else "defeat", 1.0)
        put("main_scripts_read", view["main_scripts_read"] / main_total)
        put("partner", float(bool(view["partner"])))
        for s in view["slots"][:SLOTS]:
            base = f"slot{s['slot']}_"
            put(base + "present", 1.0)
            put(base + "danger", s["danger"] / 6)
            put(base + "die", s["die"] / 6)
            put(base + "explored", float(bool(s["explored"])))
            k = planet_slot.get(s["planet"])
            if k is not None:
                put(f"{base}planet_{k}", 1.0)
        for card in view["inventory"]:
            k = int(card["ref"][1:])
            if k > MAX_DISCOVERIES:
                continue
            put(f"d{k}_held", 1.0)
            put(f"d{k}_studied", float(bool(card["studied"])))
            for e in ELEMENTS:
                put(f"d{k}_owed_{e}", _owed(card, e) / 6)
        for nd in view["narratives"]:
            ref = nd.get("ref")
            if not ref or int(ref[1:]) > MAX_NARRATIVES:
                continue
            put(f"{ref}_active", 1.0)
            for e in _OWED:
                put(f"{ref}_owed_{e}", _owed(nd, e) / 6)
        for iid, rec in view["items"].items():
            t = item_slot.get(iid)
            if t is not None:
                put(f"t{t}_owned", rec["owned"] / 3)
                put(f"t{t}_used", rec["used_this_game"] / 3)
        if view["encounter_in_play"] in encounter_slot:
            put(f"encounter_in_play_{encounter_slot[view['encounter_in_play']]}", 1.0)
        for eid in view["encounter_removed"]:
            if eid in encounter_slot:
                put(f"encounter_removed_{encounter_slot[eid]}", 1.0)
        return out

    return encode


def _owed(card: Mapping[str, Any], key: str) -> int:
    cost: Mapping[str, int] = card["cost"]
    return int(cost.get(key, 0)) - int(card["paid"].get(key, 0)) - int(card["waived"].get(key, 0))


def _flag(out: list[float], prefix: str, value: Any, choices: Sequence[str]) -> None:
    if value in choices:
        out[INDEX[f"{prefix}_{value}"]] = 1.0


def _decision(out: list[float], dec: Mapping[str, Any] | None) -> None:
    if dec is None:
        return
    _flag(out, "decision", dec["kind"], DECISIONS)
    if dec["kind"] == "choice":
        for i, ok in enumerate(dec.get("enabled") or []):
            if ok and i < MAX_OPTIONS:
                out[INDEX[f"option_{i + 1}"]] = 1.0
        out[INDEX["decision_eog"]] = float(bool(dec.get("eog")))
    if dec["kind"] == "discard":
        out[INDEX["discard_studied"]] = float(bool(dec.get("studied")))


#: The ``encoder`` role of the manifest.
ENCODER = EncoderSpec(make_encoder, SIZE)
