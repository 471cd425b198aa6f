"""The conformance checks themselves: toy games pass them, and broken games fail them.

Captain Black is sequential, so the toy Sealed Bid game is what exercises the checks on
sealed simultaneous choices until a registered game has them.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import holotable
from holotable.engine import Game, IllegalActionError, MalformedActionError, Rng, State
from holotable.testing import conformance as checks
from holotable.testing.conformance import check_game, temporarily_registered
from holotable.testing.toys import TOY_GAMES, Bid, BidData, IntSealedBid, Nim, SealedBid, Solitaire

GOOD: list[Game[Any, Any]] = [SealedBid(), IntSealedBid(), Nim()]


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


@pytest.fixture(params=GOOD, ids=lambda g: g.spec.name)
def toy(request: pytest.FixtureRequest) -> Iterator[Game[Any, Any]]:
    with temporarily_registered(request.param) as game:  # saves load games by name
        yield game


@pytest.mark.parametrize("check", checks.ALL_CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("players", [2, 3])
def test_toy_games_conform(toy: Game[Any, Any], check: Callable[..., None], players: int) -> None:
    for seed in range(4):
        check(toy, toy.spec.make_config(players), seed)


@settings(max_examples=40)
@given(text=st.text(max_size=12) | st.from_regex(r"(bid|take) [0-9]{1,6}", fullmatch=True))
def test_toy_parsers_never_crash(text: str) -> None:
    for game in GOOD:
        checks.check_parse_never_crashes(game, text)


def failing(check: Callable[..., None], game: Game[Any, Any], players: int = 3, seeds: int = 3) -> str:
    """The message of the first failure of ``check`` on ``game``; fails the test if there is none."""
    with temporarily_registered(game):
        for seed in range(seeds):
            try:
                check(game, game.spec.make_config(players), seed)
            except AssertionError as exc:
                return str(exc)
    pytest.fail(f"{check.__name__} passed a broken game")


def test_a_view_showing_other_hands_is_caught() -> None:
    assert "view(" in failing(checks.check_views_hide_secrets, LeakyBid())


def test_a_view_showing_sealed_choices_is_caught() -> None:
    assert "bids" in failing(checks.check_views_hide_secrets, PeekingBid())


def test_a_determinisation_that_redeals_nothing_is_caught() -> None:
    # Its views are fine, but a leak check over it could never fail.
    assert "never re-dealt" in failing(checks.check_views_hide_secrets, LazyBid())


def test_a_determinisation_that_changes_what_the_seat_knows_is_caught() -> None:
    class ShufflesOwnHand(SealedBid):
        def determinize(self, st: State[BidData, Bid], seat: int, rng: Rng) -> None:
            super().determinize(st, seat - 1, rng)  # re-deals the wrong seats

    message = failing(checks.check_views_hide_secrets, ShufflesOwnHand())
    assert "legal actions change" in message or "cannot know" in message


def test_a_perfect_information_game_that_redeals_is_caught() -> None:
    class Shaky(Nim):
        def determinize(self, st: State[Any, int], seat: int, rng: Rng) -> None:
            st.data.pile += rng.randrange(2)  # nothing is hidden in Nim, yet this changes the position

    message = failing(checks.check_views_hide_secrets, Shaky())
    assert "perfect-information game re-dealt" in message or "cannot know" in message


def test_a_shallow_copy_is_caught() -> None:
    class SharedHands(SealedBid):
        def copy_data(self, data: BidData) -> BidData:
            return BidData(data.hands, data.prize_deck[:], data.prize, data.scores[:], data.reveals[:])

    assert "clone" in failing(checks.check_clones, SharedHands())


def test_chance_outside_the_state_rng_is_caught() -> None:
    import random

    class GlobalRandom(SealedBid):
        def setup(self, config: Any, rng: Rng) -> BidData:
            return super().setup(config, Rng(random.randrange(2**30)))

    assert "differ" in failing(checks.check_replay, GlobalRandom())


def test_an_action_text_that_does_not_round_trip_is_caught() -> None:
    class Sloppy(Nim):
        def action_to_str(self, action: int) -> str:
            return f"take {action} counters"

    assert "does not parse back" in failing(checks.check_action_forms, Sloppy(), players=2)


def test_a_mask_that_disagrees_is_caught() -> None:
    class OffByOne(Nim):
        def action_index(self, action: int) -> int:
            return action % 3

    assert "index" in failing(checks.check_action_forms, OffByOne(), players=2)


class _Take(NamedTuple):
    n: int


class _Grab(NamedTuple):
    n: int


class AliasedNim(Nim):
    """Seat 0 takes, seat 1 grabs: two NamedTuple types whose equal fields make them compare equal."""

    def legal_actions(self, st: State[Any, Any], seat: int) -> Any:
        kind = _Take if seat == 0 else _Grab
        return [kind(n) for n in super().legal_actions(st, seat)]

    def check(self, st: State[Any, Any], seat: int, action: Any) -> None:
        if action.n not in Nim.legal_actions(self, st, seat):
            raise IllegalActionError("take 1-3, at most what is left")

    def apply(self, st: State[Any, Any], seat: int, action: Any) -> None:
        super().apply(st, seat, action.n)

    def action_to_str(self, action: Any) -> str:
        return f"{'take' if type(action) is _Take else 'grab'} {action.n}"

    def parse_action(self, text: str) -> Any:
        verb, _, number = text.partition(" ")
        if verb not in ("take", "grab") or not number.isdigit():
            raise MalformedActionError(f"expected 'take N' or 'grab N', got {text!r}")
        return (_Take if verb == "take" else _Grab)(int(number))

    def is_action(self, action: object) -> bool:
        return type(action) in (_Take, _Grab)

    def num_actions(self, config: Any) -> int:
        raise NotImplementedError


def test_actions_of_different_moves_that_compare_equal_are_caught() -> None:
    """Found in Buccaneers: Play("X") == Take("X") let a search tree play the wrong move."""
    assert "compares equal" in failing(checks.check_action_forms, AliasedNim(), players=2)


def test_a_legal_action_that_is_refused_is_caught() -> None:
    class Stingy(Nim):
        def check(self, st: State[Any, int], seat: int, action: int) -> None:
            super().check(st, seat, action)
            if action == 3:
                raise IllegalActionError("three is unlucky")

    with pytest.raises(IllegalActionError, match="unlucky"):
        failing(checks.check_action_forms, Stingy(), players=2)


def test_accepting_a_wrong_type_is_caught() -> None:
    class Trusting(SealedBid):
        def is_action(self, action: object) -> bool:
            return True

    assert "not MalformedActionError" in failing(checks.check_refusals, Trusting())


def test_a_game_that_never_ends_is_caught() -> None:
    class Endless(Nim):
        def apply(self, st: State[Any, int], seat: int, action: int) -> None:
            st.data.turn = (seat + 1) % st.players  # nobody ever takes anything

    assert "no end after" in failing(checks.check_playout, Endless(), players=2)


def test_bad_ranks_are_caught() -> None:
    class ZeroBased(Nim):
        def outcome(self, st: State[Any, int]) -> holotable.Outcome:
            out = super().outcome(st)
            return holotable.Outcome(out.scores, tuple(r - 1 for r in out.ranks), out.reason)

    assert "ranks must be 1.." in failing(checks.check_playout, ZeroBased(), players=2)


def test_a_parser_that_crashes_is_caught() -> None:
    class Crashy(Nim):
        def parse_action(self, text: str) -> int:
            return int(text)  # ValueError on garbage instead of MalformedActionError

    with pytest.raises(AssertionError, match="raised ValueError"):
        checks.check_parse_never_crashes(Crashy(), "garbage")
    with pytest.raises(AssertionError):
        checks.check_parse_never_crashes(Crashy(), "-3")  # parses, but its text "take -3" does not
    checks.check_parse_never_crashes(Nim(), "take 3")
    with pytest.raises(MalformedActionError):
        Nim().parse_action("take three")


@pytest.mark.parametrize("check", checks.ALL_CHECKS, ids=lambda c: c.__name__)
def test_a_solo_game_conforms(check: Callable[..., None]) -> None:
    with temporarily_registered(Solitaire()) as game:
        outcomes = set()
        for seed in range(6):
            check(game, game.spec.make_config(1), seed)
            outcomes.add(checks.playout_outcome(game, game.spec.make_config(1), seed).ranks)
    assert outcomes == {(1,), (2,)}  # both a solo win and a solo loss went through the checks


def test_a_solo_rank_out_of_range_is_caught() -> None:
    class Lost(Solitaire):
        def outcome(self, st: State[Any, int]) -> holotable.Outcome:
            return holotable.Outcome((0.0,), (3,), "lost badly")

    assert "solo outcome" in failing(checks.check_playout, Lost(), players=1)


# ---------------------------------------------------------------------------- the one-call entry point


@pytest.mark.parametrize("game", TOY_GAMES, ids=lambda g: g.spec.name)
def test_check_game_passes_every_toy_and_leaves_the_registry_alone(game: Game[Any, Any]) -> None:
    before = holotable.engine.names()
    check_game(game, seeds=2)
    assert holotable.engine.names() == before and game.spec.name not in before


def test_check_game_passes_a_registered_game() -> None:
    check_game(holotable.load("captain-black"), seeds=1, players=[2, 4])


@pytest.mark.parametrize(
    ("broken", "check"),
    [(LeakyBid(), "check_views_hide_secrets"), (LazyBid(), "check_views_hide_secrets")],
    ids=["leaky", "lazy"],
)
def test_check_game_names_what_broke(broken: Game[Any, Any], check: str) -> None:
    with pytest.raises(AssertionError, match=rf"^test-sealed-bid, \d players, seed \d, {check}: "):
        check_game(broken)
    assert "test-sealed-bid" not in holotable.engine.names()


def test_check_game_reports_a_crashing_parser() -> None:
    class Crashy(Nim):
        def parse_action(self, text: str) -> int:
            return int(text.split()[-1])  # ValueError on garbage instead of MalformedActionError

    with pytest.raises(AssertionError, match=r"^test-nim, 2 players, seed 0, check_refusals: .* raised IndexError"):
        check_game(Crashy(), seeds=1)


def test_the_testing_kit_needs_neither_pytest_nor_hypothesis() -> None:
    code = (
        "import sys, holotable.testing.conformance, holotable.testing.toys;"
        "print(sorted(m for m in ('pytest', 'hypothesis') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
