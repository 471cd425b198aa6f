"""The engine contract, as checks any game can be run through.

Each check plays seeded random games through the public engine API only and raises
``AssertionError`` saying what broke. :func:`check_game` runs them all over a game's
player counts and a few seeds; the project's tests run them over every registered game,
and over toy games (deliberately broken ones too) to show that each check can fail.
They use plain asserts, so run them without ``python -O``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from holotable.engine import (
    GameOverError,
    IllegalActionError,
    Information,
    MalformedActionError,
    Match,
    NotYourTurnError,
    Outcome,
    Rng,
    State,
    derive_seed,
    register,
    registry,
)
from holotable.engine.game import Game
from holotable.engine.manifest import Manifest
from holotable.engine.spec import Config

AnyGame = Game[Any, Any]
AnyState = State[Any, Any]

#: Texts no game should read as an action.
GARBAGE = ("", "   ", "\x00", "definitely not an action", "🏴\u200d☠️ 42", "9" * 5000, "{'seat': 1}")
#: Engine view fields that legitimately change when other seats' sealed choices are dropped.
PENDING_FIELDS = ("committed", "to_move")
#: Roughly how many positions of a game each check inspects closely.
SAMPLED_PLIES = 12


def json_ready(value: Any, what: str) -> None:
    """Strict JSON: serialisable without NaN, and unchanged by a round trip (no tuples, no int keys)."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{what} is not JSON-ready: {exc}") from exc
    assert json.loads(text) == value, f"{what} changes in a JSON round trip (tuples or non-string keys?)"


def canonical(state: AnyState) -> str:
    return json.dumps(state.full(), sort_keys=True, separators=(",", ":"))


def has_index_space(game: AnyGame, config: Config) -> bool:
    try:
        game.num_actions(config)
    except NotImplementedError:
        return False
    return True


def random_step(state: AnyState, rng: Rng) -> tuple[int, Any]:
    """Apply one random legal action of a random asked seat; return it."""
    seat, action = random_choice(state, rng)
    state.apply(action, seat)
    return seat, action


def random_choice(state: AnyState, rng: Rng) -> tuple[int, Any]:
    """The random asked seat and legal action :func:`random_step` plays (the state is unchanged)."""
    seats = state.to_move()
    assert seats, f"ply {state.ply}: the game is not over but no seat is asked to move"
    assert len(set(seats)) == len(seats) and all(0 <= s < state.players for s in seats), f"bad to_move {seats}"
    seat = rng.choice(seats)
    legal = list(state.legal_actions(seat))
    assert legal, f"ply {state.ply}: seat {seat} is asked to move but has no legal action"
    # Half the time one of the first few actions: uniform choices alone rush some games
    # to their end (Captain Black's big handfuls nearly always hold a black coin).
    action = rng.choice(legal) if rng.random() < 0.5 else legal[rng.randrange(min(3, len(legal)))]
    return seat, action


def playout(game: AnyGame, config: Config, seed: int, *, record: bool = False) -> Iterator[AnyState]:
    """Yield the live state of a seeded random game before each action and once at the end.

    The caller may inspect (not change) each state; the game is capped at the spec's length.
    """
    state = State.new(game, config, seed, record=record)
    rng = Rng(derive_seed(seed, "playout"))
    while True:
        yield state
        if state.is_terminal():
            return
        assert state.ply < game.spec.max_game_length, (
            f"no end after {state.ply} plies (spec.max_game_length = {game.spec.max_game_length})"
        )
        random_step(state, rng)


def sampled(
    game: AnyGame, config: Config, seed: int, *, record: bool = False, plies: int = SAMPLED_PLIES
) -> Iterator[AnyState]:
    """The positions of a random game worth a close look: the start, the end and ``plies`` others at random."""
    length = 0
    for state in playout(game, config, seed):  # a cheap dry run (playouts are deterministic) to size the sample
        length = state.ply
    pick = Rng(derive_seed(seed, "sample"))
    chosen = {0, length, *pick.sample(range(1, max(1, length)), min(plies, max(0, length - 1)))}
    for state in playout(game, config, seed, record=record):
        if state.ply in chosen:
            yield state


