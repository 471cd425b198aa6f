"""Side channels: what a seat could learn *around* its view, checked for any game.

The view is the engine's one exit for state, but a player reads more than the view: the legal
actions and their mask, the log, a terminal screen, an RL observation; and a player knows the
rules, so anything fixed by the rules (a token whose id is always its face) is known too. Each
check plays seeded random games through the public API and raises ``AssertionError`` naming
the channel, the position and the seat when one of them tells a seat more than the physical
table would:

* :func:`check_relabelled_channels`: every channel of a seat (and of a spectator) is unchanged
  when what the seat cannot see is relabelled (a determinisation for that seat: a consistent
  re-deal of every hidden identity) and when the seed and RNG state are replaced;
* :func:`check_logs_follow_views`: the same actions replayed in a relabelled world (the hidden
  identities re-dealt at the start, the same random numbers) give the seat the same log, screen
  and observation for as long as they give it the same view;
* :func:`check_no_seed_in_outputs`: no channel of any seat contains the seed before the end;
* :func:`check_hidden_faces_vary`: nothing a determinisation re-deals is fixed by the rules in
  every real game (else a seat that knows the rules knows it: an id that is its face);
* :func:`check_samples_know_only_the_seat`: a determinisation carries no action log and
  depends only on what the seat knows (two states the seat cannot tell apart sample alike);
* :func:`check_reveals_are_declared`: an action that shows anyone hidden information says so
  (:meth:`State.reveal <holotable.engine.State.reveal>`), so that the undo policy never lets it
  be taken back.

A channel is a function ``(state, seat) -> JSON-ready value`` (:data:`CHANNELS`); the view,
legal actions, mask and log are the engine's; the terminal screen and the RL observation are
added when :mod:`holotable.cli` and :mod:`holotable.rl` can be imported. The project's tests run
:data:`SIDE_CHANNEL_CHECKS` over every registered game, and over toy games that leak on purpose
(:mod:`holotable.testing.leaky`) to show that each check can fail.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from holotable.engine import ActionError, Rng, State, derive_seed
from holotable.engine.spec import Config
from holotable.engine.undo import play

from .conformance import AnyGame, AnyState, canonical, random_choice, random_step, sampled

Channel = Callable[[AnyState, "int | None"], Any]

#: The environment variable that turns terminal pictures off (see holotable.games.space_pirates.terminal).
PICTURES = "HOLOTABLE_PNG_DIR"

#: Positions of each game the checks look at closely (the start, the end and a random sample).
PLIES = 8
#: Relabellings (determinisations) tried per position and seat.
RELABELS = 2
#: Plies of each replay :func:`check_logs_follow_views` compares, and the channels it compares.
FOLLOW_PLIES = 60
FOLLOWED = ("log", "legal", "mask", "rl")
#: Real starts compared by :func:`check_hidden_faces_vary`.
STARTS = 16


# ---------------------------------------------------------------------------- the channels


def _legal(state: AnyState, seat: int | None) -> Any:
    if seat is None:
        return []
    return [state.game.action_to_str(a) for a in state.legal_actions(seat)]


def _mask(state: AnyState, seat: int | None) -> Any:
    if seat is None:
        return []
    try:
        return state.action_mask(seat)
    except NotImplementedError:
        return []


def _log(state: AnyState, seat: int | None) -> Any:
    return [e.to_dict() for e in state.log_for(seat)]


#: Log lines of the terminal screen compared (the whole log is the ``log`` channel, and the
#: screen writes each event's text as it is).
SCREEN_LOG_LINES = 12


def _terminal(state: AnyState, seat: int | None) -> Any:
    from rich.console import Console

    from holotable.cli.play import seat_screen

    out = io.StringIO()
    # Pictures off: a game's picture (Space Pirates' PNG) is drawn from the view alone, and
    # writing one per screen would cost more than every other channel together.
    saved = os.environ.get(PICTURES)
    os.environ[PICTURES] = "off"
    try:
        Console(file=out, width=120, color_system=None, highlight=False).print(
            seat_screen(state, seat, log_tail=SCREEN_LOG_LINES))
    finally:
        if saved is None:
            del os.environ[PICTURES]
        else:
            os.environ[PICTURES] = saved
    return out.getvalue()


@lru_cache(maxsize=64)
def _observer(game: AnyGame, config: Config) -> Any:
    from holotable.rl.common import Observer, action_space_size
    from holotable.rl.encoding import encoder_for

    encoder = encoder_for(game, config)
    return Observer(game, config, encoder, action_space_size(game, config))


def _rl(state: AnyState, seat: int | None) -> Any:
    if seat is None:  # RL agents sit at seats; there is no spectator observation
        return []
    obs = _observer(state.game, state.config).observe(state, seat)
    return [[float(x) for x in obs["observation"]], [int(x) for x in obs["action_mask"]]]


def _available() -> dict[str, Channel]:
    out: dict[str, Channel] = {"view": lambda st, seat: st.view(seat), "legal": _legal, "mask": _mask, "log": _log}
    try:
        import rich  # noqa: F401  # the command line's own dependency

        import holotable.cli.play
    except ImportError:  # pragma: no cover - rich is a core dependency
        pass
    else:
        out["terminal"] = _terminal
    try:
        import holotable.rl.common  # noqa: F401  # needs the rl extra (numpy, gymnasium)
    except ImportError:  # pragma: no cover - the project's tests install it
        pass
    else:
        out["rl"] = _rl
    return out


#: Every channel a seat reads, by name: ``channel(state, seat)`` (``seat`` ``None``: a spectator).
CHANNELS: dict[str, Channel] = _available()


def seat_channels(state: AnyState, seat: int | None, names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """What ``seat`` reads on every channel (or on ``names``) in ``state``."""
    return {name: fn(state, seat) for name, fn in CHANNELS.items() if names is None or name in names}


def _differences(a: dict[str, Any], b: dict[str, Any]) -> str:
    out = []
    for name in a:
        if a[name] != b[name]:
            if isinstance(a[name], dict) and isinstance(b[name], dict):
                keys = sorted(k for k in set(a[name]) | set(b[name]) if a[name].get(k) != b[name].get(k))
                out.append(f"{name} ({', '.join(map(str, keys))})")
            else:
                out.append(name)
    return ", ".join(out)


def _comparable(det: AnyState, state: AnyState) -> AnyState:
    """``det`` with the true state's sealed choices and past log put back, for comparing what a seat reads.

    A determinisation drops the others' sealed choices (so the search cannot use them), which
    changes who is asked; every seat may know who has chosen, and no channel shows what, so the
    comparison puts them back. It drops the log too; the past log is what it was (whether it
    names hidden things is :func:`check_logs_follow_views`' question), so the screens compared
    show the same one."""
    out = det.clone()
    out.pending = dict(state.pending)
    out.events = None if state.events is None else list(state.events)
    # The seed and RNG state are the reseeded world's question; here only the hidden identities differ.
    out.seed, out.rng = state.seed, state.rng.clone()
    return out


def _reseeded(state: AnyState, seed: int) -> AnyState:
    """``state`` with another seed and RNG state: the same table, another future."""
    out = state.clone()
    out.seed = seed
    out.rng = Rng(seed)
    return out


def probe_seed(seed: int) -> int:
    """A long seed (19 digits) that no output shows by accident."""
    return derive_seed("side-channel probe", seed) | (1 << 62)


def _viewers(state: AnyState) -> list[int | None]:
    return [*range(state.players), None]


# ---------------------------------------------------------------------------- checks


def _compare(state: AnyState, mine: dict[str, Any], other: AnyState, who: int | None, change: str,
             names: tuple[str, ...] | None) -> None:
    theirs = seat_channels(other, who, names)
    ours = {n: v for n, v in mine.items() if n in theirs}
    assert ours == theirs, (
        f"ply {state.ply}: what {'a spectator' if who is None else f'seat {who}'} reads changes when "
        f"{change}: {_differences(ours, theirs)}"
    )


def check_relabelled_channels(game: AnyGame, config: Config, seed: int) -> None:
    """Every channel is unchanged by a relabelling of what the seat cannot see, and by a new seed.

    The terminal screen is compared in the reseeded world only: a screen is drawn from the view,
    the log and the table's opening line, so among worlds with equal views and logs only the
    opening line (the seed) could change it."""
    secrets = game.spec.has_secrets
    quiet = tuple(n for n in CHANNELS if n not in ("log", "terminal"))
    for state in sampled(game, config, probe_seed(seed), record=True, plies=PLIES):
        mine = {who: seat_channels(state, who) for who in _viewers(state)}

        if secrets:
            reseeded = _reseeded(state, derive_seed(seed, "reseed", state.ply))
            for who in _viewers(state):
                _compare(state, mine[who], reseeded, who, "the seed changes", None)
        for seat in range(config.players):
            for k in range(RELABELS):
                world = _comparable(state.determinize(seat, Rng(derive_seed(seed, state.ply, seat, k))), state)
                for who in (seat, None):
                    _compare(state, mine[who], world, who, f"what seat {seat} cannot see is relabelled", quiet)


def check_logs_follow_views(game: AnyGame, config: Config, seed: int) -> None:
    """Relabel the hidden identities at the start and replay the same actions with the same random
    numbers: for as long as a seat's view stays the same, so do its log, screen and observation."""
    start = State.new(game, config, probe_seed(seed), record=True)
    log: list[tuple[int, Any]] = []
    truth = start.clone()
    rng = Rng(derive_seed(seed, "follow"))
    while not truth.is_terminal() and truth.ply < game.spec.max_game_length:
        log.append(random_step(truth, rng))
    compared = 0
    for seat in range(config.players):
        world = start.determinize(seat, Rng(derive_seed(seed, "relabel", seat)))
        world.rng, world.seed, world.events = start.rng.clone(), start.seed, []
        real = start.clone()
        for ply, (actor, action) in enumerate([(None, None), *log]):
            if actor is not None:
                try:
                    world.apply(action, actor)
                except ActionError:
                    break  # the relabelled world no longer allows what was played: it has diverged
                real.apply(action, actor)
            if real.view(seat) != world.view(seat):
                break  # the seat can tell the worlds apart from here on (a card it drew differs)
            if ply >= FOLLOW_PLIES:
                break
            # (the terminal screen is drawn from the view, the log and the seed, all compared here)
            ours, theirs = seat_channels(real, seat, FOLLOWED), seat_channels(world, seat, FOLLOWED)
            assert ours == theirs, (
                f"ply {ply}: seat {seat}'s view is the same in a relabelled world but its "
                f"{_differences(ours, theirs)} differ: it names something the seat cannot see"
            )
            compared += 1
    assert compared > 0, "no position could be compared"


def _all_outputs(state: AnyState) -> Iterator[tuple[str, str]]:
    for who in _viewers(state):
        for name, value in seat_channels(state, who).items():
            yield f"{name} of {'a spectator' if who is None else f'seat {who}'}", (
                value if isinstance(value, str) else json.dumps(value)
            )


def check_no_seed_in_outputs(game: AnyGame, config: Config, seed: int) -> None:
    """No channel of any seat (or spectator) shows the seed while the game runs."""
    if not game.spec.has_secrets:
        return
    long_seed = probe_seed(seed)
    marks = (str(long_seed), f"{long_seed:x}", f"{long_seed:X}")
    for state in sampled(game, config, long_seed, record=True, plies=PLIES):
        if state.is_terminal():
            continue
        for where, text in _all_outputs(state):
            for mark in marks:
                assert mark not in text, f"ply {state.ply}: the {where} contains the seed {long_seed}"


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _leaves(item, f"{path}[{i}]")
    else:
        yield path, json.dumps(value, sort_keys=True)


def check_hidden_faces_vary(game: AnyGame, config: Config, seed: int) -> None:
    """Nothing a determinisation re-deals at the start is fixed by the rules in real starts.

    A determinisation says what the seat cannot know; if the rules fix it anyway (token 33 is
    the police in every game), the seat knows it from the rules, and whatever names it (an id
    in the view) names its face. A value is reported when every real start shows it while the
    determinisations make it rare enough that so many real starts agreeing by chance is less
    likely than one in a million (a deck's bottom card that is usually "filled" is no evidence).
    """
    real: dict[str, list[str]] = {}
    dealt: dict[str, list[str]] = {}
    starts = 0
    for i in range(STARTS):
        state = State.new(game, config, derive_seed(seed, "start", i))
        if state.is_terminal():
            continue
        starts += 1
        for path, value in _leaves(state.full()["data"]):
            real.setdefault(path, []).append(value)
        for k in range(2):
            det = state.determinize(0, Rng(derive_seed(seed, "start-det", i, k)))
            for path, value in _leaves(det.full()["data"]):
                dealt.setdefault(path, []).append(value)
    fixed = []
    for path, values in real.items():
        samples = dealt.get(path, [])
        if len(values) != starts or len(set(values)) != 1 or len(set(samples)) < 2:
            continue
        share = samples.count(values[0]) / len(samples)  # how often a determinisation agrees
        if share ** starts < 1e-6:
            fixed.append(path)
    assert not fixed, (
        f"determinisations for seat 0 re-deal {', '.join(sorted(fixed)[:6])}{' ...' if len(fixed) > 6 else ''}, "
        f"which all {starts} real starts fix (always {real[fixed[0]][0]}): a player who knows the rules "
        "knows it, so whatever names it (an id) names its face"
    )


def check_samples_know_only_the_seat(game: AnyGame, config: Config, seed: int) -> None:
    """A determinisation carries no action log and is the same from any state the seat cannot tell apart."""
    for state in sampled(game, config, seed, plies=PLIES):
        if state.is_terminal():
            continue
        for seat in range(config.players):
            twin = state.determinize(seat, Rng(derive_seed(seed, "twin", state.ply, seat)))
            for k in range(RELABELS):
                a = state.determinize(seat, Rng(derive_seed(seed, "sample", state.ply, seat, k)))
                b = twin.determinize(seat, Rng(derive_seed(seed, "sample", state.ply, seat, k)))
                where = f"ply {state.ply}, seat {seat}"
                assert a.history == [], f"{where}: a determinisation carries the true action log"
                assert a.seed != state.seed, f"{where}: a determinisation carries the true seed"
                if canonical(a) != canonical(b) or a.rng.getstate() != b.rng.getstate():
                    da, db = a.full()["data"], b.full()["data"]
                    keys = sorted(k for k in set(da) | set(db) if da.get(k) != db.get(k)) if isinstance(
                        da, dict) and isinstance(db, dict) else ["data"]
                    raise AssertionError(
                        f"{where}: determinisations of two states the seat cannot tell apart differ in "
                        f"{', '.join(map(str, keys)) or 'the RNG'}: a sample still depends on the truth "
                        "(sort what is re-dealt before shuffling it, and re-deal everything hidden)"
                    )


#: Actions :func:`check_reveals_are_declared` examines per game (chance, sealed and declared ones are free).
REVEAL_PROBES = 40


def check_reveals_are_declared(game: AnyGame, config: Config, seed: int) -> None:
    """An action whose effect on what a seat reads depends on something that seat cannot see
    revealed it, and must say so with ``state.reveal()``.

    For each action of a random game that drew on no chance, was not sealed and declared no
    reveal (up to :data:`REVEAL_PROBES` of them), the same action is played in relabelled worlds
    of each seat: if it is refused there, or gives the seat another view, it showed that seat
    something hidden."""
    if not game.spec.has_secrets:
        return
    state = State.new(game, config, seed)
    rng = Rng(derive_seed(seed, "reveal-play"))
    probes = 0
    while not state.is_terminal() and state.ply < game.spec.max_game_length and probes < REVEAL_PROBES:
        before = state.clone(keep_events=False)
        actor, action = random_choice(before, rng)
        step = play(state, action, actor)
        if step.chance or step.sealed or step.resolved or step.revealed:
            continue
        probes += 1
        for seat in range(config.players):
            seen = state.view(seat)
            for k in range(RELABELS):
                world = before.determinize(seat, Rng(derive_seed(seed, "reveal", before.ply, seat, k)))
                world.pending, world.rng = dict(before.pending), before.rng.clone()
                try:
                    world.apply(action, actor)
                except ActionError:
                    assert seat != actor, f"ply {before.ply}: seat {seat} is refused its own move in a determinisation"
                    raise AssertionError(
                        f"ply {before.ply}: '{step.text}' by seat {actor} tells seat {seat} something hidden "
                        "(it is refused in a world that seat cannot tell apart) but the rules did not call reveal()"
                    ) from None
                if world.rng.getstate() != before.rng.getstate():
                    continue  # chance in that world only: inconclusive
                theirs = world.view(seat)
                assert theirs == seen, (
                    f"ply {before.ply}: '{step.text}' by seat {actor} shows seat {seat} something it could not "
                    f"know ({_differences({'view': seen}, {'view': theirs})}) but the rules did not call reveal()"
                )


#: Every side-channel check that takes ``(game, config, seed)``.
SIDE_CHANNEL_CHECKS: tuple[Callable[[AnyGame, Config, int], None], ...] = (
    check_relabelled_channels,
    check_logs_follow_views,
    check_no_seed_in_outputs,
    check_hidden_faces_vary,
    check_samples_know_only_the_seat,
    check_reveals_are_declared,
)
