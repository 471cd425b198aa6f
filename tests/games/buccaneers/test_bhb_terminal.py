"""The Buccaneers terminal: the rich view of one seat, and ``holotable play buccaneers`` with piped input.

Secrets stay with their seat on screen too (BHB-INFO-01..03): another seat's hand and face-down toys
never appear in a seat's picture.
"""

from __future__ import annotations

import random
import re
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

import holotable
from holotable.cli import app
from holotable.cli.render import render_view, renderer_for
from holotable.cli.seal import local_seal
from holotable.engine import Match, State
from holotable.games.buccaneers import cards as tb
from holotable.games.buccaneers import terminal

GAME = holotable.load("buccaneers")


def text_of(view: dict[str, Any]) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(render_view(view))
    return console.export_text()


def advance(st: State[Any, Any], rng: random.Random, until: Any) -> None:
    while not st.is_terminal() and not until(st):
        seat = st.to_move()[0]
        legal = st.legal_actions(seat)
        st.apply(legal[rng.randrange(len(legal))], seat)


def test_the_renderer_is_registered() -> None:
    assert renderer_for("buccaneers") is terminal.render


def test_BHB_INFO_01_to_03_a_seat_sees_its_hand_and_toys_but_not_the_others() -> None:
    st = GAME.new_state(players=4, seed=3)
    rng = random.Random(3)
    # Play until some seat holds a face-down toy.
    advance(st, rng, lambda s: any(item.face_down for t in s.data.tableaux for item in t) and s.data.ask[0] == "choose")
    owner = next(s for s, t in enumerate(st.data.tableaux) if any(item.face_down for item in t))
    toy = next(item.card for item in st.data.tableaux[owner] if item.face_down)
    for seat in range(4):
        text = text_of(st.view(seat))
        for card in st.data.hands[seat]:
            assert f"[{card}]" in text
        for other in range(4):
            if other != seat:
                for card in st.data.hands[other]:
                    if card not in st.data.hands[seat]:
                        assert f"[{card}]" not in text and card not in text
        if seat == owner:
            assert "face down" in text and tb.CARDS[toy].name in text
        else:
            assert "face-down toy" in text
    spectator = text_of(st.view(None))
    assert "Your hand" not in spectator


def test_the_picture_shows_the_black_hole_threshold_direction_and_scores() -> None:
    st = GAME.new_state(players=4, seed=5, setup="first_game", direction="CCW")
    text = text_of(st.view(0))
    assert "Round 1 of 3" in text and "selection phase, turn 1" in text
    assert "BH-M2 (menacing)" in text and "6 cards dealt" in text and "threshold 18" in text
    assert "counter-clockwise" in text
    assert "Asked now: every seat: pick a card" in text
    rng = random.Random(5)
    advance(st, rng, lambda s: s.data.round == 2)
    text = text_of(st.view(1))
    pad = st.data.pad[0]
    assert "Scoring pad" in text and f"Round 1: {pad['black_hole']}" in text
    for seat in range(4):
        weight, limit = pad["e_weight"][seat], pad["threshold"][seat]
        assert f"W {weight} / T {limit}" in text
        assert f"+{pad['points'][seat]}" in text


def test_turned_cards_groups_and_stacks_show_their_numbers() -> None:
    st = GAME.new_state(players=3, seed=0, setup="first_game")
    tableau = [{"card": "TM-CC-1", "group": 1, "turns": 1}, {"card": "TM-RS-1", "group": 1, "turns": 1},
               {"card": "SHAPE-8-a"}, {"card": "SHAPE-3-a"}, {"card": "ROBOT-6-3-a", "turns": 1}]
    hands = [["TOY-1-2", "TOY-2-2"], ["TOY-2-3", "TOY-3-3"], ["TOY-3-4", "TOY-4-4"]]
    st.arrange({"hands": hands, "tableaux": [tableau, [], []], "turn": 5})
    text = text_of(st.view(0))
    assert "Command Chair now 4/4 (turned 1×, group 1)" in text
    assert "Morpho Cubo now 8/3" in text  # under a 3-weight shapeshifter
    assert "shapeshifter stack of 2" in text and "each weighs 3" in text
    assert "Robot 6/3 now 3/6 (turned 1×)" in text  # the copy letter "(a)" is the data's, not the card's
    # 4+4 + 8+3 + 3 = 22 value, 4+4 + 3+3 + 6 = 20 weight
    assert re.search(r"1 \(you\)\s+2\s.*\s22\s+20\s", text)  # seat index 0 is Seat 1


def _moves(seed: int, players: int) -> list[str]:
    """The action texts of a whole game in which each asked seat takes its last legal action."""
    st = GAME.new_state(players=players, seed=seed)
    out = []
    while not st.is_terminal():
        seat = st.to_move()[0]
        action = st.legal_actions(seat)[-1]
        out.append(str(action))
        st.apply(action, seat)
    return out


def test_play_buccaneers_hot_seat_with_four_humans(tmp_path: Any) -> None:
    save = tmp_path / "bhb.json"
    moves = _moves(11, 4)
    result = CliRunner().invoke(
        app, ["play", "buccaneers", "--players", "4", "--humans", "4", "--seed", "11", "--save", str(save)],
        input="\n".join(moves) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "--- pass to Seat 2 ---" in out  # hot seat: the screen is handed over between seats
    for step in "ABCDEFGH":
        assert f"Step {step}:" in out
    assert re.search(r"Step E: weights Seat 1 -?\d+, Seat 2 -?\d+, Seat 3 -?\d+, Seat 4 -?\d+", out)
    assert re.search(r"Step F: revealed .+? \(weight -?\d+\); threshold \d+", out)
    assert re.search(r"Step G: weight against threshold Seat 1 -?\d+/\d+, Seat 2 -?\d+/\d+", out)
    assert "Final result" in out and "Scoring pad" in out
    match = Match.load(save, local_seal())
    assert [text for _, text in match.actions] == moves
    assert match.state.is_terminal()
    engine = GAME.new_state(players=4, seed=11)
    for seat, text in match.actions:
        engine.apply(text, seat)
    assert engine.outcome().scores == match.state.outcome().scores
    for seat, points in enumerate(match.state.outcome().scores):
        assert re.search(rf"\n\s+{seat + 1}\s+human\s+{int(points)}\s", out)  # the result names seats from 1


def test_play_buccaneers_against_bots_and_a_refused_card(tmp_path: Any) -> None:
    save = tmp_path / "bhb.json"
    st = GAME.new_state(players=4, seed=2)
    hand = st.data.hands[0]
    missing = next(c for c in tb.CARDS if c not in hand)
    result = CliRunner().invoke(
        app, ["play", "buccaneers", "--players", "4", "--bots", "heuristic", "--seed", "2", "--save", str(save)],
        input=f"play {missing}\nplay {hand[0]}\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert f"{missing} is not in your hand" in result.stdout
    match = Match.load(save, local_seal())
    assert (0, f"play {hand[0]}") in match.actions
    assert match.meta["seats"] == ["human", "heuristic", "heuristic", "heuristic"]
