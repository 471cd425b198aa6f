"""The terminal game: hot-seat humans and bots around one :class:`~holotable.engine.Match`.

A human seat is only ever shown its own view and its own log (``state.view(seat)``,
``state.log_for(seat)``), never the full state.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from holotable.agents import Agent, make_agent, observe
from holotable.engine import ActionError, ConfigError, Dynamics, Information, Match, SaveError, derive_seed

from .common import HUMAN, LineReader
from .render import render_log, render_outcome, render_view

COMMANDS = (
    ("ACTION", "play an action, e.g. its text or its number"),
    ("? / help", "list the legal actions and these commands"),
    ("view", "show the table again"),
    ("log", "show your whole game log"),
    ("undo", "take back the last human action and the bot moves after it"),
    ("save FILE", "save the match"),
    ("quit", "stop (the match is saved if --save was given)"),
)


class PlaySession:
    """Runs a match to its end (or until a human quits)."""

    def __init__(
        self,
        match: Match,
        seats: Sequence[str],
        console: Console,
        reader: LineReader,
        *,
        save_path: Path | None = None,
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

    # ------------------------------------------------------------------ flow
    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False)."""
        self.console.print(self._roster())
        try:
            while not self.match.state.is_terminal():
                seat = self.match.state.to_move()[0]
                if seat in self.agents:
                    self._bot_move(seat)
                elif not self._human_turn(seat):
                    self._save_on_exit()
                    return False
        except KeyboardInterrupt:  # Ctrl-C is a quit: keep the match if asked to
            self.console.print("\ninterrupted")
            self._save_on_exit()
            return False
        self._finish()
        self._save_on_exit()
        return True

    def _roster(self) -> Text:
        who = ", ".join(f"seat {s}: {kind}" for s, kind in enumerate(self.seats))
        spec = self.match.game.spec
        return Text(f"{spec.title} · {self.match.config.players} players · seed {self.match.seed} · {who}",
                    style="bold")

    def _bot_move(self, seat: int) -> None:
        state = self.match.state
        agent = self.agents[seat]
        if self.reader.interactive:  # searching bots can take a moment: say so
            with self.console.status(f"seat {seat} ({agent.name}) is thinking…"):
                action = agent.act(observe(state, seat))
        else:
            action = agent.act(observe(state, seat))
        self.match.play(action, seat)

    def _events_since(self, key: int | None) -> list[Any]:
        events = self.match.state.events or []
        start = min(self.shown.get(key, 0), len(events))
        self.shown[key] = len(events)
        return [e for e in events[start:] if e.visible_to(key)]

    # ------------------------------------------------------------------ a human's turn
    def _human_turn(self, seat: int) -> bool:
        """Show the seat its table and read commands until it acts; False means quit."""
        changing_hands = self.private and self.last_human is not None and self.last_human != seat
        if changing_hands and not self._hand_over(seat):
            return False
        self.last_human = seat
        log = render_log(self._events_since(seat), title=f"Since your last turn (seat {seat})")
        if log is not None:
            self.console.print(log)
        self._show(seat)
        while True:
            line = self.reader.ask(f"seat {seat}> ")
            if line is None:
                self.console.print("end of input: stopping")
                return False
            text = line.strip()
            command, _, rest = text.partition(" ")
            command = command.lower()
            if not text:
                continue
            if command in ("?", "help"):
                self._help(seat)
            elif command in ("quit", "exit", "q"):
                return False
            elif command in ("view", "show"):
                self._show(seat)
            elif command == "log":
                self._full_log(seat)
            elif command == "save":
                self._save(rest.strip())
            elif command == "undo":
                if self._undo():
                    return True
            elif self._try_action(seat, text):
                return True

    def _hand_over(self, seat: int) -> bool:
        if self.reader.interactive:
            self.console.clear()  # the previous seat's secrets leave the screen
            return self.reader.ask(f"Pass to seat {seat} — press Enter ") is not None
        self.console.print(f"--- pass to seat {seat} ---", style="bold")
        return True

    def _show(self, seat: int) -> None:
        self.console.print(render_view(self.match.state.view(seat), title=f"Seat {seat} · ply {self.match.state.ply}"))

    def _try_action(self, seat: int, text: str) -> bool:
        try:
            self.match.play(text, seat)
        except ActionError as exc:
            self.console.print(f"[red]✗ {escape(str(exc))}[/] (type ? for the legal actions)")
            return False
        log = render_log(self._events_since(seat), title="Result")
        if log is not None:
            self.console.print(log)
        return True

    def _help(self, seat: int) -> None:
        state = self.match.state
        game = state.game
        legal = [game.action_to_str(a) for a in state.legal_actions(seat)]
        self.console.print(Text(f"Legal actions ({len(legal)}): " + ", ".join(summarize_actions(legal))))
        for name, doc in COMMANDS:
            self.console.print(Text.assemble(("  " + name.ljust(11), "bold"), doc))

    def _full_log(self, seat: int) -> None:
        log = render_log(self.match.state.log_for(seat), title=f"Game log (seat {seat})")
        self.console.print(log if log is not None else "(nothing has happened yet)")

    def _undo(self) -> bool:
        actions = self.match.actions
        last = next((i for i in range(len(actions) - 1, -1, -1) if actions[i][0] in self.humans), None)
        if last is None:
            self.console.print("nothing to undo")
            return False
        count = len(actions) - last
        self.match.undo(count)
        for key, seen in self.shown.items():  # the log got shorter: forget what no longer exists
            self.shown[key] = min(seen, len(self.match.state.events or []))
        self.console.print(f"undid {count} action(s); back to ply {self.match.state.ply}")
        return True

    def _save(self, path: str) -> None:
        if not path:
            self.console.print("usage: save FILE")
            return
        try:
            self.match.save(path)
        except OSError as exc:
            self.console.print(f"[red]cannot save to {escape(path)}: {escape(str(exc))}[/]")
            return
        self.console.print(f"saved to {escape(path)}")

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
            self.console.print(log)
        view = state.view(None)
        outcome = view.pop("outcome")
        self.console.print(render_view(view, title=f"Final table · ply {state.ply}"))
        self.console.print(render_outcome(outcome, labels=self.seats))


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
