"""Live phases in the terminal: a timed open decision played on the clock, as at a real table.

A phase is *live* when the game runs a timed period (:meth:`~holotable.engine.Game.period`) and
several seats are asked at once in an unsealed decision (Black Hole Council's two minutes of
open negotiation at a table with people). There the turn-by-turn flow of :mod:`.play` would be
wrong: nobody waits for anybody. :class:`LiveLoop` instead reads the human's line while the timer
runs, lets the bots act in time on the same clock (:class:`~holotable.agents.live.Pacer`), prints
each change as one short line above the prompt, keeps a compact picture of the table in the
status bar, and plays the period's action when the time is up.

Nothing here reads the wall clock or sleeps: the session's ``clock`` tells the time and a
:data:`Waiter` waits for the typed line or the next moment something is due, so tests drive a
whole negotiation on a fake clock. The reader must be a :class:`LiveReader` (the prompt_toolkit
one of :mod:`.prompt`, or a test's); with a plain :class:`~.common.LineReader` (piped input) a live
phase is still taken in turns, one line per human turn, as scripts expect.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from rich.console import RenderableType
from rich.text import Text

from holotable.agents import Agent, observe
from holotable.agents.live import MIN_GAP, PLAIN_GAP, Pacer, PeriodTime, Wait
from holotable.engine import State
from holotable.engine.words import seat_list, seat_name

from .render import terminal_hook

T = TypeVar("T")

if TYPE_CHECKING:
    from .play import PlaySession

#: ``await waiter(task, until)``: return once ``task`` is done or the clock has reached ``until``.
Waiter = Callable[["asyncio.Future[Any]", float], Awaitable[None]]

#: What :meth:`LiveReader.read` returns for Ctrl-C (the loop raises ``KeyboardInterrupt`` itself, so
#: the interrupt leaves asyncio as a plain exception of the live phase).
CTRL_C = "\x03"

#: How often the status bar is brought up to date when nothing else happens (seconds).
REFRESH = 1.0


def is_live(state: State[Any, Any]) -> bool:
    """Whether ``state`` is a live phase: a timed period runs and several seats are asked at
    once in an unsealed decision (each action applies as it comes)."""
    if state.is_terminal() or state.pending:
        return False
    game = state.game
    return len(state.to_move()) > 1 and not game.sealed(state) and game.period(state) is not None


@runtime_checkable
class LiveReader(Protocol):
    """A reader that can take a line while the table keeps playing (see :mod:`.prompt`)."""

    #: The status bar's text, asked for whenever it is drawn (``None``: no status bar).
    status: Callable[[], str] | None

    def ask(self, prompt: str) -> str | None: ...

    async def read(self, prompt: str) -> str | None:
        """One typed line (``None`` at end of input; ``""`` when :meth:`interrupt` ended the read;
        :data:`CTRL_C` for Ctrl-C)."""
        ...

    def interrupt(self) -> None:
        """End a read in progress: the table moved on (the timer ran out, the Vote was called)."""

    def show(self, renderable: RenderableType) -> None:
        """Print above the prompt without disturbing the line being typed."""

    def refresh(self) -> None:
        """Redraw the status bar now (something changed)."""

    def clear(self) -> None:
        """Clear the screen (a hot-seat hand-over)."""

    async def settle(self) -> None:
        """Wait until everything shown so far is on the screen."""


def real_waiter(clock: Callable[[], float]) -> Waiter:
    """The production :data:`Waiter`: asyncio's own timeout, measured against ``clock``."""

    async def wait(task: asyncio.Future[Any], until: float) -> None:
        await asyncio.wait({task}, timeout=max(0.0, until - clock()))

    return wait


def clock_text(seconds: float) -> str:
    """``97.2`` -> ``'1:38'``: whole seconds left, rounded up (the timer shows 0:00 only when it is over).

    >>> clock_text(97.2), clock_text(5), clock_text(0), clock_text(-3)
    ('1:38', '0:05', '0:00', '0:00')
    """
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


