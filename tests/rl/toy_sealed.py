"""A tiny sealed simultaneous game with int actions and a hidden card, for the adapters' tests.

Each of ``rounds`` rounds every seat secretly picks 0..3; once all have chosen, a
pick nobody else made scores its value. Each seat also holds a secret card (0..3,
dealt at random) that counts at the end and is shown to others only then. It is
passed to the adapters as a :class:`Game` instance, never registered globally.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from holotable.engine import (
    Chance,
    Config,
    Dynamics,
    Game,
    GameSpec,
    Information,
    MalformedActionError,
    Outcome,
    Param,
    Rng,
    State,
)

PICKS = (0, 1, 2, 3)


@dataclass
class GuessData:
    secrets: list[int]
    scores: list[int]
    round: int = 1
    last_picks: list[int] = field(default_factory=list)


class SealedGuess(Game[GuessData, int]):
    spec: ClassVar[GameSpec] = GameSpec(
        name="test-rl-sealed-guess",
        title="Sealed Guess (test)",
        min_players=2,
        max_players=3,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.SAMPLED,
        information=Information.IMPERFECT,
        params=(Param("rounds", 3, "int", "rounds to play", minimum=1, maximum=9),),
        max_game_length=3 * 9,
    )
    actions_are_ints: ClassVar[bool] = True

    def setup(self, config: Config, rng: Rng) -> GuessData:
        n = config.players
        return GuessData([rng.randrange(4) for _ in range(n)], [0] * n)

    def to_move(self, st: State[GuessData, int]) -> tuple[int, ...]:
        return () if self.is_terminal(st) else tuple(range(st.players))

    def legal_actions(self, st: State[GuessData, int], seat: int) -> Sequence[int]:
        return PICKS

    def apply(self, st: State[GuessData, int], seat: int, action: int) -> None:  # pragma: no cover - always sealed
        raise AssertionError("every decision here is sealed")

    def resolve(self, st: State[GuessData, int], actions: Mapping[int, int]) -> None:
        d = st.data
        picks = [actions[s] for s in range(st.players)]
        for seat, pick in enumerate(picks):
            if picks.count(pick) == 1:
                d.scores[seat] += pick
        d.last_picks = picks
        d.round += 1

    def is_terminal(self, st: State[GuessData, int]) -> bool:
        return st.data.round > st.config["rounds"]

    def outcome(self, st: State[GuessData, int]) -> Outcome:
        totals = [score + secret for score, secret in zip(st.data.scores, st.data.secrets, strict=True)]
        return Outcome(tuple(float(t) for t in totals), Outcome.ranks_from_keys(totals), "highest total")

    def view(self, st: State[GuessData, int], seat: int | None) -> dict[str, Any]:
        d = st.data
        over = self.is_terminal(st)
        return {
            "round": d.round,
            "scores": list(d.scores),
            "last_picks": list(d.last_picks),
            "secrets": [c if (over or s == seat) else None for s, c in enumerate(d.secrets)],
        }

    def determinize(self, st: State[GuessData, int], seat: int, rng: Rng) -> None:
        d = st.data
        if not self.is_terminal(st):
            d.secrets = [c if s == seat else rng.randrange(4) for s, c in enumerate(d.secrets)]

    def action_to_str(self, action: int) -> str:
        return str(action)

    def parse_action(self, text: str) -> int:
        if text.strip() not in ("0", "1", "2", "3"):
            raise MalformedActionError(f"pick 0..3, not {text!r}")
        return int(text)

    def is_action(self, action: object) -> bool:
        return isinstance(action, int) and not isinstance(action, bool)

    def num_actions(self, config: Config) -> int:
        return len(PICKS)

    def action_index(self, action: int) -> int:
        return action

    def index_action(self, index: int) -> int:
        if index not in PICKS:
            raise MalformedActionError(f"pick 0..3, not {index!r}")
        return index


GAME = SealedGuess()
