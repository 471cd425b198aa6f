"""Two tiny games written only for tests, through the public :class:`~holotable.engine.Game` API.

* :class:`SealedBid` (a hidden-hand goofspiel): every round each seat secretly bids one
  card from its hand; the bids are revealed together (``resolve``) and the highest unique
  bid takes the face-up prize. Hands and the prize deck's order are hidden, so it exercises
  sealed choices, chance, views and determinisation.
* :class:`Nim`: sequential, deterministic, perfect information, with plain ``int`` actions
  (``actions_are_ints``), so it exercises the other branch of action coercion.

They are not registered globally; :func:`temporarily_registered` registers one for a test
that needs ``holotable.load`` (saves) and restores the registry afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

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
    register,
    registry,
)

# ---------------------------------------------------------------------------- sealed bid


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


_BID = re.compile(r"\s*bid\s+([0-9]{1,4})\s*", re.ASCII)


class SealedBid(Game[BidData, Bid]):
    """Bid cards are ``1..players*hand``, dealt at random; prizes are ``1..hand``."""

    spec: ClassVar[GameSpec] = GameSpec(
        name="test-sealed-bid",
        title="Sealed Bid (test)",
        min_players=2,
        max_players=3,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.SAMPLED,
        information=Information.IMPERFECT,
        params=(Param("hand", 4, "int", "cards per hand, and prizes", minimum=1, maximum=9),),
        max_game_length=3 * 9,
    )

    def setup(self, config: Config, rng: Rng) -> BidData:
        n, hand = config.players, config["hand"]
        cards = rng.shuffled(range(1, n * hand + 1))
        hands = [sorted(cards[s * hand : (s + 1) * hand]) for s in range(n)]
        deck = rng.shuffled(range(1, hand + 1))
        return BidData(hands, deck, deck.pop(), [0] * n)

    def copy_data(self, data: BidData) -> BidData:
        return BidData([h[:] for h in data.hands], data.prize_deck[:], data.prize, data.scores[:], data.reveals[:])

    def to_move(self, st: State[BidData, Bid]) -> tuple[int, ...]:
        return () if st.data.prize is None else tuple(range(st.players))

    def legal_actions(self, st: State[BidData, Bid], seat: int) -> Sequence[Bid]:
        return [Bid(c) for c in st.data.hands[seat]]

    def check(self, st: State[BidData, Bid], seat: int, action: Bid) -> None:
        if action.card not in st.data.hands[seat]:
            raise IllegalActionError(f"card {action.card} is not in your hand", rule="TEST-BID-01")

    def apply(self, st: State[BidData, Bid], seat: int, action: Bid) -> None:
        raise AssertionError("every decision of this game is sealed; the engine must call resolve")

    def resolve(self, st: State[BidData, Bid], actions: Mapping[int, Bid]) -> None:
        d = st.data
        bids = {seat: bid.card for seat, bid in actions.items()}
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

    def is_terminal(self, st: State[BidData, Bid]) -> bool:
        return st.data.prize is None

    def outcome(self, st: State[BidData, Bid]) -> Outcome:
        scores = st.data.scores
        return Outcome(tuple(float(s) for s in scores), Outcome.ranks_from_keys(scores), "most prize points")

    def view(self, st: State[BidData, Bid], seat: int | None) -> dict[str, Any]:
        d = st.data
        return {
            "prize": d.prize,
            "prize_deck_size": len(d.prize_deck),
            "scores": list(d.scores),
            "hand_sizes": [len(h) for h in d.hands],
            "hand": None if seat is None else list(d.hands[seat]),
            "reveals": list(d.reveals),
        }

    def determinize(self, st: State[BidData, Bid], seat: int, rng: Rng) -> None:
        d = st.data
        # Sorting first makes the result a function of the seat's view and rng only.
        unseen = sorted(c for s, hand in enumerate(d.hands) if s != seat for c in hand)
        rng.shuffle(unseen)
        for s, hand in enumerate(d.hands):
            if s != seat:
                d.hands[s] = sorted(unseen[: len(hand)])
                del unseen[: len(hand)]
        d.prize_deck = rng.shuffled(sorted(d.prize_deck))

    def parse_action(self, text: str) -> Bid:
        m = _BID.fullmatch(text)
        if m is None:
            raise MalformedActionError(f"expected 'bid N', got {text!r}")
        return Bid(int(m.group(1)))

    def is_action(self, action: object) -> bool:
        return isinstance(action, Bid) and type(action.card) is int

    def num_actions(self, config: Config) -> int:
        return int(config.players * config["hand"])

    def action_index(self, action: Bid) -> int:
        return action.card - 1

    def index_action(self, index: int) -> Bid:
        if not 0 <= index < 3 * 9:  # the largest deck any config has
            raise MalformedActionError(f"bid index out of range: {index}")
        return Bid(index + 1)


class LeakyBid(SealedBid):
    """A broken variant whose view shows every hand: the conformance checks must catch it."""

    def view(self, st: State[BidData, Bid], seat: int | None) -> dict[str, Any]:
        return {**super().view(st, seat), "all_hands": [list(h) for h in st.data.hands]}


class PeekingBid(SealedBid):
    """A broken variant whose view lets seats see each other's sealed bid."""

    def view(self, st: State[BidData, Bid], seat: int | None) -> dict[str, Any]:
        return {**super().view(st, seat), "bids": {str(s): a.card for s, a in st.pending.items()}}


class LazyBid(SealedBid):
    """A broken variant that hides hands but never re-deals them, which makes leak tests vacuous."""

    def determinize(self, st: State[BidData, Bid], seat: int, rng: Rng) -> None:
        return None


# ---------------------------------------------------------------------------- nim


@dataclass
class NimData:
    pile: int
    turn: int = 0
    winner: int | None = None


class Nim(Game[NimData, int]):
    """Take 1-3 counters in turn; whoever takes the last one wins, everyone else shares second."""

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
    actions_are_ints = True

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


TOY_GAMES: tuple[Game[Any, Any], ...] = (SealedBid(), Nim())


@contextmanager
def temporarily_registered(game: Game[Any, Any]) -> Iterator[Game[Any, Any]]:
    """Register ``game`` (a ``test-`` name) for the block, then restore the registry exactly."""
    assert game.spec.name.startswith("test-")
    registry.names()  # load the built-in games first, or restoring would drop them
    games, aliases = dict(registry._GAMES), dict(registry._ALIASES)
    try:
        yield register(game)
    finally:
        registry._GAMES.clear()
        registry._GAMES.update(games)
        registry._ALIASES.clear()
        registry._ALIASES.update(aliases)
