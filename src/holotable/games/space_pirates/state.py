"""Space Pirates' plain game data (spec §4.1). Positions are stored rounded (see geometry.rnd).

Token ids are 0..33; ``ident[tid]`` is the identity (determinisation re-deals it for hidden tokens).
An id is a handle on a token the table can see, never a name of its face: the bag is a multiset
(its tokens' identities are kept sorted over their ids, :meth:`SPData.sort_bag`), and a token
drawn takes the lowest id in the bag, so an id that went into the bag comes out on any face.
``where[tid]`` is ``bag`` | ``map`` | ``hold`` | ``police`` | ``transit``. ``known[tid]`` is a bit
mask of seats that know the identity (SP-INFO-01). Draw stacks keep their top card at the end.
Pending work is a :class:`~holotable.engine.tasks.TaskStack` of small typed tasks (``tasks.py``);
a decision on top is what the engine is waiting for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from holotable.engine.tasks import TaskStack

from .geometry import XY, Layout, LayoutKey

if TYPE_CHECKING:
    from .tasks import Ctx, SPDecision, SPTask


@dataclass(slots=True)
class Ship:
    base: int | None = None  # docked at this base index
    slot: int | None = None
    center: XY | None = None  # in space
    heading: float = 0.0
    arrested: bool = False
    fine_due: bool = False

    def copy(self) -> Ship:
        return Ship(self.base, self.slot, self.center, self.heading, self.arrested, self.fine_due)


@dataclass(slots=True)
class SPData:
    n: int
    layout_key: LayoutKey
    layout: Layout
    ident: list[str]
    where: list[str]
    pos: list[XY | None]
    open: list[bool]
    known: list[int]
    holder: list[int | None]
    ships: list[Ship]
    mc: list[int]
    hands: list[list[str]]
    holds: list[list[int]]
    police: list[int | None]
    owned: list[int | None]
    seen_markets: list[set[int]]
    draw: dict[int, list[str]]
    discard: dict[int, list[str]]
    in_play: str | None
    bank: int
    owner: list[int | None]  # per base index
    market: list[str | None]  # per base index (inhabited only)
    market_up: list[bool]
    docked: list[list[int | None]]  # per base: seat in slot 0 / 1
    market_out: list[str]  # market cards out of the game, never seen (SP-AMB-39)
    active: int = 0
    first_seat: int = 0
    turn: int = 0
    storm: XY | None = None
    stack: TaskStack[Ctx] = field(default_factory=TaskStack)
    winner: int | None = None
    over: bool = False
    reason: str = ""
    bought: list[bool] = field(default_factory=list)
    last_flick: dict[str, Any] | None = None
    #: Cards played this turn after ``in_play`` (the ``multi_card`` option, SP-AMB-06), in play order.
    also_played: list[str] = field(default_factory=list)
    #: The ``dock_geometry`` option (SP-AMB-23), kept here because ruler legality reads only the data.
    dock_stand: bool = False
    #: The ``first_ruler`` option (SP-AMB-04): the first ruler of a move keeps within 90 degrees of the
    #: heading ("within_90") instead of leaving the nose in any direction (the rulebook's "nose").
    first_within_90: bool = False
    #: The rulers laid this turn, as (start, end) segments in the order laid (SP-GEO-04): public, as they
    #: lie on the table; an entry ruler ends where it met the gate once the ship docks (SP-GEO-05).
    #: Empty before the turn's first ruler (the next turn starts afresh).
    rulers: list[tuple[XY, XY]] = field(default_factory=list)

    def copy(self) -> SPData:
        # Hand-written: cloning is on the hot path of search and simulation. Tasks are values
        # (frozen dataclasses), so copying the stack copies only its list.
        return SPData(
            self.n, self.layout_key, self.layout, self.ident[:], self.where[:], self.pos[:], self.open[:],
            self.known[:], self.holder[:], [s.copy() for s in self.ships], self.mc[:],
            [h[:] for h in self.hands], [h[:] for h in self.holds], self.police[:], self.owned[:],
            [set(s) for s in self.seen_markets], {v: s[:] for v, s in self.draw.items()},
            {v: s[:] for v, s in self.discard.items()}, self.in_play, self.bank, self.owner[:], self.market[:],
            self.market_up[:], [d[:] for d in self.docked], self.market_out[:], self.active, self.first_seat,
            self.turn, self.storm, self.stack.copy(), self.winner, self.over, self.reason,
            self.bought[:], self.last_flick, self.also_played[:], self.dock_stand,
            self.first_within_90, self.rulers[:],
        )

    def sort_bag(self) -> None:
        """Keep the bag a multiset: the identities of the tokens in it, sorted over their ids.

        Tokens in a bag cannot be told apart, so which id holds which identity there must mean
        nothing (SP-INFO-01): were it kept, an id would carry a token's face through the bag and
        out again, and the rules fixing it would tell every player (token 33 was the police).
        """
        bag = [t for t, w in enumerate(self.where) if w == "bag"]
        for t, kind in zip(bag, sorted(self.ident[t] for t in bag), strict=True):
            self.ident[t] = kind

    def ship_positions(self, exclude: int | None = None) -> dict[int, XY]:
        """Centres of ships in space (docked ships excluded)."""
        return {s: sh.center for s, sh in enumerate(self.ships) if sh.center is not None and s != exclude}

    def ship_center_any(self, seat: int) -> XY:
        sh = self.ships[seat]
        if sh.center is not None:
            return sh.center
        assert sh.base is not None and sh.slot is not None
        return self.layout.bases[sh.base].slots[sh.slot]

    def map_tokens(self, exclude: int | None = None) -> dict[int, XY]:
        out: dict[int, XY] = {}
        for t, w in enumerate(self.where):
            p = self.pos[t]
            if w == "map" and t != exclude and p is not None:
                out[t] = p
        return out

    def to_dict(self) -> dict[str, Any]:
        lay = self.layout
        return {
            "players": self.n,
            "field": [lay.W, lay.H],
            "layout": [list(self.layout_key[2]), list(self.layout_key[3])],
            "tokens": [
                {"tid": t, "identity": self.ident[t], "where": self.where[t],
                 "pos": _pos(self.pos[t]), "open": self.open[t],
                 "known": [s for s in range(self.n) if self.known[t] >> s & 1], "holder": self.holder[t]}
                for t in range(len(self.ident))
            ],
            "bag": sorted(t for t, w in enumerate(self.where) if w == "bag"),
            "ships": [
                {"base": sh.base, "slot": sh.slot, "center": None if sh.center is None else list(sh.center),
                 "heading": sh.heading, "arrested": sh.arrested, "fine_due": sh.fine_due}
                for sh in self.ships
            ],
            "mc": list(self.mc),
            "bank": self.bank,
            "hands": [list(h) for h in self.hands],
            "holds": [list(h) for h in self.holds],
            "police": list(self.police),
            "owned": list(self.owned),
            "seen_markets": [sorted(s) for s in self.seen_markets],
            "draw": {str(v): list(s) for v, s in self.draw.items()},
            "discard": {str(v): list(s) for v, s in self.discard.items()},
            "in_play": self.in_play,
            "also_played": list(self.also_played),
            "dock_stand": self.dock_stand,
            "first_within_90": self.first_within_90,
            "owner": list(self.owner),
            "market": list(self.market),
            "market_up": list(self.market_up),
            "docked": [list(d) for d in self.docked],
            "market_out": list(self.market_out),
            "active": self.active,
            "first_seat": self.first_seat,
            "turn": self.turn,
            "storm": None if self.storm is None else list(self.storm),
            # bottom first, each task as its fields then its kind (scenarios read data.stack.-1.kind)
            "stack": [cast("SPTask | SPDecision", t).plain() for t in reversed(list(self.stack))],
            "winner": self.winner,
            "over": self.over,
            "reason": self.reason,
            "bought": list(self.bought),
            "last_flick": self.last_flick,
            "rulers": [[list(a), list(b)] for a, b in self.rulers],
        }


def _pos(p: XY | None) -> list[float] | None:
    return None if p is None else [p[0], p[1]]
