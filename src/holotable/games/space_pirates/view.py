"""What each seat may see of Space Pirates (SP-INFO-01..06), and determinisation for search.

Public: the table (field, elements, bases, ships, the storm, token positions, the rulers laid this
turn), money, the bank,
ownership, stack sizes and discard piles, hand and hold counts, police slots, face-up market cards
and open asteroids. Private to a seat: its hand, its hold, market cards it has looked at, and the
identities of face-down tokens it legitimately saw. Never: the face of any other hidden token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import decisions as dec
from .data import CARGO_TYPES, content_for
from .flow import turn_limit
from .state import SPData

if TYPE_CHECKING:
    from holotable.engine import Rng, State

    from .actions import SPAction

#: Decision fields shown to everyone (the rest of a task is internal bookkeeping).
PUBLIC_DECISION_FIELDS = ("kind", "seat", "tid", "mode", "cause", "left", "base", "points", "victim", "departing",
                          "count", "more", "after_base")


def _knows(d: SPData, t: int, seat: int | None) -> bool:
    if d.open[t]:
        return True
    if seat is None:
        return d.known[t] == (1 << d.n) - 1
    return bool(d.known[t] >> seat & 1)


def view(st: State[SPData, SPAction], seat: int | None) -> dict[str, Any]:
    pending = st.game.decision(st)  # type: ignore[attr-defined]
    decision: dict[str, Any] | None = None if pending is None else pending.as_dict()
    d, content = st.data, content_for(st.config)
    lay = d.layout
    tokens = []
    for t in range(len(d.ident)):
        if d.where[t] != "map":
            continue
        p = d.pos[t]
        assert p is not None
        tokens.append({
            "tid": t, "pos": [p[0], p[1]], "open": d.open[t],
            "identity": d.ident[t] if _knows(d, t, seat) else None,
            "known_by": [s for s in range(d.n) if d.known[t] >> s & 1],
        })
    transit = [t for t, w in enumerate(d.where) if w == "transit"]
    players = []
    for s in range(d.n):
        sh = d.ships[s]
        mine = s == seat
        players.append({
            "seat": s,
            "mc": d.mc[s],
            "hand_count": len(d.hands[s]),
            "hand": sorted(d.hands[s]) if mine else None,
            "hold_count": len(d.holds[s]),
            "hold": [{"tid": t, "identity": d.ident[t]} for t in sorted(d.holds[s])] if mine else None,
            "police": d.police[s],
            "owned_base": d.owned[s],
            "ship": {"base": sh.base, "slot": sh.slot, "center": None if sh.center is None else list(sh.center),
                     "heading": sh.heading, "arrested": sh.arrested, "fine_due": sh.fine_due},
        })
    bases = []
    for b in lay.bases:
        card = d.market[b.index]
        visible = card is not None and (d.market_up[b.index] or (seat is not None and b.index in d.seen_markets[seat]))
        prices = None
        if visible:
            prices = next(m for m in content.markets if m.id == card).prices
        bases.append({
            "index": b.index, "id": b.id, "gate_mid": list(b.gate_mid), "normal": b.normal,
            "polygon": [list(p) for p in b.polygon.exterior.coords][:-1], "gate": [list(p) for p in b.gate_ends],
            "slots": [list(p) for p in b.slots], "inhabited": b.inhabited, "owner": d.owner[b.index],
            "docked": list(d.docked[b.index]), "market_face_up": d.market_up[b.index],
            "market": card if visible else None, "prices": dict(prices) if prices else None,
            "seen_by": [s for s in range(d.n) if b.index in d.seen_markets[s]],
        })
    out: dict[str, Any] = {
        "field": [lay.W, lay.H],
        "elements": [{"id": e.id, "name": e.name, "kind": e.kind,
                      "polygon": [list(p) for p in e.polygon.exterior.coords][:-1]} for e in lay.elements],
        "bases": bases,
        "tokens": tokens,
        "transit": [{"tid": t, "holder": d.holder[t], "identity": d.ident[t] if _knows(d, t, seat) else None}
                    for t in transit],
        "police_tokens": {str(s): d.police[s] for s in range(d.n) if d.police[s] is not None},
        "bag_count": sum(1 for w in d.where if w == "bag"),
        "players": players,
        "bank": d.bank,
        "energy": {"draw_sizes": {str(v): len(d.draw[v]) for v in range(1, 6)},
                   "discard": {str(v): sorted(d.discard[v]) for v in range(1, 6)}},
        "in_play": d.in_play,
        "also_played": list(d.also_played),
        "storm": None if d.storm is None else list(d.storm),
        "active": d.active,
        "first_seat": d.first_seat,
        "turn": d.turn,
        "winner": d.winner,
        "over": d.over,
        "last_flick": d.last_flick,
        "flick_min_strength": content.constants.min_flick_strength,
        # SP-GEO-04: the rulers on the table, [[x0, y0], [x1, y1]] each, in the order laid
        "rulers": [[[a[0], a[1]], [b[0], b[1]]] for a, b in d.rulers],
        "decision": None if decision is None else {
            k: (list(v) if isinstance(v, tuple) else v) for k, v in decision.items() if k in PUBLIC_DECISION_FIELDS
        },
    }
    if isinstance(pending, dec.Ruler) and out["decision"] is not None:
        # SP-MOVE-02/03: the direction the next ruler must stay within 90 degrees of, None for any
        out["decision"]["limit"] = turn_limit(d, pending)
    return out


def determinize(st: State[SPData, SPAction], seat: int, rng: Rng) -> None:
    """Re-deal what ``seat`` cannot see: hidden token faces, unseen market cards, others' hands."""
    d, content = st.data, content_for(st.config)
    if d.over:
        return
    n = d.n
    # tokens: identities the seat does not know (others' holds hold only cargo: SP-INFO-04)
    unknown = [t for t in range(len(d.ident)) if not d.open[t] and not (d.known[t] >> seat & 1)]
    pool = sorted(d.ident[t] for t in unknown)
    rng.shuffle(pool)
    holds = [t for t in unknown if d.where[t] == "hold"]
    rest = [t for t in unknown if d.where[t] != "hold"]
    cargo = [x for x in pool if x in CARGO_TYPES]
    other = [x for x in pool if x not in CARGO_TYPES]
    for t in holds:
        d.ident[t] = cargo.pop()
    left = cargo + other
    rng.shuffle(left)
    for t in rest:
        d.ident[t] = left.pop()
    # market cards (SP-INFO-02, SP-AMB-39)
    hidden = [b for b in range(len(d.market)) if d.market[b] is not None and not d.market_up[b]
              and b not in d.seen_markets[seat]]
    cards = sorted([d.market[b] or "" for b in hidden] + d.market_out)
    rng.shuffle(cards)
    for b in hidden:
        d.market[b] = cards.pop()
    d.market_out = sorted(cards)
    # energy: others' hands and the draw stacks (each stack holds only its value: SP-COMP-07)
    others = [s for s in range(n) if s != seat]
    unseen = sorted([cid for s in others for cid in d.hands[s]] + [cid for v in d.draw for cid in d.draw[v]])
    by_value: dict[int, list[str]] = {v: [] for v in range(1, 6)}
    for cid in unseen:
        by_value[content.card(cid).value].append(cid)
    spare: list[str] = []
    for v in range(1, 6):
        rng.shuffle(by_value[v])
        k = len(d.draw[v])
        d.draw[v] = by_value[v][:k]
        spare += by_value[v][k:]
    rng.shuffle(spare)
    for s in others:
        k = len(d.hands[s])
        d.hands[s] = spare[:k]
        spare = spare[k:]
    d.sort_bag()  # as the real bag is kept: which id holds which face in it means nothing
