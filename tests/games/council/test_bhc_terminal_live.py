"""The Council terminal plays live (issue 17): at a table with people the human types while the
timer counts down and the bots act in time on the same clock (BHC-NEG-02, BHC-NEG-05,
BHC-DIG-01); each change is one short line, the table stays current in the status bar, ``help``
is short and grouped, names are forgiving, and ``say`` is table talk in every phase (BHC-INFO-02).

prompt_toolkit is driven for real (a pipe for the keyboard, ``DummyOutput`` for the screen); the
time is a fake clock that the test moves, so nothing sleeps.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import Any

from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

import holotable
from holotable.agents import Agent, Observation
from holotable.agents.live import MIN_GAP, Wait
from holotable.cli.live import clock_text, is_live
from holotable.cli.play import TABLE_TALK, PlaySession
from holotable.cli.prompt import PromptReader
from holotable.engine import Match

GAME = holotable.load("council")
#: A line typed at a time on the table clock (live phases), or ``None``: at the next prompt.
Typed = tuple[float | None, str]


class FakeTime:
    """The table clock, moved by the test: waiting jumps to the moment asked for, or to the
    next scripted keystroke, which is then typed into the pipe."""

    def __init__(self, pipe: PipeInput, script: Sequence[Typed]) -> None:
        self.now = 0.0
        self.pipe = pipe
        self.script = list(script)
        self.reader: PromptReader | None = None
        #: (time, status bar text) whenever a live line was typed.
        self.statuses: list[tuple[float, str]] = []

    def clock(self) -> float:
        return self.now

    async def wait(self, task: asyncio.Future[Any], until: float) -> None:
        if self.script and self.script[0][0] is not None and self.script[0][0] <= until:
            at, text = self.script.pop(0)
            assert at is not None
            self.now = max(self.now, at)
            assert self.reader is not None and self.reader.status is not None
            self.statuses.append((self.now, self.reader.status()))
            self.pipe.send_text(text + "\r")
            for _ in range(2000):  # let prompt_toolkit read the keys: no time passes meanwhile
                if task.done():
                    return
                await asyncio.sleep(0)
            raise AssertionError(f"the prompt did not take {text!r}")
        self.now = max(self.now, until)
        await asyncio.sleep(0)


class PipeReader(PromptReader):
    """The real prompt_toolkit reader on a pipe; a turn-by-turn prompt types the next untimed line."""

    def __init__(self, console: Console, pipe: PipeInput, time: FakeTime) -> None:
        super().__init__(console, input=pipe, output=DummyOutput())
        self.pipe = pipe
        self.time = time
        self.prompts: list[str] = []

    def ask(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        if not self.time.script or self.time.script[0][0] is not None:
            return None  # nothing more typed
        text = self.time.script.pop(0)[1]
        self.console.print(f"{prompt}{text}")
        self.pipe.send_text(text + "\r")
        return super().ask(prompt)


def play(script: Sequence[Typed], seats: Sequence[str] = ("human", "random", "random", "random", "random"),
         seed: int = 3, agents: dict[int, Agent] | None = None,
         **params: Any) -> tuple[Match, str, FakeTime, PipeReader]:
    """A human table (``table=True``: live negotiation) played through the terminal on a fake
    clock; ``agents`` replaces the bots of some seats."""
    match = Match(GAME, GAME.spec.make_config(len(seats), table=True, **params), seed)
    console = Console(width=160, record=True, color_system=None, file=io.StringIO())
    with create_pipe_input() as pipe:
        time = FakeTime(pipe, script)
        reader = PipeReader(console, pipe, time)
        time.reader = reader
        session = PlaySession(match, list(seats), console, reader, clock=time.clock, waiter=time.wait)
        session.agents.update(agents or {})
        session.run()
    return match, console.export_text(), time, reader


def test_BHC_NEG_02_the_human_types_while_the_bots_act_in_time_until_the_deadline_starts_the_vote() -> None:
    """A human Leader (seat 0) swaps and suggests at 10 s and 20 s on the clock while four bots
    act every few seconds on their own; at 120 s the table's deadline ends Negotiate (BHC-NEG-05)
    and the sealed Vote follows at once."""
    script: list[Typed] = [(10.0, "swap settle black hole"), (20.0, "sug swap mine conquer"), (None, "quit")]
    match, out, time, _ = play(script, first_leader=0)
    actions = match.actions
    human = [(i, text) for i, (seat, text) in enumerate(actions) if seat == 0]
    assert [text for _, text in human[:2]] == ["swap settle black_hole", "suggest swap mine conquer"]
    deadline = actions.index((0, "deadline"))
    first, second = human[0][0], human[1][0]
    # The bots spoke before, between and after the human's lines, not once per human line.
    assert first >= 3 and second - first >= 4 and deadline - second >= 20
    assert {seat for seat, _ in actions[:deadline]} == {0, 1, 2, 3, 4}
    # Then the sealed Vote of the four others, and Proposal 2 with a new Leader.
    assert sorted(seat for seat, _ in actions[deadline + 1:deadline + 5]) == [1, 2, 3, 4]
    assert all(text.startswith("vote ") for _, text in actions[deadline + 1:deadline + 5])
    # Bots that cannot wait on their own act every PLAIN_GAP (4 s): 30 times each in 120 s.
    assert deadline - 2 == 4 * 30
    assert "⏱ time is up: deadline" in out
    # The status bar counted down on the table clock.
    assert [at for at, _ in time.statuses] == [10.0, 20.0]
    assert time.statuses[0][1].startswith("⏱ 1:50 left · Negotiate · Leader seat 1 (you) · Proposal 1 of 3")
    assert time.statuses[1][1].startswith("⏱ 1:40 left")
    # Each change was one short line; the whole board was drawn once, at the start of the Negotiate.
    assert "· The Leader swaps Settle and Black Hole: Settle is now" in out
    assert "· Seat 1 (you) suggests swapping Mine and Conquer" in out
    assert out.count("The Proposal: planets above the outcomes") <= 3  # the start, then a later prompt


def test_the_status_bar_keeps_the_table_current() -> None:
    """The three status lines: who leads and the time, the five planets (⇄ moved, ✔ the seat's
    goal), the offers and pledges."""
    script: list[Typed] = [(5.0, "swap mine conquer"), (6.0, "quit")]
    match, _, time, _ = play(script, seats=("human", "human", "random", "random", "random"), first_leader=0)
    head, planets, talk = time.statuses[1][1].splitlines()
    assert head.startswith("⏱ 1:54 left · Negotiate · Leader seat 1 (you)")
    view = match.state.view(0)
    for outcome, title in (("settle", "Settle"), ("mine", "Mine"), ("conquer", "Conquer")):
        planet = view["table"][outcome]
        mark = "⇄" if outcome in ("mine", "conquer") else ""
        assert f"{title} {mark}{planet['id']} {planet['points']:+d}" in planets
    assert talk.startswith("Offers: ") and " · Pledges: " in talk


def test_help_is_short_grouped_and_help_all_lists_every_action() -> None:
    match, out, _, _ = play([(1.0, "help"), (2.0, "help all"), (3.0, "quit")], first_leader=0)
    start = out.index("Leader (you):")
    short = out[start:out.index("Legal actions (")].splitlines()
    short = short[:next(i for i, line in enumerate(short) if line.startswith("Terminal:")) + 1]
    assert len(short) <= 25
    for form in ("swap OUTCOME OUTCOME", "claim SEAT OUTCOME COLOUR", "suggest table ID ID ID ID ID",
                 "pledge pass|fail", "vote pass · vote fail", "call vote"):
        assert any(form in line for line in short), form
    assert "claim 0 settle red" not in "\n".join(short)  # not the 100-odd claims
    legal = match.state.legal_actions(0)
    assert f"Legal actions ({len(legal)}):" in out


def test_forgiving_words_and_names_at_the_live_table() -> None:
    """``swap settle black hole``, outcome prefixes and a shortened action word all play; an
    ambiguous word is refused with the engine's reason and changes nothing."""
    script: list[Typed] = [(1.0, "swap settle black hole"), (2.0, "swap m con"), (3.0, "su"), (4.0, "quit")]
    match, out, _, _ = play(script, seats=("random", "human", "random", "random", "random"), first_leader=1)
    human = [text for seat, text in match.actions if seat == 1]
    assert human == ["swap settle black_hole", "swap mine conquer"]
    assert "✗" in out  # "su" could be suggest or support


