"""Small games for testing engines, agents and adapters, written through the public :class:`Game` API.

None is registered globally (their names all start with ``test-``); wrap one in
:func:`holotable.testing.conformance.temporarily_registered` where ``holotable.load``
must find it (saved matches load their game by name).

* :class:`SealedBid` (a hidden-hand goofspiel): every round each seat secretly bids one
  card from its hand; the bids are revealed together (``resolve``) and the highest bid
  takes the face-up prize. Hands and the prize deck's order are hidden, so it exercises
  sealed choices, chance, views and determinisation. Actions are :class:`Bid` objects.
* :class:`IntSealedBid`: the same game with plain ``int`` actions (the card bid), the
  shape the RL adapters see most often.
* :class:`Nim`: take ``1..max_take`` counters in turn, whoever takes the last one wins.
  Sequential, deterministic, perfect information, plain ``int`` actions.
* :class:`Solitaire`: Nim alone, won by emptying the pile in an odd number of turns.
* :class:`Pennies`: matching pennies as one sealed decision with ``str`` actions; seat 0
  wins when the coins match. A search that let seat 1 see seat 0's coin would always beat it.
* :class:`PenniesOrDice`: Pennies, but seat 0 may instead roll a die that wins 3 times in 10.
* :class:`Shells`: a shell game: six face-down shells hide two gems; in turn each seat lifts one
  (``lift P``), scoring a gem. Hidden faces that become known one by one, named only by where
  they lie, the shape the side-channel checks (:mod:`holotable.testing.side_channels`) probe, and
  the honest twin of the toys of :mod:`holotable.testing.leaky` that leak on purpose.

:data:`TOY_GAMES` lists one instance of each game that passes every conformance check.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, TypeVar

from holotable.engine import (
    Chance,
    Config,
    Dynamics,
    Game,
    GameSpec,
    IllegalActionError,
    Information,
    MalformedActionError,
    Outcome,
    Param,
    Rng,
    State,
)

__all__ = [
    "TOY_GAMES",
    "Bid",
    "BidData",
    "IntSealedBid",
    "Nim",
    "NimData",
    "Pennies",
    "PenniesData",
    "PenniesOrDice",
    "SealedBid",
    "SealedBidRules",
    "ShellData",
    "Shells",
    "Solitaire",
]

# ---------------------------------------------------------------------------- sealed bid

#: Most cards a deal can hold (3 seats of 9): every bid index lies below it.
MAX_CARDS = 3 * 9
_BID = re.compile(r"\s*bid\s+([0-9]{1,4})\s*", re.ASCII)


class Bid(NamedTuple):
    card: int

    def __str__(self) -> str:
        return f"bid {self.card}"


@dataclass
class BidData:
    hands: list[list[int]]  # sorted, secret to their owner
    prize_deck: list[int]  # top at the end, order secret
    prize: int | None  # face up
    scores: list[int]
    reveals: list[dict[str, Any]] = field(default_factory=list)  # public history of resolved rounds


BidAction = TypeVar("BidAction")


class SealedBidRules(Game[BidData, BidAction]):
    """The rules of Sealed Bid, whatever an action looks like; subclasses say how a card is an action.

    Bid cards are ``1..players*hand``, dealt at random; prizes are ``1..hand``.
    """

    spec: ClassVar[GameSpec] = GameSpec(
        name="test-sealed-bid",
        title="Sealed Bid (test)",
        min_players=2,
        max_players=3,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.SAMPLED,
        information=Information.IMPERFECT,
        params=(Param("hand", 4, "int", "cards per hand, and prizes", minimum=1, maximum=9),),
        max_game_length=MAX_CARDS,
    )

    def card(self, action: BidAction) -> int:
        raise NotImplementedError

    def bid(self, card: int) -> BidAction:
        raise NotImplementedError

    def setup(self, config: Config, rng: Rng) -> BidData:
        n, hand = config.players, config["hand"]
        cards = rng.shuffled(range(1, n * hand + 1))
        hands = [sorted(cards[s * hand : (s + 1) * hand]) for s in range(n)]
        deck = rng.shuffled(range(1, hand + 1))
        return BidData(hands, deck, deck.pop(), [0] * n)

    def copy_data(self, data: BidData) -> BidData:
        return BidData([h[:] for h in data.hands], data.prize_deck[:], data.prize, data.scores[:], data.reveals[:])

    def to_move(self, st: State[BidData, BidAction]) -> tuple[int, ...]:
        return () if st.data.prize is None else tuple(range(st.players))

    def legal_actions(self, st: State[BidData, BidAction], seat: int) -> Sequence[BidAction]:
        return [self.bid(c) for c in st.data.hands[seat]]

    def check(self, st: State[BidData, BidAction], seat: int, action: BidAction) -> None:
        if self.card(action) not in st.data.hands[seat]:
            raise IllegalActionError(f"card {self.card(action)} is not in your hand", rule="TEST-BID-01")

    def apply(self, st: State[BidData, BidAction], seat: int, action: BidAction) -> None:
        raise AssertionError("every decision of this game is sealed; the engine must call resolve")

    def resolve(self, st: State[BidData, BidAction], actions: Mapping[int, BidAction]) -> None:
        d = st.data
        bids = {seat: self.card(bid) for seat, bid in actions.items()}
        for seat, card in bids.items():
            d.hands[seat].remove(card)
        top = max(bids.values())  # bid cards are all different, so the top bid is unique
        winner = next(s for s, c in bids.items() if c == top)
        assert d.prize is not None
        d.scores[winner] += d.prize
        d.reveals.append({"prize": d.prize, "bids": [bids[s] for s in range(st.players)], "winner": winner})
        st.emit("reveal", f"bids {bids}: seat {winner} takes {d.prize}", bids=[bids[s] for s in sorted(bids)])
        for seat in range(st.players):
            st.emit("hand", f"your hand: {d.hands[seat]}", to=frozenset((seat,)), hand=list(d.hands[seat]))
        d.prize = d.prize_deck.pop() if d.prize_deck else None

    def is_terminal(self, st: State[BidData, BidAction]) -> bool:
        return st.data.prize is None

    def outcome(self, st: State[BidData, BidAction]) -> Outcome:
        scores = st.data.scores
        return Outcome(tuple(float(s) for s in scores), Outcome.ranks_from_keys(scores), "most prize points")

    def view(self, st: State[BidData, BidAction], seat: int | None) -> dict[str, Any]:
        d = st.data
        return {
            "prize": d.prize,
            "prize_deck_size": len(d.prize_deck),
            "scores": list(d.scores),
            "hand_sizes": [len(h) for h in d.hands],
            "hand": None if seat is None else list(d.hands[seat]),
            "reveals": list(d.reveals),
        }

    def determinize(self, st: State[BidData, BidAction], seat: int, rng: Rng) -> None:
        d = st.data
        # Sorting first makes the result a function of the seat's view and rng only.
        unseen = sorted(c for s, hand in enumerate(d.hands) if s != seat for c in hand)
        rng.shuffle(unseen)
        for s, hand in enumerate(d.hands):
            if s != seat:
                d.hands[s] = sorted(unseen[: len(hand)])
                del unseen[: len(hand)]
        d.prize_deck = rng.shuffled(sorted(d.prize_deck))

    def action_to_str(self, action: BidAction) -> str:
        return f"bid {self.card(action)}"

    def parse_action(self, text: str) -> BidAction:
        m = _BID.fullmatch(text)
        if m is None:
            raise MalformedActionError(f"expected 'bid N', got {text!r}")
        return self.bid(int(m.group(1)))

    def num_actions(self, config: Config) -> int:
        return int(config.players * config["hand"])

    def action_index(self, action: BidAction) -> int:
        return self.card(action) - 1

    def index_action(self, index: int) -> BidAction:
        if not 0 <= index < MAX_CARDS:
            raise MalformedActionError(f"bid index out of range: {index}")
        return self.bid(index + 1)


class SealedBid(SealedBidRules[Bid]):
    """Sealed Bid with :class:`Bid` actions (so an action, its text and its index all differ)."""

    def card(self, action: Bid) -> int:
        return action.card

    def bid(self, card: int) -> Bid:
        return Bid(card)

    def is_action(self, action: object) -> bool:
        return isinstance(action, Bid) and type(action.card) is int


class IntSealedBid(SealedBidRules[int]):
    """Sealed Bid whose actions are the plain ``int`` cards bid (index ``card - 1``)."""

    spec: ClassVar[GameSpec] = dataclasses.replace(
        SealedBidRules.spec, name="test-sealed-bid-ints", title="Sealed Bid, int actions (test)"
    )
    actions_are_ints: ClassVar[bool] = True

    def card(self, action: int) -> int:
        return action

    def bid(self, card: int) -> int:
        return card

    def is_action(self, action: object) -> bool:
        return type(action) is int


# ---------------------------------------------------------------------------- nim


@dataclass
class NimData:
    pile: int
    turn: int = 0
    winner: int | None = None


class Nim(Game[NimData, int]):
    """Take 1-``max_take`` counters in turn; whoever takes the last one wins, everyone else shares second."""

    spec: ClassVar[GameSpec] = GameSpec(
        name="test-nim",
        title="Nim (test)",
        min_players=2,
        max_players=4,
        dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.DETERMINISTIC,
        information=Information.PERFECT,
        params=(
            Param("pile", 15, "int", "counters at the start", minimum=1, maximum=100),
            Param("max_take", 3, "int", "most counters one turn may take", minimum=1, maximum=9),
        ),
        max_game_length=100,
    )
    actions_are_ints: ClassVar[bool] = True

    def setup(self, config: Config, rng: Rng) -> NimData:
        return NimData(config["pile"])

    def copy_data(self, data: NimData) -> NimData:
        return NimData(data.pile, data.turn, data.winner)

    def to_move(self, st: State[NimData, int]) -> tuple[int, ...]:
        return () if st.data.winner is not None else (st.data.turn,)

    def legal_actions(self, st: State[NimData, int], seat: int) -> Sequence[int]:
        return list(range(1, min(st.config["max_take"], st.data.pile) + 1))

    def check(self, st: State[NimData, int], seat: int, action: int) -> None:
        if action not in self.legal_actions(st, seat):
            raise IllegalActionError(f"take 1-{st.config['max_take']}, at most the {st.data.pile} left")

    def apply(self, st: State[NimData, int], seat: int, action: int) -> None:
        d = st.data
        d.pile -= action
        st.emit("take", f"seat {seat} takes {action}", seat=seat, take=action)
        if d.pile == 0:
            d.winner = seat
        d.turn = (seat + 1) % st.players

    def is_terminal(self, st: State[NimData, int]) -> bool:
        return st.data.winner is not None

    def outcome(self, st: State[NimData, int]) -> Outcome:
        w = st.data.winner
        keys = [int(s == w) for s in range(st.players)]
        return Outcome(tuple(float(k) for k in keys), Outcome.ranks_from_keys(keys), f"seat {w} took the last")

    def view(self, st: State[NimData, int], seat: int | None) -> dict[str, Any]:
        return {"pile": st.data.pile, "turn": st.data.turn}

    def action_to_str(self, action: int) -> str:
        return f"take {action}"

    def parse_action(self, text: str) -> int:
        words = text.split()
        if len(words) != 2 or words[0] != "take" or not re.fullmatch("[0-9]{1,4}", words[1]):
            raise MalformedActionError(f"expected 'take N', got {text!r}")
        return int(words[1])

    def is_action(self, action: object) -> bool:
        return type(action) is int

    def num_actions(self, config: Config) -> int:
        return int(config["max_take"])

    def action_index(self, action: int) -> int:
        return action - 1

    def index_action(self, index: int) -> int:
        return index + 1


class Solitaire(Nim):
    """Nim alone: win by emptying the pile in an odd number of turns (rank 1), else lose (rank 2)."""

    spec: ClassVar[GameSpec] = dataclasses.replace(
        Nim.spec, name="test-solitaire", title="Solitaire (test)", min_players=1, max_players=1
    )

    def outcome(self, st: State[NimData, int]) -> Outcome:
        won = st.ply % 2 == 1  # every ply is a turn of the one player
        return Outcome((float(won),), (1 if won else 2,), "odd turns" if won else "even turns")


# ---------------------------------------------------------------------------- matching pennies


@dataclass
class PenniesData:
    coins: tuple[str, str] | None = None


class Pennies(Game[PenniesData, str]):
    """One sealed decision: seat 0 wins when the coins match, seat 1 when they differ.

    With decoupled (non-peeking) search each coin is worth about 1/2 to seat 0.
    """

    spec: ClassVar[GameSpec] = GameSpec(
        name="test-pennies",
        title="Matching pennies (test)",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.DETERMINISTIC,
        information=Information.IMPERFECT,
        max_game_length=2,
    )
    #: The choices each seat has, in order.
    choices: ClassVar[Mapping[int, tuple[str, ...]]] = {0: ("heads", "tails"), 1: ("heads", "tails")}

    def setup(self, config: Config, rng: Rng) -> PenniesData:
        return PenniesData()

    def copy_data(self, data: PenniesData) -> PenniesData:
        return PenniesData(data.coins)

    def to_move(self, st: State[PenniesData, str]) -> tuple[int, ...]:
        return () if st.data.coins is not None else (0, 1)

    def legal_actions(self, st: State[PenniesData, str], seat: int) -> Sequence[str]:
        return self.choices[seat]

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
        return {"coins": None if st.data.coins is None else list(st.data.coins)}

    def parse_action(self, text: str) -> str:
        known = sorted({c for seat_choices in self.choices.values() for c in seat_choices})
        if text not in known:
            raise MalformedActionError(f"one of {', '.join(known)}, not {text!r}")
        return text


class PenniesOrDice(Pennies):
    """Matching pennies, but seat 0 may instead roll a die that wins 3 times in 10 whatever
    seat 1 does. Heads or tails are worth 1/2 to seat 0 when seat 1 cannot see the coin,
    and nothing when it can; so a search that conditioned seat 1 on seat 0's sealed
    choice would roll the die."""

    spec: ClassVar[GameSpec] = dataclasses.replace(
        Pennies.spec, name="test-pennies-or-dice", title="Pennies or dice (test)", chance=Chance.SAMPLED
    )
    choices: ClassVar[Mapping[int, tuple[str, ...]]] = {0: ("heads", "tails", "dice"), 1: ("heads", "tails")}

    def resolve(self, st: State[PenniesData, str], actions: Mapping[int, str]) -> None:
        if actions[0] == "dice":
            won = st.rng.random() < 0.3
            st.data.coins = ("heads", "heads" if won else "tails")
        else:
            st.data.coins = (actions[0], actions[1])


# ---------------------------------------------------------------------------- the shell game

_LIFT = re.compile(r"\s*lift\s+([0-9]{1,2})\s*", re.ASCII)


@dataclass
class ShellData:
    #: The face under each shell, by position (``"gem"`` or ``"rock"``); the table sees only lifted ones.
    faces: list[str]
    lifted: list[bool]
    scores: list[int]
    turn: int = 0


class Shells(Game[ShellData, int]):
    """Lift shells in turn; a gem scores. ``shells`` shells hide ``gems`` gems, shuffled at the start.

    A shell is named by its position, never by what is under it: the data is kept by position too,
    so the rules fix nothing about any face (compare :class:`holotable.testing.leaky.NumberedShells`).
    """

    spec: ClassVar[GameSpec] = GameSpec(
        name="test-shells",
        title="Shells (test)",
        min_players=2,
        max_players=3,
        dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.SAMPLED,
        information=Information.IMPERFECT,
        params=(
            Param("shells", 6, "int", "shells on the table", minimum=2, maximum=12),
            Param("gems", 2, "int", "gems under them", minimum=1, maximum=11),
        ),
        max_game_length=12,
    )
    actions_are_ints: ClassVar[bool] = True

    def setup(self, config: Config, rng: Rng) -> ShellData:
        n, gems = config["shells"], min(config["gems"], config["shells"] - 1)
        faces = rng.shuffled(["gem"] * gems + ["rock"] * (n - gems))
        return ShellData(faces, [False] * n, [0] * config.players)

    def copy_data(self, data: ShellData) -> ShellData:
        return ShellData(data.faces[:], data.lifted[:], data.scores[:], data.turn)

    def to_move(self, st: State[ShellData, int]) -> tuple[int, ...]:
        return () if all(st.data.lifted) else (st.data.turn,)

    def legal_actions(self, st: State[ShellData, int], seat: int) -> Sequence[int]:
        return [p for p, up in enumerate(st.data.lifted) if not up]

    def check(self, st: State[ShellData, int], seat: int, action: int) -> None:
        if action not in self.legal_actions(st, seat):
            raise IllegalActionError(f"shell {action} is not a shell still down", rule="TEST-SHELL-01")

    def lift(self, st: State[ShellData, int], seat: int, position: int) -> str:
        """Turn the shell up (the rules' one reveal) and score it."""
        d = st.data
        d.lifted[position] = True
        st.reveal()
        face = d.faces[position]
        if face == "gem":
            d.scores[seat] += 1
        return face

    def apply(self, st: State[ShellData, int], seat: int, action: int) -> None:
        face = self.lift(st, seat, action)
        st.emit("lift", f"seat {seat} lifts shell {action}: {face}", seat=seat, position=action, face=face)
        st.data.turn = (seat + 1) % st.players

    def is_terminal(self, st: State[ShellData, int]) -> bool:
        return all(st.data.lifted)

    def outcome(self, st: State[ShellData, int]) -> Outcome:
        scores = st.data.scores
        return Outcome(tuple(float(s) for s in scores), Outcome.ranks_from_keys(scores), "most gems")

    def view(self, st: State[ShellData, int], seat: int | None) -> dict[str, Any]:
        d = st.data
        return {
            "shells": [{"position": p, "face": d.faces[p] if up else None} for p, up in enumerate(d.lifted)],
            "scores": list(d.scores),
            "turn": d.turn,
        }

    def determinize(self, st: State[ShellData, int], seat: int, rng: Rng) -> None:
        d = st.data
        down = [p for p, up in enumerate(d.lifted) if not up]
        faces = rng.shuffled(sorted(d.faces[p] for p in down))
        for p, face in zip(down, faces, strict=True):
            d.faces[p] = face

    def action_to_str(self, action: int) -> str:
        return f"lift {action}"

    def parse_action(self, text: str) -> int:
        m = _LIFT.fullmatch(text)
        if m is None:
            raise MalformedActionError(f"expected 'lift N', got {text!r}")
        return int(m.group(1))

    def is_action(self, action: object) -> bool:
        return type(action) is int

    def num_actions(self, config: Config) -> int:
        return int(config["shells"])

    def action_index(self, action: int) -> int:
        return action

    def index_action(self, index: int) -> int:
        return index


#: One instance of each toy that passes every conformance check. (Pennies hides nothing but
#: its sealed coins, so there is nothing for a determinisation to re-deal and the leak check
#: could not tell a leaky view from a sound one; it is left out.)
TOY_GAMES: tuple[Game[Any, Any], ...] = (SealedBid(), IntSealedBid(), Nim(), Solitaire(), Shells())
