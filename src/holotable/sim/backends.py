"""Where simulated games are played: in this process, in a pool of local processes, or on a Ray cluster.

Every backend plays the same :class:`Chunk` of games with the same function, :func:`play_chunk`, and a
game's result depends only on the run's seed and the game's index, so a run gives the same records on
every backend, whatever the number of workers and however the games were cut into chunks.

:func:`play_games` hands out the chunks. It sizes them from the time the last chunk took per game, aiming
at :data:`TARGET_CHUNK_SECONDS` of work each: long enough that sending a chunk and its results costs
next to nothing, short enough that the progress bar moves, that a results file is written often and that
the last chunks end close together. Each worker has two chunks queued, so it never waits for the next.

Ray is imported only when the ``ray`` backend is opened.

>>> with open_backend("local", None, 1) as backend:
...     backend.name, backend.slots
('local', 1)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from holotable.engine import Config, ConfigError, Game, derive_seed, load

from .hooks import measures_for, seat_measures_for
from .record import GameRecord
from .runner import make_agents, play_game

#: The backends :func:`open_backend` knows.
BACKENDS = ("local", "ray")

#: Seconds of play aimed at per chunk (see the module docstring).
TARGET_CHUNK_SECONDS = 0.25

#: One game's work: its index and the agent at each seat.
Work = tuple[int, tuple[str, ...]]


@dataclass(frozen=True)
class Chunk:
    """A picklable slice of a run: some games of one configuration."""

    game: str
    players: int
    #: ``make_config(players, **dict(params))`` rebuilds the configuration (``Config.params`` pairs).
    params: tuple[tuple[str, Any], ...]
    seed: int
    games: tuple[Work, ...]


@dataclass(frozen=True)
class ChunkResult:
    """A chunk's records, and the seconds they took."""

    records: tuple[GameRecord, ...]
    #: Seconds spent playing (building the configuration excluded), to size the next chunks.
    seconds: float


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play a chunk's games (in whatever process runs it)."""
    game = load(chunk.game)
    config = game.spec.make_config(chunk.players, **dict(chunk.params))
    start = time.perf_counter()
    records = tuple(play_one(game, config, chunk.seed, index, names) for index, names in chunk.games)
    return ChunkResult(records, time.perf_counter() - start)


def play_one(game: Game[Any, Any], config: Config, seed: int, index: int, names: tuple[str, ...]) -> GameRecord:
    """Game ``index`` of the run with master seed ``seed``: its own seed, its own fresh agents."""
    game_seed = derive_seed(seed, "game", index)
    state, result = play_game(game, config, game_seed, make_agents(game, names, game_seed))
    out = result.outcome
    measure = measures_for(game)
    measured = () if measure is None else tuple((k, float(v)) for k, v in measure(state).items())
    per_seat = seat_measures_for(game)
    seat_measured = () if per_seat is None else tuple(
        tuple((k, float(v)) for k, v in seat.items()) for seat in per_seat(state)
    )
    return GameRecord(index, game_seed, names, tuple(out.scores), tuple(out.ranks), out.winners, result.steps,
                      out.reason, measured, seat_measured)


class Backend(Protocol):
    """Plays chunks, several at a time."""

    name: str

    @property
    def slots(self) -> int:
        """How many chunks run at once."""
        ...

    def start(self) -> None:
        """Get ready to play (connect to the cluster); nothing to do when ready already."""
        ...

    def submit(self, chunk: Chunk) -> Future[ChunkResult]: ...

    def cancel(self) -> None:
        """Drop the chunks not yet finished (after an error or an interruption)."""
        ...


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


# ------------------------------------------------------------------------------------------------- local


class InProcessBackend:
    """Plays each chunk at once, in this process (one worker)."""

    name = "local"
    slots = 1

    def start(self) -> None:
        pass

    def submit(self, chunk: Chunk) -> Future[ChunkResult]:
        future: Future[ChunkResult] = Future()
        future.set_result(play_chunk(chunk))  # an error propagates at once: nothing else is running
        return future

    def cancel(self) -> None:
        pass


class ProcessPoolBackend:
    """A pool of local worker processes, started when the first chunk comes."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future[ChunkResult]] = []

    @property
    def slots(self) -> int:
        return self._workers

    def start(self) -> None:
        pass  # the pool forks when the first chunk comes: a run with nothing left to play starts none

    def submit(self, chunk: Chunk) -> Future[ChunkResult]:
        if self._pool is None:
            context = multiprocessing.get_context(_start_method())
            self._pool = ProcessPoolExecutor(self._workers, mp_context=context, initializer=_init_worker,
                                             initargs=(os.getpid(),))
        future = self._pool.submit(play_chunk, chunk)
        self._futures = [f for f in self._futures if not f.done()] + [future]
        return future

    def cancel(self) -> None:
        for future in self._futures:
            future.cancel()

    def close(self) -> None:
        if self._pool is not None:
            # Queued chunks are dropped; the few running ones finish (a fraction of a second each).
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _start_method() -> str:
    """Fork on Linux, so that workers inherit games and agents registered at run time
    (by a script or a test), not only the importable ones; spawn elsewhere, where
    fork is unsafe or missing. Callers should not run threads while a pool forks
    (the CLI's progress bar is refreshed by hand for that reason)."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


def _init_worker(parent: int) -> None:
    # Ctrl-C reaches the whole process group: the parent handles it (cancels, keeps the results
    # file consistent) and shuts the pool down; the workers finish their chunk instead of dying noisily.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent killed outright (SIGKILL) cannot shut the pool down; then a worker would wait forever
    # on a queue that its siblings keep open. Each worker leaves when it sees it has been orphaned.
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True, name="orphan-watch").start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