def playout_outcome(game: AnyGame, config: Config, seed: int) -> Outcome:
    """The outcome of the seeded random game the checks play."""
    *_, final = playout(game, config, seed)
    return final.outcome()


# ---------------------------------------------------------------------------- checks


def check_playout(game: AnyGame, config: Config, seed: int) -> None:
    """A random game ends within the spec's length with a valid outcome; views are JSON."""
    n = config.players
    final = None
    for state in sampled(game, config, seed):
        for seat in [*range(n), None]:
            view = state.view(seat)
            json_ready(view, f"view({seat}) at ply {state.ply}")
            assert view["seat"] == seat and view["ply"] == state.ply and view["to_move"] == list(state.to_move())
        final = state
    assert final is not None and final.is_terminal()
    assert final.to_move() == ()
    assert all(list(final.legal_actions(s)) == [] for s in range(n)), "legal actions after the end"
    outcome = final.outcome()
    assert len(outcome.ranks) == n and len(outcome.scores) == n, "one rank and one score per seat"
    assert isinstance(outcome.reason, str) and outcome.reason, "an outcome says why"
    json_ready(outcome.to_dict(), "the outcome")
    assert final.view(None)["outcome"] == outcome.to_dict()
    if n == 1:  # a solo game: rank 1 is a win, rank 2 a loss (Outcome.utility reads it so)
        assert outcome.ranks in ((1,), (2,)), f"a solo outcome ranks 1 (won) or 2 (lost), not {outcome.ranks}"
    else:
        assert all(type(r) is int and 1 <= r <= n for r in outcome.ranks), f"ranks must be 1..{n}: {outcome.ranks}"
        assert outcome.winners, "at least one seat ranks first"
        for rank in outcome.ranks:
            better = sum(r < rank for r in outcome.ranks)
            assert rank == better + 1, f"ranks {outcome.ranks} are not competition ranks (ties share, then skip)"
    assert all(0.0 <= u <= 1.0 for u in outcome.utilities()), f"utilities {outcome.utilities()} outside [0, 1]"


def check_clones(game: AnyGame, config: Config, seed: int) -> None:
    """Clones are independent both ways, and stay so for the rest of the game (TAG's copy test)."""
    rng = Rng(derive_seed(seed, "clones"))
    kept: list[tuple[AnyState, str]] = []
    live: AnyState | None = None
    for state in sampled(game, config, seed):
        live = state
        before = state.fingerprint()
        copy = state.clone()
        assert copy.fingerprint() == before, f"ply {state.ply}: a clone differs from its original"
        assert copy.history == state.history
        # Playing on the clone leaves the original alone.
        for _ in range(3):
            if copy.is_terminal():
                break
            random_step(copy, rng)
        assert state.fingerprint() == before, f"ply {state.ply}: playing on a clone changed the original"
        kept.append((copy, copy.fingerprint()))
        kept.append((state.clone(), before))
    assert live is not None
    # The original went on to the end, and the clones were played on: re-verify every clone.
    for i, (copy, print_) in enumerate(kept):
        assert copy.fingerprint() == print_, f"clone {i} was changed by play on the original or other clones"
    # Playing every kept clone to its end must not touch the others either.
    end_print = live.fingerprint()
    for copy, _ in kept[::4]:
        while not copy.is_terminal():
            random_step(copy, rng)
    for copy, print_ in kept[1::4]:
        assert copy.fingerprint() == print_, "a clone changed while other clones were played"
    assert live.fingerprint() == end_print


def check_replay(game: AnyGame, config: Config, seed: int) -> None:
    """Same seed + same actions: the same game, byte for byte, and so is a saved match."""
    prints: list[str] = []
    fulls: list[str] = []
    final = None
    for state in playout(game, config, seed):
        prints.append(state.fingerprint())
        fulls.append(canonical(state))
        final = state
    assert final is not None
    log = [(seat, game.action_to_str(action)) for seat, action in final.history]
    assert len(log) == final.ply == len(prints) - 1
    again = State.new(game, config, seed, record=True)
    assert again.fingerprint() == prints[0], "two states from the same seed differ"
    for ply, (seat, text) in enumerate(log, start=1):
        again.apply(text, seat)
        assert canonical(again) == fulls[ply], f"replay diverges at ply {ply} ({text!r} by seat {seat})"
        assert again.fingerprint() == prints[ply], f"replay's RNG diverges at ply {ply}"
    assert again.history == final.history
    for event in again.events or []:
        json_ready(event.to_dict(), f"event {event.kind!r}")
        assert event.to is None or all(0 <= s < config.players for s in event.to)
    match = Match(game, config, seed, list(log))
    assert match.state.fingerprint() == prints[-1]
    loaded = Match.from_json(match.to_json())
    assert loaded.state.fingerprint() == prints[-1], "a saved match does not load to the same state"
    assert [s.fingerprint() for s in loaded.states()] == prints
    middle = len(log) // 2
    assert loaded.state_at(middle).fingerprint() == prints[middle]