def test_say_is_table_talk_in_the_vote_and_the_engines_chat_in_negotiate() -> None:
    """BHC-INFO-02: talk at any time. In Negotiate ``say`` is the engine's chat action; in the
    Vote it is no action: the table hears it, the match keeps it, and the vote is still asked."""
    script: list[Typed] = [(3.0, "say I call the vote now"), (4.0, "call vote"),
                           (None, ""),  # seat 1 takes the keyboard for the sealed Vote
                           (None, "say I pass only if Mine moves"), (None, "vote fail"), (None, "quit")]
    match, out, _, _ = play(script, seats=("human", "human", "random", "random", "random"), first_leader=0)
    assert (0, "say I call the vote now") in match.actions
    assert "Seat 1 (you) says: “I call the vote now”" in out
    assert "💬 Seat 2 (table talk): I pass only if Mine moves" in out
    assert all("Mine moves" not in text for _, text in match.actions)
    assert [(t["seat"], t["text"]) for t in match.meta[TABLE_TALK]] == [(1, "I pass only if Mine moves")]
    assert (1, "vote fail") in match.actions


def test_the_table_moves_on_without_the_keyboard() -> None:
    """When a bot Leader calls the Vote (or the time runs out) while the human's line is still
    being read, the read is ended and the human is asked to vote."""
    match, _, _, reader = play([(None, "vote pass"), (None, "quit")], first_leader=1, seed=5)
    calls = [i for i, (seat, text) in enumerate(match.actions) if text == "call vote"]
    deadlines = [i for i, (_, text) in enumerate(match.actions) if text == "deadline"]
    first_end = min(calls + deadlines)
    assert any(p.startswith("Seat 1") for p in reader.prompts)  # the vote was asked turn by turn
    assert (0, "vote pass") in match.actions[first_end:]


