"""`holotable serve` under load: 1 and 2 server processes on one PostgreSQL, loopback only.

    .venv/bin/python benchmarks/server_load.py                      # the defaults (about a minute)
    .venv/bin/python benchmarks/server_load.py --quick              # a few seconds per scenario, few tables
    .venv/bin/python benchmarks/server_load.py --json out.json --markdown out.md [--strict]

It starts one throwaway PostgreSQL cluster (tests/support/services.py, the same one the tests use) and,
per scenario, a fresh database and 1 or 2 `holotable serve` processes on it (free loopback ports, quotas
off, ``--bot-workers 1``). Each process gets ``--tables`` human tables of Captain Black for 2 players
(sequential, the cheapest game to play) with both seats joined and ``--sockets-per-table`` WebSockets
(seat 0, seat 1, then spectators). With 2 processes each table's sockets, joins and moves go to both
processes round-robin, as behind a proxy without sticky sessions, so every move is announced across
processes (PostgreSQL ``NOTIFY``).

One driver coroutine per table plays: it waits for the frame of the seat to move on that seat's socket,
picks a random legal action and POSTs it with its ply. A finished game is replaced by a new table. Each
scenario has three phases after the set-up:

* **warm-up** (``--warmup`` s, not reported);
* **paced** (``--seconds`` s): every table moves once every ``--move-every`` s (a human pace), so the
  load is fixed and the latency figures mean something; the latency goal is checked here;
* **flat out** (``--seconds`` s): every driver moves as soon as its turn's frame arrives (closed loop,
  one move in flight per table): the most moves a second the processes serve; the scaling goal is
  checked here.

Latency is measured by an **independent probe**, a separate process with its own connection and its own
table: every 50 ms one ``GET .../state`` and one move, each timed (round-robin over the processes).
Server CPU (each process and its children, and PostgreSQL) comes from ``/proc/<pid>/stat``; the load
generator's and the probe's own CPU and the rest of the machine's (``/proc/stat`` minus all of those)
are reported too, because on a small machine all of them share the same cores. Errors are any HTTP
answer other than 2xx (a 409 is counted apart: a process that has not yet heard another's move refuses a
fresh ply as stale, and the driver tries again), any socket that closes unasked, any error frame, any
exception, and any ERROR or traceback in a server's log. The figures and goals are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
GAME = "captain-black"
PLAYERS = 2
PROBE_INTERVAL_S = 0.05
CATCH_UP_RETRIES = 200  # 409s in a row for one move before it counts as an error
FRAME_TIMEOUT_S = 15.0  # a turn's frame that takes longer is an error (the socket went quiet)

# The goals (issue 21, point 6), checked on figures measured in the same run.
MIN_SCALING = 1.7
MAX_P99_MS = 100.0
GOAL_TABLES = 200
GOAL_SOCKETS = 600

QUOTAS_OFF = ["--tables-per-hour", "0", "--sockets-per-client", "0", "--sockets-per-table", "0",
              "--messages-per-second", "0", "--bot-workers", "1"]


def services() -> ModuleType:
    """tests/support/services.py, loaded by path: one way to start PostgreSQL and `holotable serve`."""
    name = "holotable_bench_services"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "support" / "services.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


# --- CPU accounting (/proc) -------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2:].split()  # after "pid (comm) "; comm may hold spaces


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None:
                kids.setdefault(int(fields[1]), []).append(int(entry))
    return kids


def tree_cpu(root: int, kids: dict[int, list[int]] | None = None) -> float:
    """CPU seconds (user + system) of ``root`` and every live descendant."""
    kids = _children() if kids is None else kids
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        fields = _stat_fields(pid)
        if fields is not None:
            # utime, stime, and cutime, cstime: the children it has reaped (PostgreSQL's ended backends)
            total += (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / TICK
        todo.extend(kids.get(pid, ()))
    return total


def machine_busy() -> float:
    """CPU seconds every process on the machine has used since boot (user..steal, not idle/iowait)."""
    with open("/proc/stat", encoding="utf-8") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK


def postmaster_pid(data_dir: Path) -> int | None:
    """The PostgreSQL cluster's postmaster, found by its data directory on its command line."""
    needle = str(data_dir).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if needle in cmdline and cmdline.split(b"\0", 1)[0].endswith(b"postgres"):
            return int(entry)
    return None


@dataclass
class CpuSample:
    at: float
    busy: float
    servers: list[float]
    postgres: float
    loadgen: float
    probe: float
    pg_sessions: int | None = None


def pg_sessions(database_url: str) -> int | None:
    """How many sessions (connections) PostgreSQL has opened to the database so far, this one included."""
    try:
        import psycopg

        dsn = database_url.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(dsn, autocommit=True) as conn:
            row = conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()").fetchone()
    except Exception:
        return None
    return None if row is None or row[0] is None else int(row[0])


def sample_cpu(server_pids: Sequence[int], pg_pid: int | None, probe_pid: int | None,
               database_url: str | None = None) -> CpuSample:
    sessions = pg_sessions(database_url) if database_url else None
    kids = _children()
    own = os.times()
    return CpuSample(
        at=time.time(), busy=machine_busy(), servers=[tree_cpu(p, kids) for p in server_pids],
        postgres=tree_cpu(pg_pid, kids) if pg_pid else 0.0, loadgen=own.user + own.system,
        probe=tree_cpu(probe_pid, kids) if probe_pid else 0.0, pg_sessions=sessions)


