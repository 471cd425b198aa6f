"""Two tiny games, written for the agent tests only and never registered globally.

* :class:`Pennies`: matching pennies as one sealed simultaneous decision. Seat 0 wins
  when the coins match, seat 1 when they differ. A search that let seat 1 see seat 0's
  sealed coin would always answer it, so seat 0 would value both coins at 0; with
  decoupled selection each coin is worth about 1/2 to seat 0.
* :class:`Nim`: take 1-3 counters, whoever takes the last one wins. Sequential and
  deterministic, so it checks that the tree finds a forced win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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


@dataclass
class PenniesData:
    coins: tuple[str, str] | None = None


class Pennies(Game[PenniesData, str]):
    spec: ClassVar[GameSpec] = GameSpec(
        name="test-agent-pennies",
        title="Matching pennies (test)",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.DETERMINISTIC,
        information=Information.IMPERFECT,
        max_game_length=2,
    )

    def setup(self, config: Config, rng: Rng) -> PenniesData:
        return PenniesData()

    def copy_data(self, data: PenniesData) -> PenniesData:
        return PenniesData(data.coins)

    def to_move(self, st: State[PenniesData, str]) -> tuple[int, ...]:
        return () if st.data.coins is not None else (0, 1)

    def legal_actions(self, st: State[PenniesData, str], seat: int) -> Sequence[str]:
        return ("heads", "tails")

    def apply(self, st: State[PenniesData, str], seat: int, action: str) -> None:
        raise AssertionError("the only decision is sealed; the engine must call resolve")

    def resolve(self, st: State[PenniesData, str], actions: Mapping[int, str]) -> None:
        st.data.coins = (actions[0], actions[1])

    def is_terminal(self, st: State[PenniesData, str]) -> bool:
        return st.data.coins is not None

    def outcome(self, st: State[PenniesData, str]) -> Outcome:
        assert st.data.coins is not None
        match = st.data.coins[0] == st.data.coins[1]
        keys = (1, 0) if match else (0, 1)
        return Outcome((float(keys[0]), float(keys[1])), Outcome.ranks_from_keys(keys), "pennies")

    def view(self, st: State[PenniesData, str], seat: int | None) -> dict[str, Any]:
        return {"coins": st.data.coins}

    def parse_action(self, text: str) -> str:
        if text not in ("heads", "tails"):
            raise MalformedActionError(f"heads or tails, not {text!r}")
        return text


@dataclass
class NimData:
    pile: int
    turn: int = 0
    winner: int | None = None


class Nim(Game[NimData, str]):
    spec: ClassVar[GameSpec] = GameSpec(
        name="test-agent-nim",
        title="Nim (test)",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.DETERMINISTIC,
        information=Information.PERFECT,
        params=(Param("pile", 10, "int", "counters at the start", minimum=1, maximum=50),),
        max_game_length=100,
    )

    def setup(self, config: Config, rng: Rng) -> NimData:
        return NimData(pile=config["pile"])

    def copy_data(self, data: NimData) -> NimData:
        return NimData(data.pile, data.turn, data.winner)

    def to_move(self, st: State[NimData, str]) -> tuple[int, ...]:
        return () if st.data.winner is not None else (st.data.turn,)

    def legal_actions(self, st: State[NimData, str], seat: int) -> Sequence[str]:
        return tuple(f"take {n}" for n in range(1, min(3, st.data.pile) + 1))

    def apply(self, st: State[NimData, str], seat: int, action: str) -> None:
        d = st.data
        d.pile -= int(action.split()[1])
        if d.pile == 0:
            d.winner = seat
        d.turn = 1 - seat

    def is_terminal(self, st: State[NimData, str]) -> bool:
        return st.data.winner is not None

    def outcome(self, st: State[NimData, str]) -> Outcome:
        keys = [int(s == st.data.winner) for s in range(2)]
        return Outcome(tuple(float(k) for k in keys), Outcome.ranks_from_keys(keys), "took the last")

    def view(self, st: State[NimData, str], seat: int | None) -> dict[str, Any]:
        return {"pile": st.data.pile, "turn": st.data.turn}

    def parse_action(self, text: str) -> str:
        if text not in ("take 1", "take 2", "take 3"):
            raise MalformedActionError(f"expected 'take N', got {text!r}")
        return text


class PenniesOrDice(Pennies):
    """Matching pennies, but seat 0 may instead roll a die that wins 3 times in 10 whatever
    seat 1 does. Heads or tails are worth 1/2 to seat 0 when seat 1 cannot see the coin,
    and nothing when it can; so a search that conditioned seat 1 on seat 0's sealed
    choice would roll the die."""

    spec: ClassVar[GameSpec] = GameSpec(
        name="test-agent-pennies-or-dice",
        title="Pennies or dice (test)",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.SAMPLED,
        information=Information.IMPERFECT,
        max_game_length=2,
    )

    def legal_actions(self, st: State[PenniesData, str], seat: int) -> Sequence[str]:
        return ("heads", "tails", "dice") if seat == 0 else ("heads", "tails")

    def resolve(self, st: State[PenniesData, str], actions: Mapping[int, str]) -> None:
        if actions[0] == "dice":
            won = st.rng.random() < 0.3
            st.data.coins = ("heads", "heads" if won else "tails")
        else:
            st.data.coins = (actions[0], actions[1])

    def parse_action(self, text: str) -> str:
        if text not in ("heads", "tails", "dice"):
            raise MalformedActionError(f"heads, tails or dice, not {text!r}")
        return text
