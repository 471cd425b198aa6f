"""The Council terminal: the rich view of one seat, ``holotable play council`` with piped input, the
live negotiation taken in turns, and the table clock (BHC-DIG-01, BHC-NEG-05).

Secrets stay with their seat on screen too (BHC-INFO-01, BHC-INFO-06, BHC-FAIL3-05): another seat's
Agenda and unplayed Intrigue card, and written-off planets, never appear in a seat's picture.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

import holotable
from holotable.cli import app
from holotable.cli.common import LineReader
from holotable.cli.play import PlaySession
from holotable.cli.render import render_view, renderer_for
from holotable.cli.seal import local_seal
from holotable.engine import Match, State
from holotable.games.council import terminal
from holotable.games.council.data import OUTCOMES

GAME = holotable.load("council")
TITLES = ("SETTLE", "TAX", "MINE", "CONQUER", "BLACK HOLE")


def text_of(view: dict[str, Any]) -> str:
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    console.print(render_view(view))
    return console.export_text()


def advance(st: State[Any, Any], rng: random.Random, until: Callable[[State[Any, Any]], bool]) -> None:
    while not st.is_terminal() and not until(st):
        seat = st.to_move()[0]
        legal = st.legal_actions(seat)
        st.apply(legal[rng.randrange(len(legal))], seat)


def test_the_renderer_is_registered_and_the_table_clock_is_the_games() -> None:
    assert renderer_for("council") is terminal.render
    st = GAME.new_state(players=5, seed=1, first_leader=0)
    clock = GAME.period(st)
    assert clock is not None and clock.seconds == 120 and clock.action == "deadline"
    assert GAME.period(GAME.new_state(players=5, seed=1, negotiation_seconds=0)) is None


def test_BHC_NEG_PREP_02_the_planets_sit_above_their_outcomes_with_the_table_facts() -> None:
    """The planet row is drawn above the outcome row, in Settle..Black Hole order; the Leader Token,
    Proposal Track, Bribe Space, Banks, own Agenda, Intrigue, points and what is asked are shown."""
    st = GAME.new_state(players=5, seed=3, first_leader=0)
    view = st.view(1)
    text = text_of(view)
    lines = text.splitlines()
    ids = [view["table"][o]["id"] for o in OUTCOMES]
    planet_line = next(i for i, line in enumerate(lines) if all(pid in line for pid in ids))
    outcome_line = next(i for i, line in enumerate(lines) if all(t in line for t in TITLES))
    assert planet_line < outcome_line
    assert [lines[planet_line].index(pid) for pid in ids] == sorted(lines[planet_line].index(pid) for pid in ids)
    assert [lines[outcome_line].index(t) for t in TITLES] == sorted(lines[outcome_line].index(t) for t in TITLES)
    assert "Leader: Seat 1 · Proposal Track [1] 2 3" in text
    assert "Bribe Space: 1 coin" in text and "timer: 120 s per Proposal" in text
    assert "Round Track: [N1] N2 D1 N3 N4 D2 N5 N6 D3 PAY" in text
    you = view["you"]
    assert f"Your Agenda {you['agenda']['id']}: Settle {you['agenda']['goals']['settle']}" in text
    assert f"Your Intrigue card: {you['intrigue']} (unplayed" in text
    assert f"Your points for this table: {you['points']}" in text
    assert "Asked now: Negotiate: suggest swap A B" in text
    assert re.search(r"Seat 2 \(you\)\s+1/15\s+1\s+1\s", text)  # space 1 of 15, next cost 1, Bank 1
    assert "Asked now: You are the Leader: swap OUTCOME OUTCOME" in text_of(st.view(0))


def test_BHC_INFO_01_and_06_a_seat_sees_its_own_cards_and_never_the_others() -> None:
    st = GAME.new_state(players=6, seed=8, first_leader=2)
    advance(st, random.Random(8), lambda s: s.data.phase == "advance")
    ids = [GAME.data.agenda_ids[a] for a in st.data.agendas]
    for seat in range(6):
        text = text_of(st.view(seat))
        assert f"Your Agenda {ids[seat]}" in text
        assert all(ids[other] not in text for other in range(6) if other != seat)
        assert f"Your Intrigue card: {OUTCOMES[st.data.intrigue[seat]]}" in text
    spectator = text_of(st.view(None))
    assert "Your Agenda" not in spectator and all(i not in spectator for i in ids)


def test_BHC_FAIL3_05_written_off_planets_are_card_backs_in_the_history() -> None:
    st = GAME.new_state(players=4, seed=2, first_leader=0)
    for _ in range(3):  # three failed Proposals write the round off
        leader = st.data.leader
        st.apply("call vote", leader)
        for seat in range(4):
            if seat != leader:
                st.apply("vote fail", seat)
    assert st.data.history[0]["written_off"]
    for seat in (0, 1, None):
        text = text_of(st.view(seat))
        assert "Planet History" in text and "▮ written off" in text
        assert all(pid not in text for pid in st.data.history[0]["planets"])


def test_the_history_votes_advances_and_deductions_are_drawn() -> None:
    st = GAME.new_state(players=5, seed=4, first_leader=0)
    rng = random.Random(4)
    advance(st, rng, lambda s: s.data.deduction_round == 1 and s.data.phase == "negotiate")
    view = st.view(2)
    text = text_of(view)
    assert "Planet History" in text and "N1" in text and "N2" in text
    assert "Last vote (Negotiation Round 2" in text
    assert "Deductions" in text and "D1:" in text
    mine = next(r for r in st.data.deductions[0] if r["guesser"] == 2)
    assert f"Seat 3→Seat {mine['target'] + 1} {mine['colour']} {'right' if mine['correct'] else 'wrong'}" in text
    hidden = next(r for r in st.data.deductions[0] if 2 not in (r["guesser"], r["target"]))
    verdict = "right" if hidden["correct"] else "wrong"
    assert f"Seat {hidden['guesser'] + 1}→Seat {hidden['target'] + 1} {verdict}" in text
    for s in view["history"]:
        if not s["written_off"]:
            assert s["planets"]["settle"]["id"] in text


def test_the_end_shows_the_agendas_and_the_pay_out() -> None:
    st = GAME.new_state(players=4, seed=6, first_leader=0)
    advance(st, random.Random(6), lambda s: False)
    text = text_of(st.view(None))
    assert "Pay-Out: the Agendas revealed" in text and "The game is over." in text
    for a in st.data.agendas:
        assert GAME.data.agenda_ids[a] in text


# ---------------------------------------------------------------------------- holotable play council


def session_lines(players: int, seed: int, opening: Sequence[str]) -> tuple[list[str], list[tuple[int, str]]]:
    """The lines a table of human seats types for a whole game, and the actions they make.

    The seats are asked as the terminal asks them: the first seat asked, and in the live
    negotiation the next asked seat round the table after the last one that acted (``wait``
    passes). After ``opening``, each Leader calls the Vote at once, the others support it,
    every voter passes, each Advance turn moves naturally if it can and else gets paid, and
    each Deduction guesses the first legal card.
    """
    st = GAME.new_state(players=players, seed=seed, first_leader=0)
    script = list(opening)
    lines: list[str] = []
    actions: list[tuple[int, str]] = []
    last: int | None = None
    while not st.is_terminal():
        asked = st.to_move()
        live = len(asked) > 1 and not st.pending and not GAME.sealed(st)
        seat = asked[0] if last is None or not live else min(asked, key=lambda s: (s - last - 1) % players)
        if script:
            text = script.pop(0)
        else:
            legal = [str(a) for a in st.legal_actions(seat)]
            phase = st.data.phase
            if phase == "negotiate":
                text = "call vote" if seat == st.data.leader else "support"
            elif phase == "vote":
                text = "vote pass"
            elif phase == "advance":
                text = "natural" if "natural" in legal else "get paid"
            else:
                text = legal[0]
        lines.append(text)
        last = seat
        if text != "wait":
            st.apply(text, seat)
            actions.append((seat, text))
    return lines, actions


OPENING = [
    "swap mine conquer",  # seat 0, the Leader
    "suggest swap settle tax",  # seat 1
    "offer",  # seat 2
    "say hello council",  # seat 3
    "wait",  # seat 4 lets the others act
    "accept 2",  # seat 0 takes seat 2's coin
    "ask bribe 1",  # seat 1
    "support",  # seat 2
    "oppose",  # seat 3
    "claim 0 settle red",  # seat 4
    "bribe 1 1",  # seat 0 bribes seat 1 from the Bribe Space
    "support",  # seat 1
    "support",  # seat 2
    "wait",  # seat 3
    "wait",  # seat 4
    "call vote",  # seat 0
    "vote pass",  # seats 1..4, sealed
    "vote pass",
    "vote pass",
    "vote fail",
    "get paid +intrigue",  # seat 0 plays its Intrigue card with Get Paid
    "pay 2",  # seat 1 pays its 2 coins (1 + the bribe) to advance
]


def test_BHC_NEG_01_to_07_play_council_hot_seat_with_five_humans(tmp_path: Any) -> None:
    """Every kind of seat action through the terminal: the Leader rearranges, accepts an offer and
    bribes (BHC-NEG-01, BHC-BRIBE-03/08), the others suggest, offer, pledge, ask, claim and chat
    (BHC-NEG-02, BHC-INFO-02), everyone votes (BHC-VOTE-01), advances and plays Intrigue
    (BHC-ADV-04/06, BHC-INTRIGUE-03) and deduces (BHC-DED-02), to the end of the game."""
    save = tmp_path / "bhc.json"
    lines, actions = session_lines(5, 7, OPENING)
    result = CliRunner().invoke(
        app,
        [
            "play",
            "council",
            "--players",
            "5",
            "--humans",
            "5",
            "--seed",
            "7",
            "--param",
            "first_leader=0",
            "--save",
            str(save),
        ],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "--- pass to Seat 2 ---" in out  # hot seat: the screen is handed over between seats
    assert "Seat 4 says: “hello council”" in out
    assert "The Leader accepts Seat 3's 1-coin bribe" in out
    assert "The Leader bribes Seat 2 with 1 coin" in out
    assert "Seat 1 gets paid, playing the" in out and "Seat 2 advances, paying 2 coins" in out
    assert "Final result" in out and "Pay-Out: the Agendas revealed" in out
    match = Match.load(save, local_seal())
    assert match.actions == actions
    assert match.state.is_terminal()
    assert match.state.data.positions[1] >= 2 and match.state.data.intrigue_played[0] == 1


def test_play_council_against_bots_with_a_refused_action(tmp_path: Any) -> None:
    save = tmp_path / "bhc.json"
    result = CliRunner().invoke(
        app,
        [
            "play",
            "council",
            "--players",
            "5",
            "--seed",
            "5",
            "--bots",
            "random",
            "--param",
            "first_leader=0",
            "--save",
            str(save),
        ],
        input="vote pass\nswap settle black_hole\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "'vote' is not a negotiation action" in result.stdout
    match = Match.load(save, local_seal())
    assert match.actions[0] == (0, "swap settle black_hole")
    assert match.meta["seats"] == ["human", "random", "random", "random", "random"]
    # The bots act in turn round the table after the human, one action each, then the human again.
    assert [seat for seat, _ in match.actions[1:5]] == [1, 2, 3, 4]
    assert match.state.to_move()[0] == 0 and len(match.actions) == 5


# ---------------------------------------------------------------------------- the table clock


class ScriptedReader(LineReader):
    """Typed lines, each after a pause in seconds on a fake clock."""

    def __init__(self, console: Console, lines: Sequence[tuple[str, float]], now: list[float]) -> None:
        super().__init__(console, interactive=False)
        self.lines: Iterator[tuple[str, float]] = iter(lines)
        self.now = now
        self.prompts: list[str] = []

    def ask(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        line = next(self.lines, None)
        if line is None:
            return None
        self.now[0] += line[1]
        return line[0]


def run_session(lines: Sequence[tuple[str, float]], seed: int = 3, **params: Any) -> tuple[Match, str, ScriptedReader]:
    match = Match.new(GAME, 5, seed, first_leader=0, **params)
    console = Console(width=160, record=True, color_system=None, file=io.StringIO())
    now = [0.0]
    reader = ScriptedReader(console, lines, now)
    PlaySession(match, ["human", "random", "random", "random", "random"], console, reader, clock=lambda: now[0]).run()
    return match, console.export_text(), reader


def test_BHC_DIG_01_the_terminal_sends_the_deadline_when_the_clock_runs_out() -> None:
    """BHC-NEG-05: the timer ends Negotiate; an action typed after the deadline is not played."""
    match, out, reader = run_session([("swap mine conquer", 10), ("say too late", 200), ("quit", 1)])
    assert match.actions[0] == (0, "swap mine conquer")
    assert [seat for seat, _ in match.actions[1:5]] == [1, 2, 3, 4]  # the bots, round the table
    assert match.actions[5] == (0, "deadline")
    assert all(text != "say too late" for _, text in match.actions)
    assert "⏱ time is up: deadline" in out and "came after the deadline" in out
    assert reader.prompts[0] == "Seat 1 [120 s]> " and reader.prompts[1] == "Seat 1 [110 s]> "
    assert all(text.startswith("vote ") for _, text in match.actions[6:10])  # then the sealed Vote


def test_a_player_cannot_send_the_clocks_deadline() -> None:
    """Only the table's clock ends Negotiate by time (BHC-NEG-05); a typed ``deadline`` is refused."""
    match, out, _ = run_session([("deadline", 1), ("DEADLINE ", 1), ("quit", 1)])
    assert match.actions == []
    assert "is the table clock's action, not a player's" in out


