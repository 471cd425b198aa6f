"""Server-side bots: skill levels, and the worker pools they think in.

A bot gets exactly what the simulation runner gives an agent, its seat's
:class:`~holotable.agents.base.Observation` of a snapshot of the table, and thinks off the
event loop, so a table whose bot is thinking never holds up another table's actions: quick
agents (random, heuristics) in worker threads, search agents (ISMCTS), which keep a CPU busy
for their whole budget, in worker processes, where they do not compete with the server for
Python's interpreter lock.

At a table whose game period runs (Council's timed negotiation), the table paces its bots (see
:mod:`holotable.server.tables`) and passes the period's time to :meth:`BotPool.think`: an agent
thinking in a thread gets it as ``obs.period`` and, when it is ``live``, may answer
:class:`~holotable.agents.live.Wait`. Search agents, thinking in processes, are not live: they
get no period and act whenever the table asks them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Literal

from holotable.agents.base import Agent, agent_names, make_agent, observe, parse_agent_spec
from holotable.agents.live import PeriodTime
from holotable.engine import Game, State, derive_seed

log = logging.getLogger("holotable.server")

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")

#: Seconds of search for the ``hard`` level (ISMCTS stops at whichever comes first: this or its iterations).
HARD_SECONDS = 2.0
#: The longest a search bot may think: its limit when its spec names none (``ismcts:iterations=10**9``), and
#: the most a spec may ask for (``ismcts:time_limit=3600`` is refused).
MAX_SEARCH_SECONDS = 10.0
#: How often a worker process looks whether the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0
#: How long past its own budget a bot may take before it plays its quick choice (the heuristic) instead.
GRACE_SECONDS = 20.0


@dataclass(frozen=True)
class LevelInfo:
    name: Level
    agent: str
    think_seconds: float


def level_info(game: str, level: Level) -> LevelInfo:
    """The agent behind a level: easy = random, normal = the game's heuristic, hard = ISMCTS with a time budget."""
    if level == "easy":
        return LevelInfo(level, "random", 0.0)
    if level == "normal":
        if "heuristic" in agent_names(game):
            return LevelInfo(level, "heuristic", 0.0)
        return LevelInfo(level, "ismcts:iterations=200:time_limit=1", 1.0)
    return LevelInfo(level, f"ismcts:iterations=1000000:time_limit={HARD_SECONDS:g}", HARD_SECONDS)


def capped_spec(spec: str) -> str:
    """A search agent's spec with a time limit (a server must not think forever for anyone).

    >>> capped_spec("ismcts:iterations=5000")
    'ismcts:iterations=5000:time_limit=10'
    >>> capped_spec("ismcts:time_limit=1"), capped_spec("heuristic")
    ('ismcts:time_limit=1', 'heuristic')
    >>> capped_spec("ismcts:time_limit=3600")
    Traceback (most recent call last):
    ValueError: time_limit is a number of seconds above 0 and at most 10 here, not 3600
    """
    name, options = parse_agent_spec(spec)
    budget = options.get("time_limit")
    if budget is not None and (not isinstance(budget, int | float) or isinstance(budget, bool)
                               or not 0 < budget <= MAX_SEARCH_SECONDS):
        raise ValueError(f"time_limit is a number of seconds above 0 and at most {MAX_SEARCH_SECONDS:g} here, "
                         f"not {budget!r}")
    if name == "ismcts" and budget is None:
        return f"{spec}:time_limit={MAX_SEARCH_SECONDS:g}"
    return spec


def think_limit(spec: str) -> float:
    """Seconds after which a bot's decision is given up (its time limit, if any, plus a grace)."""
    _name, options = parse_agent_spec(spec)
    budget = options.get("time_limit")
    return (float(budget) if isinstance(budget, int | float) else 0.0) + GRACE_SECONDS


def agent_labels(game: str) -> list[dict[str, str]]:
    labels = {"random": "Random", "heuristic": "Heuristic", "ismcts": "ISMCTS search", "planner": "Planner"}
    return [{"name": n, "label": labels.get(n, n.title())} for n in agent_names(game)]


def build_agent(game: Game[Any, Any], spec: str, table_seed: int, seat: int) -> Agent:
    """The agent of one bot seat (raises ``ValueError``/``UnknownAgentError`` for a bad spec)."""
    agent = make_agent(spec, game, seed=derive_seed(table_seed, "agent", seat))
    agent.reset()
    return agent


#: Agents that search for their whole time budget: they think in worker processes.
SEARCH_AGENTS = frozenset({"ismcts"})


def is_search(spec: str) -> bool:
    return parse_agent_spec(spec)[0] in SEARCH_AGENTS