# --- statistics -------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-quantile (0..1) by the nearest-rank method; None without values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(q * len(ordered) + 0.999999)))
    return ordered[rank - 1]


def summary_ms(values: Sequence[float]) -> dict[str, float | int | None]:
    return {"n": len(values), "p50": percentile(values, 0.50), "p99": percentile(values, 0.99),
            "max": max(values) if values else None,
            "mean": statistics.fmean(values) if values else None}


@dataclass
class PhaseStats:
    """What the load drivers saw in one phase."""

    moves: int = 0
    requests: Counter[int] = field(default_factory=Counter)  # HTTP requests per process index
    conflicts: int = 0  # 409 answers (the driver tried again)
    frames: int = 0
    tables_created: int = 0
    sockets_opened: int = 0
    move_ms: list[float] = field(default_factory=list)  # the driver's own POST times (not the probe)
    push_ms: list[float] = field(default_factory=list)  # POST answered -> the next mover's frame arrived
    loop_lag_ms: list[float] = field(default_factory=list)  # the load generator's event-loop lag
    live_tables: list[int] = field(default_factory=list)  # sampled twice a second: tables with every socket open
    live_sockets: list[int] = field(default_factory=list)  # and sockets open


class Errors:
    """Every error, counted by kind, the first few in full."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.examples: list[str] = []

    def add(self, kind: str, detail: str = "") -> None:
        self.counts[kind] += 1
        if len(self.examples) < 30:
            self.examples.append(f"{kind}: {detail}"[:400])

    @property
    def total(self) -> int:
        return sum(self.counts.values())


# --- the load generator ----------------------------------------------------------------------------------


class HttpConnection:
    """A minimal HTTP/1.1 keep-alive client on one loopback connection, one request at a time.

    The load drivers use it instead of httpx, whose per-request cost (a few hundred microseconds of
    pool and header handling) made the load generator the bottleneck; the answers are read whole
    (``Content-Length``, or chunked) and the connection is opened again after an error or a close."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, token: str | None = None, body: Any = None,
                      timeout: float = 30.0) -> tuple[int, bytes]:
        async with asyncio.timeout(timeout):
            for attempt in range(2):
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                    fresh = True
                else:
                    fresh = False
                assert self.reader is not None
                data = b"" if body is None else json.dumps(body).encode()
                head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                if token:
                    head += f"Authorization: Bearer {token}\r\n"
                if body is not None:
                    head += "Content-Type: application/json\r\n"
                head += f"Content-Length: {len(data)}\r\n\r\n"
                try:
                    self.writer.write(head.encode() + data)
                    status_line = await self.reader.readline()
                    if not status_line:
                        raise ConnectionResetError("the server closed the connection")
                except (ConnectionError, asyncio.IncompleteReadError):
                    await self.close()
                    if fresh or attempt:
                        raise
                    continue  # a kept-alive connection the server had closed: once more on a new one
                return await self._answer(status_line)
        raise AssertionError("unreachable")

    async def _answer(self, status_line: bytes) -> tuple[int, bytes]:
        assert self.reader is not None
        status = int(status_line.split(b" ", 2)[1])
        length, chunked, close = 0, False, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif name == b"connection" and b"close" in value.lower():
                close = True
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                parts.append(await self.reader.readexactly(size + 2))
                if size == 0:
                    break
            content = b"".join(p[:-2] for p in parts)
        else:
            content = await self.reader.readexactly(length)
        if close:
            await self.close()
        return status, content

    async def close(self) -> None:
        writer, self.writer, self.reader = self.writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


