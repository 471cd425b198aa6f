"""The look-up commands of ``holotable play space-pirates`` (``map``, ``preview``, ``me``, ``card``,
``report``) and what the board says around a decision: the transport just drawn, the last flick.
A command shows a seat only what its view and log hold: another seat's hand is refused by name.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner

import holotable
from holotable.cli import app
from holotable.engine import State
from holotable.games.space_pirates import terminal
from holotable.games.space_pirates.terminal_commands import (
    TERMINAL_COMMANDS,
    card_command,
    map_command,
    me_command,
    preview_command,
    report_command,
)

GAME = holotable.load("space-pirates")
LAB = {"field": [60, 60], "bases": [["B1", 30.0, 6.5, 90.0], ["B2", 6.5, 30.0, 0.0], ["B3", 53.5, 30.0, 180.0]],
       "elements": [["E09", 45, 45, 0]], "inhabited": 3}


@pytest.fixture(autouse=True)
def no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOLOTABLE_PNG_DIR", "off")


def text(renderable: RenderableType, width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def table(**extra: Any) -> State[Any, Any]:
    st = GAME.new_state(players=2, seed=2, first_seat=0, dexterity="precise", record=True)
    arrangement: dict[str, Any] = {
        "layout": LAB, "ships": [{"center": [20.0, 30.0], "heading": 0.0}, {"base": 1}], "active": 0,
        "hands": [["E1-1", "E3-2"], ["E5-1"]], "tokens": [{"identity": "ORE", "pos": [20.0, 45.0]}]}
    arrangement.update(extra)
    st.arrange(arrangement)
    return st


def test_the_hook_offers_the_commands_with_plain_descriptions() -> None:
    assert terminal.TERMINAL_COMMANDS is TERMINAL_COMMANDS
    words = [word for word, *_ in TERMINAL_COMMANDS]
    assert words == ["map", "preview", "me", "card", "report"]
    assert all(len(doc) > 30 and "SP-" not in doc for _, _, doc, _ in TERMINAL_COMMANDS)
    with pytest.raises(AttributeError):
        terminal.NOT_THERE  # noqa: B018 - the module's lazy attributes name only the commands


def test_card_reads_your_own_cards_and_refuses_another_seats_hand() -> None:
    """SP-INFO-01/06: E5-1 lies in seat 1's hand, so seat 0 may not read it by name; seat 1 may."""
    st = table()
    mine = text(card_command(st, 0, "E1-1"))
    assert "in your hand" in mine and "transport: choose a transport" in mine and "new transport" in mine
    refused = text(card_command(st, 0, "e5-1"))
    assert "E5-1 is not a card you can see" in refused
    assert "Rulers" not in refused and "5" not in refused.replace("E5-1", "")
    assert "in your hand" in text(card_command(st, 1, "E5-1"))
    assert "Red" not in text(card_command(st, 0, "M01")) and "not a market card you can see" in text(
        card_command(st, 0, "M01"))
    assert "nothing on the table is called" in text(card_command(st, 0, "banana"))


def test_card_reads_bases_elements_tokens_and_symbols_as_the_seat_sees_them() -> None:
    st = table(seen_markets=[[0], []])
    base = text(card_command(st, 0, "B1"))
    assert "Base 0 (B1, inhabited)" in base and "only you know it" in base
    assert "face down" in text(card_command(st, 1, "base 0"))  # seat 1 has not looked at it
    assert "Element E09" in text(card_command(st, 0, "E09"))
    ore = st.data.map_tokens()
    (tid,) = ore
    assert "face down" in text(card_command(st, 0, str(tid))) and "ore" not in text(card_command(st, 0, str(tid)))
    assert "solar wind" in text(card_command(st, 0, "wind"))


def test_me_lists_the_hand_with_values_and_adventures_and_the_dexterity() -> None:
    out = text(me_command(table(), 0, ""))
    assert "Your hand (2 cards, 4 points of energy)" in out
    assert "E1-1" in out and "E3-2" in out and "E5-1" not in out
    assert "dexterity precise" in out
    assert "new transport (right flicks)" in out and "draw one from the bag, look at it" in out


