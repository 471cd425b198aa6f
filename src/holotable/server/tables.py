"""Live tables: every change goes apply (on a copy) -> persist (commit) -> publish -> broadcast.

The :class:`TableManager` owns the tables in memory. Each table has one lock; an action is
checked and applied on a clone of the table's state, committed to the database, and only then
does the clone become the table's state and every connection hear about it. A refused action
(or a failed commit) leaves the table exactly as it was.

A table is loaded when first asked for, rebuilt (in a worker thread) by replaying its config, seed
and stored action log through the engine, so a restarted server serves at once; only the running
tables with a seat clock load in the background straight away. A table nobody uses (no page, no bot
thinking, no clock running) leaves memory after :data:`IDLE_SECONDS` (:meth:`TableManager.evict_idle`).

Every action is applied through the undo policy's :func:`~holotable.engine.undo.play`, so each
table keeps a :class:`~holotable.engine.undo.Step` per action (what it did: chance, a reveal, a
sealed choice); :meth:`TableManager.undo` asks the policy's
:func:`~holotable.engine.undo.undo_target` which action a seat may take back, removes it from
storage and rebuilds the table by replaying the rest. The seed never leaves the server while a
game runs: no payload, summary or extension carries it (bots get seeds derived from it).

**Fresh and stale actions.** An action carries the ply its seat chose it at. It is fresh while the
seat's decision still rests on what it saw: the table keeps, per seat, the ply at which the game's
:meth:`~holotable.engine.State.decision_key` last changed (:class:`~holotable.server.live.DecisionPlies`),
and refuses (409) an action chosen before that ply, or for a ply still to come, or before an undo.
The default key is the ply the decision opened at: any applied action makes every earlier choice stale,
but the other seats' sealed choices of a simultaneous decision do not (Buccaneers' picks, Council's
votes), so two players clicking at once both count. Council's live negotiation keys a
seat's decision on the Proposal and the arrangement, so a click counts while others talk.

**Bots.** Each asked bot seat gets a task that thinks (in the :class:`~holotable.server.bots.BotPool`)
and acts. Outside a game period a bot acts as soon as it is asked. While a game period runs and
several seats are asked in an unsealed decision (Council's open negotiation), every seat is asked
the whole time, so the table paces its bots with one :class:`~holotable.agents.live.Pacer`: a bot
seat is thought about only when due, with the period's time (``obs.period``); a live agent may
answer :class:`~holotable.agents.live.Wait` (due again after it, or at the next change); after an
action a bot is due no sooner than :data:`~holotable.agents.live.MIN_GAP` (live agents) or
:data:`~holotable.agents.live.PLAIN_GAP` (the others). Every change wakes the waiting bots
(:meth:`TableManager._after_change`); :meth:`TableManager.check_clocks`, run by the tick loop,
asks the bots whose time has come. A waiting bot holds no task; a new period starts the pacer afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any

from holotable.agents.live import MIN_GAP, PLAIN_GAP, PeriodTime, Wait
from holotable.engine import (
    ActionError,
    ConfigError,
    HolotableError,
    Rng,
    ScenarioError,
    State,
    UnknownGameError,
    derive_seed,
    load,
    registry,
)
from holotable.engine.tutorial import Tutorial
from holotable.engine.undo import Step, UndoRefusedError, undo_target
from holotable.engine.undo import play as play_step
from holotable.engine.words import seat_name

from .bots import GRACE_SECONDS, BotPool, Level, build_agent, capped_spec, level_info, think_limit
from .clocks import Clock
from .extensions import TableExtension, new_extensions
from .live import (
    TABLE_SOURCES,
    ApiError,
    Listener,
    LiveTable,
    make_config,
    seeded_info,
    summary_of,
    uses_table_config,
)
from .quotas import ClientLimits, Quotas
from .replay import Replays
from .schemas import MAX_SEED, CreateTableRequest
from .storage import CHANNEL, ActionRecord, Seat, StaleActionError, Store, TableRecord
from .tokens import hash_token, new_id, new_token

__all__ = ["ApiError", "Listener", "LiveTable", "TableManager"]


log = logging.getLogger("holotable.server")

#: Seconds a table nobody uses stays in memory (``holotable serve --idle-minutes``).
IDLE_SECONDS = 600.0
#: How often the tick loop looks for idle tables.
SWEEP_SECONDS = 30.0
#: How often an action (or a seat claim) catches up with another process's and is tried again.
CATCH_UP_TRIES = 5
#: Tenths of a second a rematch another process is creating this instant is waited for.
REMATCH_WAIT_TRIES = 30


class TableManager:
    """Creates, rebuilds and runs the tables; the only writer of the store.

    It owns this app's game extensions (:attr:`extensions`, game name -> instance, made here), so
    what an extension keeps (Council's chat, Kyrum's campaign store) belongs to one app."""

    def __init__(self, store: Store, clock: Clock, pool: BotPool, *, tick: float = 0.25,
                 quotas: Quotas | None = None, idle_seconds: float = IDLE_SECONDS) -> None:
        self.store = store
        self.clock = clock
        self.pool = pool
        self.tick = tick
        #: how long a table nobody uses stays in memory (0: for ever); see :meth:`evict_idle`
        self.idle_seconds = idle_seconds
        self.quotas = quotas or Quotas()
        #: what each client address has used of its quotas in this process
        self.limits = ClientLimits(self.quotas)
        self.extensions: dict[str, TableExtension] = new_extensions()
        self.tables: dict[str, LiveTable] = {}
        self.broken: dict[str, str] = {}
        #: the last replayed position per table (:meth:`replay`)
        self.replays = Replays()
        #: the loads under way, one per table: a table asked for twice at once is rebuilt once
        self._loads: dict[str, asyncio.Task[LiveTable]] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        #: set while this process hears the other processes' changes (a shared database only)
        self.listening = asyncio.Event()
        self._jobs: set[asyncio.Task[Any]] = set()
        self._last_sweep = 0.0
        self.closing = False

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Serve at once: tables load when first asked for (:meth:`get`). Only the running tables with a
        seat clock, whose time must not wait for a visitor, load in the background meanwhile."""
        self.store.claim_sole_use()  # SQLite: refused (SoleUseError) while another process serves the file
        await asyncio.to_thread(self.store.create_schema)
        for ext in self.extensions.values():
            await ext.start(self)
        if self.store.shared:
            self._listener = asyncio.create_task(self._listen())
        self._warming = asyncio.create_task(self._warm())
        if self.tick > 0:
            self._ticker = asyncio.create_task(self._tick_loop())

    async def _warm(self) -> None:
        for table_id in await asyncio.to_thread(self.store.table_ids, ("running",), clocked=True):
            if self.closing:
                return
            # A table that does not rebuild is logged and set aside (410 with the reason); the others play on.
            with contextlib.suppress(ApiError):
                await self.get(table_id)

    async def stop(self) -> None:
        self.closing = True
        tasks: list[asyncio.Task[Any]] = [t for table in self.tables.values() for t in table.bot_tasks.values()]
        tasks.extend(self._loads.values())
        tasks.extend(task for task in (self._ticker, self._warming, self._listener) if task is not None)
        tasks.extend(self._jobs)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.close()
        await asyncio.to_thread(self.store.close)

    def extension(self, game: str) -> TableExtension | None:
        """This app's extension of ``game``, or ``None`` when the game has none."""
        return self.extensions.get(game)

    async def _tick_loop(self) -> None:
        while not self.closing:
            await asyncio.sleep(self.tick)
            try:
                await self.check_clocks()
            except Exception:  # a clock fault must not stop every other table's clock
                log.exception("table clock check failed")
            now = self.clock.now()
            if self.idle_seconds and now - self._last_sweep >= SWEEP_SECONDS:
                self._last_sweep = now
                self.evict_idle()

    # ------------------------------------------------------------------ finding tables
    async def get(self, table_id: str) -> LiveTable:
        """The table in memory, loaded (rebuilt from the store, in a worker thread) on its first request."""
        table = self.tables.get(table_id)
        if table is None:
            loading = self._loads.get(table_id)
            if loading is None:
                loading = self._loads[table_id] = asyncio.create_task(self._load(table_id))
                loading.add_done_callback(lambda _done: self._loads.pop(table_id, None))
            table = await asyncio.shield(loading)  # a caller that gives up leaves the load to the others
        table.touched = self.clock.now()
        return table

    async def _get_soon(self, table_id: str) -> LiveTable:
        """:meth:`get` for a table another process has just named and is creating this instant (a
        rematch): a 404 is tried again for a moment."""
        for _ in range(REMATCH_WAIT_TRIES):
            try:
                return await self.get(table_id)
            except ApiError as exc:
                if exc.status != 404 or not self.store.shared:
                    raise
            await asyncio.sleep(0.1)
        return await self.get(table_id)

    async def seat_of(self, table: LiveTable, token: str) -> int:
        """The seat ``token`` holds at ``table`` (403 when none). With several processes, a seat just
        claimed through another one is looked up in the store before the token is refused."""
        try:
            return table.seat_of(token)
        except ApiError:
            if not self.store.shared:
                raise
        await self.refresh(table)
        return table.seat_of(token)

    def evict_idle(self) -> list[str]:
        """Let the tables nobody uses leave memory (the store keeps them; the next request loads them
        again): no page connected, no bot thinking, no action under way, untouched for
        :attr:`idle_seconds`, and no seat clock or game period running (time that must be kept)."""
        now = self.clock.now()
        gone = []
        for table in list(self.tables.values()):
            timed = table.status == "running" and (table.clocks.settings.active or table.clocks.period is not None)
            if (table.listeners or table.bot_tasks or table.lock.locked() or timed
                    or now - table.touched < self.idle_seconds):
                continue
            del self.tables[table.id]
            self.replays.forget(table.id)
            ext = self.extension(table.record.game)
            if ext is not None:
                ext.forget(table.id)
            gone.append(table.id)
        if gone:
            log.info("%d idle tables left memory (%d stay)", len(gone), len(self.tables))
        return gone

    async def _load(self, table_id: str) -> LiveTable:
        if table_id in self.broken:
            raise ApiError(410, f"table {table_id} cannot be rebuilt: {self.broken[table_id]}")
        if len(table_id) > 64:
            raise ApiError(404, f"no table {table_id!r}")
        stored = await asyncio.to_thread(self.store.table, table_id)
        if stored is None:
            raise ApiError(404, f"no table {table_id!r}")
        record, seat_records, actions = stored
        try:
            # A long game replays through the rules in a worker thread: other tables play on meanwhile.
            table = await asyncio.to_thread(self.rebuild, record, seat_records, actions)
        except (HolotableError, ValueError) as exc:
            # A log that no longer replays (say, the game's rules changed): keep serving the others.
            log.error("table %s cannot be rebuilt: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            raise ApiError(410, f"table {table_id} cannot be rebuilt: {exc}") from exc
        table.touched = self.clock.now()
        self.tables[table_id] = table
        self._schedule_bots(table)  # a bot whose turn it was when the table left memory (or the server stopped)
        return table

    def rebuild(self, record: TableRecord, seats: list[Seat], actions: list[ActionRecord], *,
                resume: bool = True) -> LiveTable:
        """A table exactly as stored: its config, seed and every action replayed through the rules (and the
        undo policy's :func:`~holotable.engine.undo.play`, which records each action's step).

        The seat clocks are fed the stored action times; with ``resume`` (a restart) each seat's current
        decision then starts afresh now, as the time the server was down is nobody's. An undo rebuilds
        with ``resume=False``: taking an action back gives no time back."""
        game = load(record.game)
        config = make_config(game, record.players, record.params, uses_table_config(seats))
        table = LiveTable(record, seats, game, config)
        if record.started_at is not None:
            table.sync_clocks(table.state, record.started_at)
        for action in actions:
            if action.ply != table.state.ply + 1:
                raise ValueError(f"action log has a gap before ply {action.ply}")
            try:
                step = play_step(table.state, action.action, action.seat, by_table=action.source in TABLE_SOURCES)
            except ActionError as exc:
                raise ValueError(f"ply {action.ply} ({action.action!r} by seat {action.seat}) does not replay: "
                                 f"{exc}") from exc
            table.actions.append(action)
            table.steps.append(step)
            table.notices.extend(table.notice_for(action))
            table.note(table.state)
            table.sync_clocks(table.state, action.at, action.seat)
        if resume:
            table.clocks.restart_from(self.clock.now())
        status = table.computed_status()
        if status != record.status:  # e.g. killed between the last action and its status (same commit: never)
            table.record = dataclasses.replace(record, status=status)
        return table

    # ------------------------------------------------------------------ several processes
    async def refresh(self, table: LiveTable) -> bool:
        """Catch ``table`` up with what the store holds (another process's actions, undo or seats) and
        tell its pages and bots; whether anything changed."""
        async with table.lock:
            changed = await self._catch_up(table)
        if changed:
            self._after_change(table)
        return changed

    async def _catch_up(self, table: LiveTable) -> bool:
        """:meth:`refresh` with the table's lock held and no one told yet. New actions are played on the
        table as its own are (each in a worker thread); an undo elsewhere rebuilds it from the log."""
        stored = await asyncio.to_thread(self.store.changes, table.id, len(table.actions))
        if stored is None:
            return False
        record, seats, actions = stored
        changed = seats != table.seats or record != table.record
        behind = record.undos != table.record.undos or bool(actions and actions[0].ply != len(table.actions) + 1)
        if not behind:
            try:
                for action in actions:
                    await self._heard_action(table, action)
            except ActionError as exc:
                log.error("table %s: another process's ply does not replay here (%s); rebuilding it", table.id, exc)
                behind = True
        if behind:
            full = await asyncio.to_thread(self.store.table, table.id)
            if full is None:
                return False
            rebuilt = await asyncio.to_thread(self.rebuild, *full, resume=False)
            table.adopt(rebuilt)
            table.lessons = rebuilt.lessons
        table.seats = seats
        table.record = record
        if not actions and not behind:  # seats only (someone joined): the clocks start with the game
            table.sync_clocks(table.state, self.clock.now())
        return changed or bool(actions) or behind

    async def _heard_action(self, table: LiveTable, action: ActionRecord) -> None:
        """Play another process's stored action on the table here (the rules in a worker thread, as for
        the table's own actions)."""
        before = table.state
        trial, step = await asyncio.to_thread(_tried, before, action.action, action.seat,
                                              action.source in TABLE_SOURCES)
        table.took(action, trial, step)
        ext = self.extension(table.record.game)
        if ext is not None:
            try:
                await asyncio.to_thread(ext.heard_action, self, table, before, trial,
                                        table.game.parse_action(action.action))
            except Exception:
                log.exception("the %s extension failed on another process's action at table %s",
                              table.record.game, table.id)

    async def _listen(self) -> None:
        """PostgreSQL: hear every other process's changes (``LISTEN`` on the store's channel) and catch the
        tables in memory up with them. After a lost connection every table in memory catches up (what
        was announced meanwhile is not told again)."""
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql")
        dsn = url.render_as_string(hide_password=False)
        delay = 0.2
        while not self.closing:
            try:
                async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.2
                    for table in list(self.tables.values()):
                        self._spawn(self.refresh(table))
                    async for note in conn.notifies():
                        self._heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database restarted, the network blinked: listen again
                log.warning("lost the database's announcements (%s); listening again in %.1f s", exc, delay)
            self.listening.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _heard(self, payload: str) -> None:
        try:
            note = json.loads(payload)
            table_id, kind, origin = note["table"], note["kind"], note["origin"]
        except (ValueError, KeyError, TypeError):
            log.warning("an announcement that is not holotable's on %s: %r", CHANNEL, payload[:200])
            return
        table = self.tables.get(table_id)
        if origin == self.store.origin or table is None:
            return  # our own change, or a table this process does not hold (it loads fresh when asked)
        if kind == "action" and "ply" in note:
            self._spawn(self._heard_stored(table, note))
            return
        if kind in ("action", "undo", "seats", "table"):
            self._spawn(self.refresh(table))
            return
        ext = self.extension(table.record.game)
        if ext is not None:
            self._spawn(ext.heard(self, table, kind))

    async def _heard_stored(self, table: LiveTable, note: dict[str, Any]) -> None:
        """Another process stored an action and its announcement carries it: when it is the table's next
        one here, play it without reading the store (each process hears every move, so this is most of
        the work several processes add); otherwise catch up from the store."""
        async with table.lock:
            try:
                action = ActionRecord(int(note["ply"]), int(note["seat"]), str(note["action"]), str(note["source"]),
                                      float(note["at"]))
                undos = int(note["undos"])
                status = str(note["status"])
            except (KeyError, TypeError, ValueError):
                action = None
            if action is None or action.ply <= len(table.actions):
                return  # not holotable's, or already played here (this process caught up before)
            played = False
            if action.ply == len(table.actions) + 1 and undos == table.record.undos:
                try:
                    await self._heard_action(table, action)
                    table.record = dataclasses.replace(table.record, status=status)
                    played = True
                except ActionError as exc:
                    log.error("table %s: another process's ply %s does not replay here (%s)", table.id,
                              action.ply, exc)
            if not played:  # a ply missed in between, an undo meanwhile: the store says what happened
                await self._catch_up(table)
        self._after_change(table)

    def _spawn(self, job: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._job_done)

    def _job_done(self, task: asyncio.Task[Any]) -> None:
        self._jobs.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("catching a table up failed", exc_info=task.exception())

    # ------------------------------------------------------------------ lobby
    async def create(self, req: CreateTableRequest, *, rematch_of: LiveTable | None = None,
                     creator_seat: int | None = None, creator_token: Callable[[str], str] | None = None,
                     seed_chosen: bool | None = None, tutorial: Tutorial | None = None,
                     table_id: str | None = None) -> tuple[LiveTable, tuple[int, str] | None]:
        """A new table; the creator takes the first human seat (``creator_seat`` when given), whose token
        is fresh, or ``creator_token(table id)`` (a Kyrum campaign derives its games' tokens from its own).

        Without ``req.seed`` the server draws the seed. A chosen seed is announced to every seat and in
        the lobby, with the creator's name (``seed_chosen`` overrides whether ``req.seed`` counts as
        chosen: a Kyrum campaign's table seed is derived from the campaign's, chosen or drawn)."""
        try:
            game = load(req.game)
        except UnknownGameError as exc:
            raise ApiError(422, str(exc)) from exc
        spec = game.spec
        players = req.players if req.players is not None else (spec.default_players or spec.min_players)
        seat_reqs = req.seats
        seats: list[Seat] = []
        if seat_reqs is None:
            seats = [Seat(0, "human", None, None, req.name, None, False)] + [
                Seat(s, "bot", "normal", level_info(spec.name, "normal").agent, None, None, True)
                for s in range(1, players)
            ]
        else:
            if len(seat_reqs) != players:
                raise ApiError(422, f"{players} players need {players} seats, got {len(seat_reqs)}")
            for i, asked in enumerate(seat_reqs):
                if asked.kind == "human":
                    if asked.level is not None or asked.agent is not None:
                        raise ApiError(422, f"seat {i} is human: it takes no level or agent")
                    seats.append(Seat(i, "human", None, None, asked.name, None, False))
                else:
                    level: Level = asked.level or "normal"
                    try:
                        agent = capped_spec(asked.agent or level_info(spec.name, level).agent)
                    except (HolotableError, ValueError) as exc:  # a malformed spec, a think limit too long
                        raise ApiError(422, f"seat {i}: {exc}") from exc
                    seats.append(Seat(i, "bot", None if asked.agent else level, agent, asked.name, None, True))
        for param in spec.params:  # a parameter that may name a path takes only the game's safe values here
            if param.remote_choices is not None and param.name in req.params:
                allowed = param.remote_choices()
                if req.params[param.name] not in allowed:
                    raise ApiError(422, f"parameter {param.name!r} takes one of {sorted(allowed)} here, not a path")
        try:
            config = make_config(game, players, dict(req.params), uses_table_config(seats))
            probe = State.new(game, config, 0)  # a set-up that refuses the config says so now
        except ConfigError as exc:
            raise ApiError(422, str(exc)) from exc
        except (TypeError, ValueError) as exc:
            raise ApiError(422, f"bad parameters: {exc}") from exc
        del probe
        for bot in seats:
            if bot.kind == "bot":
                try:
                    build_agent(game, bot.agent or "random", 0, bot.seat)
                except (HolotableError, ValueError, TypeError) as exc:
                    raise ApiError(422, f"seat {bot.seat}: {exc}") from exc
        clock = req.clock
        mode = "none" if clock is None else clock.mode
        seconds = 0 if clock is None or clock.mode == "none" else clock.seconds
        you: tuple[int, str] | None = None
        table_id = table_id or new_id()
        humans = [s for s in seats if s.kind == "human"]
        if humans:
            first = humans[0] if creator_seat is None else next((s for s in humans if s.seat == creator_seat),
                                                                humans[0])
            token = new_token() if creator_token is None else creator_token(table_id)
            first.token_hash, first.claimed = hash_token(token), True
            if req.name is not None and first.name is None:
                first.name = req.name
            you = (first.seat, token)
        now = self.clock.now()
        seeded = req.seed is not None if seed_chosen is None else seed_chosen
        creator_name = req.name
        if creator_name is None and you is not None:
            creator_name = seats[you[0]].name
        record = TableRecord(
            id=table_id, game=spec.name, players=players, params=config.params,
            seed=req.seed if req.seed is not None else secrets.randbelow(MAX_SEED),
            clock_mode=mode, clock_seconds=seconds, invite=new_id(12), status="open", created_at=now,
            rematch_of=None if rematch_of is None else rematch_of.id, public=req.public,
            seeded=seeded, seeded_by=creator_name if seeded else None, tutorial=tutorial is not None,
        )
        table = LiveTable(record, seats, game, config)
        status = table.computed_status()
        table.record = record = dataclasses.replace(
            record, status=status, started_at=now if status == "running" else None)
        await asyncio.to_thread(self.store.insert_table, record, seats)
        if tutorial is not None:
            await self._play_script(table, tutorial, now)
        table.sync_clocks(table.state, now)
        table.touched = now
        self.tables[record.id] = table
        self._schedule_bots(table)
        return table, you

    async def create_tutorial(self, game: str, name: str | None) -> tuple[LiveTable, tuple[int, str] | None]:
        """A guided first game of ``game``: its tutorial's scenario (players, parameters, seed and scripted
        opening moves), the learner at the tutorial's seat and its bots everywhere else. A game without a
        tutorial is a 404."""
        try:
            tutorial = registry.offered(game, "tutorial")
        except ScenarioError as exc:  # a broken tutorial file is the server's fault, said plainly
            raise ApiError(500, f"the tutorial of {game} cannot be read: {exc}") from exc
        if tutorial is None:
            raise ApiError(404, f"there is no tutorial for {game!r}" if registry.find(game) else f"no game {game!r}")
        sc = tutorial.scenario
        spec = load(sc.game).spec
        count = sc.players if sc.players is not None else (spec.default_players or spec.min_players)
        seats = [{"kind": "human", "name": name} if s == tutorial.human else {"kind": "bot", "level": tutorial.bots}
                 for s in range(count)]
        req = CreateTableRequest.model_validate({
            "game": sc.game, "players": count, "params": dict(sc.params), "seats": seats, "seed": sc.seed,
            "name": name})
        return await self.create(req, creator_seat=tutorial.human, seed_chosen=False, tutorial=tutorial)

    async def _play_script(self, table: LiveTable, tutorial: Tutorial, now: float) -> None:
        """Play a tutorial's scripted opening moves, stored like any others (source ``script``: the table's)."""
        for index, (seat, action) in enumerate(tutorial.scenario.actions):
            st = table.state
            try:
                step = play_step(st, action, seat, by_table=True)
            except ActionError as exc:
                raise ApiError(500, f"the tutorial's scripted move {index} ({action!r}) is refused: {exc}") from exc
            record = ActionRecord(st.ply, step.seat, step.text, "script", now)
            table.actions.append(record)
            table.steps.append(step)
            table.note(st)
            status = table.computed_status()
            table.record = dataclasses.replace(table.record, status=status)
            await asyncio.to_thread(self.store.append_action, table.id, record, status)

    async def join(self, table: LiveTable, invite: str, name: str | None) -> tuple[int, str]:
        if not secrets.compare_digest(invite.encode(), table.record.invite.encode()):
            raise ApiError(403, "that invitation is not for this table")
        return await self._claim(table, None, name)

    async def _claim(self, table: LiveTable, wanted: int | None, name: str | None) -> tuple[int, str]:
        """Claim a free human seat: ``wanted`` exactly (a rematch seat belongs to the player who sat there,
        so it never falls back to someone else's), or any when ``None`` (an invitation)."""
        async with table.lock:
            for _attempt in range(CATCH_UP_TRIES):
                claimed = await self._claim_locked(table, wanted, name)
                if claimed is not None:
                    break
                # Someone took that seat through another process: catch up with the seats, try again.
                await self._catch_up(table)
            else:
                raise ApiError(409, "the seats kept being taken while this one was claimed; try again")
        self._after_change(table)
        return claimed

    async def _claim_locked(self, table: LiveTable, wanted: int | None, name: str | None) -> tuple[int, str] | None:
        """The body of :meth:`_claim`, the table's lock held: ``None`` when the store says another process
        took the seat first."""
        free = [s for s in table.seats if s.kind == "human" and not s.claimed]
        if wanted is not None:
            free = [s for s in free if s.seat == wanted]
            if not free:
                raise ApiError(409, f"{seat_name(wanted)} at the rematch is already taken: open the rematch "
                                    "with the link or the browser that took it")
        if not free:
            raise ApiError(409, "every human seat at this table is taken")
        seat = free[0]
        token = new_token()
        trial = [dataclasses.replace(s) for s in table.seats]
        mine = trial[seat.seat]
        mine.claimed, mine.token_hash = True, hash_token(token)
        if name is not None:
            mine.name = name
        now = self.clock.now()
        status = "running" if all(s.claimed for s in trial if s.kind == "human") else "open"
        started = now if status == "running" else None
        if table.state.is_terminal():
            status = "finished"
        ok = await asyncio.to_thread(self.store.claim_seat, table.id, seat.seat, mine.token_hash,
                                     mine.name, status, started)
        if not ok:
            if self.store.shared:
                return None
            raise ApiError(409, f"{seat_name(seat.seat)} was just taken; try again")
        table.seats = trial
        table.record = dataclasses.replace(table.record, status=status, started_at=started)
        table.sync_clocks(table.state, now)
        return seat.seat, token

    async def rename(self, table: LiveTable, seat: int, name: str) -> None:
        """The name ``seat`` (a person's seat: they hold its token) shows at the table; everyone hears it."""
        async with table.lock:
            await asyncio.to_thread(self.store.rename_seat, table.id, seat, name)
            table.seats = [dataclasses.replace(s, name=name) if s.seat == seat else s for s in table.seats]
        self._after_change(table)

    async def rematch(self, table: LiveTable, seat: int) -> tuple[LiveTable, tuple[int, str]]:
        """Play again: a new table with the same game, options and seats; the asking seat keeps its place."""
        if table.status != "finished":
            raise ApiError(409, "the game is not over yet")
        ext = self.extension(table.record.game)
        refusal = None if ext is None else ext.rematch_refusal(self, table)
        if refusal is not None:
            raise ApiError(409, refusal)
        async with table.lock:
            if table.record.rematch_id is None:
                req = CreateTableRequest.model_validate({
                    "game": table.record.game, "players": table.record.players, "params": table.record.params,
                    "seats": [{"kind": s.kind, "level": s.level, "agent": s.agent if s.level is None else None,
                               "name": s.name if s.kind == "bot" else None} for s in table.seats],
                    "clock": None if table.record.clock_mode == "none" else {
                        "mode": table.record.clock_mode, "seconds": table.record.clock_seconds},
                    "name": table.seats[seat].name,
                    "public": table.record.public,
                    # no seed: the server draws a fresh one, even when the finished table was seeded
                })
                # The rematch's id is named on the finished table first, so that two processes asked at
                # once make one rematch: the one whose id stands creates it, the other follows into it.
                wanted = new_id()
                rematch_id = await asyncio.to_thread(self.store.reserve_rematch, table.id, wanted)
                table.record = dataclasses.replace(table.record, rematch_id=rematch_id)
                if rematch_id == wanted:
                    try:
                        new, you = await self.create(req, rematch_of=table, creator_seat=seat, table_id=wanted)
                    except BaseException:
                        await asyncio.to_thread(self.store.release_rematch, table.id, wanted)
                        table.record = dataclasses.replace(table.record, rematch_id=None)
                        raise
                    assert you is not None  # the asking seat is human
                    self._after_change(table)
                    return new, you
                self._after_change(table)
            following = table.record.rematch_id
            assert following is not None
        new = await self._get_soon(following)
        return new, await self._claim(new, seat, table.seats[seat].name)

    async def summaries(self, status: str | None) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.summaries, status)
        out = []
        for record, seats, ply in rows:
            live = self.tables.get(record.id)
            out.append(live.summary() if live is not None else summary_of(record, seats, ply))
        return out

    # ------------------------------------------------------------------ play
    async def act(self, table: LiveTable, seat: int, action: Any, ply: int | None, source: str = "human",
                  undos: int | None = None) -> None:
        """Check, apply, commit, then publish one action. Any refusal raises :class:`ApiError` and changes nothing.

        ``ply``: the ply the seat chose the action at; it is stale (409) once the seat's decision key
        changed since (see the module docstring). ``undos``: the table's undo count the action was
        chosen at (bots and clocks pass it): after an undo the same ply can be a different position,
        so an action chosen before it is stale (409)."""
        table.touched = self.clock.now()
        async with table.lock:
            if self.store.shared and ply is not None and ply > table.state.ply:
                # Chosen at a ply this process has not heard of yet: another one stored it a moment ago.
                await self._catch_up(table)
            for _attempt in range(CATCH_UP_TRIES):
                try:
                    await self._apply(table, seat, action, ply, source, undos)
                    break
                except StaleActionError as exc:
                    # Another process stored an action (or an undo) first: catch up with it, then see
                    # whether this one still stands (a simultaneous pick does; a stale move is a 409).
                    if not self.store.shared:
                        raise ApiError(409, str(exc)) from exc
                    await self._catch_up(table)
            else:
                raise ApiError(409, "the table kept moving on while this action was stored; try again")
        self._after_change(table)

    async def _apply(self, table: LiveTable, seat: int, action: Any, ply: int | None, source: str,
                     undos: int | None) -> None:
        """The body of :meth:`act`, with the table's lock held: :class:`StaleActionError` when the store
        already holds another action for this ply (another process's)."""
        if table.status == "finished":
            raise ApiError(409, "the game is over")
        if table.status == "open":
            raise ApiError(409, "the table is waiting for players to join")
        st = table.state
        stale = None if ply is None else table.decisions.stale(seat, ply, st.ply)
        if stale is not None:
            raise ApiError(409, stale)
        if undos is not None and undos != table.record.undos:
            raise ApiError(409, "stale action: an action was taken back since it was chosen")
        game = table.game
        try:
            act = game.coerce_action(action)
            text = game.action_to_str(act)
            if source == "human" and table.clocks.period is not None and _same_text(
                    text, table.clocks.period.action):
                raise ApiError(422, f"{text!r} is the table clock's action; only the table plays it")
            # The rules work on a copy in a worker thread (a flick's physics takes a tenth of a second
            # or more): the event loop goes on serving every other table meanwhile.
            trial, step = await asyncio.to_thread(_tried, st, act, seat, source in TABLE_SOURCES)
        except ActionError as exc:
            raise ApiError(422, str(exc), exc.rule) from exc
        now = self.clock.now()
        record = ActionRecord(trial.ply, seat, text, source, now)
        status = table.computed_status(trial)
        try:
            await asyncio.to_thread(self.store.append_action, table.id, record, status, table.record.undos)
        except StaleActionError:
            raise
        except Exception as exc:
            log.exception("could not store an action of table %s", table.id)
            raise ApiError(503, "the action could not be stored; nothing was played") from exc
        table.took(record, trial, step)
        table.record = dataclasses.replace(table.record, status=status)
        ext = self.extension(table.record.game)
        if ext is not None:
            try:  # off the loop too: Space Pirates re-resolves the flick to record its path
                await asyncio.to_thread(ext.after_action, self, table, seat, st, trial, act, source)
            except Exception:  # an extension's extra must never undo a stored action
                log.exception("the %s extension failed after an action at table %s", table.record.game, table.id)

    async def undo(self, table: LiveTable, seat: int, ply: int | None) -> Step:
        """Take back ``seat``'s action under the undo policy: remove it from storage, rebuild the table by
        replaying the rest, then publish. A refusal raises :class:`ApiError` (409 for a table that is not
        playing or a stale ply, 422 with the policy's reason) and changes nothing."""
        async with table.lock:
            if table.status == "finished":
                raise ApiError(409, "the game is over: its actions stand")
            if table.status == "open":
                raise ApiError(409, "the table is waiting for players to join")
            st = table.state
            if ply is not None and ply != st.ply:
                raise ApiError(409, f"stale undo: it was meant for ply {ply}, the table is at ply {st.ply}")
            index, reason = self._undo_target(table, seat)
            if index is None:
                raise ApiError(422, reason or "nothing to take back")
            undone, step = table.actions[index], table.steps[index]
            kept = [a if a.ply < undone.ply else dataclasses.replace(a, ply=a.ply - 1)
                    for a in table.actions if a is not undone]
            undos = table.record.undos + 1
            try:
                rebuilt = await asyncio.to_thread(self.rebuild, dataclasses.replace(table.record, undos=undos),
                                                  table.seats, kept, resume=False)
            except (HolotableError, ValueError) as exc:  # the rules replay exactly: this is a bug, refuse
                log.exception("table %s does not replay without ply %s", table.id, undone.ply)
                raise ApiError(409, f"that action cannot be taken back: {exc}") from exc
            status = rebuilt.computed_status()
            try:
                await asyncio.to_thread(self.store.remove_action, table.id, undone, status, undos, len(table.actions))
            except StaleActionError as exc:
                if self.store.shared:  # another process moved the table on: catch up; the player looks again
                    await self._catch_up(table)
                    self._after_change(table)
                raise ApiError(409, f"the table moved on before the undo was stored: {exc}") from exc
            except Exception as exc:
                log.exception("could not take back an action of table %s", table.id)
                raise ApiError(503, "the undo could not be stored; nothing was taken back") from exc
            table.adopt(rebuilt)
            table.record = dataclasses.replace(table.record, status=status, undos=undos)
        self._after_change(table)
        return step

    def _undo_target(self, table: LiveTable, seat: int) -> tuple[int | None, str | None]:
        """The index of the action ``seat`` may take back now and ``None``, or ``None`` and the reason it
        may not: the undo policy's, then the game extension's (a side effect beyond the table)."""
        st = table.state
        try:
            index = undo_target(table.steps, st.pending, st.is_terminal(), seat)
        except UndoRefusedError as exc:
            return None, exc.reason
        ext = self.extension(table.record.game)
        if ext is not None:
            veto = ext.undo_refusal(self, table, seat, table.actions[index])
            if veto is not None:
                return None, veto
        return index, None

    def undo_status(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """Whether ``seat`` may take an action back now (and which), or why not: the state's ``undo``."""
        if table.status == "open":
            return {"allowed": False, "reason": "the game has not started yet", "action": None}
        index, reason = self._undo_target(table, seat)
        if index is None:
            return {"allowed": False, "reason": reason, "action": None}
        return {"allowed": True, "reason": None, "action": table.actions[index].action}

    def _after_change(self, table: LiveTable) -> None:
        table.notify()
        table.pacer.changed(self.clock.now())  # what was said or moved wakes every waiting bot
        self._schedule_bots(table)

    # ------------------------------------------------------------------ bots
    def _paced(self, table: LiveTable) -> bool:
        """Whether the table paces its bots now: a game period runs and several seats are asked in an
        unsealed decision, so every bot could act at every moment (see the module docstring)."""
        st = table.state
        if table.clocks.period is None or st.is_terminal():
            return False
        return len(st.to_move()) > 1 and not table.game.sealed(st)

    def _pacer_now(self, table: LiveTable) -> float:
        """The time for the table's pacer, which starts afresh with each new period."""
        period = table.clocks.period
        key = None if period is None else period.key
        if key != table.pacer_period:
            table.pacer.reset()
            table.pacer_period = key
        return self.clock.now()

    def _schedule_bots(self, table: LiveTable, ending: int | None = None) -> None:
        """Start a task for each asked bot seat without one (paced: each due one). ``ending``: the seat
        whose task is ending now; a new task takes its place in one step, so ``bot_tasks`` is empty
        only when no bot thinks."""
        if self.closing or table.status == "finished":
            return
        self.pool.warm([s.agent for s in table.seats if s.kind == "bot" and s.agent])
        if table.status != "running":
            return
        seats = [s for s in table.state.to_move()
                 if table.seats[s].kind == "bot" and (s not in table.bot_tasks or s == ending)]
        if seats and self._paced(table):
            seats = table.pacer.due(seats, self._pacer_now(table))
        for seat in seats:
            table.bot_tasks[seat] = asyncio.create_task(self._bot_turn(table, seat))

    def _period_time(self, table: LiveTable) -> PeriodTime | None:
        period = table.clocks.period
        elapsed = table.clocks.period_elapsed(self.clock.now())
        return None if period is None or elapsed is None else PeriodTime(period.seconds, elapsed)

    async def _bot_turn(self, table: LiveTable, seat: int) -> None:
        """One bot seat thinks and acts (or, paced, may wait); a stale choice (409) thinks again."""
        try:
            for _attempt in range(50):
                snapshot = table.state.clone(keep_events=False)
                undos = table.record.undos
                if table.status != "running" or seat not in snapshot.to_move():
                    return
                paced = self._paced(table)
                if paced and not table.pacer.due([seat], self._pacer_now(table)):
                    return  # (after a 409) not its time yet: the tick loop asks it when it is
                agent = table.agents.get(seat)
                if agent is None:
                    agent = table.agents[seat] = build_agent(table.game, table.seats[seat].agent or "random",
                                                             table.record.seed, seat)
                spec = table.seats[seat].agent or "random"
                # Seeded by the ply the decision opened at: in a simultaneous pick a bot chooses the same
                # whether the others' sealed picks came in before it thought or after.
                seed = derive_seed(table.record.seed, "bot", seat, snapshot.opened_ply)
                period = self._period_time(table) if paced else None
                source = "bot"
                try:
                    action = await self.pool.think(agent, spec, seed, snapshot, seat, think_limit(spec), period,
                                                   queued=functools.partial(self._queued, table, seat))
                except Exception as exc:
                    # Out of time (a busy server) or broken: the seat plays its quick choice, said in the
                    # log for everyone ("ran out of thinking time"), never a silent random move.
                    why = "ran out of time" if isinstance(exc, TimeoutError) else f"failed ({exc!r})"
                    log.warning("bot of seat %s at table %s %s; playing its quick choice", seat, table.id, why)
                    table.agents.pop(seat, None)  # it may still be running: the next turn gets a fresh one
                    action, source = await self._quick_choice(table, snapshot, seat, seed), "fallback"
                if isinstance(action, Wait):
                    if period is not None and agent.live:
                        # Something happened while it thought: it looks again at once (still after its gap).
                        moved = table.state.ply != snapshot.ply or table.record.undos != undos
                        table.pacer.waits(seat, self.clock.now(), 0.0 if moved else action.seconds)
                        return
                    log.error("bot of seat %s at table %s answered Wait, which only a live agent may do in a "
                              "timed period; playing a random action", seat, table.id)
                    action = _random_legal(snapshot, seat)
                try:
                    await self.act(table, seat, action, snapshot.ply, source, undos)
                except ApiError as exc:
                    if exc.status == 409:  # the table moved on while the bot thought: think again
                        continue
                    log.error("bot of seat %s at table %s chose a refused action (%s); playing a random one",
                              seat, table.id, exc.detail)
                    await self.act(table, seat, _random_legal(snapshot, seat), snapshot.ply, "bot", undos)
                if paced:
                    table.pacer.acted(seat, self.clock.now(), MIN_GAP if agent.live else PLAIN_GAP)
                return
        except ApiError as exc:
            log.error("bot of seat %s at table %s could not act: %s", seat, table.id, exc.detail)
        finally:
            me = table.bot_tasks.get(seat)
            if not self.closing:
                self._schedule_bots(table, ending=seat)
            if table.bot_tasks.get(seat) is me:  # no new turn took its place
                table.bot_tasks.pop(seat, None)

    def _queued(self, table: LiveTable, seat: int, waits: bool) -> None:
        """A bot seat's search waits for a free worker (``waits``), or its wait is over: every page hears it."""
        if waits:
            table.bots_queued.add(seat)
        else:
            table.bots_queued.discard(seat)
        table.notify()

    async def _quick_choice(self, table: LiveTable, snapshot: State[Any, Any], seat: int, seed: int) -> Any:
        """What a bot plays when its own thinking ran out of time: the "normal" level's agent (the game's
        heuristic, which answers in milliseconds), in a thread; a seeded random legal action only if that
        fails too."""
        spec = level_info(table.record.game, "normal").agent
        try:
            agent = build_agent(table.game, spec, seed, seat)
            return await self.pool.think(agent, spec, seed, snapshot, seat, GRACE_SECONDS)
        except Exception:
            log.exception("the quick choice of seat %s at table %s failed; playing a random action", seat, table.id)
            return _random_legal(snapshot, seat)

    # ------------------------------------------------------------------ clocks
    async def check_clocks(self) -> int:
        """Play what the clocks demand at every table whose time is up, and ask the paced bots whose time
        has come; return how many actions the clocks played."""
        played = 0
        now = self.clock.now()
        for table in list(self.tables.values()):
            if table.status != "running":
                continue
            played += await self._check_table_clocks(table, now)
            if self._paced(table):
                self._schedule_bots(table)
        return played

    async def _check_table_clocks(self, table: LiveTable, now: float) -> int:
        clocks = table.clocks
        st = table.state
        undos = table.record.undos
        try:
            if clocks.period_over(now) and clocks.period is not None:
                asked = st.to_move()
                if asked:
                    await self.act(table, asked[0], clocks.period.action, st.ply, "clock", undos)
                    return 1
                return 0
            expired = clocks.expired_seats(now)  # none while a period runs: it is the clock
            if expired:
                seat = expired[0]
                await self.act(table, seat, self._timeout_action(table, seat), st.ply, "timeout", undos)
                return 1
        except ApiError as exc:
            if exc.status != 409:  # 409: someone acted in the meantime; the next tick looks again
                log.error("clock of table %s could not act: %s", table.id, exc.detail)
        return 0

    def _timeout_action(self, table: LiveTable, seat: int) -> Any:
        """What a seat whose time ran out plays: the game's ``timeout_action``, else a seeded random
        legal action. (Seat clocks stand still while a game period runs, so none runs out then.)"""
        st = table.state
        candidates: list[Any] = []
        with contextlib.suppress(ActionError, ValueError):
            default = table.game.timeout_action(st, seat)
            if default is not None:
                candidates.append(default)
        for action in candidates:
            try:
                st.clone(keep_events=False).apply(action, seat)
                return action
            except ActionError:
                continue
        return _random_legal(st, seat)

    # ------------------------------------------------------------------ replays
    async def replay(self, table: LiveTable, viewer: int | None, ply: int | None, seat: int | None) -> dict[str, Any]:
        """The table at ``ply`` (default: now) as ``seat`` saw it (default: the viewer's own seat; ``None``
        a spectator). While the game runs only the viewer's own seat may be replayed (403 for another);
        once it is over, any seat, by anyone. A ply beyond the log or a seat that does not exist is a 422."""
        finished = table.status == "finished"
        if seat is None:
            seat = viewer
        elif not 0 <= seat < table.config.players:
            raise ApiError(422, f"there is no seat {seat} at this table")
        elif seat != viewer and not finished:
            raise ApiError(403, "while the game runs you can replay only what your own seat saw")
        actions, undos = list(table.actions), table.record.undos
        last = len(actions)
        if ply is None:
            ply = last
        elif ply > last:
            raise ApiError(422, f"the game has {last} moves so far; ply {ply} is still to come")
        ext = self.extension(table.record.game)
        before = None
        if ext is not None and ply > 0:  # the position before the move too: the cursor makes it one step
            before = await asyncio.to_thread(self.replays.state_at, table, actions, undos, ply - 1)
        st = await asyncio.to_thread(self.replays.state_at, table, actions, undos, ply)
        out = _position(table, st, seat) | {
            "replay": {"ply": ply, "last": last, "full": finished, "viewer": viewer},
            "legal": [],
            "log": [e.to_dict() for e in st.log_for(seat)],
            "clock": None,
            "undos": undos,
        }
        if ext is not None:
            # in a thread, like after_action: Space Pirates re-resolves the replayed flick's physics
            extra = await asyncio.to_thread(ext.replay_extra, self, table, before, st,
                                            actions[ply - 1] if ply else None, seat)
            if extra is not None:
                out["extra"] = extra
        return out

    # ------------------------------------------------------------------ what a seat sees
    def payload(self, table: LiveTable, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """The state message of ``seat`` (``None``: a spectator); ``log`` holds the events after ply ``since``.

        ``clock`` (present when the table has a seat clock or a game period runs) is what a page needs to
        count down on its own between messages: ``now`` (the server's time when the message was made,
        to correct for the browser's clock), ``deadline_ts`` (the next deadline of any kind),
        ``period_deadline_ts`` and ``period_seconds`` (when the running game period ends and how long
        it lasts; both ``None`` when none runs), ``remaining`` (per seat, seconds of its seat clock;
        standing still while a period runs), and the table's ``mode`` and ``seconds``."""
        st = table.state
        game = table.game
        terminal = st.is_terminal()
        running = table.status == "running"
        legal: list[dict[str, Any]] = []
        if seat is not None and running and seat in st.to_move():
            period_action = None if table.clocks.period is None else table.clocks.period.action
            for action in st.legal_actions(seat):
                text = game.action_to_str(action)
                if period_action is not None and _same_text(text, period_action):
                    continue
                entry: dict[str, Any] = {"text": text}
                with contextlib.suppress(NotImplementedError, ValueError):
                    entry["index"] = game.action_index(action)
                legal.append(entry)
        events = [e for e in [*st.log_for(seat), *(n for n in table.notices if n.visible_to(seat))]
                  if since is None or e.ply > since]
        events.sort(key=lambda e: e.ply)
        now = self.clock.now()
        clock: dict[str, Any] | None = None
        if table.clocks.settings.active or table.clocks.period is not None:
            clock = {
                "mode": table.clocks.settings.mode,
                "seconds": table.clocks.settings.seconds,
                "deadline_ts": table.clocks.next_deadline() if running else None,
                "period_deadline_ts": table.clocks.period_deadline() if running else None,
                "period_seconds": (table.clocks.period.seconds
                                   if running and table.clocks.period is not None else None),
                "remaining": {str(s): round(t, 3) for s, t in table.clocks.remaining_at(now).items()},
                "now": now,
            }
        out: dict[str, Any] = _position(table, st, seat) | {
            "legal": legal,
            "log": [e.to_dict() for e in events],
            "clock": clock,
            "presence": table.presence(),
            "bots_queued": sorted(table.bots_queued),
            "undos": table.record.undos,
        }
        if seat is not None:
            out["undo"] = self.undo_status(table, seat)
        lessons = table.tutorial_for(seat)
        if lessons is not None:
            out["tutorial"] = lessons
        if seat is not None and table.status == "open":
            out["invite"] = table.record.invite
        ext = self.extension(table.record.game)
        if ext is not None:
            if terminal and ext.rematch_refusal(self, table) is not None:
                out["rematch"] = False  # the page offers no "Play again"
            extra = ext.payload_extra(self, table, seat)
            if extra is not None:
                out["extra"] = extra
        return out


def _tried(st: State[Any, Any], action: Any, seat: int, by_table: bool) -> tuple[State[Any, Any], Step]:
    """``action`` played on a copy of ``st`` (which stays as it was): the copy and the undo step."""
    trial = st.clone()
    return trial, play_step(trial, action, seat, by_table=by_table)


def _position(table: LiveTable, st: State[Any, Any], seat: int | None) -> dict[str, Any]:
    """What a state message says of one position as ``seat`` sees it (a live table's now, or a replayed
    one): the message adds its legal moves, log, clock and undo count."""
    terminal = st.is_terminal()
    game = table.game
    return {
        "table_id": table.id,
        "game": table.record.game,
        "seat": seat,
        "ply": st.ply,
        "status": table.status,
        "view": st.view(seat),
        "to_move": list(st.to_move()),
        "sealed": (not terminal) and len(game.to_move(st)) > 1 and game.sealed(st),
        "committed": sorted(st.pending),
        "outcome": st.outcome().to_dict() if terminal else None,
        "seats": [s.summary() for s in table.seats],
        "rematch_id": table.record.rematch_id,
        "seeded": seeded_info(table.record),
    }


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()).lower() == " ".join(b.split()).lower()


def _random_legal(st: State[Any, Any], seat: int) -> Any:
    legal = st.legal_actions(seat)
    if not legal:
        raise ApiError(409, f"seat {seat} has no legal action now")
    return legal[Rng(derive_seed(st.seed, st.ply, seat, "timeout")).randrange(len(legal))]
