"""What each seat may see of Captain Black (CB-INFO), and determinisation for search."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holotable.engine import Rng

from .state import CBData

if TYPE_CHECKING:
    from holotable.engine import State

    from .actions import Draw


def view(st: State[CBData, Draw], seat: int | None) -> dict[str, Any]:
    """Public information for all (CB-INFO-01), plus the viewer's own chest contents.

    Other seats' chest contents are shown only once the game is over (CB-INFO-02);
    deck orders and future draws never are (CB-INFO-03).
    """
    d = st.data
    public = st.config["public_tally"] or d.over
    out: dict[str, Any] = {
        "round": d.round,
        "rounds_total": d.rounds_total,
        "start_player": d.start,
        "bag_holder": None if d.over else d.mover,
        "island": d.island,
        "island_fields": st.config["island_fields"],
        "chest_counts": [len(hand) for hand in d.chests],
        "chest_deck_size": len(d.chest_deck),
        "parrot_deck_size": len(d.parrot_deck),
        "parrot_aside": sorted(d.parrot_aside),
        "parrots": [list(p) for p in d.parrots],
        "rounds": list(d.rounds),
    }
    if public:
        out["boxes"] = list(d.boxes)
        out["bag"] = {"gold": d.bag_gold, "black": d.bag_black}
        out["last_draw"] = None if d.last_draw is None else {
            "seat": d.last_draw.seat,
            "k": d.last_draw.k,
            "gold": d.last_draw.gold,
            "black": d.last_draw.black,
        }
    else:  # hidden-tally variant: only your own box
        out["boxes"] = [b if s == seat else None for s, b in enumerate(d.boxes)]
        out["bag"] = {"coins": d.bag_gold + d.bag_black}
        out["last_draw"] = None
    out["chests"] = [
        (["filled" if c else "empty" for c in hand] if (d.over or s == seat) else None)
        for s, hand in enumerate(d.chests)
    ]
    return out


#: Gold enters a box a handful at a time; re-dealt hidden boxes grow in handfuls of
#: 1.._HANDFUL coins (mean 4.5, about what a full bag's best draw brings) so their spread
#: looks like play rather than the narrow spread of coins dealt one by one.
_HANDFUL = 8


def determinize(st: State[CBData, Draw], seat: int, rng: Rng) -> None:
    """Re-deal what ``seat`` cannot see: other seats' chests, the chest deck's order,
    and the parrot deck's order. Counts and every public fact are kept.

    With a hidden tally the other seats' boxes are re-dealt too. Their sum is known to
    the seat (all gold minus its own box minus the gold in the bag, which is the bag's
    coins minus the black coins not yet on the island), but not how it is split.
    """
    d = st.data
    if d.over:
        return
    # Chest cards: the pool of unseen cards is everyone else's plus the deck.
    pool: list[bool] = list(d.chest_deck)
    for s, hand in enumerate(d.chests):
        if s != seat:
            pool.extend(hand)
    pool.sort()  # the true order is secret: shuffle from a canonical order so it cannot leak
    rng.shuffle(pool)
    i = 0
    for s, hand in enumerate(d.chests):
        if s != seat:
            n = len(hand)
            d.chests[s] = pool[i : i + n]
            i += n
    d.chest_deck = pool[i:]
    # Parrots: the values left in the deck are public as a multiset; only the order is hidden.
    deck = sorted(d.parrot_deck)
    rng.shuffle(deck)
    d.parrot_deck = deck
    if not st.config["public_tally"]:
        _redeal_hidden_boxes(d, seat, rng)


def _redeal_hidden_boxes(d: CBData, seat: int, rng: Rng) -> None:
    """Split the other seats' gold afresh, and forget the details of their last draw."""
    others = [s for s in range(d.players) if s != seat]
    left = sum(d.boxes[s] for s in others)  # the known total, whatever its true split
    for s in others:
        d.boxes[s] = 0  # the canonical start: nothing of the true split survives
    while left > 0:
        handful = min(left, rng.randint(1, _HANDFUL))
        d.boxes[others[rng.randrange(len(others))]] += handful
        left -= handful
    if d.last_draw is not None and d.last_draw.seat != seat:
        # Its size and colours are hidden, and no rule reads it again: the view shows none.
        d.last_draw = None