# --------------------------------------------------------------------------------------------------- ray


class RayBackend:
    """Chunks run as Ray tasks (one CPU each) on an existing cluster, or on a Ray started for the run."""

    name = "ray"

    def __init__(self, address: str | None, workers: int | None) -> None:
        self._address = address
        self._workers = workers
        self._ray: Any = None
        self._remote: Any = None
        self._owned = False
        self._slots = 0
        self._refs: list[Any] = []

    def start(self) -> None:
        """Connect (or start a local Ray); raises :class:`ConfigError` when that is impossible."""
        if self._ray is not None:
            return
        # Opt out of Ray's usage statistics unless the user chose otherwise.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            import ray
        except ImportError:
            raise ConfigError("the ray backend needs Ray: pip install 'holotable[cluster]'") from None
        if not ray.is_initialized():
            _check_reachable(self._address)
            options: dict[str, Any] = {"logging_level": "warning", "log_to_driver": False}
            if self._address is None or self._address == "local":
                options["include_dashboard"] = False
                if self._workers is not None and self._address == "local":
                    options["num_cpus"] = self._workers
            try:
                ray.init(address=self._address, **options)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                where = self._address or "RAY_ADDRESS or a new local Ray"
                raise ConfigError(f"cannot connect to the Ray cluster ({where}): {exc}") from exc
            self._owned = True
        self._ray = ray
        self._remote = ray.remote(num_cpus=1)(play_chunk)
        cpus = int(self._ray.cluster_resources().get("CPU", 0))
        self._slots = self._workers or max(1, cpus)

    @property
    def slots(self) -> int:
        self.start()
        return self._slots

    def submit(self, chunk: Chunk) -> Future[ChunkResult]:
        self.start()
        ref = self._remote.remote(chunk)
        self._refs = [*self._refs[-4 * self._slots :], ref]
        future: Future[ChunkResult] = ref.future()
        return future

    def cancel(self) -> None:
        if self._ray is not None:
            for ref in self._refs:
                self._ray.cancel(ref)

    def close(self) -> None:
        if self._owned and self._ray is not None:
            self._ray.shutdown()
        self._ray = None


def _check_reachable(address: str | None) -> None:
    """Fail fast on a ``host:port`` nobody listens at (Ray itself would retry for minutes)."""
    if address in (None, "auto"):
        address = os.environ.get("RAY_ADDRESS") or None  # what Ray will use; else it looks for itself
    if address is None or address in ("auto", "local") or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ConfigError(f"a Ray address is host:port (or 'auto'), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise ConfigError(f"no Ray cluster answers at {address}: {exc}") from exc


# ------------------------------------------------------------------------------------------------ common


def check_backend(backend: str, address: str | None, workers: int | None) -> None:
    """Raise :class:`ConfigError` for options that do not fit together, before anything starts."""
    if backend not in BACKENDS:
        raise ConfigError(f"no backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ConfigError(f"workers must be at least 1, got {workers}")
    if address is not None and backend != "ray":
        raise ConfigError("--address names a Ray cluster; use it with --backend ray")


@contextmanager
def open_backend(backend: str, address: str | None, workers: int | None) -> Iterator[Backend]:
    """The backend asked for; ``workers=None`` uses every local core, or every CPU of the Ray cluster."""
    check_backend(backend, address, workers)
    if backend == "ray":
        ray_backend = RayBackend(address, workers)
        try:
            yield ray_backend
        finally:
            ray_backend.cancel()
            ray_backend.close()
        return
    count = workers if workers is not None else available_cores()
    if count == 1:
        yield InProcessBackend()
        return
    pool = ProcessPoolBackend(count)
    try:
        yield pool
    finally:
        pool.cancel()
        pool.close()


def play_games(
    backend: Backend,
    make_chunk: Callable[[tuple[Work, ...]], Chunk],
    work: Sequence[Work],
    on_done: Callable[[Sequence[GameRecord]], None],
) -> None:
    """Play every game of ``work`` on ``backend``, calling ``on_done(records)`` as each chunk finishes
    (in the calling thread, in the order chunks finish). An exception (from a game or from ``on_done``)
    cancels what is still queued and propagates."""
    pending: deque[Work] = deque(work)
    if not pending:
        return
    slots = backend.slots if len(pending) > 1 else 1
    queued = 1 if isinstance(backend, InProcessBackend) else 2 * slots
    per_game: float | None = None  # seconds, from the last chunk
    running: set[Future[ChunkResult]] = set()
    try:
        while pending or running:
            while pending and len(running) < queued:
                size = _chunk_size(per_game, len(pending), slots)
                running.add(backend.submit(make_chunk(tuple(pending.popleft() for _ in range(size)))))
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                result = future.result()
                if result.records:
                    per_game = result.seconds / len(result.records)
                on_done(result.records)
    except BaseException:
        backend.cancel()
        raise


def _chunk_size(per_game: float | None, pending: int, slots: int) -> int:
    """Games in the next chunk: about :data:`TARGET_CHUNK_SECONDS` of play, but never more than a share
    of what is left that keeps every worker busy to the end (chunks shrink as the run ends).

    >>> _chunk_size(None, 1000, 2), _chunk_size(0.001, 1000, 2), _chunk_size(0.001, 40, 2), _chunk_size(2.0, 9, 2)
    (1, 250, 10, 1)
    """
    if per_game is None:
        return 1  # the first chunks measure how long a game takes
    want = max(1, round(TARGET_CHUNK_SECONDS / per_game)) if per_game > 0 else pending
    share = math.ceil(pending / (2 * slots))
    return max(1, min(want, share, pending))
