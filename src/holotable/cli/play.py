"""The terminal game: hot-seat humans and bots around one :class:`~holotable.engine.Match`.

A human seat is only ever shown its own view and its own log (``state.view(seat)``,
``state.log_for(seat)``), never the full state.

A game whose rules time a phase declares it (:meth:`~holotable.engine.Game.period`); the engine
has no clock, so the session tracks the period on its own clock and sends the period's action
once it has run out (an action typed after that is late). A timed open decision where several
seats are asked at once (a live negotiation) is played *live* when the reader can read while the
table plays on (:mod:`.live`, with the prompt_toolkit reader of :mod:`.prompt`): bots act in
time, changes are printed as short lines and the timer counts down in the status bar. With a
plain reader (piped input) the asked seats take such a decision in turns instead, one action at
a time round the table from the seat after the last one that acted, and a human may ``wait`` to
let the others act first.

``say TEXT`` is table talk in every phase: where the game has a chat action it is that action,
elsewhere (outside Black Hole Council's Negotiate, after the game) the terminal shows it to the
table and keeps it with the match (``Match.meta["table_talk"]``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from rich.console import Console, Group, RenderableType
from rich.text import Text

from holotable.agents import Agent, make_agent, observe
from holotable.engine import (
    ActionError,
    ConfigError,
    Dynamics,
    GameSpec,
    Information,
    Match,
    Period,
    PeriodTracker,
    SaveError,
    State,
    UndoRefusedError,
    derive_seed,
)
from holotable.engine.words import seat_name

from .common import HUMAN, LineReader
from .live import LiveLoop, LiveReader, Waiter, is_live, real_waiter, run_loop
from .render import render_log, render_outcome, render_view, terminal_hook
from .seal import local_seal

COMMANDS = (
    ("ACTION", "play an action: its text or its number (help all lists every legal one)"),
    ("say TEXT", "table talk, in every phase"),
    ("help / ?", "the commands of this phase; help all: every legal action"),
    ("board", "show the whole table (also: view)"),
    ("log", "show your whole game log and the table talk"),
    ("wait / pass", "let the other seats act first (live: hand the keyboard to the next human)"),
    ("undo", "take back your last action (until it drew on chance, showed something hidden or another seat acted)"),
    ("save FILE · quit", "save the match · stop (saved if --save was given)"),
)

#: The session's own command words (a shortened action word must not be one of these).
SESSION_WORDS = ("help", "board", "view", "show", "log", "wait", "pass", "undo", "save", "quit", "exit", "say")

#: ``Match.meta`` key of a match whose seed a person chose (``--seed``): every seat is told.
SEEDED = "seeded_by"
#: ``Match.meta`` key of the table talk that is no game action (outside the game's chat phase).
TABLE_TALK = "table_talk"

#: ``run(state, seat, rest_of_line) -> renderable``: a game's own terminal command (``TERMINAL_COMMANDS``).
#: A line that is also a legal action now is played; one that is not is the command (Space Pirates'
#: ``card E3-2`` plays the card when a card is asked of you and reads it otherwise).
GameCommand = Callable[[State[Any, Any], int, str], RenderableType]

#: What a typed line came to: an action was played, quit, nothing changed, or hand on the turn.
Outcome = Literal["acted", "quit", "stay", "pass"]


def table_header(spec: GameSpec, players: int, seats: Sequence[str], seed: int, seeded_by: str | None) -> Text:
    """The lines a table opens with. A game with secrets never shows its seed before the end
    (whoever knows it can compute every hidden card); a chosen seed is announced, so every
    player knows the deal was chosen, and by whom."""
    who = ", ".join(f"{seat_name(s)}: {kind}" for s, kind in enumerate(seats))
    about = "" if spec.has_secrets else f" · seed {seed}"
    text = Text(f"{spec.title} · {players} players{about} · {who}", style="bold")
    if spec.has_secrets and seeded_by is not None:
        text.append(f"\nA seeded game: the deal was chosen by {seeded_by}.", style="bold yellow")
    return text


def seat_screen(state: State[Any, Any], seat: int | None, seats: Sequence[str] | None = None,
                seeded_by: str | None = None, *, log_tail: int | None = None) -> RenderableType:
    """Everything the terminal shows ``seat`` (``None``: a spectator) at this position: the
    table's opening line, the seat's log (its last ``log_tail`` lines) and its table. (The
    side-channel checks of :mod:`holotable.testing.side_channels` read it as one of a seat's
    channels.)"""
    spec = state.game.spec
    lineup = list(seats) if seats is not None else [HUMAN] * state.players
    parts: list[RenderableType] = [table_header(spec, state.players, lineup, state.seed, seeded_by)]
    events = state.log_for(seat)
    log = render_log(events if log_tail is None else events[-log_tail:], title="Game log")
    if log is not None:
        parts.append(log)
    who = "Spectator" if seat is None else f"{seat_name(seat)}"
    parts.append(render_view(state.view(seat), title=f"{who} · ply {state.ply}"))
    return Group(*parts)


class PlaySession:
    """Runs a match to its end (or until a human quits).

    ``clock`` is the session's time source (the table clock of timed periods) and ``waiter``
    how a live phase waits for a typed line or the next due moment on that clock
    (:data:`.live.Waiter`; by default asyncio's timeout); tests give both, so nothing sleeps."""

    def __init__(
        self,
        match: Match,
        seats: Sequence[str],
        console: Console,
        reader: LineReader,
        *,
        save_path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        waiter: Waiter | None = None,
    ) -> None:
        self.match = match
        self.seats = list(seats)
        self.console = console
        self.reader = reader
        self.save_path = save_path
        game = match.game
        self.agents: dict[int, Agent] = {
            seat: make_agent(kind, game, seed=derive_seed(match.seed, "agent", seat))
            for seat, kind in enumerate(self.seats)
            if kind != HUMAN
        }
        self.humans = [seat for seat, kind in enumerate(self.seats) if kind == HUMAN]
        # Hot-seat screens must be handed over only when a seat has something to hide.
        spec = game.spec
        self.private = len(self.humans) > 1 and (
            spec.information is Information.IMPERFECT or spec.dynamics is Dynamics.SIMULTANEOUS
        )
        #: Per seat, how many of the match's events it has been shown.
        self.shown: dict[int | None, int] = {}
        self.last_human: int | None = None
        self.match.meta["seats"] = self.seats
        #: The seat that acted last (open decisions go round the table from the next one).
        self.last_actor: int | None = None
        self.clock = clock
        self.waiter = waiter if waiter is not None else real_waiter(clock)
        #: The game's timed period in progress, on this session's clock.
        self.periods = PeriodTracker()
        #: Where the session's lines go: the console, or above the prompt during a live phase.
        self.printer: Callable[[RenderableType], None] = console.print

    def say(self, *parts: RenderableType | str) -> None:
        """Print a line (or a renderable) where the seat at the keyboard reads it."""
        for part in parts:
            self.printer(Text(part) if isinstance(part, str) else part)  # plain text: no markup

    # ------------------------------------------------------------------ flow
    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False)."""
        self.say(self._roster())
        try:
            while not self.match.state.is_terminal():
                if self.deadline_passed():
                    continue
                if self._plays_live():
                    assert isinstance(self.reader, LiveReader)
                    if not run_loop(LiveLoop(self, self.reader, self.waiter).run()):
                        self._save_on_exit()
                        return False
                    continue
                seat = self._next_seat()
                if seat in self.agents:
                    self._bot_move(seat)
                elif not self._human_turn(seat):
                    self._save_on_exit()
                    return False
        except KeyboardInterrupt:  # Ctrl-C is a quit: keep the match if asked to
            self.printer = self.console.print
            self.say("\ninterrupted")
            self._save_on_exit()
            return False
        self._finish()
        try:
            self._after_the_game()
        except KeyboardInterrupt:
            self.say("")
        self._save_on_exit()  # after the talk, which the match keeps
        return True

    def _plays_live(self) -> bool:
        """Whether the phase now is live (:func:`.live.is_live`), a human is asked in it, and the
        reader can read while the table plays on."""
        state = self.match.state
        return (isinstance(self.reader, LiveReader) and is_live(state)
                and any(seat in self.humans for seat in state.to_move()))

    def _roster(self) -> Text:
        seeded_by = self.match.meta.get(SEEDED)
        return table_header(self.match.game.spec, self.match.config.players, self.seats, self.match.seed,
                            seeded_by if isinstance(seeded_by, str) else None)

    def _bot_move(self, seat: int) -> None:
        state = self.match.state
        agent = self.agents[seat]
        if self.reader.interactive:  # searching bots can take a moment: say so
            with self.console.status(f"{seat_name(seat)} ({agent.name}) is thinking…"):
                action = agent.act(observe(state, seat))
        else:
            action = agent.act(observe(state, seat))
        self.match.play(action, seat)
        self.last_actor = seat

    def _open_decision(self) -> bool:
        """Whether several seats are asked at once without sealing (each action applies as it comes)."""
        state = self.match.state
        return len(state.to_move()) > 1 and not state.pending and not state.game.sealed(state)

    def _next_seat(self) -> int:
        """The seat to ask now: the first asked one, or in an open decision the next asked seat
        round the table after the last one that acted."""
        asked = self.match.state.to_move()
        last = self.last_actor
        if last is None or not self._open_decision():
            return asked[0]
        n = self.match.config.players
        return min(asked, key=lambda s: (s - last - 1) % n)

    # ------------------------------------------------------------------ the table clock
    def running_clock(self) -> Period | None:
        """The game's timed period now (its clock restarted when the period changes)."""
        state = self.match.state
        running = None if state.is_terminal() else state.game.period(state)
        if running is None:
            return self.periods.sync(None, 0.0)
        return self.periods.sync(running, self.clock())

    def seconds_left(self) -> float | None:
        if self.running_clock() is None:
            return None
        return self.periods.left(self.clock())

    def _is_clock_action(self, text: str) -> bool:
        """Whether ``text`` is the running period's own action (only the table sends it)."""
        running = self.running_clock()
        return running is not None and " ".join(text.split()).lower() == running.action.lower()

    def deadline_passed(self) -> bool:
        """If the running period is over, play its action and say so."""
        left = self.seconds_left()
        if left is None or left > 0:
            return False
        running = self.running_clock()
        assert running is not None
        seat = self.match.state.to_move()[0]
        self.match.play(running.action, seat, by_table=True)
        self.say(Text(f"⏱ time is up: {running.action}", style="bold"))
        self.periods.clear()
        return True

    def events_since(self, key: int | None) -> list[Any]:
        """The events ``key`` may see that it has not been shown yet (now counted as shown)."""
        events = self.match.state.events or []
        start = min(self.shown.get(key, 0), len(events))
        self.shown[key] = len(events)
        return [e for e in events[start:] if e.visible_to(key)]

    # ------------------------------------------------------------------ a human's turn
    def _human_turn(self, seat: int) -> bool:
        """Show the seat its table and read commands until it acts; False means quit."""
        changing_hands = self.private and self.last_human is not None and self.last_human != seat
        if changing_hands:
            handed = self._hand_over(seat)
            if handed == "quit":
                return False
            if handed == "took back":  # the previous seat took its action back: it plays again
                return True
        self.last_human = seat
        self.show_since(seat)
        self.show(seat)
        while True:
            left = self.seconds_left()
            timer = "" if left is None else f" [{max(0, int(left))} s]"
            line = self.reader.ask(f"{seat_name(seat)}{timer}> ")
            if line is None:
                self.say("end of input: stopping")
                return False
            outcome = self.command(seat, line)
            if outcome == "quit":
                return False
            if outcome in ("acted", "pass"):
                return True

    def show_since(self, seat: int) -> None:
        log = render_log(self.events_since(seat), title=f"Since your last turn ({seat_name(seat)})")
        if log is not None:
            self.say(log)

    def command(self, seat: int, line: str, *, live: bool = False) -> Outcome:
        """One typed line of ``seat``: a session command, table talk or an action. ``live``: the
        line was typed during a live phase (the turn does not end with an action)."""
        text = line.strip()
        command, _, rest = text.partition(" ")
        command = command.lower()
        rest = rest.strip()
        if not text:
            return "stay"
        if command in ("?", "help"):
            self._help(seat, every=rest.lower() == "all")
        elif command in ("quit", "exit", "q") and not rest:
            return "quit"
        elif command in ("view", "show", "board") and not rest:
            self.show(seat)
        elif command == "log" and not rest:
            self._full_log(seat)
        elif command == "save":
            self._save(rest)
        elif command == "undo" and not rest:
            if self._undo(seat):
                return "acted"
        elif command in ("wait", "pass") and not rest and not self._is_action_text(text):
            if live:
                return "pass"
            if self._wait(seat):
                return "pass"
        elif (extra := self._game_command(command)) is not None and not self._is_legal(seat, text):
            self.say(extra(self.match.state, seat, rest))
        elif self.deadline_passed():
            self.say("your action came after the deadline and was not played")
            return "acted"
        elif self._is_clock_action(text):
            self.say(Text(f"✗ {text} is the table clock's action, not a player's", style="red"))
        elif command == "say" and rest and not self._is_legal(seat, text):
            self._table_talk(seat, rest)
        elif self._try_action(seat, self._expand(text), quiet=live):
            return "acted"
        return "stay"

    def _game_commands(self) -> tuple[tuple[str, str, str, GameCommand], ...]:
        """The game's own terminal commands (``TERMINAL_COMMANDS`` of its terminal module): what a
        player may look at any time (``card NAME`` in Kyrum), never an action."""
        found = terminal_hook(self.match.game.spec.name, "TERMINAL_COMMANDS")
        return tuple(found) if found else ()

    def _game_command(self, word: str) -> GameCommand | None:
        return next((run for name, _, _, run in self._game_commands() if name == word), None)

    def _is_action_text(self, text: str) -> bool:
        """Whether the game reads ``text`` as one of its actions (a game's own action wins over a command)."""
        try:
            self.match.game.parse_action(text)
        except ActionError:
            return False
        return True

    def _is_legal(self, seat: int, text: str) -> bool:
        """Whether ``text`` is an action ``seat`` may play now (``say`` is the game's chat only where it is legal)."""
        state = self.match.state
        if state.is_terminal() or seat not in state.to_move():
            return False
        game = self.match.game
        try:
            game.check(state, seat, game.parse_action(text))
        except ActionError:
            return False
        return True

    def _expand(self, text: str) -> str:
        """A shortened first word (``sug`` for ``suggest``) written out, where it names exactly one
        of the game's action words (``COMMAND_WORDS`` of its terminal module) and no session command."""
        words = terminal_hook(self.match.game.spec.name, "COMMAND_WORDS")
        head, sep, tail = text.partition(" ")
        low = head.lower()
        if not words or len(low) < 2 or low in words or self._is_action_text(text):
            return text
        own = tuple(name for name, *_ in self._game_commands())
        found = [w for w in (*words, *SESSION_WORDS, *own) if w.startswith(low)]
        if len(found) == 1 and found[0] in words:
            return str(found[0]) + sep + tail
        return text

    def _table_talk(self, seat: int, text: str) -> None:
        """Table talk that is no game action: everyone at the table hears it, and the match keeps it."""
        talk = self.match.meta.setdefault(TABLE_TALK, [])
        if isinstance(talk, list):
            talk.append({"seat": seat, "ply": self.match.state.ply, "text": text})
        self.say(Text(f"💬 {seat_name(seat)} (table talk): {text}"))

    def _wait(self, seat: int) -> bool:
        """Pass the turn in an open decision to the next asked seat (False: nobody else may act)."""
        if not self._open_decision():
            self.say("nobody else can act now: it is up to you")
            return False
        self.last_actor = seat
        return True

    def _hand_over(self, seat: int) -> Literal["ready", "quit", "took back"]:
        """Clear the screen for the next seat. Until the keyboard changes hands, the seat that
        just played may still take its last action back (``undo``): nobody else can."""
        if not self.reader.interactive:
            self.say(Text(f"--- pass to {seat_name(seat)} ---", style="bold"))
            return "ready"
        previous = self.last_human
        while True:
            self.console.clear()  # the previous seat's secrets leave the screen
            undo = "" if previous is None else f" ({seat_name(previous)}: undo takes back your last action)"
            answer = self.reader.ask(f"Pass to {seat_name(seat)} — press Enter{undo} ")
            if answer is None:
                return "quit"
            if answer.strip().lower() != "undo" or previous is None:
                return "ready"
            if self._undo(previous):
                return "took back"
            if self.reader.ask("press Enter ") is None:
                return "quit"

    def show(self, seat: int) -> None:
        self.say(render_view(self.match.state.view(seat), title=f"{seat_name(seat)} · ply {self.match.state.ply}"))

    def _try_action(self, seat: int, text: str, *, quiet: bool = False) -> bool:
        """Play ``text`` for ``seat``; ``quiet``: the result is left to the caller (a live phase
        prints each change as one line)."""
        try:
            self.match.play(text, seat)
        except ActionError as exc:  # the reason in plain words; the rule ID only as a detail
            detail = f" (rule {exc.rule} · help for the commands)" if exc.rule else " (help for the commands)"
            self.say(Text.assemble(("✗ " + exc.reason, "red"), (detail, "dim")))
            return False
        self.last_actor = seat
        if not quiet:
            log = render_log(self.events_since(seat), title="Result")
            if log is not None:
                self.say(log)
        return True

    def _help(self, seat: int, *, every: bool = False) -> None:
        """The commands of this phase, grouped by the game where it can (``help_lines``), else,
        or with ``help all``, every legal action."""
        state = self.match.state
        game = state.game
        grouped = terminal_hook(game.spec.name, "help_lines")
        legal = [] if state.is_terminal() else [game.action_to_str(a) for a in state.legal_actions(seat)]
        if grouped is not None and not every:  # short: the game's groups and one line of commands
            for line in grouped(state.view(seat)):
                self.say(Text(line))
            for _, usage, doc, _ in self._game_commands():
                self.say(Text.assemble((usage, "bold"), f": {doc}"))
            self.say(Text.assemble(("Terminal: ", "bold"), "say TEXT (table talk, any phase) · board · log · wait/pass"
                                   " · undo · save FILE · quit · ", ("help all", "bold"),
                                   f" (the {len(legal)} legal actions now)"))
            return
        self.say(Text(f"Legal actions ({len(legal)}): " + ", ".join(summarize_actions(legal))))
        for name, doc in (*COMMANDS, *((usage, doc) for _, usage, doc, _ in self._game_commands())):
            self.say(Text.assemble(("  " + name.ljust(17), "bold"), doc))

    def _full_log(self, seat: int) -> None:
        log = render_log(self.match.state.log_for(seat), title=f"Game log ({seat_name(seat)})")
        self.say(log if log is not None else "(nothing has happened yet)")
        talk = self.match.meta.get(TABLE_TALK)
        if isinstance(talk, list) and talk:
            self.say(Text("Table talk outside the game's chat", style="bold underline"))
            for said in talk:
                self.say(Text(f"  ply {said['ply']} · {seat_name(said['seat'])}: {said['text']}"))

    def _undo(self, seat: int) -> bool:
        """Take back ``seat``'s last action under the undo policy (:mod:`holotable.engine.undo`)."""
        try:
            step = self.match.take_back(seat)
        except UndoRefusedError as exc:
            self.say(Text(f"✗ you cannot take that back: {exc.reason}", style="red"))
            return False
        for key, seen in self.shown.items():  # the log got shorter: forget what no longer exists
            self.shown[key] = min(seen, len(self.match.state.events or []))
        self.last_actor = None
        self.say(f"took back {step.text!r}; back to ply {self.match.state.ply}")
        return True

    def _save(self, path: str) -> None:
        if not path:
            self.say("usage: save FILE")
            return
        try:
            self.match.save(path, local_seal())
        except SaveError as exc:
            self.say(Text(f"cannot save to {path}: {exc}", style="red"))
            return
        except OSError as exc:
            self.say(Text(f"cannot save to {path}: {exc}", style="red"))
            return
        self.say(f"saved to {path}")

    def _save_on_exit(self) -> None:
        if self.save_path is not None:
            self._save(str(self.save_path))

    # ------------------------------------------------------------------ the end
    def _finish(self) -> None:
        state = self.match.state
        if self.humans:
            # Everything after the last human turn that anyone may see; secrets are revealed below.
            start = min(self.shown.get(seat, 0) for seat in self.humans)
            events = [e for e in (state.events or [])[start:] if e.visible_to(None)]
            title = "Since the last human turn"
        else:
            events = state.log_for(None)
            title = "Game log"
        log = render_log(events, title=title)
        if log is not None:
            self.say(log)
        view = state.view(None)
        outcome = view.pop("outcome")
        self.say(render_view(view, title=f"Final table · ply {state.ply}"))
        self.say(render_outcome(outcome, labels=self.seats))
        if self.match.game.spec.has_secrets:  # over now, so no longer a secret: the game can be replayed
            self.say(Text(f"This game's seed was {self.match.seed}.", style="dim"))

    def _after_the_game(self) -> None:
        """At a live terminal the table stays open after the game for talk (``say``), the
        board and the log, until Enter on an empty line or ``quit``. (Piped input ends with the game.)"""
        if not isinstance(self.reader, LiveReader) or not self.humans:
            return
        seat = self.last_human if self.last_human is not None else self.humans[0]
        self.say(Text("The game is over: say TEXT to talk, board, log, or Enter to leave.", style="bold cyan"))
        while True:
            line = self.reader.ask(f"{seat_name(seat)} (game over)> ")
            if line is None or not line.strip() or line.strip().lower() in ("quit", "exit", "q"):
                return
            self.command(seat, line)


