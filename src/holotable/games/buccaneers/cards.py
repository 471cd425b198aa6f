"""Card lookups and tableau arithmetic: effective value and weight, totals, groups and triggers.

Everything here reads the loaded data (``data/*.json``); no number is hard-coded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .data import (
    Artifact,
    BlackHole,
    BuccaneersData,
    JunkCard,
    JunkType,
    Relic,
    Stats,
    TimeMachinePart,
    load_default,
)
from .state import BHBData, Laid

DATA: BuccaneersData = load_default()
CARDS: dict[str, JunkCard] = {card.id: card for card in DATA.junk}
ORDER: dict[str, int] = {card.id: i for i, card in enumerate(DATA.junk)}
HOLES = {hole.id: hole for hole in DATA.black_holes}
THRESHOLD_IDS: dict[int, str] = {t.amount: t.id for t in DATA.threshold_cards}
THRESHOLD_AMOUNTS: dict[str, int] = {t.id: t.amount for t in DATA.threshold_cards}
W6 = next(w.id for w in DATA.weight_cards if w.amount == -6)
W10 = next(w.id for w in DATA.weight_cards if w.amount == -10)
V10 = DATA.value_cards[0].id
TOKEN_AMOUNTS: dict[str, int] = {**{w.id: w.amount for w in DATA.weight_cards},
                                 **{v.id: v.amount for v in DATA.value_cards}}
WEIGHT_TOKENS = tuple(w.id for w in DATA.weight_cards)
VALUE_TOKENS = tuple(v.id for v in DATA.value_cards)
ON_REVEAL = ("gps", "tiit", "laser", "tentacle", "gyro")  # BHB-ART-00-05 order
ONGOING = ("morphosucker", "cubus_librae", "lootbox")
#: Triggers of the ongoing artifacts (BHB-ART-MORPHO/CUBUS/LOOT-01).
CUBUS_MIN_WEIGHT = 7
LOOT_MIN_WEIGHT = 6


def data_of(d: BHBData) -> BuccaneersData:
    """The card data of the game ``d`` belongs to: the shipped data unless its configuration
    overrides values (kinds, effects and ids never change, so the tables above stay valid)."""
    found: BuccaneersData | None = d.game_data
    return DATA if found is None else found


def hole(d: BHBData) -> BlackHole:
    """The black hole of the current round, with this game's numbers."""
    return data_of(d).holes_by_id[d.black_hole]


def effect_of(card_id: str) -> str | None:
    card = CARDS[card_id]
    if isinstance(card, Artifact | Relic):
        return card.effect
    return None


EFFECT_CARD: dict[str, str] = {eff: cid for cid in CARDS if (eff := effect_of(cid)) is not None}


def kind(card_id: str) -> JunkType:
    return CARDS[card_id].kind


def is_toy(card_id: str) -> bool:
    return CARDS[card_id].kind is JunkType.TOY


def printed_weight(card_id: str, data: BuccaneersData = DATA) -> int:
    return data.cards_by_id[card_id].printed_weight


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Card ids in data-file order (a canonical order that reveals nothing)."""
    return sorted(cards, key=ORDER.__getitem__)


def find(tableau: Sequence[Laid], effect: str) -> Laid | None:
    cid = EFFECT_CARD[effect]
    for laid in tableau:
        if laid.card == cid:
            return laid
    return None


def owner(d: BHBData, effect: str) -> int | None:
    """The seat whose tableau holds the artifact or relic with ``effect``."""
    for seat, tableau in enumerate(d.tableaux):
        if find(tableau, effect) is not None:
            return seat
    return None


def top_shapeshifter(tableau: Sequence[Laid]) -> str | None:
    for laid in reversed(tableau):
        if CARDS[laid.card].kind is JunkType.SHAPESHIFTER:
            return laid.card
    return None


def stats(tableau: Sequence[Laid], laid: Laid, data: BuccaneersData = DATA) -> Stats:
    """A laid card's value and weight now (BHB-ROT-02, BHB-CARD-SHAPE-03/04); ``data``: the game's
    card data (``data_of(d)``)."""
    cards = data.cards_by_id
    card = cards[laid.card]
    if card.kind is JunkType.SHAPESHIFTER:
        top = top_shapeshifter(tableau)
        assert top is not None
        return Stats(card.printed.value, cards[top].printed_weight)
    return card.at(laid.turns)


def weight(d: BHBData, seat: int) -> int:
    """W(p): the tableau's weight plus the weight tokens held (BHB-CARD-VW-01)."""
    tableau = d.tableaux[seat]
    data = data_of(d)
    total = sum(stats(tableau, laid, data).weight for laid in tableau)
    return total + sum(TOKEN_AMOUNTS[t] for t in WEIGHT_TOKENS if d.tokens.get(t) == seat)


