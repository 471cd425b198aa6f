"""Fixtures for the simulation lab: a real local Ray cluster, and running `holotable` as a subprocess.

``ray_cluster`` starts a Ray head node with ``ray start --head --block`` in its own session, bound to
127.0.0.1 only (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` keeps Ray from swapping the loopback address for
the machine's outside address), with 2 CPUs, a small object store, no dashboard, no usage statistics and
token authentication with a token of its own (never ~/.ray/auth_token).
At teardown every process of that session (and only of that session) is stopped. Without Ray installed
the tests that need it skip locally and fail under CI (``CI=true``): Ray comes with the ``dev`` extra.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.services import free_port, in_ci

START_TIMEOUT_S = 60.0
OBJECT_STORE_BYTES = 100 * 1024 * 1024  # Ray's floor is 75 MiB; chunks of game records need far less
CPUS = 2


#: The test cluster's own authentication token, so that nothing depends on (or writes) ~/.ray/auth_token.
_TOKEN = secrets.token_hex(32)


def ray_env() -> dict[str, str]:
    """The environment of everything that talks to the test cluster: loopback only, no usage statistics,
    token authentication with this session's token."""
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0",
               RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=_TOKEN)
    for name in ("RAY_ADDRESS", "RAY_AUTH_TOKEN_PATH"):
        env.pop(name, None)
    return env


def require_ray() -> None:
    if importlib.util.find_spec("ray") is not None:
        return
    reason = "Ray is not installed (pip install -e '.[dev]' or '.[cluster]')"
    if in_ci():
        pytest.fail(f"{reason}; CI must run the Ray backend test", pytrace=False)
    pytest.skip(reason)


@dataclass
class RayCluster:
    address: str
    process: subprocess.Popen[str]
    temp_dir: Path
    output: list[str]
    cpus: int = CPUS

    @property
    def env(self) -> dict[str, str]:
        """The environment for a process that talks to this cluster (see :func:`ray_env`)."""
        return ray_env()

    def log(self) -> str:
        return "".join(self.output[-60:])


def _session_pids(sid: int) -> list[int]:
    """Processes of the session ``sid`` (the head node's: ``ray start`` and everything it started)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == sid:
                    pids.append(int(entry))
            except OSError:
                continue
    return pids


def _stop(cluster: RayCluster) -> None:
    sid = cluster.process.pid
    for sig, grace in ((signal.SIGTERM, 1.5), (signal.SIGKILL, 5.0)):
        for pid in _session_pids(sid):
            with contextlib.suppress(OSError):  # it may have just exited
                os.kill(pid, sig)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            cluster.process.poll()
            if not _session_pids(sid):
                break
            time.sleep(0.1)
    with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL cannot be ignored; this only reaps it
        cluster.process.wait(timeout=5)


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[RayCluster]:
    """A running local Ray head node (2 CPUs, loopback); ``.address`` is its ``127.0.0.1:port``."""
    require_ray()
    # Ray's own command line, run by this very Python (so the head node's workers import this holotable).
    ray_cli = [sys.executable, "-m", "ray.scripts.scripts"]
    # Ray's socket paths must stay under ~107 characters: a short directory right under the temp root.
    temp_dir = Path(tempfile.mkdtemp(prefix="rayt"))
    port = free_port()
    ports = {name: free_port() for name in ("node-manager-port", "object-manager-port", "dashboard-agent-listen-port",
                                            "dashboard-agent-grpc-port", "metrics-export-port",
                                            "runtime-env-agent-port")}
    command: Sequence[str] = [
        *ray_cli, "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
        f"--num-cpus={CPUS}", "--num-gpus=0", f"--object-store-memory={OBJECT_STORE_BYTES}",
        "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp_dir}",
        *(f"--{name}={value}" for name, value in ports.items()),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ray_env(),
                               start_new_session=True)
    cluster = RayCluster(f"127.0.0.1:{port}", process, temp_dir, [])
    started = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            cluster.output.append(line)
            if "Ray runtime started" in line:
                started.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not started.wait(0.2):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Ray head node did not start:\n{cluster.log()}", pytrace=False)
        yield cluster
    finally:
        _stop(cluster)
        shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.fixture
def run_holotable() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``run_holotable(*args, env=None, timeout=120)``: ``python -m holotable ARGS`` in a fresh process."""

    def run(*args: str, env: dict[str, str] | None = None, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "holotable", *args], capture_output=True, text=True,
                              env=env if env is not None else dict(os.environ), timeout=timeout)

    return run
