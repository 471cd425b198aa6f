"""PNG pictures of Space Pirates positions and the ``holotable render`` command.

Pictures are drawn from a seat's view, so they keep SP-INFO-01..06: a table re-dealt in what the seat
cannot see gives the very same picture.
"""

from __future__ import annotations

import itertools
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from typer.testing import CliRunner

import holotable
from holotable.agents import make_agent, observe
from holotable.cli import app
from holotable.engine import Match, Rng, State
from holotable.games.space_pirates import picture as render
from holotable.games.space_pirates import picture_labels as labels

GAME = holotable.load("space-pirates")
PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture(scope="module")
def played_match() -> Match:
    """A 3-player match of random bots, played into its second turn (tokens, ships in space)."""
    match = Match.new(GAME, 3, 7)
    agents = [make_agent("random", GAME, seed=s) for s in range(3)]
    while match.state.data.turn < 3 and not match.state.is_terminal():
        seat = match.state.to_move()[0]
        match.play(agents[seat].act(observe(match.state, seat)), seat)
    return match


def test_a_view_is_drawn_to_scale_as_a_png(tmp_path: Path) -> None:
    st = GAME.new_state(players=2, seed=3, first_seat=0)
    small = png_size(render.draw_view(st.view(0), tmp_path / "a.png").read_bytes())
    big_state = GAME.new_state(players=3, seed=3, first_seat=0)  # 80 x 70 field instead of 60 x 60
    big = png_size(render.draw_view(big_state.view(0), tmp_path / "b.png").read_bytes())
    assert small[0] >= 600 and small[1] >= 600
    assert big[0] > small[0]  # wider field, wider picture


def test_pictures_hide_what_the_seat_cannot_see(played_match: Match) -> None:
    """SP-INFO-01/02/06: the same seat's picture of a re-dealt table is identical, byte for byte."""
    state = played_match.state
    for seat in range(3):
        other = state.determinize(seat, Rng(11 + seat))
        assert render.png_bytes(other.view(seat)) == render.png_bytes(state.view(seat))


def test_known_faces_are_marked_for_the_seat_that_knows_them() -> None:
    """SP-INFO-01: the placer knows its token's face; the spectator's picture differs from the placer's."""
    st = GAME.new_state(players=2, seed=3, first_seat=0)
    st.apply("base 0", 0)
    st.apply("base 1", 1)
    st.apply(st.legal_actions(0)[0], 0)  # seat 0 places a token it has seen
    assert any(t["identity"] for t in st.view(0)["tokens"])
    assert not any(t["identity"] for t in st.view(None)["tokens"])
    assert render.png_bytes(st.view(0)) != render.png_bytes(st.view(None))


def _two_rulers_laid() -> State:
    """Seat 0 in open space, mid-move, after a ruler east and a ruler north."""
    match = Match.new(GAME, 2, 5)
    match.state.arrange({"ships": [{"center": [20.0, 30.0], "heading": 0.0}, {"base": 1}], "active": 0,
                         "start": {"move": 3}, "layout": {"field": [60, 60], "bases": [
                             ["B1", 30.0, 6.5, 90.0], ["B2", 6.5, 30.0, 0.0], ["B3", 53.5, 30.0, 180.0]],
                             "elements": [], "inhabited": 3}})
    state = match.state
    state.apply("ruler 0.0", 0)
    state.apply("ruler 90.0", 0)
    return state