def summarize_actions(texts: Sequence[str]) -> list[str]:
    """Runs of actions that differ only by a rising final number are written as a range.

    >>> summarize_actions(["draw 1", "draw 2", "draw 3", "pass", "bid 5", "bid 7"])
    ['draw 1..3', 'pass', 'bid 5', 'bid 7']
    """
    out: list[str] = []
    run: tuple[str, int, int] | None = None  # prefix, first, last
    for text in [*texts, ""]:
        prefix, _, tail = text.rpartition(" ")
        number = int(tail) if tail.isdigit() and prefix else None
        if run is not None and number is not None and prefix == run[0] and number == run[2] + 1:
            run = (run[0], run[1], number)
            continue
        if run is not None:
            first, last = run[1], run[2]
            out.append(f"{run[0]} {first}" if first == last else f"{run[0]} {first}..{last}")
            if last == first + 1:  # two in a row read better listed
                out[-1:] = [f"{run[0]} {first}", f"{run[0]} {last}"]
            run = None
        if number is not None:
            run = (prefix, number, number)
        elif text:
            out.append(text)
    return out


def default_seats(players: int, humans: int, bots: Sequence[str]) -> list[str]:
    """Humans in the first seats, then the bot names cycled over the rest.

    >>> default_seats(4, 1, ["heuristic", "random"])
    ['human', 'heuristic', 'random', 'heuristic']
    """
    return [HUMAN if s < humans else bots[(s - humans) % len(bots)] for s in range(players)]


def choose_seats(
    players: int,
    *,
    seats: list[str] | None,
    humans: int | None,
    bots: list[str],
    bots_given: bool,
    stored: list[str] | None,
) -> list[str]:
    """Who sits where: ``--seats`` as given; else a loaded match's own seating unless
    ``--humans``/``--bots`` override it; else humans first (one by default), then bots."""
    if seats is not None:
        if humans is not None or bots_given:
            raise ConfigError("give either --seats or --humans/--bots, not both")
        if len(seats) != players:
            raise ConfigError(f"--seats names {len(seats)} seats for a {players}-player game")
        return seats
    if stored is not None and humans is None and not bots_given:
        return stored
    count = 1 if humans is None else humans
    if not 0 <= count <= players:
        raise ConfigError(f"--humans must be 0..{players}, not {count}")
    return default_seats(players, count, bots)


def seats_from_meta(match: Match) -> list[str] | None:
    """The seat assignment stored in a saved match, if it has a usable one."""
    seats = match.meta.get("seats")
    if isinstance(seats, list) and len(seats) == match.config.players and all(isinstance(s, str) for s in seats):
        return list(seats)
    if seats is not None:
        raise SaveError("the save's seat list does not match its player count")
    return None
