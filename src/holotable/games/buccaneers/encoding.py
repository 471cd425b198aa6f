"""Black Hole Buccaneers' RL observation encoder: a fixed vector in [0, 1] from a seat's view.

Per-seat features are rotated so the observer comes first (``_r0``), then the seat after it
clockwise (``_r1``) and so on; seats a smaller game lacks are zero, with ``present_r*`` saying
which exist, so one policy serves every seat and player count (3 to 6). Card-level features
(the seat's hand, the Titan Tentacle's cards when it picks, its own black-hole card, the
discards, the revealed black-hole card) use one slot per space-junk card in data-file order.
Numbers are divided by a generous largest value and clipped into [0, 1]; signed ones (value
and weight can go below zero) are shifted first.

Only the view is read (:func:`make_encoder`), so an observation carries nothing the seat may
not see; the tests hold it to that under determinisation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from holotable.engine import Config
from holotable.rl.encoding import EncoderSpec

from . import cards as tb
from .data import BuccaneersData, JunkType, data_for
from .rules import SPEC

MAX_SEATS = SPEC.max_players
CARD_IDS: tuple[str, ...] = tuple(card.id for card in tb.DATA.junk)
_CARD_SLOT = {cid: i for i, cid in enumerate(CARD_IDS)}
_TYPES = tuple(JunkType)
_UNIQUE = tuple(cid for cid, card in tb.CARDS.items() if card.kind in (JunkType.ARTIFACT, JunkType.RELIC))
_PHASES = ("selection", "scoring", "over")
_STEPS = ("A", "B", "C", "D", "E", "F", "G", "H")
_ASKS = ("choose", "group", "laser", "tentacle", "egg", "pool", "ring")
_CATEGORIES = ("menacing", "risky", "dangerous")
_THRESHOLD_CARDS = tuple(t.id for t in tb.DATA.threshold_cards)
_TOKENS = tuple(w.id for w in tb.DATA.weight_cards) + tuple(v.id for v in tb.DATA.value_cards)

#: Per-seat feature names (each repeated for ``_r0`` .. ``_r5``).
SEAT_FEATURES: tuple[str, ...] = (
    "present",
    "hand_size",  # / 12
    "cards_laid",  # / 16
    "hidden_toys",  # / 8
    "value",  # (value + 20) / 100, face-up cards (and the tokens), hidden toys left out
    "weight",  # (weight + 20) / 100, likewise
    "total_known",  # 1 when the engine shows the seat's exact totals (no hidden toy)
    "toy_weight",  # face-up toys' printed weight / 30
    *[f"type_{t.value}" for t in _TYPES],  # face-up cards of each type / 8
    "tm_groups",  # / 4
    "tm_largest",  # / 4
    "shape_stack",  # / 10
    "shape_top_weight",  # / 8
    "ship_best",  # (best spaceship value + 5) / 20
    "has_ship",
    *[f"token_{t}" for t in _TOKENS],
    *[f"holds_{cid}" for cid in _UNIQUE],  # each artifact and relic in the tableau
    "gps_now",
    "gps_next",
    "score",  # / 60
    "e_weight",  # this round's step-E weight (+20) / 100
    "threshold",  # this round's final threshold (+20) / 100
    "pulled_in",
    "round_points",  # / 15
)
GLOBAL_FEATURES: tuple[str, ...] = (
    *[f"own_seat_{s}" for s in range(MAX_SEATS)],
    "my_turn",
    "terminal",
    "round",  # / 3
    *[f"phase_{p}" for p in _PHASES],
    "turn",  # / 12
    *[f"step_{s}" for s in _STEPS],
    *[f"ask_{a}" for a in _ASKS],
    "hole_cards",  # / 10
    "hole_threshold",  # / 40
    *[f"hole_{c}" for c in _CATEGORIES],
    *[f"at_hole_{t}" for t in _THRESHOLD_CARDS],
    "direction_cw",
    "draw_size",  # / 67
    "discard_size",  # / 67
    "bh_pile_size",  # / 6
    "tentacle_size",  # / 3
    "revealed_weight",  # (printed weight + 5) / 15 of the step-F card
    "revealed",
    "group_choices",  # open groups offered / 4
)
CARD_GROUPS = ("hand", "tentacle", "my_bh", "discard", "bh_revealed")
FEATURES: tuple[str, ...] = (
    *GLOBAL_FEATURES,
    *[f"{name}_r{r}" for r in range(MAX_SEATS) for name in SEAT_FEATURES],
    *[f"{group}_{cid}" for group in CARD_GROUPS for cid in CARD_IDS],
)
SIZE = len(FEATURES)
INDEX = {name: i for i, name in enumerate(FEATURES)}
_SEAT_BASE = INDEX["present_r0"]
_SEAT_WIDTH = len(SEAT_FEATURES)
_SEAT_INDEX = {name: i for i, name in enumerate(SEAT_FEATURES)}
_CARD_BASE = {group: INDEX[f"{group}_{CARD_IDS[0]}"] for group in CARD_GROUPS}


def _unit(x: float) -> float:
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


def _signed(x: float) -> float:
    return _unit((x + 20.0) / 100.0)


def make_encoder(config: Config) -> Callable[[Mapping[str, Any]], list[float]]:
    """The encoder of one configuration (its player count and card data fixed once)."""
    n = config.players
    data = data_for(config)
    template = [0.0] * SIZE
    for r in range(n):
        template[_SEAT_BASE + r * _SEAT_WIDTH] = 1.0

    def encode(view: Mapping[str, Any]) -> list[float]:
        me: int = view["seat"]
        out = template[:]
        put = out.__setitem__
        put(INDEX[f"own_seat_{me}"], 1.0)
        if me in view["to_move"]:
            put(INDEX["my_turn"], 1.0)
        if view["terminal"]:
            put(INDEX["terminal"], 1.0)
        put(INDEX["round"], _unit(view["round"] / 3))
        _flag(out, "phase", view.get("phase"), _PHASES)
        put(INDEX["turn"], _unit(view["turn"] / 12))
        _flag(out, "step", view.get("step"), _STEPS)
        ask = view.get("ask") or {}
        _flag(out, "ask", ask.get("kind"), _ASKS)
        put(INDEX["group_choices"], _unit(len(ask.get("groups") or []) / 4))
        hole = view["black_hole"]
        put(INDEX["hole_cards"], _unit(hole["cards"] / 10))
        put(INDEX["hole_threshold"], _unit(hole["threshold"] / 40))
        _flag(out, "hole", hole.get("category"), _CATEGORIES)
        _flag_all(out, "at_hole", view.get("thresholds") or [], _THRESHOLD_CARDS)
        if view.get("direction") == "CW":
            put(INDEX["direction_cw"], 1.0)
        put(INDEX["draw_size"], _unit(view["draw_size"] / 67))
        put(INDEX["discard_size"], _unit(len(view["discard"]) / 67))
        put(INDEX["bh_pile_size"], _unit(view["bh_pile_size"] / 6))
        put(INDEX["tentacle_size"], _unit(view["tentacle_size"] / 3))
        revealed = view.get("bh_revealed")
        if revealed:
            put(INDEX["revealed"], 1.0)
            put(INDEX["revealed_weight"], _unit((tb.printed_weight(revealed, data) + 5) / 15))
        _cards(out, "hand", view.get("hand") or [])
        _cards(out, "tentacle", view.get("tentacle") or [])
        _cards(out, "my_bh", view.get("my_bh_cards") or [])
        _cards(out, "discard", view.get("discard") or [])
        _cards(out, "bh_revealed", [revealed] if revealed else [])
        for seat in range(n):
            _seat(out, view, seat, _SEAT_BASE + ((seat - me) % n) * _SEAT_WIDTH, data)
        return out

    return encode


def _flag(out: list[float], prefix: str, value: Any, choices: Sequence[str]) -> None:
    if value in choices:
        out[INDEX[f"{prefix}_{value}"]] = 1.0


def _flag_all(out: list[float], prefix: str, values: Sequence[str], choices: Sequence[str]) -> None:
    for value in values:
        _flag(out, prefix, value, choices)


def _cards(out: list[float], group: str, cards: Sequence[str]) -> None:
    base = _CARD_BASE[group]
    for cid in cards:
        slot = _CARD_SLOT.get(cid)
        if slot is not None:
            out[base + slot] = 1.0


def _seat(out: list[float], view: Mapping[str, Any], seat: int, base: int, data: BuccaneersData) -> None:
    at = _SEAT_INDEX

    def put(name: str, value: float) -> None:
        out[base + at[name]] = value

    items: Sequence[Mapping[str, Any]] = view["tableaux"][seat]
    shown = [item for item in items if item.get("card") is not None]
    hidden = len(items) - len(shown)
    tokens: Mapping[str, int] = view.get("tokens") or {}
    put("hand_size", _unit(view["hand_sizes"][seat] / 12))
    put("cards_laid", _unit(len(items) / 16))
    put("hidden_toys", _unit(hidden / 8))
    total = (view.get("totals") or [None] * (seat + 1))[seat]
    if total is not None:
        value, weight = float(total["value"]), float(total["weight"])
        put("total_known", 1.0)
    else:
        value = sum(float(item["value"]) for item in shown)
        weight = sum(float(item["weight"]) for item in shown)
        value += sum(tb.TOKEN_AMOUNTS[t] for t in tb.VALUE_TOKENS if tokens.get(t) == seat)
        weight += sum(tb.TOKEN_AMOUNTS[t] for t in tb.WEIGHT_TOKENS if tokens.get(t) == seat)
    put("value", _signed(value))
    put("weight", _signed(weight))
    kinds = [tb.kind(str(item["card"])) for item in shown]
    put("toy_weight", _unit(sum(tb.printed_weight(str(i["card"]), data) for i, k in zip(shown, kinds, strict=True)
                                if k is JunkType.TOY) / 30))
    for t in _TYPES:
        put(f"type_{t.value}", _unit(kinds.count(t) / 8))
    groups: dict[int, int] = {}
    for item in shown:
        if item.get("group"):
            groups[int(item["group"])] = groups.get(int(item["group"]), 0) + 1
    put("tm_groups", _unit(len(groups) / 4))
    put("tm_largest", _unit(max(groups.values(), default=0) / 4))
    stack = [item for item, k in zip(shown, kinds, strict=True) if k is JunkType.SHAPESHIFTER]
    put("shape_stack", _unit(len(stack) / 10))
    if stack:
        put("shape_top_weight", _unit(tb.printed_weight(str(stack[-1]["card"]), data) / 8))
    ships = [data.cards_by_id[str(item["card"])].printed.value for item, k in zip(shown, kinds, strict=True)
             if k is JunkType.SPACESHIP]
    if ships:
        put("has_ship", 1.0)
        put("ship_best", _unit((max(ships) + 5) / 20))
    for token in _TOKENS:
        if tokens.get(token) == seat:
            put(f"token_{token}", 1.0)
    held = {str(item["card"]) for item in shown}
    for cid in _UNIQUE:
        if cid in held:
            put(f"holds_{cid}", 1.0)
    if (view.get("gps") or [False] * (seat + 1))[seat]:
        put("gps_now", 1.0)
    if (view.get("gps_next") or [False] * (seat + 1))[seat]:
        put("gps_next", 1.0)
    put("score", _unit(view["scores"][seat] / 60))
    for key, name in (("e_weight", "e_weight"), ("threshold", "threshold")):
        values = view.get(key) or []
        if seat < len(values):
            put(name, _signed(float(values[seat])))
    pulled = view.get("pulled_in") or []
    if seat < len(pulled) and pulled[seat]:
        put("pulled_in", 1.0)
    points = view.get("round_points") or []
    if seat < len(points):
        put("round_points", _unit(points[seat] / 15))


#: The ``encoder`` role of the manifest.
ENCODER = EncoderSpec(make_encoder, SIZE)