def check_views_hide_secrets(game: AnyGame, config: Config, seed: int, rngs: int = 3) -> None:
    """A seat's view equals its view of any determinisation for that seat.

    A determinisation re-deals exactly what the seat cannot see, so a view showing
    any of it would differ. The spectator's view must not change either. Legal
    actions and the seats to move are the seat's knowledge too and must not change.
    """
    imperfect = game.spec.information is Information.IMPERFECT
    redealt = False
    played_on = 0
    for state in sampled(game, config, seed):
        before = state.fingerprint()
        data = state.full()["data"]
        for seat in range(config.players):
            others_pending = bool(set(state.pending) - {seat})
            views = {who: state.view(who) for who in (seat, None)}
            for k in range(rngs):
                det = state.determinize(seat, Rng(derive_seed(seed, state.ply, seat, k)))
                where = f"ply {state.ply}, seat {seat}, determinisation {k}"
                assert det.pending == {s: a for s, a in state.pending.items() if s == seat}, where
                assert list(det.legal_actions(seat)) == list(state.legal_actions(seat)), (
                    f"{where}: the seat's legal actions change in a determinisation"
                )
                expected_to_move = set(state.to_move()) | (set(state.pending) - {seat})
                assert set(det.to_move()) == expected_to_move, f"{where}: to_move {det.to_move()}"
                if not others_pending:
                    assert det.to_move() == state.to_move(), where
                assert det.is_terminal() == state.is_terminal(), where
                for who, view in views.items():
                    mine, theirs = det.view(who), view
                    if others_pending:  # who has committed is public; what they chose is not
                        mine = {key: v for key, v in mine.items() if key not in PENDING_FIELDS}
                        theirs = {key: v for key, v in view.items() if key not in PENDING_FIELDS}
                    assert mine == theirs, f"{where}: view({who}) shows something seat {seat} cannot know: " + (
                        ", ".join(sorted(key for key in set(mine) | set(theirs) if mine.get(key) != theirs.get(key)))
                    )
                if det.full()["data"] != data:
                    assert imperfect, f"{where}: a perfect-information game re-dealt something"
                    redealt = True
                if k == 0 and played_on < 3 and not det.is_terminal():
                    # A determinisation is a real position: play it to the end.
                    played_on += 1
                    rng = Rng(derive_seed(seed, "det-play", state.ply))
                    while not det.is_terminal():
                        assert det.ply < game.spec.max_game_length + state.ply, "a determinisation never ends"
                        random_step(det, rng)
                    det.outcome()
        assert state.fingerprint() == before, f"ply {state.ply}: determinize changed the true state"
    if imperfect:
        assert redealt, "determinize never re-dealt anything in a whole game, so the leak check proved nothing"