def test_card_in_a_card_decision_plays_when_legal_and_says_why_not_otherwise() -> None:
    """SP-TURN-05: ``card ID`` is the action when a card is asked and the id is one you hold; an id you
    do not hold is read instead, with the reason it cannot be played."""
    st = table(start="turn")
    assert GAME.decision(st).kind == "choose_card"
    out = text(card_command(st, 0, "E5-1"))
    assert "not a card you can see" in out and "you cannot play it now" in out


def test_the_map_has_centimetre_labels_and_draws_the_rulers_of_the_move() -> None:
    """SP-GEO-04 / spec §9.3: after one ruler at 60°, ``map`` marks the ruler's cells with ``*``."""
    st = table(start={"move": 2})
    st.apply("ruler 60", 0)
    out = text(map_command(st, 0, ""))
    rows = out.splitlines()
    header = rows[0]
    assert header.index("10") == 3 + 1 + 10 and header.index("50") == 3 + 1 + 50  # above columns x = 10, 50
    grid = [r for r in rows if r[3:4] == "|"]
    assert len(grid) == 30

    def at(x: float, y: float) -> str:
        return grid[29 - int(y / 2)][4 + int(x)]

    start = (21.5, 30.0)  # the nose of the ship at (20, 30) heading east
    assert at(start[0] + 5 * 0.5, start[1] + 5 * 0.866) == "*"
    assert "Rulers this move: 1: (21.5, 30.0)" in out
    assert grid[29 - 20 // 2].startswith(" 20|") and grid[29].startswith("  0|")


def test_the_drawn_transport_is_shown_to_its_drawer_before_it_is_placed() -> None:
    """SP-COMP-05 / SP-SETUP-11: the drawer may look at the transport it places; nobody else sees it."""
    st = GAME.new_state(players=2, seed=3, first_seat=0, record=True)
    st.apply("base 0", 0)
    st.apply("base 1", 1)
    dec = GAME.decision(st)
    assert dec.kind == "place"
    face = terminal.face_name(st.data.ident[dec.tid])
    mine = text(terminal.render(st.view(0)))
    assert f"You drew transport {dec.tid}: {face}" in mine
    theirs = text(terminal.render(st.view(1)))
    assert "You drew" not in theirs


def test_after_a_flick_the_board_and_report_say_what_happened() -> None:
    st = table(start="turn", tokens=[{"identity": "ORE", "pos": [20.0, 45.0]},
                                     {"identity": "SPICE", "pos": [32.0, 45.0]}])
    st.apply("card E1-1", 0)
    st.apply("adv FLICK", 0)
    st.apply("target 0", 0)
    st.apply("flick 0.0 0.3", 0)
    board = text(terminal.render(st.view(1)))
    assert "Last flick: Seat 1 flicked token 0, aimed 0° at 0.3, went 0.0° at 0.30" in " ".join(board.split())
    report = text(report_command(st, 1, ""))
    assert "token 6 (pushed) stopped at" in report and "token 0 (flicked) stopped at" in report


def test_preview_command_draws_the_path_and_reports_errors_in_words() -> None:
    st = table(start="turn")
    for word in ("card E1-1", "adv FLICK", "target 0"):
        st.apply(word, 0)
    out = text(preview_command(st, 0, "flick 0 0.2"))
    assert "Aimed exactly: it stops at (40.1, 45.0)" in out  # 0.2 of the 100 cm a full flick slides
    assert "Your 40 tries: with no noise every one stops there" in out and "X" in out
    assert "is not a number" in text(preview_command(st, 0, "0 strong"))
    assert "preview ANGLE STRENGTH" in text(preview_command(st, 0, ""))
    assert "ruler is not what the game asks of you now (flick)" in text(preview_command(st, 0, "ruler 10"))


def test_a_piped_session_lists_and_runs_the_commands(tmp_path: Path) -> None:
    """``help`` names the commands; ``me``, ``card``, ``preview``, ``map`` and ``report`` answer in a
    real ``holotable play`` session and none of them is played as an action."""
    save = tmp_path / "m.json"
    script = "base 0\nhelp\nme\ncard E1-5\npreview 45 0.3\nmap\nflick 45 0.3\nreport\nquit\n"
    result = CliRunner().invoke(app, ["play", "space-pirates", "--players", "2", "--seats", "random,human",
                                      "--seed", "4", "--param", "first_seat=0", "--save", str(save)], input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for usage in ("preview …: try before you play", "me: your money", "card NAME: read", "map: the map",
                  "report: the last turn", "You are asked: flick", "try first: preview ANGLE STRENGTH"):
        assert usage in out
    assert "flick -165.0 0.15" not in out  # help lists the forms, not a hundred flicks
    assert "Your hand (" in out and "Preview of flicking token 0 at 45°" in out
    assert "Seat 2 flicks token 0: aimed 45° at 0.3" in out
    from holotable.cli.seal import local_seal
    from holotable.engine import Match

    human = [a for seat, a in Match.load(save, local_seal()).actions if seat == 1]
    assert human == ["base 0", "flick 45.0 0.3"]


def _hint(st: State[Any, Any]) -> str:
    return next(line for line in terminal.help_lines(st.view(0)) if line.startswith("  type: "))


@pytest.mark.parametrize("first_ruler", ["nose", "within_90"])
def test_the_ruler_hint_says_where_the_next_ruler_may_point(first_ruler: str) -> None:
    """SP-MOVE-02/03: the hint is read from flow.turn_limit: any direction for a first ruler under the
    default ``nose``, within 90 degrees of the heading under ``within_90``, within 90 degrees of the last
    ruler after the first under both. assumed:SP-AMB-04"""
    st = GAME.new_state(players=2, seed=2, first_seat=0, dexterity="precise", first_ruler=first_ruler)
    st.arrange({"layout": LAB, "ships": [{"center": [20.0, 30.0], "heading": 0.0}, {"base": 1}], "active": 0,
                "hands": [["E1-1"], ["E5-1"]], "start": {"move": 3}})
    first = ("any direction" if first_ruler == "nose"
             else "within 90 degrees of your heading, 0°: from -90° to 90°")
    assert _hint(st) == f"  type: ruler ANGLE ({first}) or stop"
    assert "90 degrees" not in text(terminal.render(st.view(1)))  # the other seat is told nothing to type
    assert f"type: ruler ANGLE ({first}) or stop" in text(terminal.render(st.view(0)))
    st.apply("ruler 60", 0)
    assert _hint(st) == "  type: ruler ANGLE (within 90 degrees of the last ruler, 60°: from -30° to 150°) or stop"


def test_a_departing_ship_is_not_offered_stop_before_its_first_ruler() -> None:
    """SP-MOVE-11: a departing ship lays at least one ruler, so its first hint offers no ``stop``."""
    st = table(ships=[{"base": 0}, {"base": 1}], start={"move": 2})
    assert GAME.decision(st).departing and "stop" not in [str(a) for a in st.legal_actions(0)]
    assert _hint(st) == "  type: ruler ANGLE (any direction)"


def test_the_board_shows_the_rulers_laid_this_turn() -> None:
    """SP-GEO-04: the rulers on the table are public: every seat's view lists them, and the board the
    terminal draws after each action marks them ``*`` and lists them, without the ``map`` command."""
    st = table(start={"move": 3})
    assert st.view(0)["rulers"] == []
    st.apply("ruler 0", 0)
    st.apply("ruler 45", 0)
    first, second = st.view(0)["rulers"]
    assert st.view(1)["rulers"] == st.view(None)["rulers"] == [first, second]
    assert first == [[21.5, 30.0], [26.5, 30.0]] and second[0] == [26.5, 30.0]
    assert second[1] == pytest.approx([26.5 + 5 / 2 ** 0.5, 30.0 + 5 / 2 ** 0.5], abs=1e-3)
    for seat in (0, 1, None):
        out = text(terminal.render(st.view(seat)))
        grid = [r for r in out.splitlines() if r[3:4] == "|"]

        def at(x: float, y: float, grid: list[str] = grid) -> str:
            return grid[29 - int(y / 2)][4 + int(x)]

        assert at(23.5, 30.0) == "*" and at(28.2, 31.7) == "*"  # along the first and the second ruler
        assert "Rulers laid this turn (* on the map): 1: (21.5, 30.0) to (26.5, 30.0); " \
               "2: (26.5, 30.0) to (30.0, 33.5)" in out
    st.apply("stop", 0)
    while GAME.decision(st).seat == 0 and st.data.active == 0:  # the rest of red's turn, if anything
        st.apply(next(iter(st.legal_actions(0))), 0)
    assert st.data.active == 1 and st.view(1)["rulers"] == []  # the next turn starts with an empty table