def value(d: BHBData, seat: int) -> int:
    """V(p): the tableau's value plus the value token if held (BHB-CARD-VW-02)."""
    tableau = d.tableaux[seat]
    data = data_of(d)
    total = sum(stats(tableau, laid, data).value for laid in tableau)
    return total + sum(TOKEN_AMOUNTS[t] for t in VALUE_TOKENS if d.tokens.get(t) == seat)


def toy_weight(d: BHBData, seat: int) -> int:
    """toyW(p): printed weight of every toy in the tableau, tokens excluded (BHB-SCORE-C-02)."""
    data = data_of(d)
    return sum(printed_weight(laid.card, data) for laid in d.tableaux[seat] if is_toy(laid.card))


def ships(d: BHBData, seat: int) -> list[int]:
    cards = data_of(d).cards_by_id
    return [cards[laid.card].printed.value for laid in d.tableaux[seat] if cards[laid.card].kind is JunkType.SPACESHIP]


def ship_key(d: BHBData, seat: int, compare: str = "best") -> tuple[int, int]:
    """(has a spaceship, its worth) for tie-breaks: the best one (AMB-28) or the sum ("total")."""
    values = ships(d, seat)
    if not values:
        return (0, 0)
    return (1, max(values) if compare == "best" else sum(values))


# ------------------------------------------------------------------ time-machine groups (BHB-CARD-TM)


def groups(tableau: Sequence[Laid]) -> dict[int, list[Laid]]:
    out: dict[int, list[Laid]] = {}
    for laid in tableau:
        if laid.group:
            out.setdefault(laid.group, []).append(laid)
    return out


def open_groups(tableau: Sequence[Laid], card_id: str) -> list[int]:
    """Own groups that lack this part's name (BHB-DEC-02); a new group is always allowed too."""
    card = CARDS[card_id]
    assert isinstance(card, TimeMachinePart)
    out = []
    for g, members in sorted(groups(tableau).items()):
        names = {part_of(m.card) for m in members}
        if card.part not in names and len(members) < 4:
            out.append(g)
    return out


def part_of(card_id: str) -> str:
    card = CARDS[card_id]
    assert isinstance(card, TimeMachinePart)
    return card.part


def place_part(tableau: list[Laid], laid: Laid, group: int) -> None:
    """Put a laid-out part into ``group`` (0 = a new one) and rotate the group (BHB-CARD-TM-04)."""
    existing = groups(tableau)
    if group == 0:
        laid.group = max(existing, default=0) + 1
        laid.turns = 0  # the first part of a group is not rotated
        return
    members = existing[group]
    laid.group = group
    laid.turns = members[0].turns  # same orientation as the group
    for m in (*members, laid):
        m.turns += 1


# ------------------------------------------------------------------ ongoing artifact triggers


def trigger_counts(d: BHBData, revealed: Sequence[Sequence[Any]]) -> list[tuple[int, str, int]]:
    """Rotations of the active ongoing artifacts caused by ``revealed`` [seat, card, source] entries.

    Morphosucker: shapeshifters of other players; Cubus Librae: printed weight >= 7 of other players;
    Lootbox: printed weight >= 6 of its owner; robots never count (BHB-ART-MORPHO/CUBUS/LOOT,
    BHB-ART-00-06: the printed weight of the card laid out).
    """
    out = []
    cards = data_of(d).cards_by_id
    for q, tableau in enumerate(d.tableaux):
        for laid in tableau:
            eff = effect_of(laid.card)
            if eff not in ONGOING or not laid.active or laid.suppressed:
                continue
            count = 0
            for p, cid, _source in revealed:
                card = cards[cid]
                if eff == "morphosucker":
                    count += p != q and card.kind is JunkType.SHAPESHIFTER
                elif card.kind is JunkType.ROBOT:
                    continue
                elif eff == "cubus_librae":
                    count += p != q and card.printed_weight >= CUBUS_MIN_WEIGHT
                else:
                    count += p == q and card.printed_weight >= LOOT_MIN_WEIGHT
            if count:
                out.append((q, laid.card, count))
    return out


def laid(d: BHBData, seat: int, card_id: str) -> Laid:
    for item in d.tableaux[seat]:
        if item.card == card_id:
            return item
    raise KeyError(card_id)


def all_cards(d: BHBData) -> list[str]:
    """Every junk card in every zone (for conservation checks, INV-01)."""
    out = list(d.draw) + list(d.discard) + list(d.bh_pile) + list(d.tentacle)
    for hand in d.hands:
        out.extend(hand)
    for tableau in d.tableaux:
        out.extend(laid.card for laid in tableau)
    return out
