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

from holotable.engine import Config, Game, State
from holotable.rl.encoding import EncoderSpec

from .rules import SPEC, CaptainBlack

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
_ROUND, _ROUNDS, _START, _HOLDER = (
    INDEX["round_progress"],
    INDEX["rounds_total"],
    INDEX["start_player_r0"],
    INDEX["bag_holder_r0"],
)
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

    def seats_and_slots(first: int) -> list[list[tuple[int, int]]]:
        """Per observer: (seat, where its ``first``-group feature goes), the observer first."""
        return [[((me + r) % n, first + r) for r in range(n)] for me in range(n)]

    box_slots, card_slots = seats_and_slots(_BOX), seats_and_slots(_CARDS)
    filled_slots, parrot_slots = seats_and_slots(_FILLED), seats_and_slots(_PARROT)

    def scaled(scale: float, most: int) -> list[float]:
        """``[i / scale for i in 0..most]``: a list lookup costs less than the division
        and gives the very same float."""
        return [i / scale for i in range(most + 1)]

    # Every count below is bounded by the components (a box never holds more gold
    # than there is, a hand never more chest cards than the deck had).
    per_gold, per_black = scaled(gold, _COMP.gold_coins), scaled(black, _COMP.black_coins)
    per_coin, per_field = scaled(coins, _COMP.coins), scaled(fields, _COMP.black_coins)
    per_chest, per_chest_card = scaled(chest_scale, _COMP.chest_cards), scaled(chest_cards, _COMP.chest_cards)
    per_parrot_card = scaled(parrot_cards, _COMP.parrot_cards)

    def encode_state(state: State[Any, Any], me: int) -> Any:
        d = state.data
        over = d.over
        place = places[me]
        array = (finished if over else running)[me].copy()
        out: Any = memoryview(array)  # its item writes cost less than the array's own
        if not over:
            mover = d.mover
            if mover == me:
                out[_MY_TURN] = 1.0
            out[_HOLDER + place[mover]] = 1.0
        out[_ROUND] = d.round / d.rounds_total
        out[_START + place[d.start]] = 1.0
        out[_ISLAND] = per_field[d.island]
        bag_gold, bag_black = d.bag_gold, d.bag_black
        out[_BAG_COINS] = per_coin[bag_gold + bag_black]
        boxes = d.boxes
        if public_tally or over:  # the tally is public (CB-INFO): everyone's box, the last draw
            out[_BAG_GOLD] = per_gold[bag_gold]
            out[_BAG_BLACK] = per_black[bag_black]
            for s, slot in box_slots[me]:
                out[slot] = per_gold[boxes[s]]
            last = d.last_draw
            if last is not None:
                out[_LAST] = 1.0
                out[_LAST_SEAT + place[last.seat]] = 1.0
                out[_LAST_K] = per_coin[last.k]
                out[_LAST_GOLD] = per_gold[last.gold]
                if last.black:
                    out[_LAST_FAILED] = 1.0
                    out[_LAST_BLACK] = per_black[last.black]
        else:  # hidden tally: one's own box only
            out[_BOX] = per_gold[boxes[me]]
        chests = d.chests
        for s, slot in card_slots[me]:
            out[slot] = per_chest[len(chests[s])]
        own = chests[me]
        filled = own.count(True)
        out[_FILLED] = per_chest[filled]
        out[_OWN_EMPTY] = per_chest[len(own) - filled]
        if over:  # every chest is shown once the game is over
            for s, slot in filled_slots[me]:
                out[slot] = per_chest[chests[s].count(True)]
        parrots = d.parrots
        in_hands = 0
        if any(parrots):
            for s, slot in parrot_slots[me]:
                if parrots[s]:
                    value = sum(parrots[s])
                    in_hands += value
                    out[slot] = min(1.0, value / parrot_scale)
        aside = d.parrot_aside
        out[_CHEST_DECK] = per_chest_card[len(d.chest_deck)]  # sizes only: the order is secret
        out[_PARROT_DECK] = per_parrot_card[len(d.parrot_deck)]
        out[_ASIDE] = per_parrot_card[len(aside)]
        if total_value:
            out[_DECK_VALUE] = (total_value - sum(aside) - in_hands) / total_value
        return array

    return encode_state


def make_action_mask(game: Game[Any, Any], config: Config) -> Callable[[State[Any, Any], int], Any]:
    """Captain Black's action masks without listing the legal draws.

    The mover's legal draws are always ``DRAWS[low : high + 1]`` (the rules'
    ``legal_actions``), the action indices ``low - 1 .. high - 1``, where ``low`` and
    ``high`` are the rules' ``min_draw`` and ``max_draw`` (the tests hold these masks
    to the legal actions). So a mask is fixed by two numbers, and each is built once. Nobody else may act (the game has
    no simultaneous moves), and nobody at all once the game is over.
    """
    if not isinstance(game, CaptainBlack):
        raise TypeError(f"the Captain Black mask needs the Captain Black rules, not {game!r}")
    rules = game
    size = game.num_actions(config)
    empty = np.zeros(size, np.int8)
    #: runs[low][high]: the mask of the draws low..high, made when first needed.
    runs: list[list[Any]] = [[None] * (size + 2) for _ in range(size + 2)]

    def mask(state: State[Any, Any], seat: int) -> Any:
        d = state.data
        if d.over or seat != d.mover:
            return empty.copy()
        low = rules.min_draw(state)
        high = rules.max_draw(state)
        row = runs[low]
        run = row[high]
        if run is None:
            run = row[high] = np.zeros(size, np.int8)
            run[low - 1 : high] = 1
        return run.copy()

    return mask


#: The ``encoder`` role of the manifest: the view encoder, its fast path and the mask fast path.
ENCODER = EncoderSpec(make_encoder, SIZE, state_factory=make_state_encoder, mask_factory=make_action_mask)
