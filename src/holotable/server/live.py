"""A table in memory: its seats, live state, clocks and connections, and how the lobby shows it.

A table also keeps what decides whether an action a seat sends is still fresh
(:class:`DecisionPlies`: per seat, the ply at which its decision last changed, from the game's
:meth:`~holotable.engine.Game.decision_key`) and when its bots are next due while a game period
runs (:class:`~holotable.agents.live.Pacer`, see :mod:`holotable.server.tables`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, overload

from holotable.agents.base import Agent
from holotable.agents.live import Pacer
from holotable.engine import Config, Event, Game, State, registry
from holotable.engine.tutorial import Progress, Tutorial
from holotable.engine.undo import Step
from holotable.engine.words import seat_name

from .clocks import ClockMode, ClockSettings, SeatClocks
from .storage import ActionRecord, Seat, TableRecord
from .tokens import token_matches

#: Who played an action: a seat's human, its bot, the seat clock (``timeout``), the game's table clock,
#: or a tutorial's scripted opening (``script``, played when the table is made).
#: ``fallback``: a bot's quick choice when its own thinking ran out of time.
SOURCES = ("human", "bot", "fallback", "timeout", "clock", "script")
#: The sources that are the table playing on a seat's behalf: the seat cannot take those back.
TABLE_SOURCES = ("timeout", "clock", "script")


class ApiError(Exception):
    """A refusal with its HTTP status and the reason (and the rule ID for an illegal action)."""

    def __init__(self, status: int, detail: str, rule: str | None = None, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.rule = rule
        #: seconds until a used-up quota frees up (a 429's ``Retry-After``)
        self.retry_after = retry_after


@overload
def bearer_token(authorization: str | None, *, missing: str, what: str = ...) -> str: ...
@overload
def bearer_token(authorization: str | None, *, missing: None = None, what: str = ...) -> str | None: ...
def bearer_token(authorization: str | None, *, missing: str | None = None, what: str = "seat token") -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header. Without a header: ``None``, or a 403
    saying ``missing`` when the route needs one; a header of another form is a 403 naming ``what``."""
    if authorization is None:
        if missing is not None:
            raise ApiError(403, missing)
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(403, f"the Authorization header must be 'Bearer <{what}>'")
    return token.strip()


@dataclass(eq=False)  # identity: one per connection, kept in a set
class Listener:
    """One WebSocket connection: its seat, the last ply whose log it has, and what it still has to send."""

    seat: int | None
    since: int | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    dirty: bool = True
    outbox: list[dict[str, Any]] = field(default_factory=list)
    #: the most messages that may wait in ``outbox`` (0: no limit); a client that reads no more is
    #: disconnected then (:attr:`overflowed`) rather than kept growing the server's memory
    limit: int = 0
    overflowed: bool = False

    def notify(self) -> None:
        self.dirty = True
        self.wake.set()

    def send_later(self, message: dict[str, Any]) -> None:
        if self.limit and len(self.outbox) >= self.limit:
            self.overflowed = True
        else:
            self.outbox.append(message)
        self.wake.set()


def uses_table_config(seats: Iterable[Seat]) -> bool:
    """A table with a human seat is set up for people (``make_config(..., table=True)`` where the
    game takes it: Council's negotiation clock, for instance)."""
    return any(s.kind == "human" for s in seats)


def make_config(game: Game[Any, Any], players: int | None, params: dict[str, Any], human: bool) -> Config:
    """The table's config: a table with people at it takes the game's human-table defaults where the
    players set nothing. (The stored parameters are the resolved values, so a rebuild gets the same.)"""
    return game.spec.make_config(players, table=human, **params)


