"""The service fixtures start real programs that work: PostgreSQL, headless Chromium, `holotable serve`."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import urllib.error
from collections.abc import Callable
from pathlib import Path

import pytest

from support.services import (
    LOOPBACK_HTTP,
    OWNER_FILE,
    LiveServer,
    PostgresServer,
    free_port,
    postgres_bin_dir,
    sweep_orphaned_postgres,
)

ROOT = Path(__file__).resolve().parents[2]


def test_free_port_is_a_bindable_loopback_port() -> None:
    port = free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", port))


def test_ensure_services_script_is_silent_when_everything_is_installed(chromium_executable: Path) -> None:
    if postgres_bin_dir() is None or not Path("/usr/bin/chromedriver").exists():
        pytest.skip("only checked where the services are already installed (it would install them otherwise)")
    done = subprocess.run(["bash", str(ROOT / "scripts/ensure-test-services.sh")], capture_output=True, text=True,
                          timeout=30, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def run_ensure_script(tmp_path: Path, apt_exit: int, ci: str) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run the script with a PATH holding only a fake apt-get, so Chromium and its driver look missing."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    calls = tmp_path / "apt-calls"
    apt = fake_bin / "apt-get"
    apt.write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexit {apt_exit}\n')
    apt.chmod(0o755)
    done = subprocess.run(["/bin/bash", str(ROOT / "scripts/ensure-test-services.sh")], capture_output=True,
                          text=True, timeout=30, check=False, env={"PATH": str(fake_bin), "CI": ci})
    return done, calls.read_text() if calls.exists() else ""


@pytest.mark.parametrize(("apt_exit", "ci", "expected_rc"), [(0, "", 0), (100, "", 0), (100, "true", 1)])
def test_ensure_services_script_installs_what_is_missing(
    tmp_path: Path, apt_exit: int, ci: str, expected_rc: int
) -> None:
    done, calls = run_ensure_script(tmp_path, apt_exit, ci)
    if os.geteuid() != 0:
        # Not root: no apt-get, one line naming the packages, and the run carries on.
        assert (done.returncode, calls) == (0, "")
        assert "chromium chromium-driver" in done.stderr
        return
    assert done.returncode == expected_rc, done.stderr
    assert calls.splitlines()[0] == "update -qq"
    if apt_exit == 0:
        assert calls.splitlines()[1].startswith("install -y -qq --no-install-recommends chromium chromium-driver")
    else:
        assert "could not install" in done.stderr


def test_postgres_round_trips_a_row(postgres_url: str) -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    assert postgres_url.startswith("postgresql+psycopg://")
    engine = sqlalchemy.create_engine(postgres_url)
    try:
        with engine.begin() as connection:
            connection.execute(sqlalchemy.text("CREATE TABLE IF NOT EXISTS probe (id serial PRIMARY KEY, note text)"))
            connection.execute(sqlalchemy.text("INSERT INTO probe (note) VALUES (:note)"), {"note": "héllo ☄"})
        with engine.connect() as connection:
            notes = connection.execute(sqlalchemy.text("SELECT note FROM probe")).scalars().all()
            listen = connection.execute(sqlalchemy.text("SHOW listen_addresses")).scalar_one()
        assert "héllo ☄" in notes
        assert listen == "127.0.0.1"
    finally:
        engine.dispose()


def test_fresh_postgres_databases_are_empty_and_distinct(fresh_postgres_url: str, postgres_url: str) -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    assert fresh_postgres_url != postgres_url
    engine = sqlalchemy.create_engine(fresh_postgres_url)
    try:
        with engine.connect() as connection:
            assert sqlalchemy.inspect(connection).get_table_names() == []
    finally:
        engine.dispose()


def test_postgres_server_stop_removes_its_directory(postgres_server: PostgresServer) -> None:
    # A second, short-lived cluster: the shared one must stay up for the other tests.
    other = PostgresServer(postgres_server.bin_dir)
    other.start()
    assert other.port != postgres_server.port
    assert (other.data_dir / "postmaster.pid").exists()
    other.stop()
    assert not other.root.exists()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", other.port), timeout=2):
        pass


def test_clusters_of_killed_runs_are_swept_and_live_ones_kept(postgres_server: PostgresServer) -> None:
    """A SIGKILLed pytest cannot stop its cluster: the next start stops and removes it (its owner is gone)."""
    orphan = PostgresServer(postgres_server.bin_dir)
    orphan.start()
    gone = subprocess.Popen(["true"])  # a process id that has surely exited
    gone.wait()
    (orphan.root / OWNER_FILE).write_text(str(gone.pid))
    swept = sweep_orphaned_postgres(postgres_server.bin_dir, keep=postgres_server.root)
    assert orphan.root in swept and not orphan.root.exists()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", orphan.port), timeout=2):
        pass
    # the shared cluster, whose owner (this process) is alive, is untouched
    assert postgres_server.root.exists() and (postgres_server.data_dir / "postmaster.pid").exists()
    with socket.create_connection(("127.0.0.1", postgres_server.port), timeout=2):
        pass


def test_chromium_loads_a_page_and_runs_its_script(page: object) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    html = "<title>holotable probe</title><p id=out></p><script>out.textContent = String(6 * 7)</script>"
    page.goto("data:text/html," + html)
    assert page.title() == "holotable probe"
    assert page.text_content("#out") == "42"


def test_browser_contexts_keep_separate_local_storage(browser: object) -> None:
    """Two players in one browser process must not see each other's seat tokens."""
    from playwright.sync_api import Browser, Route

    assert isinstance(browser, Browser)
    origin = "http://holotable.invalid"

    def serve_blank(route: Route) -> None:  # an origin of our own, answered in-process: no network
        route.fulfill(status=200, content_type="text/html", body="<title>storage</title>")

    first, second = browser.new_context(), browser.new_context()
    try:
        pages = []
        for context in (first, second):
            context.route(f"{origin}/**", serve_blank)
            pages.append(context.new_page())
            pages[-1].goto(f"{origin}/")
        pages[0].evaluate("() => localStorage.setItem('holotable:seat:t1', 'secret')")
        assert pages[0].evaluate("() => localStorage.getItem('holotable:seat:t1')") == "secret"
        assert pages[1].evaluate("() => localStorage.getItem('holotable:seat:t1')") is None
    finally:
        first.close()
        second.close()