def think_in_process(spec: str, seed: int, snapshot: State[Any, Any], seat: int) -> str:
    """Run in a worker process: a fresh agent decides for ``seat``; its action comes back as text."""
    game = snapshot.game
    agent = make_agent(spec, game, seed=seed)
    agent.reset()
    return game.action_to_str(agent.act(observe(snapshot, seat)))


def _import_agents() -> None:
    """Run in each new worker process, so the first real decision does not pay for the imports."""
    from holotable.agents.base import _load_builtin_agents

    _load_builtin_agents()


def _start_worker(parent: int) -> None:
    """Run first in each new worker process: it ends itself once the server that started it is gone
    (a ``kill -9`` gives the server no chance to stop it; its parent becomes another process), then
    loads the agents."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="holotable-parent-watch", daemon=True).start()
    _import_agents()


class BotPool:
    """Runs bots off the event loop: quick agents in threads, search agents in processes."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = max(1, workers)
        self.threads = concurrent.futures.ThreadPoolExecutor(max_workers=self.workers,
                                                             thread_name_prefix="holotable-bot")
        self._processes: concurrent.futures.ProcessPoolExecutor | None = None
        #: one slot per worker for the search bots: a search that finds every slot taken waits in line
        #: (its seat shows "queued") rather than sit unseen in the executor's queue, eating its time limit
        self._search_slots: asyncio.Semaphore | None = None

    @property
    def processes(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._processes is None:  # started on the first search, so a server without one starts none
            # spawn, not fork: the server has threads running, and a forked child would inherit their locks.
            self._processes = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(os.getpid(),))
        return self._processes

    def warm(self, specs: list[str]) -> None:
        """Start the worker processes now if a table has a search bot (they take a moment to start)."""
        if any(is_search(s) for s in specs) and self._processes is None:
            for _ in range(self.workers):
                self.processes.submit(_import_agents)

    async def think(self, agent: Agent, spec: str, seed: int, snapshot: State[Any, Any], seat: int,
                    limit: float, period: PeriodTime | None = None,
                    queued: Callable[[bool], None] | None = None) -> Any:
        """The action of the agent of ``spec`` for ``seat``, from that seat's observation of ``snapshot``
        only (``agent`` is used in a thread; a search agent is rebuilt in a worker process with ``seed``).
        ``period``: the running game period, given to an agent in a thread as ``obs.period`` (a live
        one may then answer :class:`~holotable.agents.live.Wait`); a search agent gets none.
        A search waits for a free worker first; ``queued(True)`` is called when it has to wait and
        ``queued(False)`` when its wait is over (thinking starts, or it gave up).
        Raises ``TimeoutError`` after ``limit`` seconds waiting for a worker, or ``limit`` seconds of
        thinking (the worker is left to finish on its own)."""
        if is_search(spec):
            if self._search_slots is None:
                self._search_slots = asyncio.Semaphore(self.workers)
            slots = self._search_slots
            waits = slots.locked()
            if waits and queued is not None:
                queued(True)
            try:
                await asyncio.wait_for(slots.acquire(), timeout=limit)
            finally:
                if waits and queued is not None:
                    queued(False)
            try:
                return await self._think_search(agent, spec, seed, snapshot, seat, limit)
            finally:
                slots.release()
        return await self._think_here(agent, snapshot, seat, limit, period)

    async def _think_here(self, agent: Agent, snapshot: State[Any, Any], seat: int, limit: float,
                          period: PeriodTime | None = None) -> Any:
        """Think in one of the pool's threads."""
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(self.threads, agent.act, observe(snapshot, seat, period))
        return await asyncio.wait_for(job, timeout=limit)

    async def _think_search(self, agent: Agent, spec: str, seed: int, snapshot: State[Any, Any], seat: int,
                            limit: float) -> Any:
        """A search agent thinks in a worker process (a pool with other workers overrides this)."""
        loop = asyncio.get_running_loop()
        try:
            job = loop.run_in_executor(self.processes, think_in_process, spec, seed, snapshot, seat)
            return await asyncio.wait_for(job, timeout=limit)
        except (BrokenProcessPool, pickle.PicklingError) as exc:
            # A worker died (or the state would not travel): think here this time, with a fresh pool next.
            log.warning("bot worker process failed (%s); thinking in a thread instead", exc)
            if isinstance(exc, BrokenProcessPool):
                self._processes = None
        return await self._think_here(agent, snapshot, seat, limit)

    def close(self) -> None:
        """Stop every bot now: queued work is dropped and worker processes end, even mid-search."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        pool, self._processes = self._processes, None
        if pool is not None:
            # The pool's own record of its workers (Python 3.14 has terminate_workers() for this): a
            # shutdown alone lets a busy worker search on after the server has gone.
            workers = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                with contextlib.suppress(OSError, ValueError):
                    worker.terminate()
