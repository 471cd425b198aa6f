"""The compact result of one simulated game, and its JSON form (for reports and results files).

>>> rec = GameRecord(0, 7, ("random", "random"), (3.0, 1.0), (1, 2), (0,), 20, "score", (("rounds", 4.0),))
>>> GameRecord.from_dict(rec.to_dict()) == rec
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self


@dataclass(frozen=True)
class GameRecord:
    """The compact result of one simulated game."""

    index: int
    seed: int
    agents: tuple[str, ...]  # the agent name at each seat
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    steps: int
    #: The outcome's reason (how the game ended).
    reason: str = ""
    #: The game's own measures of the finished game (:mod:`holotable.sim.hooks`), in its order.
    measures: tuple[tuple[str, float], ...] = ()
    #: The game's per-seat measures (:mod:`holotable.sim.hooks`): one tuple of pairs per seat, or empty.
    seat_measures: tuple[tuple[tuple[str, float], ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "agents": list(self.agents),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "steps": self.steps,
            "reason": self.reason,
            "measures": dict(self.measures),
            "seat_measures": [dict(m) for m in self.seat_measures],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The record :meth:`to_dict` wrote (measures keep their order: JSON objects keep theirs)."""
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            agents=tuple(data["agents"]),
            scores=tuple(data["scores"]),
            ranks=tuple(int(r) for r in data["ranks"]),
            winners=tuple(int(w) for w in data["winners"]),
            steps=int(data["steps"]),
            reason=str(data.get("reason", "")),
            measures=tuple((str(k), float(v)) for k, v in data.get("measures", {}).items()),
            seat_measures=tuple(
                tuple((str(k), float(v)) for k, v in seat.items()) for seat in data.get("seat_measures", [])
            ),
        )
