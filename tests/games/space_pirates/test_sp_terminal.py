"""Space Pirates in the terminal: ``holotable play`` with piped input, the picture, the ASCII map.

Flicks and rulers are typed in their text forms (SP-FLICK-01: ``flick ANGLE STRENGTH``; SP-MOVE-02:
``ruler ANGLE``); a refused input is explained with the engine's reason and leaves no trace.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import holotable
from holotable.cli import app
from holotable.cli.seal import local_seal
from holotable.engine import Match
from holotable.games.space_pirates import terminal

GAME = "space-pirates"
# The human is seat 1: the bot (seat 0, first player) places the set-up transports, the human flicks them.
BASE = ("play", GAME, "--players", "2", "--seats", "random,human", "--seed", "4", "--param", "first_seat=0")


@pytest.fixture(autouse=True)
def pictures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "pictures"
    monkeypatch.setenv("HOLOTABLE_PNG_DIR", str(folder))
    return folder


def run(*args: str, input: str) -> Result:
    return CliRunner().invoke(app, list(args), input=input)


def test_flicks_are_typed_as_numbers_and_the_table_is_drawn(tmp_path: Path, pictures: Path) -> None:
    """SP-SETUP-12, SP-FLICK-01: the left neighbour (the human) flicks the three set-up transports."""
    save = tmp_path / "m.json"
    script = "base 0\nflick 45 1.5\nflick 45 0.3\nflick 90.5 0.25\nflick -170 0.2\nview\nquit\n"
    result = run(*BASE, "--save", str(save), input=script)
    assert result.exit_code == 0, result.output
    assert "a flick's strength lies between 0 and 1" in result.stdout  # the refused 1.5
    human = [a for seat, a in Match.load(save, local_seal()).actions if seat == 1]
    assert human[:4] == ["base 0", "flick 45.0 0.3", "flick 90.5 0.25", "flick -170.0 0.2"]
    pngs = sorted(pictures.glob("seat1-ply*.png"))
    assert pngs and all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)
    squeezed = "".join(result.stdout.replace("│", "").split())  # rich may wrap the long path inside the panel
    assert f"Pictureofthetable:{pngs[-1]}" in squeezed
    assert "Waiting for Seat 2: flick" in result.stdout
    assert "type: flick ANGLE STRENGTH" in result.stdout


def test_a_ruler_is_typed_as_an_angle(tmp_path: Path) -> None:
    """SP-MOVE-02/11: the human departs, plays a card and lays a ruler by its angle."""
    save = tmp_path / "m.json"
    result = run(*BASE, "--save", str(save), input="base 0\nflick 0 0.1\nflick 0 0.1\nflick 0 0.1\nquit\n")
    assert result.exit_code == 0, result.output
    laid = False
    for _ in range(40):  # answer each of seat 1's decisions by replaying the save, until a ruler is laid
        match = Match.load(save, local_seal())
        state = match.state
        if state.is_terminal():
            break
        legal = state.legal_actions(1)
        rulers = [a for a in legal if a.verb == "ruler"]
        choice = rulers[0] if rulers else next((a for a in legal if a.verb == "depart"), legal[0])
        result = run("play", "--load", str(save), "--save", str(save), input=f"{choice}\nquit\n")
        assert result.exit_code == 0, result.output
        if choice.verb == "ruler":
            assert (1, str(choice)) in Match.load(save, local_seal()).actions
            laid = True
            break
    assert laid


def test_bad_ruler_angles_are_refused_with_the_rule(tmp_path: Path) -> None:
    """SP-MOVE-02: a first ruler more than 90 degrees off the heading is refused and changes nothing
    (the spec's reading, ``first_ruler: within_90``, SP-AMB-04)."""
    game = holotable.load(GAME)
    match = Match.new(game, 2, 1, first_seat=0, dexterity="precise", first_ruler="within_90")
    match.state.arrange({"ships": [{"center": [20.0, 30.0], "heading": 0.0}, {"base": 1}], "active": 0,
                         "start": {"move": 2}, "layout": {"field": [60, 60], "bases": [
                             ["B1", 30.0, 6.5, 90.0], ["B2", 6.5, 30.0, 0.0], ["B3", 53.5, 30.0, 180.0]],
                             "elements": [], "inhabited": 3}})
    before = match.state.fingerprint()
    with pytest.raises(holotable.engine.IllegalActionError, match="at most 90 degrees") as info:
        match.state.apply("ruler 120", 0)
    assert info.value.rule == "SP-MOVE-02"
    assert match.state.fingerprint() == before
    match.state.apply("ruler 60", 0)
    assert match.state.data.ships[0].heading == 60.0


def test_ascii_map_places_ships_tokens_bases_and_the_storm() -> None:
    """Spec §9.3: 1 character = 1 cm across and 2 cm down; ships, tokens, gates and the storm."""
    game = holotable.load(GAME)
    st = game.new_state(players=2, seed=1, first_seat=0)
    st.arrange({"layout": {"field": [60, 60], "bases": [["B1", 30.0, 6.5, 90.0], ["B2", 6.5, 30.0, 0.0],
                                                        ["B3", 53.5, 30.0, 180.0]], "elements": [["E09", 30, 30, 0]],
                           "inhabited": 3},
                "ships": [{"center": [10.5, 50.5], "heading": 0.0}, {"base": 2}],
                "tokens": [{"identity": "ORE", "pos": [40.5, 40.5]},
                           {"identity": "ASTEROID", "pos": [20.5, 20.5], "open": True}], "storm": [45.0, 15.0]})
    rows = terminal.ascii_map(st.view(None)).plain.split("\n")[1:-1]
    assert len(rows) == 30 and all(len(r) == 62 for r in rows)

    def at(x: float, y: float) -> str:
        return rows[29 - int(y / 2)][1 + int(x)]

    assert at(10.5, 50.5) == "B"  # seat 0's ship in space
    assert at(*st.data.layout.bases[2].slots[0]) == "g"  # seat 1 docked at base 2
    assert at(40.5, 40.5) == "o" and at(20.5, 20.5) == "@"
    assert at(30.0, 30.0) == "#" and at(30.0, 6.4) == "="
    assert at(45.0, 15.0) == "~"


def test_pictures_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    st = holotable.load(GAME).new_state(players=2, seed=1)
    monkeypatch.setenv("HOLOTABLE_PNG_DIR", "off")
    assert terminal.write_picture(st.view(0)) is None
    monkeypatch.delenv("HOLOTABLE_PNG_DIR")
    assert terminal.picture_dir() is not None and terminal.picture_dir().name == "holotable-space-pirates"


def test_simulate_works_with_random_and_heuristic_bots() -> None:
    result = CliRunner().invoke(app, ["simulate", GAME, "--players", "2", "--games", "2", "--agents",
                                      "heuristic,random", "--param", "turn_cap=12", "--json"])
    assert result.exit_code == 0, result.output
    assert '"games": 2' in result.stdout


def test_a_ruler_decision_counts_rulers_in_words() -> None:
    """SP-MOVE-01: the line under the table says how many rulers are left and laid, not "adventures"."""
    from holotable.games.space_pirates.terminal import _decision

    ruler = {"kind": "ruler", "seat": 0, "left": 4, "count": 1, "departing": True, "limit": 30.0}
    line = _decision({"seat": 1, "decision": ruler})
    assert line is not None
    assert "ruler (rulers left: 4, laid 1, leaving the base)" in line.plain and "adventures" not in line.plain
    line = _decision({"seat": 1, "decision": {**ruler, "departing": False}})
    assert line is not None and "leaving" not in line.plain and "True" not in line.plain
    adv = _decision({"seat": 1, "decision": {"kind": "choose_adv", "seat": 0, "left": ["FLICK", "WIND"]}})
    assert adv is not None and "adventures left: FLICK, WIND" in adv.plain