class DecisionPlies:
    """Per seat, the ply at which the seat's decision key (:meth:`State.decision_key`) last changed.

    An action a seat chose at ply ``p`` still means what it meant while the seat's key is the one
    it saw, so it is fresh iff ``p`` is not in the future and ``p`` is at or after that ply. With the
    default key (the ply the decision opened at) an applied action changes every key, while the sealed
    choices of a simultaneous decision change none: two Buccaneers players picking at once both count.
    In Council's live negotiation the key is the Proposal and the arrangement, so a suggestion sent
    while others talked still counts, and one sent before a Leader swap is stale.

    :meth:`note` is called after every applied action (and on the new state, and on every replayed
    action of a rebuild, so an undo or a restart recomputes it exactly)."""

    __slots__ = ("_keys", "since")

    def __init__(self) -> None:
        self._keys: dict[int, Hashable] = {}
        #: seat -> the ply at which its decision key last changed
        self.since: dict[int, int] = {}

    def note(self, st: State[Any, Any]) -> None:
        for seat in range(st.config.players):
            key = st.decision_key(seat)
            if seat not in self._keys or self._keys[seat] != key:
                self._keys[seat] = key
                self.since[seat] = st.ply

    def stale(self, seat: int, ply: int, now: int) -> str | None:
        """Why an action of ``seat`` chosen at ``ply`` is stale at ply ``now`` (``None``: it is fresh)."""
        if ply > now:
            return f"stale action: it was meant for ply {ply}, the table is only at ply {now}"
        since = self.since.get(seat, 0)
        if ply < since:
            if since == now:
                return f"stale action: it was meant for ply {ply}, the table is at ply {now}"
            return (f"stale action: it was meant for ply {ply}, and the table changed what it rests on "
                    f"at ply {since} (it is at ply {now})")
        return None


class LiveTable:
    """A table in memory: its record, seats, live state and the people and bots attached to it."""

    def __init__(self, record: TableRecord, seats: list[Seat], game: Game[Any, Any], config: Config) -> None:
        self.record = record
        self.seats = seats
        self.game = game
        self.config = config
        self.state: State[Any, Any] = State.new(game, config, record.seed, record=True)
        #: Per seat, the ply its decision last changed at: whether an action it sends is fresh.
        self.decisions = DecisionPlies()
        #: A guided first game's lessons (``None``: not a tutorial), and how far the learner got.
        self.tutorial: Tutorial | None = registry.offered(record.game, "tutorial") if record.tutorial else None
        self.lessons = Progress()
        self.note(self.state)
        self.actions: list[ActionRecord] = []
        #: What each action did, for the undo policy (:mod:`holotable.engine.undo`); parallel to ``actions``.
        self.steps: list[Step] = []
        self.notices: list[Event] = []
        self.clocks = SeatClocks(ClockSettings(_clock_mode(record.clock_mode), record.clock_seconds), config.players)
        self.lock = asyncio.Lock()
        #: when the table was last asked for or changed (the manager's clock): idle tables leave memory
        self.touched = 0.0
        self.listeners: set[Listener] = set()
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        #: bot seats whose search waits for a free bot worker (the server is busy): their seats say so
        self.bots_queued: set[int] = set()
        self.agents: dict[int, Agent] = {}
        #: When each bot seat is next due while a game period runs (unsealed, several seats asked).
        self.pacer = Pacer()
        #: The key of the period the pacer's times belong to (a new period starts it afresh).
        self.pacer_period: Hashable | None = None

    @property
    def id(self) -> str:
        return self.record.id

    def note(self, st: State[Any, Any]) -> None:
        """Called on the new state and after every applied (or, in a rebuild, replayed) action."""
        self.decisions.note(st)
        if self.tutorial is not None:
            self.lessons.note(self.tutorial, st)

    def tutorial_for(self, seat: int | None) -> dict[str, Any] | None:
        """The lessons the learner has reached, for the learner's own page only (``None`` for others)."""
        t = self.tutorial
        if t is None or seat != t.human:
            return None
        return {
            "title": t.title, "intro": t.intro, "outro": t.outro if self.state.is_terminal() else "",
            "count": len(t.lessons), "new_from": self.lessons.new_from,
            "lessons": [lesson.to_dict() for lesson in t.lessons[:self.lessons.reached]],
        }

    @property
    def status(self) -> str:
        return self.record.status

    def computed_status(self, state: State[Any, Any] | None = None) -> str:
        st = self.state if state is None else state
        if st.is_terminal():
            return "finished"
        if any(s.kind == "human" and not s.claimed for s in self.seats):
            return "open"
        return "running"

    def seat_of(self, token: str) -> int:
        for s in self.seats:
            if s.kind == "human" and token_matches(token, s.token_hash):
                return s.seat
        raise ApiError(403, "that token holds no seat at this table")

    def sync_clocks(self, state: State[Any, Any], now: float, actor: int | None = None) -> None:
        if self.computed_status(state) != "running":
            self.clocks.sync((), now)
            return
        self.clocks.sync(state.to_move(), now, actor, self.game.period(state))

    def took(self, action: ActionRecord, state: State[Any, Any], step: Step) -> None:
        """``action`` is stored and ``state`` is the table after it (``step``: what it did, for undo):
        the table becomes that, with the server's notices and the clocks (whichever process stored it)."""
        self.state = state
        self.actions.append(action)
        self.steps.append(step)
        self.note(state)
        self.notices.extend(self.notice_for(action))
        self.sync_clocks(state, action.at, action.seat)

    def adopt(self, rebuilt: LiveTable) -> None:
        """Become ``rebuilt``, this table replayed from its stored log (after an undo, here or in another
        process): its game, clocks and decisions; bots that saw the old line forget it, and every
        connection gets the whole log again (it may have gone back)."""
        self.state, self.actions, self.steps = rebuilt.state, rebuilt.actions, rebuilt.steps
        self.notices, self.clocks, self.decisions = rebuilt.notices, rebuilt.clocks, rebuilt.decisions
        self.agents.clear()
        for listener in self.listeners:
            listener.since = None

    def notice_for(self, action: ActionRecord) -> list[Event]:
        """The log lines the server adds for an action it played on a seat's behalf."""
        if action.source == "timeout":
            return [
                Event(action.ply, "timeout", f"{seat_name(action.seat)} ran out of time; the table played for them",
                      {"seat": action.seat}),
                Event(action.ply, "timeout", f"You ran out of time: the table played {action.action}",
                      {"seat": action.seat, "action": action.action}, frozenset({action.seat})),
            ]
        if action.source == "fallback":
            return [Event(action.ply, "bot_fallback", f"{seat_name(action.seat)}'s bot ran out of thinking time "
                          "and played its quick choice", {"seat": action.seat})]
        if action.source == "clock":
            return [Event(action.ply, "clock", f"Time is up: {action.action}", {"action": action.action})]
        return []

    def summary(self) -> dict[str, Any]:
        return summary_of(self.record, self.seats, self.state.ply) | {"presence": self.presence()}

    def notify(self) -> None:
        for listener in self.listeners:
            listener.notify()

    def presence(self) -> dict[str, Any]:
        """Who has the table open now, as a physical table shows it: the seats with a page connected
        (``online``) and how many people watch without a seat (``watchers``; anonymous)."""
        return {"online": sorted({lis.seat for lis in self.listeners if lis.seat is not None}),
                "watchers": sum(1 for lis in self.listeners if lis.seat is None)}

    def attach(self, listener: Listener) -> None:
        """A page connected: its first message is the current state. (The others hear who is here with
        their next state, or from the table's summary, which pages fetch every few seconds: a connection
        alone pushes nothing, so the protocol's messages stay one per change.)"""
        self.listeners.add(listener)
        listener.notify()

    def detach(self, listener: Listener) -> None:
        self.listeners.discard(listener)


