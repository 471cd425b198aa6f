"""What the player may see of a Kyrum game (KYR-AREA-04, KYR-AMB-34/38) and determinisation.

Public: the area, dice, the back of the top planet card, deck sizes, discard piles, removed
encounters, inventory, narratives, objectives with live status, journey, items, the pages read this
game (:mod:`.story`) and the partner messages heard.
Hidden: the order (and so the next faces) of the planet, encounter and discovery decks, the text of
scripts not read, and future dice. :func:`determinize` re-deals exactly those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holotable.engine import Rng

from .decisions import Choice
from .gauges import owned
from .pack import ELEMENTS
from .predicates import objective_status
from .script import enabled_options
from .state import KyrumData, jcopy
from .story import page_dict

if TYPE_CHECKING:
    from holotable.engine import State

    from .mechanics import Table


def phase(d: KyrumData) -> str:
    """The spec's phase name (KYR-TLDP-01), derived from the data."""
    if d.result is not None:
        return "GAME_OVER"
    dec = d.decision
    kind = dec.kind if dec is not None else None
    if kind in ("offer", "item_timing"):
        return "EXPLORATION"
    if kind in ("choice", "discard", "partner"):
        return "SCRIPT"
    if kind == "trader":
        return "TRADER"
    if kind == "encounter_roll":
        return "ENCOUNTER"
    return "DISTANCE_WINDOW" if d.window_open else "AREA"


def view(st: State[KyrumData, Any], seat: int | None) -> dict[str, Any]:
    if seat is None and st.config["private"]:  # a spectator of a private game learns only that it runs
        return {"private": True, "game_number": st.data.game, "phase": phase(st.data)}
    from .rules import table  # rules imports this module

    tab = table(st)
    d, pack = tab.d, tab.pack
    status = objective_status(tab)
    out: dict[str, Any] = {
        "pack": pack.pack_id,
        "game_number": d.game,
        "phase": phase(d),
        "journey": d.journey,
        "journey_np": pack.rules["journey_np"][d.journey - 1],
        "area": d.area,
        "areas_revealed": d.areas_revealed,
        "objectives": [{"letter": k, "title": pack.objectives[k].get("title", k),
                        "text": pack.objectives[k].get("text", ""), "satisfied": status[k]} for k in d.objectives],
        "gauges": dict(d.gauges),
        "elements": dict(d.elements),
        "supply": {e: int(pack.rules["elements"][e]) - d.elements[e] for e in ELEMENTS},
        # the card as printed (data overrides included): its arrows are what the bots value, so the
        # player's screens read them here too (lists: a view is JSON data)
        "slots": [{"slot": i, "planet": p, "name": pack.planets[p].name, "danger": pack.planets[p].danger,
                   "die": d.slot_dice[i], "explored": d.slot_explored[i],
                   "description": pack.planets[p].description, "white": list(pack.planets[p].white),
                   "black": list(pack.planets[p].black), "double_script": pack.planets[p].double_script}
                  for i, p in enumerate(d.slot_planets)],
        "journeys": int(pack.rules["journeys"]),
        "distance_window": d.window_open,
        "top_planet_back_alert": pack.planets[d.planet_deck[0]].back_alert if d.planet_deck else None,
        "planet_deck_size": len(d.planet_deck),
        "planet_discard": list(d.planet_discard),
        "encounter_deck_size": len(d.encounter_deck),
        "encounter_in_play": d.encounter_in_play,
        "encounter_removed": list(d.encounter_removed),
        "discovery_deck_size": len(d.discovery_deck),
        "discovery_discard": list(d.discovery_discard),
        "inventory": [_card(tab, c) for c in d.inventory],
        "narratives": [{**{k: jcopy(v) for k, v in nd.items()}, "ref": f"n{k}" if nd["state"] == "active" else None}
                       for k, nd in _numbered(d.camp["narratives"])],
        "travel_discounts": [list(x) for x in d.discounts],
        "items": {iid: {"name": pack.items[iid].name, "owned": owned(tab, iid), "used_this_game":
                        d.item_uses.get(iid, 0)} for iid in pack.item_order if owned(tab, iid) > 0},
        "script_np": d.script_np,
        "np_bank": d.camp["np_bank"],
        "exploring": d.exploring,
        "dice": list(d.dice),
        "decision": _decision(tab),
        **story_fields(d),
        "result": jcopy(d.result),
        "glossary_unlocked": sorted(d.camp["glossary"]),
        "main_scripts_read": len(d.camp["main_seen"]),
        "main_scripts_seen": list(d.camp["main_seen"]),
        "main_scripts_total": len(pack.main_codes()),
        "journal": jcopy(d.camp["journal"]),
        "scoreboard": jcopy(d.camp["scoreboard"]),
        "partner": bool(d.camp["partner"]["enabled"]),
    }
    return out


