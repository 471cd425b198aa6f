"""Space Pirates' observation encoder for RL: a fixed-length vector in [0, 1] from one seat's view.

Per-seat features are rotated so the observer comes first (``_r0``), then the seat after it
clockwise, and so on; seats a smaller game lacks are zero (``present_r*`` says which exist).
Positions are divided by the field size, angles written as ``(1 + cos) / 2`` and ``(1 + sin) / 2``,
counts by their largest possible value. Tokens have fixed slots by token id (0..33); a slot says
whether the token is on the map, where, whether it is open, and its identity only when the view
shows it to this seat.

The action side needs no encoder: the rules' integer action space already discretises the
continuous choices (flick angles in whole degrees and strengths in twentieths, ruler, drift and
wind angles in whole degrees, placements and storm positions on a 1 cm grid), and the legal
actions each decision lists lie on that grid, so masks come from the legal actions.

>>> import holotable
>>> from holotable.engine import Config
>>> game = holotable.load("space-pirates")
>>> st = game.new_state(players=2, seed=3, first_seat=0)
>>> vector = make_encoder(st.config)(st.view(0))
>>> len(vector) == SIZE, min(vector) >= 0.0, max(vector) <= 1.0
(True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from holotable.engine import Config
from holotable.rl.encoding import EncoderSpec

from .data import CARGO_TYPES, content_for
from .decisions import DECISION_KINDS
from .rules import CONTENT, SPEC

MAX_SEATS = SPEC.max_players
#: 34 token slots: the loader pins the token count (SP-COMP-04), so no configuration changes it.
TOKENS = len(CONTENT.tokens)
BASES = 5
IDENTITIES = (*CARGO_TYPES, "ASTEROID", "POLICE")
KINDS = tuple(sorted(DECISION_KINDS))
FIELD_MAX = 100.0


def _per_seat(name: str) -> list[str]:
    return [f"{name}_r{r}" for r in range(MAX_SEATS)]


_SEAT_FEATURES = ("present", "mc", "hand_count", "hold_count", "arrested", "fine_due", "owns_base", "in_space",
                  "x", "y", "heading_cos", "heading_sin", "active", "deciding")
_BASE_FEATURES = ("exists", "inhabited", "gate_x", "gate_y", "normal_cos", "normal_sin", "owned", "owner_is_me",
                  "ships", "market_known", "market_face_up", *[f"price_{c}" for c in CARGO_TYPES])
_TOKEN_FEATURES = ("on_map", "x", "y", "open", "decision_token", *[f"is_{i}" for i in IDENTITIES])

FEATURES: tuple[str, ...] = (
    *[f"{f}_r{r}" for r in range(MAX_SEATS) for f in _SEAT_FEATURES],
    *[f"own_seat_{s}" for s in range(MAX_SEATS)],
    "terminal", "field_w", "field_h", "turn", "bank", "bag", "storm_on", "storm_x", "storm_y",
    "hand_points", *[f"hand_value_{v}" for v in range(1, 6)], *[f"hold_{c}" for c in CARGO_TYPES],
    *[f"draw_{v}" for v in range(1, 6)], *[f"discard_{v}" for v in range(1, 6)],
    *[f"decision_{k}" for k in KINDS], "decision_left", "decision_departing", "decision_points",
    *[f"base{b}_{f}" for b in range(BASES) for f in _BASE_FEATURES],
    *[f"token{t}_{f}" for t in range(TOKENS) for f in _TOKEN_FEATURES],
)
SIZE = len(FEATURES)
INDEX = {name: i for i, name in enumerate(FEATURES)}
_SEAT0 = 0
_SEAT_N = len(_SEAT_FEATURES)
_BASE0 = INDEX["base0_exists"]
_BASE_N = len(_BASE_FEATURES)
_TOKEN0 = INDEX["token0_on_map"]
_TOKEN_N = len(_TOKEN_FEATURES)


def _unit(v: float) -> float:
    return min(1.0, max(0.0, v))


def _angle(deg: float) -> tuple[float, float]:
    a = math.radians(deg)
    return (1.0 + math.cos(a)) / 2.0, (1.0 + math.sin(a)) / 2.0


def make_encoder(config: Config) -> Callable[[Mapping[str, Any]], list[float]]:
    """The encoder of one configuration (the turn cap and its data's numbers fixed once): money,
    hand points and prices are scaled by the configuration's bank, hand cap and highest price."""
    n = config.players
    cap = config["turn_cap"]
    turn_scale = float(cap) if cap else 1000.0
    content = content_for(config)
    card_counts = {v: float(sum(1 for c in content.energy if c.value == v)) for v in range(1, 6)}
    money = float(max(1, content.constants.bank_total))
    hand_cap = float(max(1, content.constants.hand_cap))
    price_scale = float(max(1, *(p for m in content.markets for p in m.prices.values())))

    def encode(view: Mapping[str, Any]) -> list[float]:
        out = [0.0] * SIZE
        me: int = view["seat"] if view["seat"] is not None else 0
        W, H = (float(x) for x in view["field"])
        deciding = view["decision"]["seat"] if view["decision"] else None
        for r in range(n):
            s = (me + r) % n
            p = view["players"][s]
            ship = p["ship"]
            base = _SEAT0 + r * _SEAT_N
            out[base] = 1.0
            out[base + 1] = _unit(p["mc"] / money)
            out[base + 2] = _unit(p["hand_count"] / 10.0)
            out[base + 3] = _unit(p["hold_count"] / 30.0)
            out[base + 4] = float(bool(ship["arrested"]))
            out[base + 5] = float(bool(ship["fine_due"]))
            out[base + 6] = float(p["owned_base"] is not None)
            if ship["center"] is not None:
                out[base + 7] = 1.0
                out[base + 8] = _unit(ship["center"][0] / W)
                out[base + 9] = _unit(ship["center"][1] / H)
            elif ship["base"] is not None:
                slot = view["bases"][ship["base"]]["slots"][ship["slot"]]
                out[base + 8] = _unit(slot[0] / W)
                out[base + 9] = _unit(slot[1] / H)
            out[base + 10], out[base + 11] = _angle(float(ship["heading"]))
            out[base + 12] = float(view["active"] == s and not view["over"])
            out[base + 13] = float(deciding == s)
        if view["seat"] is not None:
            out[INDEX["own_seat_0"] + me] = 1.0
        out[INDEX["terminal"]] = float(bool(view["over"]))
        out[INDEX["field_w"]] = _unit(W / FIELD_MAX)
        out[INDEX["field_h"]] = _unit(H / FIELD_MAX)
        out[INDEX["turn"]] = _unit(view["turn"] / turn_scale)
        out[INDEX["bank"]] = _unit(view["bank"] / money)
        out[INDEX["bag"]] = _unit(view["bag_count"] / TOKENS)
        storm = view["storm"]
        if storm is not None:
            out[INDEX["storm_on"]] = 1.0
            out[INDEX["storm_x"]] = _unit(storm[0] / W)
            out[INDEX["storm_y"]] = _unit(storm[1] / H)
        mine = view["players"][me]
        hand = mine["hand"] or []
        values = [content.card(c).value for c in hand]
        out[INDEX["hand_points"]] = _unit(sum(values) / hand_cap)
        for v in range(1, 6):
            out[INDEX[f"hand_value_{v}"]] = _unit(values.count(v) / card_counts[v])
        idents = [h["identity"] for h in (mine["hold"] or [])]
        for c in CARGO_TYPES:
            out[INDEX[f"hold_{c}"]] = _unit(idents.count(c) / 6.0)
        energy = view["energy"]
        for v in range(1, 6):
            out[INDEX[f"draw_{v}"]] = _unit(energy["draw_sizes"][str(v)] / card_counts[v])
            out[INDEX[f"discard_{v}"]] = _unit(len(energy["discard"][str(v)]) / card_counts[v])
        dec = view["decision"]
        decision_tid = None
        if dec is not None:
            out[INDEX[f"decision_{dec['kind']}"]] = 1.0
            left = dec.get("left")
            if isinstance(left, int):
                out[INDEX["decision_left"]] = _unit(left / 5.0)
            elif isinstance(left, list | tuple):
                out[INDEX["decision_left"]] = _unit(len(left) / 5.0)
            out[INDEX["decision_departing"]] = float(bool(dec.get("departing")))
            if isinstance(dec.get("points"), int):
                out[INDEX["decision_points"]] = _unit(dec["points"] / hand_cap)
            decision_tid = dec.get("tid")
        for b in view["bases"][:BASES]:
            o = _BASE0 + b["index"] * _BASE_N
            out[o] = 1.0
            out[o + 1] = float(bool(b["inhabited"]))
            out[o + 2] = _unit(b["gate_mid"][0] / W)
            out[o + 3] = _unit(b["gate_mid"][1] / H)
            out[o + 4], out[o + 5] = _angle(float(b["normal"]))
            out[o + 6] = float(b["owner"] is not None)
            out[o + 7] = float(b["owner"] == view["seat"] and b["owner"] is not None)
            out[o + 8] = sum(1 for s in b["docked"] if s is not None) / 2.0
            prices = b["prices"]
            out[o + 9] = float(prices is not None)
            out[o + 10] = float(bool(b["market_face_up"]))
            if prices:
                for j, c in enumerate(CARGO_TYPES):
                    out[o + 11 + j] = _unit(prices[c] / price_scale)
        for tok in view["tokens"]:
            t = tok["tid"]
            if not 0 <= t < TOKENS:
                continue
            o = _TOKEN0 + t * _TOKEN_N
            out[o] = 1.0
            out[o + 1] = _unit(tok["pos"][0] / W)
            out[o + 2] = _unit(tok["pos"][1] / H)
            out[o + 3] = float(bool(tok["open"]))
            if tok["identity"] is not None:
                out[o + 5 + IDENTITIES.index(tok["identity"])] = 1.0
        if isinstance(decision_tid, int) and 0 <= decision_tid < TOKENS:
            out[_TOKEN0 + decision_tid * _TOKEN_N + 4] = 1.0
            for tr in view["transit"]:
                if tr["tid"] == decision_tid and tr["identity"] is not None:
                    out[_TOKEN0 + decision_tid * _TOKEN_N + 5 + IDENTITIES.index(tr["identity"])] = 1.0
        return out

    return encode


#: The ``encoder`` role of the manifest.
ENCODER = EncoderSpec(make_encoder, SIZE)
