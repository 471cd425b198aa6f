"""No seat learns a secret around its view: the side-channel checks over every registered game, and
proof that each check catches the leak it is for.

The checks live in ``holotable.testing.side_channels``; the toys that leak on purpose in
``holotable.testing.leaky``. Two reproductions of leaks the project once had are rebuilt here and
must be caught: Space Pirates token ids fixed to faces, and a terminal whose first line printed the
seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import holotable
from holotable.engine import Rng, State, names
from holotable.testing import side_channels as sc
from holotable.testing.conformance import check_game, player_counts, temporarily_registered
from holotable.testing.leaky import LEAKY_GAMES, rl_hint_encoder
from holotable.testing.toys import Shells

from .test_conformance import CHECK_PARAMS

CASES = [
    pytest.param(name, n, check, id=f"{name}-{n}p-{check.__name__.removeprefix('check_')}")
    for name in names()
    for n in player_counts(holotable.load(name).spec.min_players, holotable.load(name).spec.max_players)
    for check in sc.SIDE_CHANNEL_CHECKS
]


def run(check: Callable[[Any, Any, int], None], name: str, players: int, seed: int) -> None:
    game = holotable.load(name)
    check(game, game.spec.make_config(players, **CHECK_PARAMS.get(name, {})), seed)


def test_every_registered_game_and_check_is_covered() -> None:
    assert {p.values[0] for p in CASES} == set(names())
    assert {p.values[2] for p in CASES} == set(sc.SIDE_CHANNEL_CHECKS)
    assert set(sc.CHANNELS) == {"view", "legal", "mask", "log", "terminal", "rl"}


@pytest.mark.parametrize(("name", "players", "check"), CASES)
@settings(max_examples=1)
@given(seed=st.integers(0, 2**31))
def test_no_seat_learns_a_secret_through_a_side_channel(
    name: str, players: int, check: Callable[[Any, Any, int], None], seed: int
) -> None:
    run(check, name, players, seed)


# ---------------------------------------------------------------------------- each check can fail


def test_the_honest_shell_game_passes_everything() -> None:
    check_game(Shells(), seeds=2)


@pytest.mark.parametrize(("game", "check"), LEAKY_GAMES, ids=[g.spec.name for g, _ in LEAKY_GAMES])
def test_each_leaky_toy_is_caught_by_its_check(game: Shells, check: str) -> None:
    roles = {}
    if check == "check_relabelled_channels" and game.spec.name.endswith("rl-hint"):
        roles["encoder"] = rl_hint_encoder()  # its manifest names the leaky encoder
    with temporarily_registered(game, **roles):
        with pytest.raises(AssertionError):
            getattr(sc, check)(game, game.spec.make_config(2), 0)
        # check_game runs the side-channel checks too, so a game author's one call catches it
        with pytest.raises(AssertionError, match=r"^test-shells-[a-z-]+, \d players, seed \d, check_"):
            check_game(game, seeds=2)


def test_space_pirates_ids_fixed_to_faces_would_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The leak as it was: tokens kept their set-up ids through the bag (ids 32-33 were always the police)."""
    from holotable.games.space_pirates import flow
    from holotable.games.space_pirates.state import SPData

    def draw_as_before(ctx: Any, seat: int) -> int | None:
        d = ctx.d
        bag = [t for t, w in enumerate(d.where) if w == "bag"]
        if not bag:
            return None
        t = bag[ctx.rng.randrange(len(bag))]
        d.where[t], d.holder[t], d.known[t] = "transit", seat, 1 << seat
        return t

    game = holotable.load("space-pirates")
    config = game.spec.make_config(3, turn_cap=40)
    sc.check_hidden_faces_vary(game, config, 0)  # sound as it is now
    monkeypatch.setattr(SPData, "sort_bag", lambda self: None)
    monkeypatch.setattr(flow, "draw_token", draw_as_before)
    with pytest.raises(AssertionError, match=r"tokens\[\d+\]\.identity.*names its face"):
        sc.check_hidden_faces_vary(game, config, 0)


def test_a_terminal_that_prints_the_seed_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The leak as it was: the terminal's first line named the seed, so at a hot-seat Council table
    everyone could compute every Agenda."""
    from rich.text import Text

    from holotable.cli import play

    def header_as_before(spec: Any, players: int, seats: Sequence[str], seed: int, seeded_by: str | None) -> Text:
        who = ", ".join(f"seat {s}: {kind}" for s, kind in enumerate(seats))
        return Text(f"{spec.title} · {players} players · seed {seed} · {who}")

    game = holotable.load("council")
    config = game.spec.make_config(4)
    sc.check_no_seed_in_outputs(game, config, 0)
    monkeypatch.setattr(play, "table_header", header_as_before)
    with pytest.raises(AssertionError, match="the terminal of seat 0 contains the seed"):
        sc.check_no_seed_in_outputs(game, config, 0)


# ---------------------------------------------------------------------------- the search API


def test_a_sample_of_buccaneers_holds_no_sealed_pick_and_no_face_down_toy() -> None:
    """``Observation.sample_state`` once carried the true action log: other seats' sealed picks before
    the reveal, and the faces of toys played face down."""
    from holotable.agents import observe

    game = holotable.load("buccaneers")
    state: State[Any, Any] = game.new_state(players=4, seed=3)
    rng = Rng(5)
    pending_checked = face_down_checked = 0
    while not state.is_terminal():
        seat = max(state.to_move())  # seat 0 chooses last, so the others' sealed picks are pending
        if seat == 0 and 0 in state.to_move():
            sample = observe(state, 0).sample_state(Rng(state.ply))
            assert sample.history == [] and sample.seed != state.seed
            assert set(sample.pending) <= {0}, "a sample holds another seat's sealed pick"
            pending_checked += bool(set(state.pending) - {0})
            hidden = [(s, i) for s in range(1, 4) for i, item in enumerate(state.data.tableaux[s]) if item.face_down]
            if hidden:
                truth = [state.data.tableaux[s][i].card for s, i in hidden]
                dealt = [[observe(state, 0).sample_state(Rng(k)).data.tableaux[s][i].card for s, i in hidden]
                         for k in range(6)]
                assert any(d != truth for d in dealt), "face-down toys keep their true faces in every sample"
                face_down_checked += 1
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    assert pending_checked > 5 and face_down_checked > 0
