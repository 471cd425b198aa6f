"""The hidden-tally variant hides only what the physical table hides, and says what a careful player
can compute (docs/games/captain-black.md, "The hidden tally"): every box follows from one seat's
views and log alone. CB-AMB-16 (assumed:CB-AMB-16)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import holotable
from holotable.engine import Rng, State

GAME = holotable.load("captain-black")


def _play_and_rebuild(players: int, seed: int, watcher: int) -> int:
    """Play a random hidden-tally game; after every move rebuild all boxes from what ``watcher`` reads
    (the bag's coin count and the public draw events), and compare with the true boxes. Returns the
    number of moves compared."""
    st: State = GAME.new_state(players=players, seed=seed, record=True, public_tally=False)
    rng = Rng(seed)
    boxes = [0] * players
    view = st.view(watcher)
    compared = 0
    while not st.is_terminal():
        before = view
        seat = st.to_move()[0]
        legal = st.legal_actions(seat)
        st.apply(legal[rng.randrange(min(len(legal), 6))], seat)
        view = st.view(watcher)
        assert all(b is None for s, b in enumerate(view["boxes"]) if s != watcher) or view["terminal"]
        if view["terminal"]:
            break
        if view["round"] != before["round"]:
            boxes = [0] * players  # every coin goes back into the bag at a round's end
            continue
        public = [e for e in st.log_for(watcher) if e.ply == st.ply and e.kind == "draw_public"]
        assert len(public) == 1 and public[0].data["seat"] == seat
        if public[0].data["success"]:
            boxes[seat] += before["bag"]["coins"] - view["bag"]["coins"]
        else:  # one black coin to the island, the rest back into the bag
            assert before["bag"]["coins"] - view["bag"]["coins"] == 1
        assert boxes == st.data.boxes, f"ply {st.ply}: rebuilt {boxes}, true {st.data.boxes}"
        assert boxes[watcher] == view["boxes"][watcher]
        compared += 1
    return compared


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_a_careful_player_works_out_every_box_from_the_table(players: int, seed: int) -> None:
    for watcher in range(players):
        assert _play_and_rebuild(players, seed, watcher) > 10


def test_the_page_and_the_terminal_say_what_can_be_computed() -> None:
    from rich.console import Console

    from holotable.cli.render import render_view

    st = GAME.new_state(players=3, seed=4, public_tally=False)
    console = Console(width=200, file=io.StringIO())
    console.print(render_view(st.view(0)))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "not shown" in text and "careful player can work every box out" in text
    public = io.StringIO()
    Console(width=200, file=public).print(render_view(GAME.new_state(players=3, seed=4).view(0)))
    assert "careful player" not in public.getvalue()  # nothing to say when every box is shown
    page = Path(holotable.__file__).parent / "web" / "static" / "games" / "captain-black.js"
    source = page.read_text(encoding="utf-8")
    assert "box: not shown" in source and "box: hidden" not in source
    assert "A careful player can still work every box out" in source
