"""Captain Black's explicit observation encoder: 64 numbers in [0, 1].

Everything is seen from the observing seat: per-seat features are rotated so the
observer comes first (``_r0``), then the seat after it clockwise (``_r1``), and so
on; seats a smaller game lacks are zero, with ``present_r*`` telling which exist.
So one policy serves every seat and every player count. Counts are divided by
their largest possible value (the components, or the config's caps), which keeps
every feature in ``[0, 1]``.

:func:`make_encoder` reads only the seat's view (the reference);
:func:`make_state_encoder` is its fast path, which reads the engine state directly
and writes the same numbers: it must touch only what the view shows the seat
(public facts, its own chest cards, everyone's once the game is over; deck sizes
but never their order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from holotable.engine import Config, State
from holotable.games.captain_black import SPEC, CaptainBlack

from ..encoding import declare_contiguous_actions, register_encoder

MAX_SEATS = SPEC.max_players
_COMP = CaptainBlack.components


def _per_seat(name: str) -> list[str]:
    return [f"{name}_r{r}" for r in range(MAX_SEATS)]


#: Feature names, in vector order (``_r<k>``: the seat ``k`` places after the observer).
FEATURES: tuple[str, ...] = (
    *_per_seat("present"),
    *[f"own_seat_{s}" for s in range(MAX_SEATS)],
    "my_turn",
    "terminal",
    "round_progress",  # round / rounds in the game
    "rounds_total",  # / most players
    *_per_seat("start_player"),
    *_per_seat("bag_holder"),
    "island",  # black coins on the island / fields that end a round
    "island_fields",  # / black coins
    "tally_public",
    "bag_gold",  # / gold coins (0 when the tally is hidden)
    "bag_black",  # / black coins (0 when the tally is hidden)
    "bag_coins",  # / all coins
    *_per_seat("box"),  # gold in the box this round / gold coins
    *_per_seat("box_known"),
    *_per_seat("chest_cards"),  # / the most a seat can hold (cap per round x rounds)
    *_per_seat("chests_filled"),  # same scale; others' only once revealed
    *_per_seat("chests_known"),
    "own_chests_empty",  # same scale
    *_per_seat("parrot_value"),  # this round's parrots / two of the best card
    "chest_deck",  # / chest cards
    "parrot_deck",  # / parrot cards
    "parrot_aside",  # / parrot cards
    "parrot_deck_value",  # value left in the parrot deck / all parrot values
    "last_draw",  # 1 when a draw is shown
    *_per_seat("last_draw_seat"),
    "last_draw_k",  # / all coins
    "last_draw_gold",  # / gold coins
    "last_draw_failed",  # a black coin came up
    "last_draw_black",  # / black coins
)
SIZE = len(FEATURES)
INDEX = {name: i for i, name in enumerate(FEATURES)}

# Start indices of the groups, for the encoder's direct writes.
_PRESENT, _OWN, _MY_TURN, _TERMINAL = INDEX["present_r0"], INDEX["own_seat_0"], INDEX["my_turn"], INDEX["terminal"]
_ROUND, _ROUNDS, _START, _HOLDER = INDEX["round_progress"], INDEX["rounds_total"], INDEX["start_player_r0"], INDEX[
    "bag_holder_r0"
]
_ISLAND, _FIELDS, _PUBLIC = INDEX["island"], INDEX["island_fields"], INDEX["tally_public"]
_BAG_GOLD, _BAG_BLACK, _BAG_COINS = INDEX["bag_gold"], INDEX["bag_black"], INDEX["bag_coins"]
_BOX, _BOX_KNOWN, _CARDS = INDEX["box_r0"], INDEX["box_known_r0"], INDEX["chest_cards_r0"]
_FILLED, _KNOWN, _OWN_EMPTY = INDEX["chests_filled_r0"], INDEX["chests_known_r0"], INDEX["own_chests_empty"]
_PARROT, _CHEST_DECK, _PARROT_DECK = INDEX["parrot_value_r0"], INDEX["chest_deck"], INDEX["parrot_deck"]
_ASIDE, _DECK_VALUE = INDEX["parrot_aside"], INDEX["parrot_deck_value"]
_LAST, _LAST_SEAT, _LAST_K = INDEX["last_draw"], INDEX["last_draw_seat_r0"], INDEX["last_draw_k"]
_LAST_GOLD, _LAST_FAILED, _LAST_BLACK = INDEX["last_draw_gold"], INDEX["last_draw_failed"], INDEX["last_draw_black"]


def make_encoder(config: Config) -> Callable[[Mapping[str, Any]], list[float]]:
    """The encoder of one configuration (its caps and parrot values fixed once)."""
    n = config.players
    gold, black, coins = float(_COMP.gold_coins), float(_COMP.black_coins), float(_COMP.coins)
    rounds_total = n  # CB-FLOW-01: as many rounds as players
    chest_scale = float(config["max_chests_per_round"] * rounds_total)
    values = config["parrot_values"]
    parrot_scale = float(2 * max(max(values, default=1), 1))
    total_value = float(sum(values))
    chest_cards, parrot_cards = float(_COMP.chest_cards), float(max(_COMP.parrot_cards, 1))
    template = [0.0] * SIZE
    for r in range(n):
        template[_PRESENT + r] = 1.0
    template[_ROUNDS] = rounds_total / MAX_SEATS

    def encode(view: Mapping[str, Any]) -> list[float]:
        me: int = view["seat"]
        out = template[:]
        out[_OWN + me] = 1.0
        if me in view["to_move"]:
            out[_MY_TURN] = 1.0
        if view["terminal"]:
            out[_TERMINAL] = 1.0
        out[_ROUND] = view["round"] / view["rounds_total"]
        out[_START + (view["start_player"] - me) % n] = 1.0
        holder = view["bag_holder"]
        if holder is not None:
            out[_HOLDER + (holder - me) % n] = 1.0
        fields = view["island_fields"]
        out[_ISLAND] = view["island"] / fields
        out[_FIELDS] = fields / black
        bag = view["bag"]
        if "gold" in bag:
            out[_PUBLIC] = 1.0
            out[_BAG_GOLD] = bag["gold"] / gold
            out[_BAG_BLACK] = bag["black"] / black
            out[_BAG_COINS] = (bag["gold"] + bag["black"]) / coins
        else:  # hidden-tally variant: only the number of coins left is public
            out[_BAG_COINS] = bag["coins"] / coins
        boxes, counts, chests, parrots = view["boxes"], view["chest_counts"], view["chests"], view["parrots"]
        for r in range(n):
            s = (me + r) % n
            box = boxes[s]
            if box is not None:
                out[_BOX + r] = box / gold
                out[_BOX_KNOWN + r] = 1.0
            out[_CARDS + r] = counts[s] / chest_scale
            hand = chests[s]
            if hand is not None:
                out[_FILLED + r] = hand.count("filled") / chest_scale
                out[_KNOWN + r] = 1.0
            if parrots[s]:
                out[_PARROT + r] = min(1.0, sum(parrots[s]) / parrot_scale)
        out[_OWN_EMPTY] = chests[me].count("empty") / chest_scale
        aside = view["parrot_aside"]
        out[_CHEST_DECK] = view["chest_deck_size"] / chest_cards
        out[_PARROT_DECK] = view["parrot_deck_size"] / parrot_cards
        out[_ASIDE] = len(aside) / parrot_cards
        if total_value:
            in_hands = sum(sum(p) for p in parrots) if any(parrots) else 0
            out[_DECK_VALUE] = (total_value - sum(aside) - in_hands) / total_value
        last = view["last_draw"]
        if last is not None:
            out[_LAST] = 1.0
            out[_LAST_SEAT + (last["seat"] - me) % n] = 1.0
            out[_LAST_K] = last["k"] / coins
            out[_LAST_GOLD] = last["gold"] / gold
            if last["black"]:
                out[_LAST_FAILED] = 1.0
                out[_LAST_BLACK] = last["black"] / black
        return out

    return encode


def make_state_encoder(config: Config) -> Callable[[State[Any, Any], int], Any]:
    """The fast path of :func:`make_encoder`: the same numbers, from the state.

    Each feature below mirrors the view function's line for it, computed with the
    same arithmetic so the float32 results are identical. What depends only on the
    observer and on whether the game is over (flags, which boxes and chests the
    seat may know) comes from a template; zeros are not written.
    """
    n = config.players
    gold, black, coins = float(_COMP.gold_coins), float(_COMP.black_coins), float(_COMP.coins)
    rounds_total = n  # CB-FLOW-01
    chest_scale = float(config["max_chests_per_round"] * rounds_total)
    values = config["parrot_values"]
    parrot_scale = float(2 * max(max(values, default=1), 1))
    total_value = float(sum(values))
    chest_cards, parrot_cards = float(_COMP.chest_cards), float(max(_COMP.parrot_cards, 1))
    fields = config["island_fields"]
    public_tally = bool(config["public_tally"])

    def template(me: int, over: bool) -> Any:
        out = np.zeros(SIZE, np.float32)
        public = public_tally or over
        out[_PRESENT : _PRESENT + n] = 1.0
        out[_OWN + me] = 1.0
        out[_TERMINAL] = float(over)
        out[_ROUNDS] = rounds_total / MAX_SEATS
        out[_FIELDS] = fields / black
        out[_PUBLIC] = float(public)
        out[_BOX_KNOWN : _BOX_KNOWN + (n if public else 1)] = 1.0  # the hidden tally shows one's own box
        out[_KNOWN : _KNOWN + (n if over else 1)] = 1.0  # others' chests only once the game is over
        return out

    running = [template(me, False) for me in range(n)]
    finished = [template(me, True) for me in range(n)]
    #: places[me][s]: how many seats after ``me`` seat ``s`` sits (the rotation of ``_r<k>``).
    places = [[(s - me) % n for s in range(n)] for me in range(n)]
    #: Per observer: (seat, its place), the observer first.
    rotations = [[((me + r) % n, r) for r in range(n)] for me in range(n)]

    def encode_state(state: State[Any, Any], me: int) -> Any:
        d = state.data
        over = d.over
        place = places[me]
        array = (finished if over else running)[me].copy()
        out = memoryview(array)  # its item writes cost less than the array's own
        if not over:
            mover = d.mover
            if mover == me:
                out[_MY_TURN] = 1.0
            out[_HOLDER + place[mover]] = 1.0
        out[_ROUND] = d.round / d.rounds_total
        out[_START + place[d.start]] = 1.0
        if d.island:
            out[_ISLAND] = d.island / fields
        public = public_tally or over
        bag_gold, bag_black = d.bag_gold, d.bag_black
        if public:
            out[_BAG_GOLD] = bag_gold / gold
            out[_BAG_BLACK] = bag_black / black
        out[_BAG_COINS] = (bag_gold + bag_black) / coins
        boxes, chests, parrots = d.boxes, d.chests, d.parrots
        in_hands = 0
        for s, r in rotations[me]:
            if boxes[s] and (public or s == me):
                out[_BOX + r] = boxes[s] / gold
            hand = chests[s]
            if hand:
                out[_CARDS + r] = len(hand) / chest_scale
                if over or s == me:
                    out[_FILLED + r] = hand.count(True) / chest_scale
            if parrots[s]:
                value = sum(parrots[s])
                in_hands += value
                out[_PARROT + r] = min(1.0, value / parrot_scale)
        out[_OWN_EMPTY] = chests[me].count(False) / chest_scale
        aside = d.parrot_aside
        out[_CHEST_DECK] = len(d.chest_deck) / chest_cards  # sizes only: the order is secret
        out[_PARROT_DECK] = len(d.parrot_deck) / parrot_cards
        if aside:
            out[_ASIDE] = len(aside) / parrot_cards
        if total_value:
            out[_DECK_VALUE] = (total_value - sum(aside) - in_hands) / total_value
        last = d.last_draw
        if public and last is not None:
            out[_LAST] = 1.0
            out[_LAST_SEAT + place[last.seat]] = 1.0
            out[_LAST_K] = last.k / coins
            out[_LAST_GOLD] = last.gold / gold
            if last.black:
                out[_LAST_FAILED] = 1.0
                out[_LAST_BLACK] = last.black / black
        return array

    return encode_state


register_encoder(SPEC.name, make_encoder, SIZE, state_factory=make_state_encoder)
# Legal draws are always DRAWS[low : high + 1]: indices low-1 .. high-1, smallest first.
declare_contiguous_actions(SPEC.name)
