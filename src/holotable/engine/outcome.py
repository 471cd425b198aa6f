"""How a game ended: scores, ranks (ties share a place), winners and the reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``ranks[seat]`` is 1 for the winner(s); tied seats share a rank. ``scores`` are
    the game's own numbers (filled chests, points, ...), ``reason`` a short sentence.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: str
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @property
    def is_tie(self) -> bool:
        """True when more than one seat shares first place."""
        return len(self.winners) > 1

    def utility(self, seat: int) -> float:
        """A reward in [0, 1] from the seat's rank: 1 for first, 0 for last place."""
        n = len(self.ranks)
        if n <= 1:
            return 1.0 if self.ranks[seat] == 1 else 0.0
        return (n - self.ranks[seat]) / (n - 1)

    def utilities(self) -> tuple[float, ...]:
        return tuple(self.utility(s) for s in range(len(self.ranks)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "reason": self.reason,
            "details": self.details,
        }

    @staticmethod
    def ranks_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
        """Competition ranks (1, 1, 3, ...) from sort keys where larger is better.

        >>> Outcome.ranks_from_keys([(5, 6), (5, 7), (4, 5)])
        (2, 1, 3)
        >>> Outcome.ranks_from_keys([3, 3, 1])
        (1, 1, 3)
        """
        return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
