"""The search bots' worker processes end with the server (issue 21: they outlived it): a graceful stop
ends them even mid-search, and after a ``kill -9`` of the server alone (no chance to clean up) they
notice their parent is gone and end themselves. A real ``holotable serve`` process and its real workers."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

#: A worker's parent check runs every second; generous for a loaded machine.
GONE_WITHIN_S = 15.0


def _workers(server_pid: int) -> list[int]:
    """The server's worker processes (spawned by multiprocessing), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == server_pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def _wait_for(check: Any, what: str, limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} within {limit:.0f} s")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["stop", "kill -9"])
def test_worker_processes_end_with_the_server(live_server: Any, how: signal.Signals) -> None:
    srv = live_server()
    assert srv.process is not None
    pid = srv.process.pid
    with httpx.Client(base_url=srv.url, timeout=20) as http:
        made = http.post("/api/tables", json={"game": "captain-black", "players": 2,
                                              "seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"}]})
        assert made.status_code == 201, made.text
    _wait_for(lambda: len(_workers(pid)) >= 1, "the search bot's worker processes start", 60)
    workers = _workers(pid)
    os.kill(pid, how)  # the server alone, not its process group: its workers are left to notice
    srv.process.wait(timeout=30)
    _wait_for(lambda: not any(_alive(w) for w in workers), f"workers {workers} end", GONE_WITHIN_S)