def story_fields(d: KyrumData) -> dict[str, Any]:
    """The story as the player has read it (never a page not read yet).

    ``pages``: what is being read now (since the last exploration, leaving or the end of the game),
    each with ``new`` when it was written after the player's last action; ``reading``: the last of
    them (``None`` when nothing is being read); ``story``: every page of this game in reading order;
    ``partner_log``: the Black Hole transmissions sent and heard, oldest first (``new``: heard in this
    game)."""
    story = [page_dict(p) for p in d.story]  # fresh lists: the state's pages are shared, never handed out
    pages = [{**story[i], "new": i >= d.story_shown or i in d.story_changed} for i in range(d.story_turn, len(story))]
    log = []
    for e in d.camp["partner_log"]:
        if e.get("sent") is not None:
            log.append({"direction": "sent", "game": e.get("game"), "text": e["sent"], "new": False})
        if e.get("received") and e.get("heard_in") is not None:
            log.append({"direction": "received", "game": e.get("partner_game", e.get("game")),
                        "from": e.get("from"), "text": e["received"], "heard_in": e["heard_in"],
                        "new": e["heard_in"] == d.game})
    return {"pages": pages, "reading": dict(pages[-1]) if pages else None, "story": story, "partner_log": log}


def _numbered(narratives: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    out, k = [], 0
    for nd in narratives:
        if nd["state"] == "active":
            k += 1
        out.append((k, nd))
    return out


def _card(tab: Table, card: dict[str, Any]) -> dict[str, Any]:
    disc = tab.pack.discoveries[card["id"]]
    return {"ref": f"d{tab.pack.discovery_order.index(disc.id) + 1}", "id": disc.id, "name": disc.name,
            "type": disc.type, "cost": dict(disc.cost), "paid": dict(card["paid"]), "waived": dict(card["waived"]),
            "studied": card["studied"], "knowledge": disc.knowledge, "notoriety": disc.notoriety}


def _decision(tab: Table) -> dict[str, Any] | None:
    dec = tab.d.decision
    if dec is None:
        return None
    out = dec.as_dict()
    out.pop("ops", None)
    out.pop("src", None)
    if isinstance(dec, Choice):
        out["enabled"] = enabled_options(tab, dec.ops)
    return out


def determinize(st: State[KyrumData, Any], seat: int, rng: Rng) -> None:
    """Re-deal the three decks; the top planet's back (public) keeps its alert mark.

    Each deck is sorted before it is shuffled, so the sample depends on what the player knows
    (which cards are in it) and ``rng`` alone, never on the true order."""
    from .rules import pack_of  # rules imports this module

    d, pack = st.data, pack_of(st.config)
    if d.planet_deck:
        alert = pack.planets[d.planet_deck[0]].back_alert
        d.planet_deck = rng.shuffled(sorted(d.planet_deck))
        top = next(i for i, p in enumerate(d.planet_deck) if pack.planets[p].back_alert == alert)
        d.planet_deck[0], d.planet_deck[top] = d.planet_deck[top], d.planet_deck[0]
    d.encounter_deck = rng.shuffled(sorted(d.encounter_deck))
    d.discovery_deck = rng.shuffled(sorted(d.discovery_deck))