def test_is_live_only_for_a_timed_open_decision() -> None:
    live = GAME.new_state(players=5, seed=1, first_leader=0, live_negotiation=True)
    assert is_live(live)
    live.apply("call vote", 0)
    assert not is_live(live)  # the sealed Vote
    assert not is_live(GAME.new_state(players=5, seed=1, negotiation_seconds=0))  # no clock: turns
    assert not is_live(holotable.load("captain-black").new_state(players=2, seed=1))
    assert clock_text(119.2) == "2:00" and clock_text(0.4) == "0:01"


def test_hot_seat_humans_hand_the_keyboard_on_while_the_clock_runs() -> None:
    """Two humans at one keyboard: ``pass`` clears the screen and hands it to the next human
    seat; the clock and the bots go on meanwhile."""
    script: list[Typed] = [(2.0, "suggest swap settle tax"), (3.0, "pass"), (9.0, ""), (10.0, "oppose"),
                           (11.0, "quit")]
    match, out, _, _ = play(script, seats=("human", "human", "random", "random", "random"), first_leader=2)
    assert "--- pass to Seat 2 (the timer keeps running) ---" in out
    human = [(seat, text) for seat, text in match.actions if seat in (0, 1)]
    assert human == [(0, "suggest swap settle tax"), (1, "oppose")]
    between = match.actions[match.actions.index((0, "suggest swap settle tax")):match.actions.index((1, "oppose"))]
    assert any(seat >= 2 for seat, _ in between)  # the bots went on while the keyboard changed hands


class Listener(Agent):
    """A live bot: it waits until a human has spoken, then supports the table once per human line."""

    name = "listener"
    live = True

    def __init__(self) -> None:
        super().__init__(GAME)
        self.asked: list[tuple[float, float]] = []  # (elapsed, seconds) of each period it was shown
        self.heard = 0

    def act(self, obs: Observation) -> Any:
        assert obs.period is not None  # a live agent at a live table is told the time
        self.asked.append((obs.period.elapsed, obs.period.seconds))
        spoken = sum(1 for t in obs.view["talk"] if t["seat"] == 0)
        if spoken > self.heard:
            self.heard = spoken
            return next(a for a in obs.legal if str(a) == "support")
        return Wait(100.0)


def test_BHC_NEG_02_a_live_bot_waits_and_answers_what_was_said() -> None:
    """A live bot's ``Wait`` is honoured: it is not asked again until the time it named or a
    change at the table (the human's line at 10 s), and then no sooner than MIN_GAP after acting."""
    bots = {seat: Listener() for seat in (1, 2, 3, 4)}
    script: list[Typed] = [(10.0, "say what do you think"), (11.0, "quit")]
    match, out, _, _ = play(script, agents=dict(bots), first_leader=0)
    assert match.actions[0] == (0, "say what do you think")
    assert sorted(seat for seat, _ in match.actions[1:5]) == [1, 2, 3, 4]
    assert all(text == "support" for _, text in match.actions[1:5])
    for bot in bots.values():
        times = [elapsed for elapsed, _ in bot.asked]
        assert times[0] == 0.0 and bot.asked[0][1] == 120.0
        assert times[1] == 10.0  # waiting from 0 s, woken by the human's line, not before
        assert all(later >= 10.0 + MIN_GAP for later in times[2:])
    assert "Seat 2 says they will vote pass on this table" in out
