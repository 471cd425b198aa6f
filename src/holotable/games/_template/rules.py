"""Last Pebble's rules: two seats take one or two pebbles in turn from one pile; whoever takes the
last pebble wins. A game is a :class:`~holotable.engine.Game` subclass with a :class:`GameSpec`.

>>> st = LastPebble().new_state(players=2, seed=0)
>>> st.legal_actions(), st.to_move()
(['take 1', 'take 2'], (0,))
>>> st.apply("take 2"); st.view(1)["pile"]
8
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from holotable.engine import Config, Game, GameSpec, IllegalActionError, MalformedActionError, Outcome, Rng, State
from holotable.engine.spec import Chance, Dynamics, Information, Param
from holotable.engine.words import seat_name

SPEC = GameSpec(
    name="template",
    title="Last Pebble (template)",
    min_players=2,
    max_players=2,
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.DETERMINISTIC,
    information=Information.PERFECT,
    params=(Param("pile", 10, "int", "pebbles at the start", minimum=1, maximum=60),),
    max_game_length=60,
)

TAKES = ("take 1", "take 2")


@dataclass
class PebbleData:
    pile: int
    turn: int = 0
    winner: int | None = None


class LastPebble(Game[PebbleData, str]):
    spec: ClassVar[GameSpec] = SPEC

    def setup(self, config: Config, rng: Rng) -> PebbleData:
        return PebbleData(config["pile"])

    def copy_data(self, data: PebbleData) -> PebbleData:
        return PebbleData(data.pile, data.turn, data.winner)

    def to_move(self, st: State[PebbleData, str]) -> tuple[int, ...]:
        return () if st.data.winner is not None else (st.data.turn,)

    def legal_actions(self, st: State[PebbleData, str], seat: int) -> Sequence[str]:
        return list(TAKES[: min(2, st.data.pile)])

    def check(self, st: State[PebbleData, str], seat: int, action: str) -> None:
        if not isinstance(action, str):  # the engine tells a malformed action from an illegal one
            raise MalformedActionError(f"an action is a text such as 'take 1', not {action!r}")
        if action not in self.legal_actions(st, seat):
            raise IllegalActionError(f"take 1 or 2, at most the {st.data.pile} left")

    def apply(self, st: State[PebbleData, str], seat: int, action: str) -> None:
        d = st.data
        taken = int(action.split()[1])
        d.pile -= taken
        st.emit("take", f"{seat_name(seat)} takes {taken}", seat=seat, take=taken)
        if d.pile == 0:
            d.winner = seat
        d.turn = 1 - seat

    def is_terminal(self, st: State[PebbleData, str]) -> bool:
        return st.data.winner is not None

    def outcome(self, st: State[PebbleData, str]) -> Outcome:
        winner = st.data.winner
        assert winner is not None  # asked only once the game is over
        keys = [int(s == winner) for s in range(st.players)]
        return Outcome(tuple(float(k) for k in keys), Outcome.ranks_from_keys(keys),
                       f"{seat_name(winner)} took the last pebble")

    def view(self, st: State[PebbleData, str], seat: int | None) -> dict[str, Any]:
        return {"pile": st.data.pile, "turn": st.data.turn}

    def action_to_str(self, action: str) -> str:
        return action

    # An integer action space (RL's action masks): index i is TAKES[i].
    def num_actions(self, config: Config) -> int:
        return len(TAKES)

    def action_index(self, action: str) -> int:
        return TAKES.index(action)

    def index_action(self, index: int) -> str:
        if not 0 <= index < len(TAKES):
            raise MalformedActionError(f"action index {index} is not 0 or 1")
        return TAKES[index]

    def parse_action(self, text: str) -> str:
        action = " ".join(text.split())
        if action not in TAKES:
            raise MalformedActionError(f"expected 'take 1' or 'take 2', got {text!r}")
        return action
