"""Scenario starts for Space Pirates (``arrange``; see docs/scenarios.md and spec §10).

Keys (all optional):

* ``layout``: ``{"field": [W, H], "bases": [[id, x, y, normal], ...], "elements": [[eid, x, y, rot], ...],
  "inhabited": k}`` - the table (default: keep the set-up one);
* ``ships``: per seat ``{"center": [x, y], "heading": h}`` or ``{"base": index}``;
* ``tokens``: ``[{"identity": "ORE", "pos": [x, y], "open": false, "known": [seats]}]`` taken from the bag;
  the n-th entry gets the lowest free token id of that identity; the chosen ids are written back in
  ``data.tokens`` so expectations can name them;
* ``holds``: per seat a list of cargo identities; ``hands``: per seat card ids (taken from the energy
  bank; every card not in a hand is back in its draw stack, in id order unless ``draw`` says otherwise);
* ``draw`` / ``discard``: ``{"v": [card ids, top last]}``; ``mc``: per seat; ``owner``: ``{"base": seat}``;
  ``market``: ``{"base": card}``; ``storm``: ``[x, y]``; ``active``: seat; ``arrested``: [seats];
* ``market_up``: bases whose market card lies face up (SP-BASE-05); ``seen_markets``: per seat the bases
  whose face-down market card that seat has looked at (SP-SETUP-10, SP-BASE-03);
* ``start``: ``"turn"`` (default: the active player's turn starts), ``{"move": V}`` (the active player
  moves with V rulers, no adventures), ``{"base": true}`` (the base-action sequence), ``{"wind": true}``,
  ``{"storm": true}``, ``{"damage": seat}``.

The bank is recomputed so that money is conserved (SP-MONEY-01) unless ``bank`` is given.

Chance a scenario can script (its ``chance`` entry, :func:`chance_events`): ``bag`` (the face of a
token drawn from the bag), ``flick`` (a flick's whole outcome, instead of the noise and the physics),
``shuffle`` (a draw stack rebuilt from its discards, top last) and ``blind`` (the card a blind pick takes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from holotable.engine import ScenarioError
from holotable.engine import chance as chances

from . import flow
from . import geometry as geo
from .data import CARGO_TYPES, content_for, layout_overrides
from .decisions import PlaceStorm, WindDir
from .flow import AfterMove, BaseStep, Ctx, Damage, MoveBegin, TurnEnd, TurnStart
from .state import Ship

if TYPE_CHECKING:
    from holotable.engine import State

    from .actions import SPAction
    from .state import SPData

KEYS = {"layout", "ships", "tokens", "holds", "hands", "draw", "discard", "mc", "bank", "owner", "market", "storm",
        "active", "arrested", "market_up", "seen_markets", "start"}


def _xy(v: Any, key: str) -> tuple[float, float]:
    if not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int | float) for x in v):
        raise ScenarioError(f"{key}: expected [x, y], got {v!r}")
    return (float(v[0]), float(v[1]))


def arrange(st: State[SPData, SPAction], arr: Mapping[str, Any]) -> None:
    content = content_for(st.config)
    unknown = set(arr) - KEYS
    if unknown:
        raise ScenarioError(f"unknown arrangement key(s): {', '.join(sorted(unknown))}")
    d = st.data
    n = d.n
    c = content.constants
    if "layout" in arr:
        lay = arr["layout"]
        try:
            W, H = _xy(lay["field"], "layout.field")
            bases = tuple((str(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in lay.get("bases", []))
            els = tuple((str(e[0]), float(e[1]), float(e[2]), float(e[3])) for e in lay.get("elements", []))
            inh = int(lay.get("inhabited", n + 1))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ScenarioError(f"layout: {exc}") from None
        if any(e[0] not in content.elements for e in els):
            raise ScenarioError("layout.elements: unknown element id")
        key = (W, H, bases, els, inh, layout_overrides(content.overrides))
        d.layout_key = key
        d.layout = geo.build_layout(key)
        nb = len(bases)
        d.owner, d.market_up = [None] * nb, [False] * nb
        d.docked = [[None, None] for _ in range(nb)]
        markets = [m.id for m in content.markets]
        d.market = [markets[i] if b.inhabited else None for i, b in enumerate(d.layout.bases)]
        d.market_out = [m for m in markets if m not in d.market]
    # every token back in the bag, every ship undocked
    for t in range(len(d.ident)):
        flow.to_bag(d, t)
    d.ident = list(content.tokens)
    d.holds = [[] for _ in range(n)]
    d.police = [None] * n
    for b in d.docked:
        b[:] = [None, None]
    d.ships = [Ship() for _ in range(n)]
    d.stack.clear()
    ctx = Ctx(st, content)
    ships = arr.get("ships", [])
    if len(ships) != n:
        raise ScenarioError(f"ships: one entry per seat ({n})")
    for s, sh in enumerate(ships):
        if "base" in sh:
            bi = int(sh["base"])
            if not 0 <= bi < len(d.layout.bases) or not d.layout.bases[bi].inhabited or None not in d.docked[bi]:
                raise ScenarioError(f"ships.{s}.base: not an inhabited base with room")
            flow.dock_ship(ctx, s, bi)
        else:
            d.ships[s].center = _xy(sh.get("center"), f"ships.{s}.center")
            d.ships[s].heading = geo.norm_angle(float(sh.get("heading", 0.0)))
    for s in arr.get("arrested", []):
        t = _take(d, "POLICE")
        d.where[t], d.holder[t], d.known[t] = "police", s, (1 << n) - 1
        d.police[s] = t
        d.ships[s].arrested = True
    used: list[int] = []
    for i, tok in enumerate(arr.get("tokens", [])):
        ident = tok.get("identity")
        if ident not in set(content.tokens):
            raise ScenarioError(f"tokens.{i}.identity: unknown {ident!r}")
        t = _take(d, ident)
        d.where[t], d.pos[t] = "map", _xy(tok.get("pos"), f"tokens.{i}.pos")
        d.open[t] = bool(tok.get("open", False))
        if d.open[t] and ident != "ASTEROID":
            raise ScenarioError(f"tokens.{i}: only asteroids lie face up")
        d.known[t] = (1 << n) - 1 if d.open[t] else sum(1 << s for s in tok.get("known", []))
        used.append(t)
    for s, idents in enumerate(arr.get("holds", [[] for _ in range(n)])):
        for ident in idents:
            if ident not in CARGO_TYPES:
                raise ScenarioError(f"holds.{s}: only cargo goes in a hold")
            t = _take(d, ident)
            d.where[t], d.holder[t], d.known[t] = "hold", s, 1 << s
            d.holds[s].append(t)
    if "hands" in arr or "draw" in arr or "discard" in arr:
        hands = arr.get("hands", d.hands)
        all_ids = {card.id for card in content.energy}
        placed: set[str] = set()
        d.hands = []
        for s in range(n):
            hand = [str(x) for x in (hands[s] if s < len(hands) else [])]
            d.hands.append(hand)
            placed |= set(hand)
        d.discard = {v: [str(x) for x in arr.get("discard", {}).get(str(v), [])] for v in range(1, 6)}
        for v in range(1, 6):
            placed |= set(d.discard[v])
        given_draw = arr.get("draw")
        if given_draw is not None:
            d.draw = {v: [str(x) for x in given_draw.get(str(v), [])] for v in range(1, 6)}
        else:
            d.draw = {v: sorted(cid for cid in all_ids - placed if content.card(cid).value == v) for v in range(1, 6)}
        if any(cid not in all_ids for v in d.draw for cid in d.draw[v]) or not placed <= all_ids:
            raise ScenarioError("hands/draw/discard: unknown card id")
        for v in range(1, 6):
            if any(content.card(cid).value != v for cid in d.draw[v] + d.discard[v]):
                raise ScenarioError(f"draw/discard {v}: a stack holds only its own value")
    if "mc" in arr:
        d.mc = [int(x) for x in arr["mc"]]
    for b, s in arr.get("owner", {}).items():
        d.owner[int(b)] = int(s)
        d.owned[int(s)] = int(b)
        d.bought[int(s)] = True
    for b, card in arr.get("market", {}).items():
        d.market[int(b)] = str(card)
    if "market_up" in arr:
        d.market_up = [False] * len(d.market)
        for up in _bases_with_market(d, arr["market_up"], "market_up"):
            d.market_up[up] = True
    if "seen_markets" in arr:
        seen = arr["seen_markets"]
        if not isinstance(seen, list) or len(seen) != n:
            raise ScenarioError(f"seen_markets: one list of bases per seat ({n})")
        d.seen_markets = [set(_bases_with_market(d, s, f"seen_markets.{i}")) for i, s in enumerate(seen)]
    d.bank = int(arr["bank"]) if "bank" in arr else c.bank_total - sum(d.mc)
    if d.bank < 0:
        raise ScenarioError("mc: more money than the 195 MC of the game")
    if "storm" in arr:
        d.storm = _xy(arr["storm"], "storm")
    if "active" in arr:
        d.active = int(arr["active"]) % n
    d.in_play = None
    d.rulers = []  # a fresh position: no ruler on the table yet
    d.turn = 1
    start = arr.get("start", "turn")
    seat = d.active
    if start == "turn":
        d.turn = 0
        d.stack.push(TurnStart())
    elif isinstance(start, dict) and "move" in start:
        docked = d.ships[seat].base is not None
        d.stack.push(TurnEnd(seat))
        d.stack.push(AfterMove(seat, docked))
        d.stack.push(MoveBegin(seat, int(start["move"]), docked))
    elif isinstance(start, dict) and "base" in start:
        d.stack.push(TurnEnd(seat))
        base = d.ships[seat].base
        if base is None:
            raise ScenarioError("start.base: the active ship is not docked")
        d.stack.push(BaseStep(seat, base, 0))
    elif isinstance(start, dict) and "wind" in start:
        d.stack.push(TurnEnd(seat))
        d.stack.push(WindDir(seat))
    elif isinstance(start, dict) and "storm" in start:
        d.stack.push(TurnEnd(seat))
        d.stack.push(PlaceStorm(seat))
    elif isinstance(start, dict) and "damage" in start:
        d.stack.push(TurnEnd(seat))
        d.stack.push(Damage(int(start["damage"]), "scenario"))
    else:
        raise ScenarioError(f"start: unknown {start!r}")
    flow.advance(ctx)


def _bases_with_market(d: SPData, value: Any, key: str) -> list[int]:
    """Base indices that hold a market card (uninhabited bases have none to turn up or look at)."""
    if not isinstance(value, list):
        raise ScenarioError(f"{key}: expected a list of base indices")
    for b in value:
        if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b < len(d.market):
            raise ScenarioError(f"{key}: {b!r} is not a base index (0..{len(d.market) - 1})")
        if d.market[b] is None:
            raise ScenarioError(f"{key}: base {b} is uninhabited and has no market card")
    return list(value)


def chance_events(st: State[SPData, SPAction]) -> dict[str, chances.Check]:
    content = content_for(st.config)
    faces = sorted(set(content.tokens))
    cards = {card.id for card in content.energy}

    def face(value: Any, where: str) -> str:
        if value not in faces:
            raise ScenarioError(f"{where}: expected a token face among {faces}, got {value!r}")
        return str(value)

    def card(value: Any, where: str) -> str:
        if value not in cards:
            raise ScenarioError(f"{where}: {value!r} is not an energy card id")
        return str(value)

    return {"bag": face, "flick": flick_outcome, "shuffle": chances.order(card), "blind": card}


_FLICK_KEYS = {"rest", "exits", "turned_over", "contacts"}
_CONTACT_KINDS = ("element", "base", "ship", "token")


def flick_outcome(value: Any, where: str) -> dict[str, Any]:
    """A scripted flick: ``{"rest": {tid: [x, y]}, "exits": {tid: [x, y]}, "turned_over": [tid],
    "contacts": [{"time", "token", "kind", "other", "speed", "point"?}]}`` (every key optional):
    where the moved tokens stop, where tokens crossed the border, which turned over, and the
    first contacts, as the physics would report them (``physics.FlickOutcome``)."""
    if not isinstance(value, dict) or set(value) - _FLICK_KEYS:
        raise ScenarioError(f"{where}: expected an object with keys among {sorted(_FLICK_KEYS)}, got {value!r}")

    def tid(v: Any, at: str) -> int:
        try:
            t = int(v)
        except (TypeError, ValueError):
            raise ScenarioError(f"{at}: {v!r} is not a token id") from None
        if isinstance(v, bool) or t < 0:
            raise ScenarioError(f"{at}: {v!r} is not a token id")
        return t

    def places(key: str) -> dict[int, tuple[float, float]]:
        raw = value.get(key, {})
        if not isinstance(raw, dict):
            raise ScenarioError(f"{where}.{key}: expected {{token id: [x, y]}}")
        return {tid(k, f"{where}.{key}"): _xy(p, f"{where}.{key}.{k}") for k, p in raw.items()}

    turned = value.get("turned_over", [])
    if not isinstance(turned, list):
        raise ScenarioError(f"{where}.turned_over: expected a list of token ids")
    contacts = []
    for i, ct in enumerate(value.get("contacts", [])):
        at = f"{where}.contacts[{i}]"
        if not isinstance(ct, dict) or set(ct) - {"time", "token", "kind", "other", "speed", "point"}:
            raise ScenarioError(f"{at}: expected {{time, token, kind, other, speed, point?}}")
        if ct.get("kind") not in _CONTACT_KINDS:
            raise ScenarioError(f"{at}.kind: expected one of {list(_CONTACT_KINDS)}")
        try:
            time, speed = float(ct.get("time", 0.0)), float(ct.get("speed", 0.0))
        except (TypeError, ValueError):
            raise ScenarioError(f"{at}: time and speed are numbers") from None
        contacts.append({"time": time, "token": tid(ct.get("token"), f"{at}.token"), "kind": ct["kind"],
                         "other": str(ct.get("other", "")), "speed": speed,
                         "point": None if ct.get("point") is None else _xy(ct["point"], f"{at}.point")})
    return {"rest": places("rest"), "exits": places("exits"),
            "turned_over": [tid(t, f"{where}.turned_over") for t in turned], "contacts": contacts}


def _take(d: SPData, ident: str) -> int:
    for t, w in enumerate(d.ident):
        if w == ident and d.where[t] == "bag":
            return t
    raise ScenarioError(f"no {ident} token left in the bag")