def seeded_info(record: TableRecord) -> dict[str, Any] | None:
    """``None`` when the server drew the table's seed; else who chose it (``by``: their name, ``None`` when
    they gave none) and the sentence every page shows (whoever knows a seed can work out every hidden card
    and every future draw, which is why every seat is told)."""
    if not record.seeded:
        return None
    who = record.seeded_by or "the table's creator"
    return {"by": record.seeded_by, "text": f"Seeded table: the deal was chosen by {who}."}


def summary_of(record: TableRecord, seats: Iterable[Seat], ply: int) -> dict[str, Any]:
    """What the lobby shows of a table (a public table's invitation while it has free seats)."""
    return {
        "table_id": record.id,
        "game": record.game,
        "players": record.players,
        "status": record.status,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level, "agent": s.agent,
                   "claimed": s.claimed} for s in seats],
        "created_at": record.created_at,
        "ply": ply,
        "clock": {"mode": record.clock_mode, "seconds": max(1, record.clock_seconds)},
        "rematch_id": record.rematch_id,
        "rematch_of": record.rematch_of,
        "public": record.public,
        "invite": record.invite if record.public and record.status == "open" else None,
        "seeded": seeded_info(record),
    }


def _clock_mode(mode: str) -> ClockMode:
    if mode == "per_move":
        return "per_move"
    if mode == "per_game":
        return "per_game"
    return "none"