serve_missing = importlib.util.find_spec("holotable.cli.serve") is None
needs_serve = pytest.mark.skipif(serve_missing, reason="`holotable serve` (holotable.cli.serve) is not written yet")


@needs_serve
def test_live_server_answers_and_survives_a_restart(live_server: Callable[..., LiveServer]) -> None:
    server = live_server()
    assert server.url.startswith("http://127.0.0.1:")
    assert server.database.startswith("sqlite:///")
    games = server.get_json("/api/games")
    assert isinstance(games, list)
    assert "captain-black" in {game["name"] for game in games}

    server.stop(kill=True)
    assert not server.running
    with pytest.raises(urllib.error.URLError):
        LOOPBACK_HTTP.open(f"{server.url}/api/games", timeout=2)

    server.start()
    assert server.running
    assert server.get_json("/api/games") == games
    assert Path(server.database.removeprefix("sqlite:///")).exists()


@needs_serve
def test_live_server_runs_on_postgres(live_server: Callable[..., LiveServer], fresh_postgres_url: str) -> None:
    server = live_server(database=fresh_postgres_url)
    assert server.get_json("/api/tables") == []
    server.stop()
    assert not server.running


def test_ci_turns_a_missing_service_into_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    from support.services import require

    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run every test"):
        require(False, "no such program")
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception, match="no such program"):
        require(False, "no such program")
    require(True, "present")  # nothing happens when the service is there