class Table:
    """One table under load: its seats' tokens, its sockets' latest states, its driver."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.id = ""
        self.tokens: dict[int, str] = {}
        self.latest: dict[int, dict[str, Any]] = {}  # per seat: the last state frame's ply/status/to_move/legal
        self.changed = asyncio.Event()
        self.sockets: list[Any] = []
        self.readers: list[asyncio.Task[None]] = []
        self.http: dict[int, HttpConnection] = {}  # per process: this table's own keep-alive connection
        self.closing = False
        self.moves = 0


class Load:
    """The load generator of one scenario: makes the tables, opens the sockets, drives the moves."""

    def __init__(self, urls: Sequence[str], options: Options, errors: Errors) -> None:
        self.urls = list(urls)
        self.n = len(urls)
        self.addresses = [(u.split("//", 1)[1].rsplit(":", 1)[0], int(u.rsplit(":", 1)[1])) for u in urls]
        self.options = options
        self.errors = errors
        self.tables_wanted = options.tables * self.n
        self.tables: list[Table] = []
        self.phase = "setup"
        self.stats: dict[str, PhaseStats] = {"setup": PhaseStats()}
        self.phase_changed = asyncio.Event()
        self.stopping = False
        self.seeds = iter(range(options.seed * 1_000_003, 1 << 62))
        self.setup_s = 0.0
        self.setup_sockets_s = 0.0

    def stopped(self) -> bool:
        return self.stopping

    @property
    def now_stats(self) -> PhaseStats:
        return self.stats[self.phase]

    def set_phase(self, name: str) -> None:
        self.phase = name
        self.stats.setdefault(name, PhaseStats())
        self.phase_changed.set()
        self.phase_changed = asyncio.Event()

    async def close(self) -> None:
        self.stopping = True
        self.phase_changed.set()
        for table in self.tables:
            await self._close_sockets(table)
            for conn in table.http.values():
                await conn.close()

    # -- requests
    async def request(self, table: Table, proc: int, method: str, path: str, *, token: str | None = None,
                      body: Any = None) -> tuple[int, Any]:
        """One HTTP request of ``table``'s driver to process ``proc``: its status and JSON answer (an exception
        is an error, -1)."""
        conn = table.http.get(proc)
        if conn is None:
            conn = table.http[proc] = HttpConnection(*self.addresses[proc])
        self.now_stats.requests[proc] += 1
        try:
            status, content = await conn.request(method, path, token, body)
        except Exception as exc:
            await conn.close()
            self.errors.add("http exception", f"{method} {path} on process {proc}: {exc!r}")
            return -1, None
        try:
            data = json.loads(content)
        except ValueError:
            data = content[:200]
        if status >= 300 and status != 409:
            self.errors.add(f"HTTP {status}", f"{method} {path} on process {proc}: {str(data)[:200]}")
        return status, data

    # -- set-up
    async def make_table(self, table: Table) -> bool:
        """Create the table on one process and join its second seat through the next one."""
        table.id, table.tokens, table.latest = "", {}, {}
        proc = table.index % self.n
        status, made = await self.request(table, proc, "POST", "/api/tables", body={
            "game": GAME, "players": PLAYERS, "seed": next(self.seeds), "seats": [{"kind": "human"}] * PLAYERS})
        if status != 201:
            if status != -1 and status < 300:
                self.errors.add("create", f"status {status}")
            return False
        table.id = made["table_id"]
        table.tokens[made["you"]["seat"]] = made["you"]["token"]
        for k in range(1, PLAYERS):
            status, joined = await self.request(table, (proc + k) % self.n, "POST", f"/api/tables/{table.id}/join",
                                                body={"invite": made["invite"]})
            if status != 200:
                if status == 409:  # (request() lets a 409 pass: here it is an error)
                    self.errors.add("join", f"table {table.id}: HTTP 409 {str(joined)[:200]}")
                table.id = ""
                return False
            table.tokens[joined["seat"]] = joined["token"]
        self.now_stats.tables_created += 1
        return True

    async def open_sockets(self, table: Table) -> bool:
        """Seat 0, seat 1, then spectators, spread over the processes; wait until every seat socket shows
        the game running (on a second process the joins arrive by NOTIFY)."""
        from websockets.asyncio.client import connect

        table.closing = False
        for j in range(self.options.sockets_per_table):
            seat = j if j < PLAYERS else None
            proc = (table.index + j) % self.n
            token = table.tokens[seat] if seat is not None else ""
            url = f"ws{self.urls[proc].removeprefix('http')}/ws/tables/{table.id}?token={token}"
            try:
                ws = await connect(url, open_timeout=30, ping_interval=None, close_timeout=2, max_size=2**22,
                                   compression="deflate" if self.options.compression else None)
            except Exception as exc:
                self.errors.add("socket open", f"{url}: {exc!r}")
                return False
            table.sockets.append(ws)
            table.readers.append(asyncio.create_task(self._read(table, ws, seat, proc)))
            self.now_stats.sockets_opened += 1
        deadline = time.monotonic() + FRAME_TIMEOUT_S
        while not all(table.latest.get(s, {}).get("status") == "running" for s in range(PLAYERS)):
            table.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                self.errors.add("socket first frame", f"table {table.id}: no running state on every seat socket")
                return False
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await table.changed.wait()
        return True

    async def _read(self, table: Table, ws: Any, seat: int | None, proc: int) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in ws:
                self.now_stats.frames += 1
                if seat is None:  # a spectator: counted, and checked for errors without parsing the state
                    if isinstance(message, str) and message.startswith('{"type":"error"'):
                        self.errors.add("error frame", message[:200])
                    continue
                frame = json.loads(message)
                if frame.get("type") != "state":
                    self.errors.add("error frame", str(message)[:200])
                    continue
                table.latest[seat] = {"ply": frame["ply"], "status": frame["status"], "to_move": frame["to_move"],
                                      "legal": [a["text"] for a in frame["legal"]], "at": time.perf_counter()}
                table.changed.set()
        except ConnectionClosed as exc:
            if not table.closing and not self.stopping:
                self.errors.add("socket dropped", f"table {table.id} seat {seat} process {proc}: {exc!r}")
        except Exception as exc:
            if not table.closing and not self.stopping:
                self.errors.add("socket reader", f"table {table.id}: {exc!r}")
        if not table.closing and not self.stopping:
            self.errors.add("socket ended", f"table {table.id} seat {seat} process {proc}")

    async def _close_sockets(self, table: Table) -> None:
        table.closing = True
        for ws in table.sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        for task in table.readers:
            task.cancel()
        for task in table.readers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        table.sockets, table.readers = [], []

    async def setup(self) -> None:
        started = time.perf_counter()
        self.tables = [Table(i) for i in range(self.tables_wanted)]
        limit = asyncio.Semaphore(32)

        async def make(table: Table) -> None:
            async with limit:
                await self.make_table(table)

        await asyncio.gather(*(make(t) for t in self.tables))
        made = time.perf_counter()
        self.setup_s = made - started
        ready = [t for t in self.tables if t.id]

        async def sockets(table: Table) -> None:
            async with limit:
                if not await self.open_sockets(table):
                    table.id = ""

        await asyncio.gather(*(sockets(t) for t in ready))
        self.setup_sockets_s = time.perf_counter() - made

    # -- playing
    async def pause(self, seconds: float) -> None:
        """Sleep, but wake at once when the phase changes."""
        if seconds <= 0:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self.phase_changed.wait()

    async def turn(self, table: Table, ply: int) -> tuple[int, dict[str, Any]] | None:
        """Wait for the frame of the seat to move at ``ply`` or later on its socket; None when the game is over
        or the frame never comes."""
        deadline = time.monotonic() + FRAME_TIMEOUT_S
        while not self.stopping:
            table.changed.clear()
            for seat, state in table.latest.items():
                if state["ply"] >= ply and state["status"] != "running":
                    return None
                if state["ply"] >= ply and state["legal"]:
                    return seat, state
            left = deadline - time.monotonic()
            if left <= 0:
                seen = {s: (st["ply"], st["status"], st["to_move"]) for s, st in table.latest.items()}
                self.errors.add("turn frame missing", f"table {table.id}: waited for ply {ply}, sockets show {seen}")
                return None
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(left, 1.0)):
                    await table.changed.wait()
        return None

    async def drive(self, table: Table) -> None:
        rng = random.Random(self.options.seed * 7919 + table.index)
        every = self.options.move_every
        next_at = time.monotonic() + rng.uniform(0, every)
        ply, answered = 0, time.perf_counter()
        while not self.stopping:
            if not table.id:  # its set-up failed (counted): try a new table
                if not await self.replace(table):
                    await self.pause(1.0)
                ply, answered = 0, time.perf_counter()
                continue
            if self.phase in ("warmup", "paced"):
                now = time.monotonic()
                if next_at > now:
                    await self.pause(next_at - now)
                    continue
                next_at = max(next_at + every, now - every)
            found = await self.turn(table, ply)
            if self.stopped():  # (a method: the loop's test would narrow the attribute for mypy)
                return
            if found is None:  # game over (or the frame never came): a new table takes its place
                await self.replace(table)
                ply, answered = 0, time.perf_counter()
                continue
            seat, state = found
            self.now_stats.push_ms.append((max(state["at"], answered) - answered) * 1000)
            action = state["legal"][rng.randrange(len(state["legal"]))]
            ply = await self.move(table, seat, action, state["ply"])
            answered = time.perf_counter()

    async def move(self, table: Table, seat: int, action: str, ply: int) -> int:
        """POST one action (to the next process round-robin); on a 409 try again. The ply it leads to."""
        for _ in range(CATCH_UP_RETRIES):
            proc = (table.index + table.moves) % self.n
            started = time.perf_counter()
            status, answer = await self.request(table, proc, "POST", f"/api/tables/{table.id}/actions",
                                                token=table.tokens[seat], body={"action": action, "ply": ply})
            if status == 200:
                stats = self.now_stats
                stats.move_ms.append((time.perf_counter() - started) * 1000)
                stats.moves += 1
                table.moves += 1
                return int(answer["ply"])
            if status != 409 or self.stopping:
                break
            self.now_stats.conflicts += 1
            table.moves += 1  # the next try goes to the other process
            await asyncio.sleep(0.005)
        else:
            self.errors.add("409 retries exhausted", f"table {table.id} ply {ply}")
        return ply + 1  # wait for whatever the sockets show next

    async def replace(self, table: Table) -> bool:
        await self._close_sockets(table)
        table.index += self.tables_wanted  # a new table of the same driver: the next process starts it
        return await self.make_table(table) and await self.open_sockets(table)

    async def watch_loop(self) -> None:
        """The load generator's own event-loop lag: how late a 50 ms sleep wakes."""
        ticks = 0
        while not self.stopping:
            started = time.perf_counter()
            await asyncio.sleep(0.05)
            stats = self.now_stats
            stats.loop_lag_ms.append(max(0.0, (time.perf_counter() - started - 0.05) * 1000))
            ticks += 1
            if ticks % 10 == 0:
                stats.live_tables.append(sum(1 for t in self.tables
                                             if t.id and len(t.sockets) == self.options.sockets_per_table))
                stats.live_sockets.append(sum(len(t.sockets) for t in self.tables))


