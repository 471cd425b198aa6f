"""Chance, gauges and Thoth's items (KYR-GAUGE, KYR-ITEM): reading, gaining, losing and paying."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holotable.engine import chance as chances

from . import card_text, ending, words
from .pack import ELEMENTS, Item

if TYPE_CHECKING:
    from .mechanics import Table


def die(tab: Table) -> int:
    if tab.st is not None and tab.st.script:
        face = chances.take(tab.st, "die")
        if face is not None:
            return int(face)
    return tab.rng.randint(1, 6)


def random_discovery(tab: Table, cands: list[dict[str, Any]]) -> str:
    """A discovery discarded at random (one ``randrange``), or a scenario's scripted ``discard``."""
    if tab.st is None:
        return str(cands[tab.rng.randrange(len(cands))]["id"])
    return str(chances.pick(tab.st, "discard", [c["id"] for c in cands]))


def maximum(tab: Table, res: str) -> int:
    if res in ELEMENTS:
        return int(tab.pack.rules["elements"][res])
    return int(tab.pack.rules["gauges"][res]["max"])


def value(tab: Table, res: str) -> int:
    return tab.d.elements[res] if res in ELEMENTS else tab.d.gauges[res]


def _store(tab: Table, res: str, v: int) -> None:
    d = tab.d
    if res in ELEMENTS:
        d.elements[res] = v
    else:
        d.gauges[res] = v
    if v > d.peaks.get(res, 0):  # KYR-AMB-09: peaks for objectives with "check": "peak"
        d.peaks[res] = v


def gain(tab: Table, res: str, n: int, cause: str) -> None:
    old = value(tab, res)
    new = min(maximum(tab, res), old + n)  # KYR-GAUGE-05 clamp
    _store(tab, res, new)
    tab.emit("gauge", _change(tab, res, old, new, cause), name=res, old=old, new=new, cause=cause)


def lose(tab: Table, res: str, n: int, cause: str) -> None:
    old = value(tab, res)
    new = max(0, old - n)  # KYR-GAUGE-06 clamp
    _store(tab, res, new)
    tab.emit("gauge", _change(tab, res, old, new, cause), name=res, old=old, new=new, cause=cause)
    after_loss(tab, res)


def set_to(tab: Table, res: str, target: int, cause: str) -> None:
    old = value(tab, res)
    new = max(0, min(maximum(tab, res), target))
    _store(tab, res, new)
    tab.emit("gauge", _change(tab, res, old, new, cause), name=res, old=old, new=new, cause=cause)
    if new < old:
        after_loss(tab, res)


def pay(tab: Table, res: str, n: int, cause: str) -> None:
    """A payment (KYR-GAUGE-07): the caller has checked it is affordable."""
    old = value(tab, res)
    _store(tab, res, old - n)
    tab.emit("pay", f"Paid {card_text.amount(res, n)} ({words.source(tab.pack, cause)})", name=res, old=old,
             new=old - n, cause=cause)


def _change(tab: Table, res: str, old: int, new: int, cause: str) -> str:
    """``Uncommon element 0 → 2 (Myrrak, white arrow)``: the log's line for a gauge that moved."""
    return f"{words.capital(words.resource(res))} {old} → {new} ({words.source(tab.pack, cause)})"


def after_loss(tab: Table, res: str) -> None:
    """Suit breach once per loss event, then the immediate defeats (KYR-GAUGE-08..10, KYR-AMB-02/47)."""
    g = tab.d.gauges
    if res == "suit" and g["suit"] == 0:
        g["suit"] = 1
        old = g["health"]
        g["health"] = max(0, old - 1)
        tab.emit("suit_breach", f"Spacesuit breached: health {old} → {g['health']}, the spacesuit goes back to 1")
    reasons = [r for r in ("health", "ship") if g[r] == 0]
    if reasons and tab.d.result is None:
        ending.end_game(tab, "defeat", "+".join(reasons))


# ---------------------------------------------------------------------------------------------- items
def owned(tab: Table, item_id: str) -> int:
    rec = tab.d.camp["items"].get(item_id)
    return 0 if rec is None else int(rec["owned"]) - int(rec["consumed"])


def item_usable(tab: Table, item: Item) -> bool:
    if owned(tab, item.id) <= 0 or item.use is None:
        return False
    if item.kind == "per_game":
        return tab.d.item_uses.get(item.id, 0) < item.uses_per_game
    return True


def consume_item(tab: Table, item: Item) -> None:
    tab.d.item_uses[item.id] = tab.d.item_uses.get(item.id, 0) + 1
    if item.kind == "consumable":
        tab.d.camp["items"][item.id]["consumed"] += 1
    tab.emit("item_used", f"Used {item.name}", item=item.id)


def grant_item(tab: Table, item_id: str, cause: str) -> bool:
    item = tab.pack.items[item_id]
    rec = tab.d.camp["items"].setdefault(item_id, {"owned": 0, "consumed": 0})
    if owned(tab, item_id) >= item.max_owned:
        return False
    rec["owned"] += 1
    tab.emit("item_gained", f"Gained {item.name} ({words.source(tab.pack, cause)})", item=item_id)
    return True
