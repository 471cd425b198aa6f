"""PNG pictures of Space Pirates positions and the ``holotable render`` command.

Pictures are drawn from a seat's view, so they keep SP-INFO-01..06: a table re-dealt in what the seat
cannot see gives the very same picture.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from typer.testing import CliRunner

import holotable
from holotable.agents import make_agent, observe
from holotable.cli import app
from holotable.engine import Match, Rng
from holotable.games.space_pirates import picture as render

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


def test_current_rulers_come_from_the_log_of_this_turn(played_match: Match) -> None:
    """SP-MOVE-09: committed rulers stay on the table until the turn ends; pictures show them."""
    match = Match.new(GAME, 2, 5)
    match.state.arrange({"ships": [{"center": [20.0, 30.0], "heading": 0.0}, {"base": 1}], "active": 0,
                         "start": {"move": 3}, "layout": {"field": [60, 60], "bases": [
                             ["B1", 30.0, 6.5, 90.0], ["B2", 6.5, 30.0, 0.0], ["B3", 53.5, 30.0, 180.0]],
                             "elements": [], "inhabited": 3}})
    state = match.state
    state.apply("ruler 0.0", 0)
    state.apply("ruler 90.0", 0)
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
