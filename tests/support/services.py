"""Real services for the tests: a throwaway PostgreSQL, system Chromium and a `holotable serve` subprocess.

Everything listens on 127.0.0.1 only, every wait is bounded, and everything started here is stopped by its
owner (the fixtures in tests/conftest.py). Under pytest-xdist each worker starts its own services, so workers
never share a port, a data directory or a database.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
START_TIMEOUT_S = 30.0

# Headless Chromium that talks to nothing but the page under test. --disable-dev-shm-usage because a
# container's /dev/shm is often tiny and Chromium crashes when it runs out.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require(condition: bool, reason: str) -> None:
    """Skip the test when a system service is missing; under CI the same gap is a failure, never a skip."""
    if condition:
        return
    if in_ci():
        pytest.fail(f"{reason} (CI must run every test; see scripts/ensure-test-services.sh)", pytrace=False)
    pytest.skip(f"{reason}; run scripts/ensure-test-services.sh or install it")


def free_port() -> int:
    """A TCP port on the loopback interface that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# Loopback requests must never go through an HTTP proxy that the environment may configure.
LOOPBACK_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def log_tail(path: Path, chars: int = 3000) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-chars:]
    except OSError:
        return "(no log)"


# --- PostgreSQL -------------------------------------------------------------------------------------------


def postgres_bin_dir() -> Path | None:
    """The newest Debian PostgreSQL server bin directory (initdb and pg_ctl are not on PATH there)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass
class PostgresServer:
    """A private PostgreSQL cluster in a temporary directory, reachable on 127.0.0.1:port only.

    initdb and postgres refuse to run as root; as root they run as the `postgres` system user that the
    Debian package creates, on a directory handed over to that user.
    """

    bin_dir: Path
    port: int = 0
    superuser: str = "holotable"
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="holotable-pg-")))
    _databases: int = 0

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def log_file(self) -> Path:
        return self.root / "server.log"

    def _as_owner(self, *argv: str | Path) -> list[str]:
        command = [str(a) for a in argv]
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *command]
        return command

    def _run(self, *argv: str | Path, timeout: float = START_TIMEOUT_S) -> None:
        done = subprocess.run(self._as_owner(*argv), capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, argv))} failed ({done.returncode}):\n{done.stdout}{done.stderr}")

    def start(self) -> None:
        sweep_orphaned_postgres(self.bin_dir, self.root)
        (self.root / OWNER_FILE).write_text(str(os.getpid()))
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("as root this needs the `postgres` user (Debian package postgresql)") from None
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self._run(self.bin_dir / "initdb", "-D", self.data_dir, "-U", self.superuser, "-A", "trust", "-E", "UTF8",
                  "--no-sync", "--locale=C")
        # A loopback TCP port only; the unix socket lives in our own directory, not /var/run/postgresql.
        # Durability is pointless for a throwaway cluster, so fsync and friends are off for speed.
        options = (
            "-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={root}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=50"
        )
        for attempt in range(3):
            self.port = free_port()
            try:
                self._run(self.bin_dir / "pg_ctl", "start", "-w", "-t", str(int(START_TIMEOUT_S)),
                          "-D", self.data_dir, "-l", self.log_file,
                          "-o", options.format(port=self.port, root=self.root))
                return
            except RuntimeError:
                # Another process may have taken the port between free_port() and the bind; try a new one.
                if attempt == 2:
                    raise RuntimeError(f"PostgreSQL did not start:\n{log_tail(self.log_file)}") from None

    def create_database(self, name: str | None = None) -> str:
        """Create a fresh empty database and return its SQLAlchemy URL."""
        self._databases += 1
        name = name or f"holotable_test_{self._databases}"
        self._run(self.bin_dir / "createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", self.superuser, name)
        return self.url(name)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{self.superuser}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        try:
            if (self.data_dir / "postmaster.pid").exists():
                self._run(self.bin_dir / "pg_ctl", "stop", "-D", self.data_dir, "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


OWNER_FILE = "owner.pid"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def sweep_orphaned_postgres(bin_dir: Path, keep: Path) -> list[Path]:
    """Stop and remove the throwaway clusters of test runs that were killed before they could tidy up
    (a SIGKILLed pytest leaves its postmaster running): those whose owner process is gone."""
    swept = []
    for root in Path(tempfile.gettempdir()).glob("holotable-pg-*"):
        owner = root / OWNER_FILE
        if root == keep or not owner.is_file():
            continue
        try:
            pid = int(owner.read_text().strip())
        except (OSError, ValueError):
            continue
        if _alive(pid):
            continue
        data = root / "data"
        if (data / "postmaster.pid").exists():
            command = [str(bin_dir / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate", "-w"]
            if os.geteuid() == 0:
                command = ["runuser", "-u", "postgres", "--", *command]
            subprocess.run(command, capture_output=True, timeout=START_TIMEOUT_S, check=False)
        shutil.rmtree(root, ignore_errors=True)
        swept.append(root)
    return swept


# --- holotable serve --------------------------------------------------------------------------------------


@dataclass
class LiveServer:
    """`python -m holotable serve` in a subprocess on 127.0.0.1, restartable on the same port and database."""

    database: str
    workdir: Path
    port: int = field(default_factory=free_port)
    extra_args: Sequence[str] = ()
    env: dict[str, str] | None = None
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_file(self) -> Path:
        return self.workdir / f"serve-{self.port}.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def command(self) -> list[str]:
        return [sys.executable, "-m", "holotable", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                "--database", self.database, *self.extra_args]

    def start(self) -> LiveServer:
        """Start (or restart) the server and wait until `GET /api/games` answers."""
        if self.running:
            raise RuntimeError(f"server on {self.url} is already running")
        self.starts += 1
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **(self.env or {})}
        with self.log_file.open("ab") as log:
            log.write(f"--- start {self.starts}: {' '.join(self.command())}\n".encode())
            log.flush()
            # Its own session, so stop() can end uvicorn together with anything it spawned.
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT, env=env,
                                            cwd=self.workdir, start_new_session=True)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if not self.running:
                raise RuntimeError(f"`holotable serve` exited early:\n{log_tail(self.log_file)}")
            try:
                with LOOPBACK_HTTP.open(f"{self.url}/api/games", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.1)
        self.stop(kill=True)
        waited = f"{START_TIMEOUT_S:.0f}s"
        raise RuntimeError(f"`holotable serve` did not answer within {waited}:\n{log_tail(self.log_file)}")

    def stop(self, kill: bool = False) -> None:
        """Stop the server: SIGTERM and a graceful shutdown, or with kill=True SIGKILL, like a crash."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def get_json(self, path: str) -> object:
        """A small convenience for fixture checks; tests of the API itself should use a real HTTP client."""
        with LOOPBACK_HTTP.open(f"{self.url}{path}", timeout=10) as response:
            return json.loads(response.read())

    def log(self) -> str:
        return log_tail(self.log_file, chars=20_000)
