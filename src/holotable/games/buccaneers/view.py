"""What each seat may see (BHB-INFO-01..04), and determinisation for search.

A seat sees its own hand, its own face-down toys and black-hole card, the Tentacle cards it is choosing
from, every face-up card, hand sizes and all public counts. It never sees other hands, other seats'
face-down toys or black-hole cards, the order or contents of the draw pile, or (standard set-up) the
black holes of later rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holotable.engine import Rng

from . import cards as tb
from .decisions import ChooseGroup
from .state import TENTACLE, BHBData, Laid

if TYPE_CHECKING:
    from holotable.engine import State


def _card(d: BHBData, seat: int, item: Laid, viewer: int | None) -> dict[str, Any]:
    if item.face_down and viewer != seat:
        return {"card": None, "face_down": True}  # BHB-CARD-TOY-04: only "a toy, face down"
    now = tb.stats(d.tableaux[seat], item, tb.data_of(d))
    return {"card": item.card, "name": tb.CARDS[item.card].shown_name, "type": tb.kind(item.card).value,
            "face_down": item.face_down, "value": now.value, "weight": now.weight, "turns": item.turns,
            "orientation": item.turns % 4, "top_edge": tb.CARDS[item.card].top_edge(item.turns),
            "group": item.group, "source": item.source,
            "suppressed": item.suppressed, "active": item.active}


def _hidden_holes(d: BHBData) -> bool:
    return d.mode == "standard"


def view(st: State[BHBData, Any], seat: int | None) -> dict[str, Any]:
    d = st.data
    n = d.players
    hole = tb.hole(d)
    kind, asked = d.ask
    ask: dict[str, Any] = {"kind": kind if d.phase != "over" else None,
                           "seat": asked if asked >= 0 else None}
    decision = d.asked
    if isinstance(decision, ChooseGroup):
        ask["card"] = decision.card
        ask["groups"] = tb.open_groups(d.tableaux[asked], decision.card)
    totals: list[dict[str, int] | None] = []
    for s in range(n):
        hidden = s != seat and any(item.face_down for item in d.tableaux[s])
        totals.append(None if hidden else {"value": tb.value(d, s), "weight": tb.weight(d, s)})
    out: dict[str, Any] = {
        "round": d.round,
        "rounds": 3,
        "phase": d.phase,
        "turn": d.turn,
        "step": d.step,
        "ask": ask,
        "black_hole": {"id": hole.id, "category": hole.category, "cards": hole.cards, "threshold": hole.threshold},
        "black_holes": [h if (i < d.round or not _hidden_holes(d)) else None for i, h in enumerate(d.stack)],
        "setup": d.mode,
        "direction": d.direction,
        "hand": tb.sort_cards(d.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in d.hands],
        "gps": list(d.gps_now),
        "gps_next": list(d.gps_next),
        "tableaux": [[_card(d, s, item, seat) for item in d.tableaux[s]] for s in range(n)],
        "totals": totals,
        "draw_size": len(d.draw),
        "discard": list(d.discard),
        "bh_pile_size": len(d.bh_pile),
        "my_bh_cards": tb.sort_cards(c for c, s in zip(d.bh_pile, d.bh_from, strict=True) if s == seat)
        if seat is not None else [],
        "bh_revealed": d.bh_revealed,
        "tentacle_size": len(d.tentacle),
        "tentacle": tb.sort_cards(d.tentacle) if (kind == TENTACLE and asked == seat) else None,
        "thresholds": list(d.thresholds),
        "tokens": dict(d.tokens),
        "scores": list(d.scores),
        "pad": [dict(r) for r in d.pad],
        "toy_weight": list(d.toy_weight),
        "e_weight": list(d.e_weight),
        "threshold": list(d.threshold),
        "pulled_in": list(d.pulled_in),
        "round_points": list(d.round_points),
    }
    return out


def determinize(st: State[BHBData, Any], seat: int, rng: Rng) -> None:
    """Re-deal everything ``seat`` cannot see, keeping every count and public fact.

    Unseen cards (other hands, the draw pile, other seats' face-down toys and black-hole cards, another
    seat's Tentacle cards) are pooled and dealt back into the same places; face-down toy slots get toys.
    In the standard set-up the black holes of later rounds are re-drawn from the unseen ones.
    """
    d = st.data
    kind, asked = d.ask
    slots: list[tuple[str, int, int]] = []  # (zone, owner, index)
    pool: list[str] = []
    toy_slots: list[tuple[int, int]] = []
    for s in range(d.players):
        if s == seat:
            continue
        for i, cid in enumerate(d.hands[s]):
            slots.append(("hand", s, i))
            pool.append(cid)
        for i, item in enumerate(d.tableaux[s]):
            if item.face_down:
                toy_slots.append((s, i))
                pool.append(item.card)
    for i, cid in enumerate(d.bh_pile):
        if d.bh_from[i] != seat and cid != d.bh_revealed:
            slots.append(("bh", -1, i))
            pool.append(cid)
    if not (kind == TENTACLE and asked == seat):
        for i, cid in enumerate(d.tentacle):
            slots.append(("tentacle", -1, i))
            pool.append(cid)
    for i, cid in enumerate(d.draw):
        slots.append(("draw", -1, i))
        pool.append(cid)
    toys = tb.sort_cards(c for c in pool if tb.is_toy(c))
    rng.shuffle(toys)
    for (s, i), cid in zip(toy_slots, toys, strict=False):
        d.tableaux[s][i].card = cid
    rest = list(toys[len(toy_slots):]) + [c for c in pool if not tb.is_toy(c)]
    rest = tb.sort_cards(rest)
    rng.shuffle(rest)
    for (zone, s, i), cid in zip(slots, rest, strict=True):
        if zone == "hand":
            d.hands[s][i] = cid
        elif zone == "bh":
            d.bh_pile[i] = cid
        elif zone == "tentacle":
            d.tentacle[i] = cid
        else:
            d.draw[i] = cid
    if _hidden_holes(d):
        later = d.stack[d.round:]
        hidden = sorted(later + [h for h in d.box if h not in d.stack])
        rng.shuffle(hidden)
        d.stack[d.round:] = hidden[:len(later)]
        d.box = [h for h in d.box if h in d.stack[:d.round]] + hidden[len(later):]