def test_current_rulers_are_those_laid_this_turn(played_match: Match) -> None:
    """SP-MOVE-09: committed rulers stay on the table until the turn ends; pictures show them."""
    state = _two_rulers_laid()
    rulers = render.current_rulers(state, None)
    assert rulers == [((21.5, 30.0), (26.5, 30.0)), ((26.5, 30.0), (26.5, 35.0))]


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_render_command_draws_a_saved_match_at_a_ply(played_match: Match, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    played_match.save(save)
    out = tmp_path / "pic.png"
    result = _run("render", str(save), "--ply", "5", "--seat", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(out)
    expected = render.png_bytes(played_match.state_at(5).view(1), title=f"Space Pirates: {save.name}")
    assert out.read_bytes() == expected
    default = _run("render", str(save))
    assert default.exit_code == 0, default.output
    last = len(played_match.actions)
    assert Path(default.stdout.strip()) == tmp_path / f"m-ply{last}.png"


def test_render_command_draws_a_sequence(played_match: Match, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    played_match.save(save)
    result = _run("render", str(save), "--every", "10", "--out", str(tmp_path / "frames"))
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "frames").glob("*.png"))
    last = len(played_match.actions)
    assert [f.name for f in files] == [f"ply{p:05d}.png" for p in range(0, last + 1, 10)]
    assert len({f.read_bytes() for f in files}) == len(files)  # the table changes between the frames


def test_render_command_draws_a_scenario(tmp_path: Path) -> None:
    scenario = {
        "format": "holotable-scenario", "version": 1, "title": "two ships and an asteroid", "game": "space-pirates",
        "players": 2, "params": {"first_seat": 0}, "seed": 1,
        "arrangement": {"ships": [{"center": [20.0, 30.0], "heading": 0.0}, {"base": 1}],
                        "tokens": [{"identity": "ASTEROID", "pos": [40.0, 40.0], "open": True}], "storm": [45, 20]},
    }
    path = tmp_path / "sc.json"
    path.write_text(json.dumps(scenario))
    result = _run("render", str(path), "--seat", "0")
    assert result.exit_code == 0, result.output
    assert png_size((tmp_path / "sc.png").read_bytes())[0] > 0


def test_render_command_refuses_bad_requests(played_match: Match, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    played_match.save(save)
    bad_ply = _run("render", str(save), "--ply", "99999")
    assert bad_ply.exit_code == 2 and "--ply must be" in bad_ply.output
    bad_seat = _run("render", str(save), "--seat", "7")
    assert bad_seat.exit_code == 2 and "no seat 7" in bad_seat.output
    other = tmp_path / "cb.json"
    Match.new(holotable.load("captain-black"), 2, 1).save(other)
    no_drawer = _run("render", str(other))
    assert no_drawer.exit_code == 2 and "no PNG picture for captain-black" in no_drawer.output
    missing = _run("render", str(tmp_path / "nope.json"))
    assert missing.exit_code == 2


# ---------------------------------------------------------------------------- rulers as they lie, legible labels


def _docking_match(players: int = 3) -> Match:
    """Red 2 rulers from B1's gate (heading 270); blue docked at B1, so one slot is left for red."""
    match = Match.new(GAME, players, 1, first_seat=0)
    match.state.arrange({"layout": {"field": [60, 60], "bases": [["B1", 30, 6.5, 90], ["B2", 53.5, 30, 180],
                                                                  ["B3", 6.5, 30, 0]],
                                    "elements": [], "inhabited": 3},
                         "ships": [{"center": [30, 16.5], "heading": 270}, {"base": 0}, {"base": 1}][:players],
                         "seen_markets": [[0, 1, 2], [], []][:players], "start": {"move": 3}})
    match.state.apply("ruler -90.0", 0)
    match.state.apply("ruler -90.0", 0)  # reaches the gate at y 6.5 on its way to y 5
    return match


def test_an_entry_ruler_is_drawn_to_the_gate() -> None:
    """SP-GEO-05, SP-MOVE-12: a ruler that can only dock (the whole of it would enter the base) ends where it
    met the gate, not inside the base, while the dock is offered and after it; the ruler before is whole."""
    match = _docking_match()
    state = match.state
    assert GAME.decision(state).kind == "dock_offer" and [str(a) for a in state.legal_actions(0)] == ["dock"]
    for st in (state, _docked(state)):
        first, (start, end) = render.current_rulers(st, 1)  # any seat sees the same rulers
        assert first == ((30.0, 15.0), (30.0, 10.0))
        assert start == (30.0, 10.0) and end[0] == 30.0 and end[1] == pytest.approx(6.5, abs=0.011)


def _docked(state: Any) -> Any:
    st = state.clone(keep_events=True)
    st.apply("dock", 0)
    assert st.data.ships[0].base == 0
    return st


def _label_boxes(view: dict) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The base labels as drawn: text and box in cm, read back from the rendered figure."""
    fig = render.figure_for_view(view)
    try:
        ax = fig.axes[0]
        fig.canvas.draw()
        inv = ax.transData.inverted()
        out = []
        for text in ax.texts:
            if text.get_bbox_patch() is None:
                continue
            ext = text.get_bbox_patch().get_window_extent()
            (x0, y0), (x1, y1) = inv.transform([(ext.x0, ext.y0), (ext.x1, ext.y1)])
            out.append((text.get_text(), (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))))
        return out
    finally:
        render.plt.close(fig)


def _covers(box: tuple[float, float, float, float], disc: tuple[float, float, float]) -> bool:
    x, y, r = disc
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return dx * dx + dy * dy < r * r


@pytest.mark.parametrize("preset", ["crossroads-60x60", "spiral-80x70", "rim-80x70"])
def test_prices_are_never_under_a_ship(preset: str) -> None:
    """Every inhabited base's label (id, prices) is drawn clear of every ship's disc, with all base
    slots full and the prices known to the viewer."""
    st = GAME.new_state(players=4, seed=2, first_seat=0, preset=preset)
    bases = [b.index for b in st.data.layout.bases if b.inhabited]
    st.arrange({"ships": [{"base": bases[i // 2]} for i in range(4)], "seen_markets": [bases, [], [], []],
                "start": "turn"})
    view = st.view(0)
    drawn = _label_boxes(view)
    assert len(drawn) == len(bases)
    ships = labels.ship_discs(view)
    assert len(ships) == 4
    for text, box in drawn:
        assert any(ch.isdigit() for ch in text.split("\n")[-1]), text  # the prices are in it
        assert not any(_covers(box, disc) for disc in ships), f"{text!r} lies under a ship"
    for (_, a), (_, b) in itertools.combinations(drawn, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), "two labels overlap"


def test_text_is_large_enough_to_read(played_match: Match) -> None:
    """Labels, ids and seat numbers are at least 6.5 pt at 120 dpi (about 11 px), white text on a halo or box."""
    fig = render.figure_for_view(played_match.state.view(0))
    try:
        ax = fig.axes[0]
        assert fig.dpi >= 120
        texts = [t for t in ax.texts if t.get_text()]
        assert texts and min(t.get_fontsize() for t in texts) >= 6.5
        for t in texts:
            if t.get_color() == "white":
                assert t.get_path_effects() or t.get_bbox_patch() is not None, t.get_text()
    finally:
        render.plt.close(fig)


@settings(max_examples=60, deadline=None)
@given(ships=hst.lists(hst.tuples(hst.floats(20, 40), hst.floats(0, 16)), max_size=5))
def test_a_label_avoids_ships_whenever_some_spot_is_clear(ships: list[tuple[float, float]]) -> None:
    """``place_label`` never puts a base's label under a ship when one of its spots is clear of ships."""
    st = GAME.new_state(players=2, seed=1, first_seat=0, preset="crossroads-60x60")
    base = st.view(0)["bases"][0]  # B1 at the bottom edge, gate up
    discs = [(x, y, 1.5) for x, y in ships]
    w, h = 6.0, 1.6
    spots = labels.base_label_spots(base, w, h)
    box = labels.place_label(spots, w, h, field=(60.0, 60.0), ships=discs, taken=[], tokens=[],
                             home=[tuple(p) for p in base["polygon"]])
    clear = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y in spots]
    if any(not any(_covers(c, d) for d in discs) for c in clear):
        assert not any(_covers(box, d) for d in discs)


def _rulers_from_the_log(state: Any, seat: int | None) -> list[render.Segment]:
    """The rulers of this turn as the log tells them (how pictures found them before the view had them)."""
    rulers: list[render.Segment] = []
    entry: tuple[int, tuple[float, float]] | None = None
    for event in state.log_for(seat):
        if event.kind == "turn":
            rulers, entry = [], None
        elif event.kind == "ruler":
            start, end = event.data["start"], event.data["end"]
            rulers.append(((start[0], start[1]), (end[0], end[1])))
            cut = event.data.get("entry_end")
            entry = None if cut is None else (int(event.data["dock_base"]), (cut[0], cut[1]))
            if entry is not None and event.data.get("dock_only"):
                rulers[-1] = (rulers[-1][0], entry[1])
        elif event.kind == "docked" and entry is not None and rulers and event.data.get("base") == entry[0]:
            rulers[-1] = (rulers[-1][0], entry[1])
            entry = None
    return rulers


@pytest.mark.parametrize("seed", [3, 8])
def test_the_views_rulers_are_the_rulers_the_log_tells(seed: int) -> None:
    """SP-GEO-04, SP-GEO-05: at every step of a game of heuristic bots the view's public ``rulers`` are the
    rulers the log shows laid this turn (an entry ruler cut at the gate), the same for every seat and for a
    table re-dealt in what a seat cannot see."""
    match = Match.new(GAME, 2, seed)  # a match records its log
    agents = [make_agent("heuristic", GAME, seed=s) for s in range(2)]
    state = match.state
    seen = 0
    while state.data.turn < 8 and not state.is_terminal():
        expected = [[list(a), list(b)] for a, b in _rulers_from_the_log(state, None)]
        views = [state.view(s)["rulers"] for s in (0, 1, None)]
        assert views == [expected] * 3
        assert state.determinize(0, Rng(seed)).view(0)["rulers"] == expected
        seen += bool(expected)
        seat = state.to_move()[0]
        match.play(agents[seat].act(observe(state, seat)), seat)
    assert seen > 5


def test_a_picture_draws_the_views_rulers() -> None:
    """SP-GEO-04: the picture of a view mid-move shows its rulers without being handed them."""
    state = _two_rulers_laid()
    view = state.view(1)
    assert render.view_rulers(view) == render.current_rulers(state) == [((21.5, 30.0), (26.5, 30.0)),
                                                                        ((26.5, 30.0), (26.5, 35.0))]
    drawn = render.png_bytes(view)
    assert drawn == render.png_bytes(view, rulers=render.current_rulers(state))
    assert drawn != render.png_bytes(view, rulers=[])