def check_refusals(game: AnyGame, config: Config, seed: int) -> None:
    """Refused actions raise the right typed error and change nothing."""
    index_space = has_index_space(game, config) and not game.actions_are_ints
    last_legal: tuple[int, Any] | None = None

    def refused(state: AnyState, error: type[Exception], action: object, seat: int | None, what: str) -> None:
        before = state.fingerprint()
        try:
            state.apply(action, seat)
        except error:
            pass
        except Exception as exc:
            message = f"ply {state.ply}: {what} raised {type(exc).__name__}, not {error.__name__}: {exc}"
            raise AssertionError(message) from exc
        else:
            raise AssertionError(f"ply {state.ply}: {what} was accepted")
        assert state.fingerprint() == before, f"ply {state.ply}: {what} was refused but changed the state"

    for state in sampled(game, config, seed):
        if state.is_terminal():
            break
        asked = state.to_move()
        mover = asked[0]
        action = next(iter(state.legal_actions(mover)))
        last_legal = (mover, action)
        for seat in range(config.players):
            if seat not in asked:
                refused(state, NotYourTurnError, action, seat, f"seat {seat} acting out of turn")
        refused(state, NotYourTurnError, action, config.players, "a seat that does not exist")
        for text in GARBAGE:
            refused(state, MalformedActionError, text, mover, f"garbage text {text[:20]!r}")
        for thing in (object(), None, 1.5, b"\x00", [action]):
            refused(state, MalformedActionError, thing, mover, f"a {type(thing).__name__} as an action")
        if index_space:
            size = game.num_actions(config)
            for index in (-1, size, size + 7):
                refused(state, MalformedActionError, index, mover, f"index {index} of {size}")
            mask = state.action_mask(mover)
            for index in [i for i, bit in enumerate(mask) if not bit][:5]:
                refused(state, IllegalActionError, index, mover, f"index {index}, masked out")
    else:  # pragma: no cover - a playout always ends
        raise AssertionError("the playout did not end")
    assert last_legal is not None
    seat, action = last_legal
    for thing, who in ((action, seat), (game.action_to_str(action), seat), (action, None), ("garbage", None)):
        refused(state, GameOverError, thing, who, f"{thing!r} after the end")
    if index_space:
        refused(state, GameOverError, 0, seat, "an index after the end")