class LiveLoop:
    """One live phase of a :class:`~.play.PlaySession`, from its start until the table moves on."""

    def __init__(self, session: PlaySession, reader: LiveReader, waiter: Waiter) -> None:
        self.session = session
        self.reader = reader
        self.waiter = waiter
        self.pacer = Pacer(MIN_GAP)
        #: The human seat at the keyboard (hot seat: ``pass`` hands it on).
        self.holder: int | None = None
        #: The human seat the keyboard is being handed to (the screen is clear until Enter).
        self.handing_to: int | None = None
        #: The lines printed since the keyboard's seat last had something new to decide on.
        self._said: set[str] = set()
        self._said_at: Any = None

    # ------------------------------------------------------------------ the phase
    async def run(self) -> bool:
        """Play the live phase until it is over (True) or the human quits or input ends (False)."""
        session = self.session
        self.reader.status = self.status_text
        previous = session.printer
        session.printer = self.reader.show
        try:
            self._start()
            while self.step():
                line = await self._read()
                if line == CTRL_C:
                    raise KeyboardInterrupt
                if line is None:
                    session.say("end of input: stopping")
                    return False
                if not self._handle(line):
                    return False
            return True
        finally:
            await self.reader.settle()
            session.printer = previous
            self.reader.status = None

    def _start(self) -> None:
        session = self.session
        state = session.match.state
        asked = state.to_move()
        humans = [s for s in session.humans if s in asked]
        self.holder = session.last_human if session.last_human in humans else humans[0]
        now = session.clock()
        session.running_clock()
        self.pacer.reset()
        # Bots that cannot wait on their own are spread over the gap, so they do not all speak at once.
        plain = [s for s in asked if s in session.agents and not session.agents[s].live]
        for k, seat in enumerate(plain):
            self.pacer.acted(seat, now, gap=(k + 1) * PLAIN_GAP / (len(plain) + 1))
        if session.private and session.last_human is not None and session.last_human != self.holder:
            self._hand_to(self.holder)
        else:
            self._greet(self.holder)

    def _greet(self, seat: int) -> None:
        """The seat's table once, then the live hint: from here on only changes are printed."""
        session = self.session
        session.last_human = seat
        session.show_since(seat)
        session.show(seat)
        session.say(Text("The timer is running: type as you like; the others act in their own time. "
                         "The bar below keeps the table current; board shows it all, help the commands.",
                         style="bold cyan"))

    async def _read(self) -> str | None:
        """The next line typed while the table plays on (``""`` if the table moved on first)."""
        prompt = (f"Pass to {seat_name(self.handing_to)} — press Enter " if self.handing_to is not None
                  else f"{'spectator' if self.holder is None else seat_name(self.holder)}> ")
        read = asyncio.ensure_future(self.reader.read(prompt))
        try:
            while not read.done():
                await self.waiter(read, self.next_wake())
                if not read.done() and not self.step():
                    self.reader.interrupt()
                    break
            result = await read
        finally:
            if not read.done():
                read.cancel()
        return result

    def _handle(self, line: str) -> bool:
        """Act on one typed line; False means quit."""
        session = self.session
        if self.handing_to is not None:
            seat, self.handing_to = self.handing_to, None
            self.holder = seat
            self._greet(seat)
            return True
        assert self.holder is not None
        text = line.strip()
        if not text or not self.step():  # the table moved on while it was typed
            if text:
                session.say("your action came after the table moved on and was not played")
            return True
        outcome = session.command(self.holder, text, live=True)
        if outcome == "quit":
            return False
        if outcome == "acted":
            self.pacer.changed(session.clock())
            self._show_changes(own=True)
        elif outcome == "pass":
            self._pass_keyboard()
        self.reader.refresh()
        return True

    def _pass_keyboard(self) -> None:
        """``pass`` at a hot-seat live table: the next human seat takes the keyboard."""
        session = self.session
        asked = session.match.state.to_move()
        others = [s for s in session.humans if s in asked and s != self.holder]
        if not others:
            session.say("nobody else is at the keyboard: the timer runs and the bots act as they will")
            return
        assert self.holder is not None
        n = session.match.config.players
        nxt = min(others, key=lambda s: (s - self.holder - 1) % n)  # type: ignore[operator]
        if session.private:
            self._hand_to(nxt)
        else:
            self.holder = nxt
            self._greet(nxt)

    def _hand_to(self, seat: int) -> None:
        self.reader.clear()  # the previous seat's secrets leave the screen
        self.session.say(Text(f"--- pass to {seat_name(seat)} (the timer keeps running) ---", style="bold"))
        self.handing_to = seat
        self.holder = None

    # ------------------------------------------------------------------ the table's own moves
    def step(self) -> bool:
        """Everything due at the clock's time now: the deadline, then the bots whose turn to look
        has come. Returns whether the phase is still live."""
        session = self.session
        if session.deadline_passed():
            self.reader.refresh()
            return False
        state = session.match.state
        if not is_live(state):
            return False
        now = session.clock()
        bots = [s for s in state.to_move() if s in session.agents]
        acted = False
        for seat in self.pacer.due(bots, now):
            if not is_live(session.match.state):
                break
            acted |= self._bot(seat, session.agents[seat], now)
        if acted:
            self.reader.refresh()
        return is_live(session.match.state)

    def _bot(self, seat: int, agent: Agent, now: float) -> bool:
        """Ask one bot; True if it acted (a live bot may answer "not yet")."""
        session = self.session
        period = session.running_clock()
        assert period is not None
        # Only a live agent is told the time (and may answer Wait); the others see what a
        # simulation shows them and are paced by the table instead.
        timed = PeriodTime(period.seconds, now - session.periods.start) if agent.live else None
        answer = agent.act(observe(session.match.state, seat, timed))
        if isinstance(answer, Wait):
            self.pacer.waits(seat, now, answer.seconds if agent.live else PLAIN_GAP)
            return False
        session.match.play(answer, seat)
        session.last_actor = seat
        self.pacer.acted(seat, now, None if agent.live else PLAIN_GAP)
        self.pacer.changed(now)
        self._show_changes()
        return True

    def next_wake(self) -> float:
        """When the loop must look again: a bot due, the deadline, or the next status refresh."""
        session = self.session
        now = session.clock()
        times = [now + REFRESH]
        bots = [s for s in session.match.state.to_move() if s in session.agents]
        due = self.pacer.next_time(bots)
        if due is not None:
            times.append(due)
        deadline = session.periods.deadline()
        if deadline is not None:
            times.append(deadline)
        return max(now, min(times))

    # ------------------------------------------------------------------ what the seat sees
    def _show_changes(self, *, own: bool = False) -> None:
        """Each new event the keyboard's seat may see, as one short line (``own``: after the
        seat's own action, which is always confirmed)."""
        seat = self.holder
        if seat is None:  # mid hand-over: it is shown to the next seat once it sits down
            return
        session = self.session
        line_of = terminal_hook(session.match.game.spec.name, "change_line")
        # A line said again while what the seat decides on is unchanged (Council: the same table)
        # is news to nobody (a bot repeating "nothing more to say"): it is printed once.
        key = session.match.state.decision_key(seat)
        if key != self._said_at:
            self._said_at, self._said = key, set()
        for event in session.events_since(seat):
            text = line_of(event, seat) if line_of is not None else event.text
            if text and (own or text not in self._said):
                self._said.add(text)
                session.say(Text("  · " + text))

    def status_text(self) -> str:
        """The status bar: the time left, then the game's compact picture of the table."""
        session = self.session
        state = session.match.state
        left = session.seconds_left()
        head = "" if left is None else f"⏱ {clock_text(left)} left"
        seat = self.holder
        lines: list[str] = []
        status = terminal_hook(state.game.spec.name, "status_lines")
        if status is not None and not state.is_terminal():
            lines = list(status(state.view(seat)))
        elif not state.is_terminal():
            lines = [f"asked: {seat_list(state.to_move())}"]
        if lines:
            lines[0] = f"{head} · {lines[0]}" if head else lines[0]
        elif head:
            lines = [head]
        return "\n".join(lines)


def run_loop(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to the end on a fresh event loop, also when this thread already runs one (a
    notebook, or a test process whose browser driver keeps a loop running): then in a thread of its own.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="holotable-live") as pool:
        return pool.submit(asyncio.run, coro).result()