def test_BHC_FAIL_08_the_clock_restarts_in_full_for_the_next_Proposal() -> None:
    lines = [("swap mine conquer", 10), ("say too late", 200), ("support", 5), ("quit", 1)]
    match, _, reader = run_session(lines, seed=1)
    assert match.actions[5] == (0, "deadline")
    assert [text for _, text in match.actions[6:10]] == ["vote pass", "vote fail", "vote fail", "vote fail"]
    assert match.state.data.proposal == 2 and match.actions[10] == (0, "support")
    assert reader.prompts == ["Seat 1 [120 s]> ", "Seat 1 [110 s]> ", "Seat 1 [120 s]> ", "Seat 1 [115 s]> "]


def test_the_clock_can_be_switched_off() -> None:
    """``--param negotiation_seconds=0``: no clock at all, so nothing is ever late (BHC-DIG-02)."""
    match, out, reader = run_session(
        [("swap mine conquer", 10), ("say in time", 200), ("quit", 1)], negotiation_seconds=0
    )
    assert (0, "say in time") in match.actions
    assert "deadline" not in [text for _, text in match.actions]
    assert all("[" not in p for p in reader.prompts) and "timer: off" in out


def test_wait_lets_the_others_act_and_is_refused_when_nobody_else_can() -> None:
    """With one negotiation move per non-Leader (BHC-DIG-02), the Leader waits, the four bots act
    once each round the table, and then only the Leader is asked: waiting again is refused."""
    match, out, reader = run_session(
        [("wait", 1), ("wait", 1), ("call vote", 1), ("quit", 1)], negotiation_seconds=0, negotiation_ticks=1
    )
    assert [seat for seat, _ in match.actions[:4]] == [1, 2, 3, 4]
    assert match.actions[4] == (0, "call vote")
    assert "nobody else can act now" in out
    assert reader.prompts[:3] == ["Seat 1> "] * 3