# --- the probe (a separate process) ----------------------------------------------------------------------


def probe_main(urls: list[str], seed: int, limit_s: float) -> int:
    """Every 50 ms one GET of a probe table's state and one move there, timed; until stdin closes.

    Prints ``{"samples": [[t, kind, proc, ms, status], ...], "errors": [...]}`` on stdout at the end."""
    import httpx

    stop = threading.Event()

    def wait_for_eof() -> None:
        sys.stdin.read()
        stop.set()

    threading.Thread(target=wait_for_eof, daemon=True).start()
    client = httpx.Client(timeout=10.0, trust_env=False)
    samples: list[list[Any]] = []
    errors: list[str] = []
    rng = random.Random(seed)
    seeds = iter(range(seed * 1_000_003 + 500_000, 1 << 62))

    def timed(kind: str, proc: int, method: str, path: str, token: str | None = None,
              body: Any = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        started = time.perf_counter()
        try:
            response = client.request(method, urls[proc] + path, json=body, headers=headers)
        except Exception as exc:
            errors.append(f"probe {kind} {path}: {exc!r}")
            samples.append([time.time(), kind, proc, (time.perf_counter() - started) * 1000, -1])
            return -1, None
        samples.append([time.time(), kind, proc, (time.perf_counter() - started) * 1000, response.status_code])
        if response.status_code >= 300 and response.status_code != 409:
            errors.append(f"probe {kind} {path}: HTTP {response.status_code} {response.text[:200]}")
        return response.status_code, response.json() if response.content else None

    def new_table() -> tuple[str, dict[int, str]]:
        while not stop.is_set():
            status, made = timed("create", 0, "POST", "/api/tables", body={
                "game": GAME, "players": PLAYERS, "seed": next(seeds), "seats": [{"kind": "human"}] * PLAYERS})
            if status == 201:
                tokens = {made["you"]["seat"]: made["you"]["token"]}
                status, joined = timed("join", len(urls) - 1, "POST", f"/api/tables/{made['table_id']}/join",
                                       body={"invite": made["invite"]})
                if status == 200:
                    tokens[joined["seat"]] = joined["token"]
                    return made["table_id"], tokens
            time.sleep(0.5)
        return "", {}

    table_id, tokens = new_table()
    ply, mover, tick = 0, 0, 0
    next_at = time.monotonic()
    ended = time.monotonic() + limit_s
    while not stop.is_set() and time.monotonic() < ended:
        now = time.monotonic()
        if next_at > now:
            time.sleep(next_at - now)
        next_at = max(next_at + PROBE_INTERVAL_S, time.monotonic())
        proc = tick % len(urls)
        tick += 1
        status, state = timed("get", proc, "GET", f"/api/tables/{table_id}/state", token=tokens[mover])
        if status != 200:
            continue
        if state["status"] == "finished":
            table_id, tokens = new_table()
            ply, mover = 0, 0
            continue
        if state["ply"] < ply or state["status"] != "running":  # this process has not heard the last move yet
            samples.append([time.time(), "behind", proc, 0.0, 0])
            continue
        if not state["legal"]:
            mover = state["to_move"][0] if state["to_move"] else mover
            continue
        action = state["legal"][rng.randrange(len(state["legal"]))]["text"]
        status, moved = timed("move", proc, "POST", f"/api/tables/{table_id}/actions", token=tokens[mover],
                              body={"action": action, "ply": state["ply"]})
        if status == 200:
            ply = moved["ply"]
            if moved["status"] == "finished":
                table_id, tokens = new_table()
                ply, mover = 0, 0
            elif moved["to_move"]:
                mover = moved["to_move"][0]
    client.close()
    print(json.dumps({"samples": samples, "errors": errors}))
    return 0


class Probe:
    """The probe process: started before the phases, stopped (stdin closed) after them."""

    def __init__(self, urls: Sequence[str], seed: int, limit_s: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--probe-child", json.dumps(list(urls)),
             "--seed", str(seed), "--probe-limit", str(limit_s)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    @property
    def pid(self) -> int:
        return self.process.pid

    def finish(self, timeout: float = 30.0) -> dict[str, Any]:
        try:
            out, err = self.process.communicate(input="", timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return {"samples": [], "errors": ["probe did not stop in time"]}
        if self.process.returncode != 0:
            return {"samples": [], "errors": [f"probe exited with {self.process.returncode}: {err[-1500:]}"]}
        result: dict[str, Any] = json.loads(out)
        return result

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


# --- one scenario -----------------------------------------------------------------------------------------


@dataclass
class Options:
    processes: list[int]
    tables: int  # per process
    sockets_per_table: int
    seconds: float  # per measured phase
    warmup: float
    move_every: float  # the paced phase: one move per table every this many seconds
    seed: int = 1
    compression: bool = True  # the sockets ask for permessage-deflate, as browsers do


def _phase_figures(name: str, stats: PhaseStats, cpu0: CpuSample, cpu1: CpuSample, probe: dict[str, Any],
                   nproc: int) -> dict[str, Any]:
    wall = cpu1.at - cpu0.at
    samples = [s for s in probe["samples"] if cpu0.at <= s[0] <= cpu1.at]
    gets = [s[3] for s in samples if s[1] == "get" and s[4] == 200]
    moves = [s[3] for s in samples if s[1] == "move" and s[4] == 200]
    every = [s[3] for s in samples if s[1] in ("get", "move") and s[4] > 0]
    server_cpu = [b - a for a, b in zip(cpu0.servers, cpu1.servers, strict=True)]
    probe_requests = Counter(s[2] for s in samples if s[1] in ("get", "move", "create", "join"))
    requests = [stats.requests[p] + probe_requests[p] for p in range(nproc)]
    own = (sum(server_cpu) + (cpu1.postgres - cpu0.postgres) + (cpu1.loadgen - cpu0.loadgen)
           + (cpu1.probe - cpu0.probe))
    others = max(0.0, (cpu1.busy - cpu0.busy) - own)
    total_moves = stats.moves + len(moves)
    return {
        "phase": name,
        "started_at": cpu0.at,
        "wall_s": wall,
        "moves": stats.moves,
        "moves_per_s": stats.moves / wall,
        "http_requests_per_s": sum(requests) / wall,
        "requests_per_process": requests,
        "frames_per_s": stats.frames / wall,
        "conflicts_409": stats.conflicts,
        "tables_created": stats.tables_created,
        "live_tables_min": min(stats.live_tables, default=None),
        "live_sockets_min": min(stats.live_sockets, default=None),
        "live_sockets_mean": statistics.fmean(stats.live_sockets) if stats.live_sockets else None,
        "probe": {"get_ms": summary_ms(gets), "move_ms": summary_ms(moves), "all_ms": summary_ms(every),
                  "behind": sum(1 for s in samples if s[1] == "behind"),
                  # the slowest requests: [seconds into the phase, kind, process, ms, status]
                  "slowest": [[round(s[0] - cpu0.at, 3), s[1], s[2], round(s[3], 1), s[4]]
                              for s in sorted(samples, key=lambda s: -s[3])[:10]],
                  "conflicts_409": sum(1 for s in samples if s[4] == 409)},
        "driver_move_ms": summary_ms(stats.move_ms),
        "push_wait_ms": summary_ms(stats.push_ms),
        "loadgen_loop_lag_ms": summary_ms(stats.loop_lag_ms),
        "cpu": {
            "server_s": server_cpu,
            "server_cores": [c / wall for c in server_cpu],
            "server_ms_per_request": [1000 * c / r if r else None for c, r in zip(server_cpu, requests, strict=True)],
            "server_ms_per_move": 1000 * sum(server_cpu) / total_moves if total_moves else None,
            "postgres_cores": (cpu1.postgres - cpu0.postgres) / wall,
            "postgres_ms_per_move": 1000 * (cpu1.postgres - cpu0.postgres) / total_moves if total_moves else None,
            "loadgen_cores": (cpu1.loadgen - cpu0.loadgen) / wall,
            "probe_cores": (cpu1.probe - cpu0.probe) / wall,
            "other_cores": others / wall,
            "machine_cores": (cpu1.busy - cpu0.busy) / wall,
        },
        # connections PostgreSQL opened in the phase (less the one that asks): the servers' pool churn
        "pg_sessions_opened": (None if cpu0.pg_sessions is None or cpu1.pg_sessions is None
                               else cpu1.pg_sessions - cpu0.pg_sessions - 1),
    }


def server_log_errors(logs: Iterable[str]) -> list[str]:
    found = []
    for text in logs:
        for line in text.splitlines():
            if "Traceback" in line or "ERROR" in line or "Exception" in line:
                found.append(line.strip()[:300])
    return found


async def _drive_phases(load: Load, options: Options, cpu: Any) -> list[tuple[str, CpuSample, CpuSample]]:
    drivers = [asyncio.create_task(load.drive(t)) for t in load.tables]
    watcher = asyncio.create_task(load.watch_loop())
    windows = []
    try:
        for name, seconds in (("warmup", options.warmup), ("paced", options.seconds),
                              ("flat out", options.seconds)):
            load.set_phase(name)
            before = cpu()
            await asyncio.sleep(seconds)
            windows.append((name, before, cpu()))
    finally:
        load.set_phase("done")
        load.stopping = True
        load.phase_changed.set()
        for task in (*drivers, watcher):
            task.cancel()
        for task in (*drivers, watcher):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    return windows


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the load generator on uvloop where it is installed (it comes with uvicorn[standard]): a cheaper
    event loop leaves more of the machine to the servers."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def run_scenario(svc: ModuleType, pg: Any, nproc: int, options: Options, workdir: Path,
                 echo: Any) -> dict[str, Any]:
    database = pg.create_database(f"holotable_load_{nproc}p_{int(time.time())}")
    servers = [svc.LiveServer(database=database, workdir=workdir, extra_args=tuple(QUOTAS_OFF))
               for _ in range(nproc)]
    errors = Errors()
    probe: Probe | None = None
    try:
        for server in servers:
            server.start()
        urls = [s.url for s in servers]
        pg_pid = postmaster_pid(pg.data_dir)
        server_pids = [s.process.pid for s in servers]

        async def scenario() -> dict[str, Any]:
            nonlocal probe
            load = Load(urls, options, errors)
            try:
                started = time.perf_counter()
                await load.setup()
                tables = sum(1 for t in load.tables if t.id)
                sockets = sum(len(t.sockets) for t in load.tables)
                echo(f"  {nproc} process(es): {tables} tables in {load.setup_s:.1f} s, {sockets} sockets in "
                     f"{load.setup_sockets_s:.1f} s")
                limit = options.warmup + 2 * options.seconds + 60
                probe = Probe(urls, options.seed, limit)
                await asyncio.sleep(1.0)  # the probe process starts and makes its table

                def cpu() -> CpuSample:
                    return sample_cpu(server_pids, pg_pid, probe.pid if probe else None, database)

                windows = await _drive_phases(load, options, cpu)
                reached = {"tables": tables, "sockets": sockets}
                return {"setup": {"tables": tables, "sockets": sockets, "tables_s": load.setup_s,
                                  "sockets_s": load.setup_sockets_s,
                                  "tables_per_s": tables / load.setup_s if load.setup_s else None,
                                  "sockets_per_s": sockets / load.setup_sockets_s if load.setup_sockets_s else None,
                                  "wall_s": time.perf_counter() - started},
                        "reached": reached, "windows": windows, "stats": load.stats}
            finally:
                await load.close()

        outcome = run_loop(scenario())
        assert probe is not None
        probed = probe.finish()
        for line in probed["errors"]:
            errors.add("probe", line)
        phases = [_phase_figures(name, outcome["stats"][name], a, b, probed, nproc)
                  for name, a, b in outcome["windows"] if name != "warmup"]
    finally:
        if probe is not None:
            probe.kill()
        for server in servers:
            server.stop()
    logged = server_log_errors(s.log() for s in servers)
    for line in logged:
        errors.add("server log", line)
    return {
        "processes": nproc,
        "tables_per_process": options.tables,
        "sockets_per_table": options.sockets_per_table,
        "setup": outcome["setup"],
        "reached": outcome["reached"],
        "phases": phases,
        "errors": {"total": errors.total, "by_kind": dict(errors.counts), "examples": errors.examples},
    }


# --- goals and the report ---------------------------------------------------------------------------------


def _phase(scenario: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in scenario["phases"] if p["phase"] == name)


def goals(scenarios: list[dict[str, Any]], options: Options) -> list[dict[str, str]]:
    out = []
    by_n = {s["processes"]: s for s in scenarios}
    if 1 in by_n and 2 in by_n:
        one, two = _phase(by_n[1], "flat out")["moves_per_s"], _phase(by_n[2], "flat out")["moves_per_s"]
        ratio = two / one if one else 0.0
        out.append({"goal": f"2 processes serve >= {MIN_SCALING}x the moves/s of 1 (flat out)",
                    "status": "PASS" if ratio >= MIN_SCALING else "FAIL",
                    "figure": f"{ratio:.2f}x ({two:,.0f} vs {one:,.0f} moves/s)"})
    else:
        out.append({"goal": f"2 processes serve >= {MIN_SCALING}x the moves/s of 1 (flat out)", "status": "SKIP",
                    "figure": "needs both the 1- and the 2-process scenario"})
    at_scale = options.tables >= GOAL_TABLES and options.tables * options.sockets_per_table >= GOAL_SOCKETS
    for s in scenarios:
        paced = _phase(s, "paced")
        p99 = paced["probe"]["all_ms"]["p99"]
        reached = s["reached"]
        full = (at_scale and reached["tables"] >= GOAL_TABLES * s["processes"]
                and reached["sockets"] >= GOAL_SOCKETS * s["processes"])
        status = "SKIP" if not full or p99 is None else ("PASS" if p99 < MAX_P99_MS else "FAIL")
        figure = "no probe samples" if p99 is None else f"p99 {p99:.1f} ms (p50 {paced['probe']['all_ms']['p50']:.1f})"
        if not full:
            figure += f"; only {reached['tables']} tables / {reached['sockets']} sockets"
        out.append({"goal": f"{s['processes']} process(es), paced: probe p99 < {MAX_P99_MS:.0f} ms with "
                            f"{GOAL_TABLES} tables and {GOAL_SOCKETS} sockets per process",
                    "status": status, "figure": figure})
    total = sum(s["errors"]["total"] for s in scenarios)
    out.append({"goal": "0 errors", "status": "PASS" if total == 0 else "FAIL",
                "figure": f"{total} errors" + ("" if not total else ": " + ", ".join(
                    f"{k} {v}" for s in scenarios for k, v in s["errors"]["by_kind"].items()))})
    return out


def _f(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def rows(scenarios: list[dict[str, Any]], options: Options) -> list[list[str]]:
    head = ["processes", "phase", "tables", "sockets (min open)", "moves/s", "target moves/s", "HTTP req/s", "frames/s",
            "probe p50 ms", "probe p99 ms", "probe move p99", "server ms CPU/req", "server ms CPU/move",
            "PG ms CPU/move", "server cores", "PG cores", "loadgen cores", "probe cores", "other cores",
            "409s", "errors"]
    out = [head]
    for s in scenarios:
        for p in s["phases"]:
            cpu = p["cpu"]
            target = s["reached"]["tables"] / options.move_every if p["phase"] == "paced" else None
            per_req = "/".join(_f(v, 2) for v in cpu["server_ms_per_request"])
            out.append([
                str(s["processes"]), p["phase"], str(s["reached"]["tables"]),
                f"{s['reached']['sockets']} ({p['live_sockets_min'] if p['live_sockets_min'] is not None else '-'})",
                _f(p["moves_per_s"]), _f(target), _f(p["http_requests_per_s"]), _f(p["frames_per_s"]),
                _f(p["probe"]["all_ms"]["p50"]), _f(p["probe"]["all_ms"]["p99"]), _f(p["probe"]["move_ms"]["p99"]),
                per_req, _f(cpu["server_ms_per_move"], 2), _f(cpu["postgres_ms_per_move"], 2),
                "+".join(_f(c, 2) for c in cpu["server_cores"]), _f(cpu["postgres_cores"], 2),
                _f(cpu["loadgen_cores"], 2), _f(cpu["probe_cores"], 2), _f(cpu["other_cores"], 2),
                str(p["conflicts_409"] + p["probe"]["conflicts_409"]), str(s["errors"]["total"]),
            ])
    return out


def detail_rows(scenarios: list[dict[str, Any]]) -> list[list[str]]:
    """The second table: set-up rates, the drivers' own view, cross-process lag, connection churn."""
    head = ["processes", "phase", "set-up tables/s", "set-up sockets/s", "probe GET p50/p99", "probe move p50/p99",
            "probe samples", "probe saw a process behind", "driver move p50/p99", "turn frame wait p50/p99",
            "loadgen loop lag p99", "PG sessions opened"]
    out = [head]
    for s in scenarios:
        for p in s["phases"]:
            def pair(d: dict[str, Any]) -> str:
                return f"{_f(d['p50'])} / {_f(d['p99'])}"

            out.append([str(s["processes"]), p["phase"], _f(s["setup"]["tables_per_s"], 0),
                        _f(s["setup"]["sockets_per_s"], 0), pair(p["probe"]["get_ms"]), pair(p["probe"]["move_ms"]),
                        str(p["probe"]["all_ms"]["n"]), str(p["probe"]["behind"]), pair(p["driver_move_ms"]),
                        pair(p["push_wait_ms"]), _f(p["loadgen_loop_lag_ms"]["p99"]),
                        "-" if p["pg_sessions_opened"] is None else str(p["pg_sessions_opened"])])
    return out


def format_text(table: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in table)


def _markdown_table(table: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(table[0]) + " |", "|" + "|".join(["---"] * 2 + ["--:"] * (len(table[0]) - 2)) + "|"]
    return lines + ["| " + " | ".join(r) + " |" for r in table[1:]]


def format_markdown(report: dict[str, Any]) -> str:
    lines = [*_markdown_table(report["rows"]), "", *_markdown_table(report["details"])]
    lines += ["", "| goal | figure | result |", "|---|---|---|"]
    lines += [f"| {g['goal']} | {g['figure']} | **{g['status']}** |" for g in report["goals"]]
    return "\n".join(lines) + "\n"


def machine_facts() -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from benchmarks.timing import machine

    facts = machine()
    facts["postgres_bin"] = str(services().postgres_bin_dir())
    return facts


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 20 tables per process, 1 s warm-up, 3 s phases")
    parser.add_argument("--processes", default="1,2", help="the scenarios: server processes, comma-separated")
    parser.add_argument("--tables", type=int, help=f"human tables per process (default {GOAL_TABLES})")
    parser.add_argument("--sockets-per-table", type=int, default=3, help="WebSockets per table, at least 2 (seats)")
    parser.add_argument("--seconds", type=float, help="length of each measured phase (default 10)")
    parser.add_argument("--warmup", type=float, help="warm-up before the phases (default 2)")
    parser.add_argument("--move-every", type=float, default=3.0,
                        help="the paced phase: seconds between two moves at one table (a human pace)")
    parser.add_argument("--no-compression", action="store_true",
                        help="sockets without permessage-deflate (browsers ask for it; this shows what it costs)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="write every figure as JSON to FILE")
    parser.add_argument("--markdown", metavar="FILE", help="also write the tables as Markdown to FILE")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when a goal fails")
    parser.add_argument("--probe-child", help=argparse.SUPPRESS)
    parser.add_argument("--probe-limit", type=float, default=300.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.sockets_per_table < PLAYERS:
        parser.error(f"--sockets-per-table must be at least {PLAYERS}: one per seat drives the table")
    return args


def main(argv: Sequence[str] | None = None, *, postgres: Any = None) -> int:
    """The command line. ``postgres``: a started PostgresServer to use instead of starting one (the tests)."""
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.probe_child:
        return probe_main(json.loads(args.probe_child), args.seed, args.probe_limit)
    options = Options(
        processes=[int(p) for p in args.processes.split(",") if p.strip()],
        tables=args.tables or (20 if args.quick else GOAL_TABLES),
        sockets_per_table=args.sockets_per_table,
        seconds=args.seconds or (3.0 if args.quick else 10.0),
        warmup=args.warmup if args.warmup is not None else (1.0 if args.quick else 2.0),
        move_every=args.move_every, seed=args.seed, compression=not args.no_compression)

    def echo(line: str) -> None:
        print(line, flush=True)

    svc = services()
    facts = machine_facts()
    echo(f"machine: {facts['cpu']}, {facts['nproc']} cores, load average {facts['loadavg']}; PostgreSQL, the "
         "servers, the probe and this load generator all share these cores")
    echo(f"{GAME} {PLAYERS} humans per table; {options.tables} tables and {options.tables * options.sockets_per_table} "
         f"sockets per process; phases: warm-up {options.warmup:g} s, paced (a move per table every "
         f"{options.move_every:g} s) {options.seconds:g} s, flat out {options.seconds:g} s")
    workdir = Path(tempfile.mkdtemp(prefix="holotable-load-"))
    own_pg = postgres is None
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop everything on SIGTERM too
    scenarios = []
    started = time.perf_counter()
    try:
        if own_pg:
            bin_dir = svc.postgres_bin_dir()
            if bin_dir is None:
                echo("PostgreSQL server binaries (initdb, pg_ctl) not found: run scripts/ensure-test-services.sh")
                return 2
            postgres = svc.PostgresServer(bin_dir)
            postgres.start()
        for nproc in options.processes:
            scenarios.append(run_scenario(svc, postgres, nproc, options, workdir, echo))
    finally:
        if own_pg and postgres is not None:
            postgres.stop()
        signal.signal(signal.SIGTERM, previous)
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
    report: dict[str, Any] = {"machine": facts, "options": asdict(options), "game": GAME, "players": PLAYERS,
                              "wall_s": time.perf_counter() - started, "scenarios": scenarios}
    report["goals"] = goals(scenarios, options)
    report["rows"] = rows(scenarios, options)
    report["details"] = detail_rows(scenarios)
    echo("")
    echo(format_text(report["rows"]))
    echo("")
    echo(format_text(report["details"]))
    echo("")
    for s in scenarios:
        if s["errors"]["total"]:
            echo(f"{s['processes']} process(es): {s['errors']['total']} errors: {s['errors']['by_kind']}")
            for example in s["errors"]["examples"][:10]:
                echo(f"    {example}")
    for g in report["goals"]:
        echo(f"{g['status']:4}  {g['goal']}: {g['figure']}")
    if (facts.get("nproc") or 0) <= 2:
        echo("note: on this machine PostgreSQL, every server process, the probe and the load generator share "
             f"{facts.get('nproc')} cores; see the cores columns for who used them")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
        echo(f"wrote {args.json}")
    if args.markdown:
        Path(args.markdown).write_text(format_markdown(report), encoding="utf-8")
        echo(f"wrote {args.markdown}")
    return 1 if args.strict and any(g["status"] == "FAIL" for g in report["goals"]) else 0


if __name__ == "__main__":
    raise SystemExit(main())