def check_action_forms(game: AnyGame, config: Config, seed: int) -> None:
    """Text and index forms round-trip, the mask matches the legal actions, and every legal action applies."""
    index_space = has_index_space(game, config)
    size = game.num_actions(config) if index_space else 0
    # Actions that compare equal must be the same move everywhere: search trees and caches key by
    # them (two NamedTuple types with equal fields compare equal, a classic slip).
    seen: dict[object, str] = {}
    for state in sampled(game, config, seed):
        asked = state.to_move()
        for seat in range(config.players):
            legal = list(state.legal_actions(seat))
            if seat not in asked:
                assert legal == [], f"ply {state.ply}: seat {seat} is not asked but has legal actions"
            assert len(set(legal)) == len(legal), f"ply {state.ply}: duplicate legal actions"
            for action in legal:
                assert game.is_action(action), f"{action!r} is not an action of its own game"
                text = game.action_to_str(action)
                assert isinstance(text, str) and text, f"{action!r} has no text form"
                try:
                    back = game.parse_action(text)
                except MalformedActionError as exc:
                    raise AssertionError(f"{text!r} does not parse back to {action!r}: {exc}") from exc
                assert back == action, f"{text!r} does not parse back to {action!r} but to {back!r}"
                earlier = seen.setdefault(action, text)
                assert earlier == text, (
                    f"{action!r} ({text!r}) compares equal to an earlier, different action ({earlier!r})")
            if not index_space:
                continue
            mask = state.action_mask(seat)
            assert len(mask) == size and set(mask) <= {0, 1}, "a mask is 0/1 per index of the action space"
            indices = [game.action_index(a) for a in legal]
            assert all(type(i) is int and 0 <= i < size for i in indices), f"indices out of 0..{size - 1}"
            assert [game.index_action(i) for i in indices] == legal, "index_action(action_index(a)) != a"
            assert {i for i, bit in enumerate(mask) if bit} == set(indices), "the mask disagrees with legal_actions"
        for seat in asked:
            legal = list(state.legal_actions(seat))
            for action in legal[:: max(1, len(legal) // 25)]:  # every legal action applies (up to ~25 of them)
                state.child(action, seat)
            # The object, its text and its index are the same move.
            action = legal[len(legal) // 2]
            forms: list[object] = [action, game.action_to_str(action)]
            if index_space and not game.actions_are_ints:
                forms.append(game.action_index(action))
            prints = {state.child(form, seat).fingerprint() for form in forms}
            assert len(prints) == 1, f"{action!r}: its object, text and index forms give different states"


def check_parse_never_crashes(game: AnyGame, text: str) -> None:
    """Any text parses to an action of the game or raises MalformedActionError, nothing else."""
    try:
        action = game.parse_action(text)
    except MalformedActionError:
        return
    except Exception as exc:
        raise AssertionError(f"parse_action({text!r}) raised {type(exc).__name__}: {exc}") from exc
    assert game.is_action(action), f"parse_action({text!r}) returned {action!r}, not an action"
    again = game.action_to_str(action)
    try:
        back = game.parse_action(again)
    except Exception as exc:
        raise AssertionError(f"{text!r} parses to {action!r}, whose text {again!r} does not parse: {exc}") from exc
    assert back == action, f"{text!r} parses to {action!r}, whose text {again!r} parses to {back!r}"


#: Every check that takes ``(game, config, seed)``, in the order :func:`check_game` runs them.
ALL_CHECKS: tuple[Callable[[AnyGame, Config, int], None], ...] = (
    check_playout,
    check_clones,
    check_replay,
    check_views_hide_secrets,
    check_refusals,
    check_action_forms,
)


# ---------------------------------------------------------------------------- running them


@contextmanager
def temporarily_registered(game: AnyGame | Manifest, **roles: Any) -> Iterator[AnyGame]:
    """Register ``game`` (with any manifest ``roles``, e.g. ``encoder=``), or add a whole game's
    :class:`~holotable.engine.manifest.Manifest`, for the block (saved matches load their game by
    name), then restore the registry exactly. Yields the game."""
    saved = registry.snapshot()
    try:
        if isinstance(game, Manifest):
            registry.add(game.replace(**roles) if roles else game)
            yield registry.load(game.name)
        else:
            yield register(game, **roles)
    finally:
        registry.restore(saved)


def player_counts(lo: int, hi: int, most: int = 4) -> list[int]:
    """Up to ``most`` player counts from ``lo`` to ``hi``, both ends included, spread evenly."""
    if hi - lo + 1 <= most:
        return list(range(lo, hi + 1))
    step = (hi - lo) / (most - 1)
    return sorted({lo + round(i * step) for i in range(most)})


def parse_probes(game: AnyGame, config: Config, seed: int) -> list[str]:
    """Texts to feed the parser: garbage, and the start's legal action texts, mangled."""
    state = State.new(game, config, seed)
    texts = list(GARBAGE)
    for seat in state.to_move():
        for action in list(state.legal_actions(seat))[:5]:
            text = game.action_to_str(action)
            texts += [text, text.upper(), f" {text} ", f"{text} 1", text[:-1], text + "9" * 12]
            digits = [c for c in text if c.isdigit()]
            if digits:  # the same number, negative
                texts.append(text.replace(digits[0], "-" + digits[0], 1))
    return texts


def check_game(
    game: AnyGame, seeds: int = 3, *, players: list[int] | None = None, side_channels: bool = True, **params: Any
) -> None:
    """Run every conformance check over ``game``: its player counts, ``seeds`` seeds each, and ``params``.

    With ``side_channels`` (the default) the side-channel checks of
    :mod:`holotable.testing.side_channels` run too, after the contract's checks of each seed.
    Raises ``AssertionError`` naming the check, the player count and the seed that failed.
    The game need not be registered: it is registered for the duration (and the registry
    restored) unless ``holotable.load`` already finds this very instance.
    """
    from .side_channels import SIDE_CHANNEL_CHECKS

    checks = ALL_CHECKS + (SIDE_CHANNEL_CHECKS if side_channels else ())
    spec = game.spec
    counts = players if players is not None else player_counts(spec.min_players, spec.max_players)
    with ExitStack() as stack:
        if spec.name not in registry.names() or registry.load(spec.name) is not game:
            stack.enter_context(temporarily_registered(game))
        for n in counts:
            config = spec.make_config(n, **params)
            for seed in range(seeds):
                for check in checks:
                    where = f"{spec.name}, {n} players, seed {seed}, {check.__name__}"
                    try:
                        check(game, config, seed)
                    except AssertionError as exc:
                        raise AssertionError(f"{where}: {exc}") from exc
                    except Exception as exc:
                        raise AssertionError(f"{where}: raised {type(exc).__name__}: {exc}") from exc
            for text in parse_probes(game, config, 0):
                try:
                    check_parse_never_crashes(game, text)
                except AssertionError as exc:
                    raise AssertionError(f"{spec.name}, {n} players, check_parse_never_crashes: {exc}") from exc