def test_holotable_play_council_players_5_runs_to_the_end_with_the_default_bots(tmp_path: Any) -> None:
    """The issue's command: one human against the default bots; the human cycles through commands
    that are refused outside their phase (so the refusals change nothing) until the game ends."""
    save = tmp_path / "bhc.json"
    cycle = ["wait", "call vote", "vote pass", "get paid", "guess red left", "guess red right"]
    result = CliRunner().invoke(
        app, ["play", "council", "--players", "5", "--seed", "11", "--save", str(save)], input="\n".join(cycle * 300)
    )
    assert result.exit_code == 0, result.output
    match = Match.load(save, local_seal())
    assert match.state.is_terminal()
    assert match.meta["seats"][0] == "human" and len(set(match.meta["seats"][1:])) == 1
    human = [text for seat, text in match.actions if seat == 0]
    assert "vote pass" in human and "get paid" in human and any(t.startswith("guess") for t in human)
    assert "Final result" in result.stdout and "Pay-Out: the Agendas revealed" in result.stdout
    # A human table plays the live negotiation (no move budgets), so the replay uses the match's
    # own configuration, the same for every seat and the engine.
    assert match.config["live_negotiation"]
    engine = State.new(GAME, match.config, 11)
    for seat, text in match.actions:
        engine.apply(text, seat)
    assert engine.outcome().ranks == match.state.outcome().ranks


def test_the_timer_is_switched_off_from_the_command_line() -> None:
    on = CliRunner().invoke(app, ["play", "council", "-n", "5", "--seed", "2", "--bots", "random"], input="quit\n")
    off = CliRunner().invoke(
        app,
        ["play", "council", "-n", "5", "--seed", "2", "--bots", "random", "--param", "negotiation_seconds=0"],
        input="quit\n",
    )
    assert on.exit_code == 0 and off.exit_code == 0, on.output + off.output
    assert "timer: 120 s per Proposal" in on.stdout and re.search(r"Seat \d \[1[12]\d s\]> quit", on.stdout)
    assert "timer: off" in off.stdout and re.search(r"Seat \d> quit", off.stdout)
