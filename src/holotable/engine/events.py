"""Events: the readable, per-seat-filtered story of a match (the game log)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``to`` lists the seats allowed to see it; ``None`` = everyone."""

    ply: int
    kind: str
    text: str
    data: dict[str, Any]
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "kind": self.kind, "text": self.text, "data": self.data}
