"""The small moves every part of a round uses: drawing, scripted chance, grouping a part, triggers.

They change the state and log what happened but queue no work, so the task modules
(:mod:`.decisions`, :mod:`.flow`, :mod:`.scoring`) can all build on them. Rule IDs refer to the BHB spec.
"""

from __future__ import annotations

from typing import Any

from holotable.engine import State
from holotable.engine import chance as chances
from holotable.engine.words import plural, seat_name, times

from . import cards as tb
from .state import BHBData

BHB = State[BHBData, Any]


#: The direction card's sides in words.
DIRECTION_WORDS = {"CW": "clockwise", "CCW": "counter-clockwise"}


def card_name(cid: str | None) -> str:
    """A card as the players call it (its printed name, "Robot 5/2"), never its id."""
    return "no card" if cid is None else tb.CARDS[cid].shown_name


def threshold_name(tid: str) -> str:
    """A threshold card as the players call it: "the +3 threshold card"."""
    return f"the {tb.THRESHOLD_AMOUNTS[tid]:+d} threshold card"


def name(seat: int) -> str:
    return f"{seat_name(seat)}"


def only(seat: int) -> frozenset[int]:
    return frozenset((seat,))


def on_one_ring_discarded(st: BHB, seat: int) -> None:
    """Hook for the One Ring's missing effect (BHB-REL-RING-02, AMB-25): nothing by default."""


def step_of(n: int, direction: str) -> int:
    return 1 if direction == "CW" else n - 1  # BHB-PASS-01 (AMB-12)


def pull(st: BHB) -> str | None:
    """Take the top card of the draw pile, refilling it from the discards if empty (AMB-11)."""
    d = st.data
    if not d.draw and d.discard:
        d.draw = tb.sort_cards(d.discard)
        d.discard = []
        chances.shuffle(st, "shuffle", d.draw)
        st.emit("reshuffle", "The draw pile ran out: the discards are shuffled into a new one")
    if not d.draw:
        return None
    st.reveal()  # the top card of the draw pile is seen
    return d.draw.pop(0)


def scripted(st: BHB, key: str, options: list[str]) -> str:
    """A random pick among ``options``, or the next scripted card of a scenario."""
    return chances.pick(st, key, options)


def place_group(st: BHB, seat: int, card: str, group: int) -> None:
    d = st.data
    item = tb.laid(d, seat, card)
    tb.place_part(d.tableaux[seat], item, group)
    members = tb.groups(d.tableaux[seat])[item.group]
    turned = item.turns % 4
    st.emit("tm_group", f"{name(seat)} puts {card_name(card)} into time-machine group {item.group} "
            f"({plural(len(members), 'part')}{', turned ' + times(turned) if turned else ''})",
            seat=seat, card=card, group=item.group, size=len(members), orientation=item.turns % 4)


def apply_triggers(st: BHB, revealed: list[list[Any]]) -> None:
    d = st.data
    for q, cid, count in tb.trigger_counts(d, revealed):
        item = tb.laid(d, q, cid)
        item.turns += count  # BHB-ROT-04: wraps modulo 4
        now = tb.stats(d.tableaux[q], item, tb.data_of(d))
        st.emit("rotate", f"{name(q)}'s {tb.CARDS[cid].shown_name} turns {times(count)}: now {now.value}/{now.weight}",
                seat=q, card=cid, count=count, turns=item.turns, value=now.value, weight=now.weight)
