"""Search bots that think on a Ray cluster (``holotable serve --bots ray``).

:class:`RayBotPool` is a :class:`~holotable.server.bots.BotPool` whose search agents (ISMCTS) think as
Ray tasks, one CPU each, anywhere on the cluster, instead of in this machine's worker processes. A task
runs the very function a worker process runs, :func:`~holotable.server.bots.think_in_process`, with the
same arguments (the agent's spec, its seed, the snapshot of the table and the seat), so a bot chooses
the same action on Ray as it does locally. Quick agents (random, heuristics) still think in this
server's threads: they answer in milliseconds, less than a trip to the cluster takes.

Ray is connected (or started) the way the simulation lab's Ray backend does it
(:class:`holotable.sim.backends.RayBackend`), and imported only when a pool is made. Every node of the
cluster needs this holotable installed, with the ``server`` and ``cluster`` extras.
"""

from __future__ import annotations

import asyncio
import contextlib
import pickle
from typing import Any

from holotable.agents.base import Agent
from holotable.engine import State

from .bots import BotPool, _import_agents, is_search, log, think_in_process


class _NotOnRay(Exception):
    """Ray could not run a search (its worker or node died, the snapshot would not travel, the pool is closed)."""


class RayBotPool(BotPool):
    """Runs bots off the event loop: quick agents in threads, search agents as Ray tasks.

    ``address``: ``None`` starts a Ray on this machine for the server (``workers`` CPUs, no dashboard),
    shut down with the pool; ``"host:port"`` or ``"auto"`` (``RAY_ADDRESS``, or the Ray that ``ray start``
    runs here) connects to a running cluster, which the pool leaves running. A Ray that this process had
    already started or joined is used as it is. Raises :class:`~holotable.engine.ConfigError` when Ray is
    not installed or the cluster cannot be reached.
    """

    def __init__(self, workers: int = 2, address: str | None = None) -> None:
        from holotable.sim.backends import RayBackend

        super().__init__(workers)
        # "local": always a Ray of its own, sized for the bots (never one RAY_ADDRESS happens to name).
        self._backend: RayBackend | None = RayBackend("local" if address is None else address,
                                                      self.workers if address is None else None)
        try:
            self._backend.start()
        except BaseException:
            super().close()
            raise
        import ray

        self._ray: Any = ray
        self._remote: Any = ray.remote(num_cpus=1)(think_in_process)
        self._warm_up: Any = ray.remote(num_cpus=1)(_import_agents)
        self._warmed = False
        #: The searches now running on the cluster (cancelled when they time out, or when the pool closes).
        self.tasks: set[Any] = set()

    def warm(self, specs: list[str]) -> None:
        """Have the cluster's workers load the agents now if a table has a search bot (fire and forget)."""
        if self._warmed or self._remote is None or not any(is_search(s) for s in specs):
            return
        self._warmed = True
        for _ in range(self.workers):
            self._warm_up.remote()

    async def _think_search(self, agent: Agent, spec: str, seed: int, snapshot: State[Any, Any], seat: int,
                            limit: float) -> Any:
        """A search agent thinks in a Ray task; after ``limit`` seconds (``TimeoutError``) the task is
        cancelled. When Ray fails (a worker or node died, the snapshot would not travel) the search is
        thought in one of this server's threads this time, as :class:`BotPool` does when a worker
        process dies; an error of the agent itself propagates, as it does from a worker process."""
        try:
            if self._remote is None:
                raise _NotOnRay("the pool's connection to Ray is closed")
            try:
                ref = self._remote.remote(spec, seed, snapshot, seat)
            except (TypeError, pickle.PicklingError) as exc:  # Ray's "Could not serialize the argument"
                first = str(exc).strip().splitlines()[:1] or [type(exc).__name__]  # Ray's report runs on
                raise _NotOnRay(f"the snapshot cannot be sent to Ray: {first[0]}") from exc
            self.tasks.add(ref)
            try:
                return await asyncio.wait_for(asyncio.wrap_future(ref.future()), timeout=limit)
            except (TimeoutError, asyncio.CancelledError):
                self._cancel(ref)  # out of time, or the table stopped: the cluster's CPU is freed now
                raise
            except self._ray.exceptions.RayTaskError:
                raise  # the agent's own error (also an instance of that error's class)
            except self._ray.exceptions.RayError as exc:
                raise _NotOnRay(f"the Ray task failed: {type(exc).__name__}: {exc}") from exc
            finally:
                self.tasks.discard(ref)
        except _NotOnRay as exc:
            log.warning("bot search on Ray failed (%s); thinking in a thread instead", exc)
        return await self._think_here(agent, snapshot, seat, limit)

    def _cancel(self, ref: Any) -> None:
        # force: a search does not look for interruptions; Ray ends the worker process (and starts another).
        with contextlib.suppress(Exception):  # already finished, or Ray already gone: nothing to stop
            self._ray.cancel(ref, force=True)

    def close(self) -> None:
        """Stop every bot now: threads' queued work is dropped, the searches running on the cluster are
        cancelled, and a Ray that this pool started is shut down (a cluster it joined keeps running)."""
        super().close()
        self._remote = None
        for ref in list(self.tasks):
            self._cancel(ref)
        self.tasks.clear()
        backend, self._backend = self._backend, None
        if backend is not None:
            backend.close()
