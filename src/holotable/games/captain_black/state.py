"""Captain Black's plain game data. Decks keep their top card at the *end* of the list."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FILLED = True
EMPTY = False


@dataclass(frozen=True, slots=True)
class LastDraw:
    seat: int
    k: int
    gold: int
    black: int

    @property
    def success(self) -> bool:
        return self.black == 0


@dataclass(slots=True)
class CBData:
    players: int
    first_start: int
    rounds_total: int
    round: int = 1
    start: int = 0  # the ship's holder: start player of this round
    mover: int = 0  # who holds the bag
    bag_gold: int = 0
    bag_black: int = 0
    island: int = 0
    boxes: list[int] = field(default_factory=list)
    chests: list[list[bool]] = field(default_factory=list)  # per seat, True = filled
    chest_deck: list[bool] = field(default_factory=list)
    parrot_deck: list[int] = field(default_factory=list)
    parrot_aside: list[int] = field(default_factory=list)
    parrots: list[list[int]] = field(default_factory=list)  # this round's parrots, per seat
    last_draw: LastDraw | None = None
    moves_in_round: int = 0
    rounds: list[dict[str, Any]] = field(default_factory=list)  # public results of each round
    over: bool = False

    def copy(self) -> CBData:
        # Hand-written because cloning is on the hot path of search and simulation.
        # rounds entries are never mutated after they are appended, so sharing is safe.
        return CBData(
            self.players,
            self.first_start,
            self.rounds_total,
            self.round,
            self.start,
            self.mover,
            self.bag_gold,
            self.bag_black,
            self.island,
            self.boxes[:],
            [c[:] for c in self.chests],
            self.chest_deck[:],
            self.parrot_deck[:],
            self.parrot_aside[:],
            [p[:] for p in self.parrots],
            self.last_draw,
            self.moves_in_round,
            self.rounds[:],
            self.over,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "first_start": self.first_start,
            "rounds_total": self.rounds_total,
            "round": self.round,
            "start": self.start,
            "mover": self.mover,
            "bag": {"gold": self.bag_gold, "black": self.bag_black},
            "island": self.island,
            "boxes": list(self.boxes),
            "chests": [["filled" if c else "empty" for c in hand] for hand in self.chests],
            "chest_deck_top_first": ["filled" if c else "empty" for c in reversed(self.chest_deck)],
            "parrot_deck_top_first": list(reversed(self.parrot_deck)),
            "parrot_aside": list(self.parrot_aside),
            "parrots": [list(p) for p in self.parrots],
            "last_draw": None
            if self.last_draw is None
            else {
                "seat": self.last_draw.seat,
                "k": self.last_draw.k,
                "gold": self.last_draw.gold,
                "black": self.last_draw.black,
            },
            "moves_in_round": self.moves_in_round,
            "rounds": list(self.rounds),
            "over": self.over,
        }
