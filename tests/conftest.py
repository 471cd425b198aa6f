"""Suite-wide settings and fixtures.

Hypothesis runs derandomised in CI so a red run is reproducible. The service fixtures (PostgreSQL, Chromium,
a live `holotable serve`) start real programs, loopback only, and stop them at teardown; see
tests/support/services.py. Locally a missing system program skips those tests; under CI it fails them.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

# tests/ is on sys.path, so helper modules under tests/support import as `support.<module>`.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.services import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LiveServer,
    PostgresServer,
    postgres_bin_dir,
    require,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# Nothing a test runs writes into the real home folder: holotable's per-user files (the seal key of
# saved games, campaign books, the server's default database) go to a folder of this test run.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="holotable-tests-xdg-")

settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# --- PostgreSQL -------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A private PostgreSQL on 127.0.0.1 for this test process (each xdist worker gets its own)."""
    bin_dir = postgres_bin_dir()
    require(bin_dir is not None, "PostgreSQL server binaries (initdb, pg_ctl) not found")
    assert bin_dir is not None
    server = PostgresServer(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """SQLAlchemy URL (`postgresql+psycopg://...`) of a database shared by this process's tests."""
    return postgres_server.create_database("holotable_test")


@pytest.fixture
def fresh_postgres_url(postgres_server: PostgresServer) -> str:
    """SQLAlchemy URL of a new, empty database for this test alone."""
    return postgres_server.create_database()


# --- Chromium ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium_executable() -> Path:
    """The system Chromium (Debian package `chromium`); never a browser that downloads itself."""
    require(CHROMIUM.exists(), f"{CHROMIUM} not found (Debian package chromium)")
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_executable: Path) -> Iterator[Browser]:
    """Headless system Chromium driven by Playwright's sync API, shared by this process's tests."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as missing:
        require(False, "the playwright package is not installed (dev extra)")
        raise missing  # unreachable: require() skipped or failed the test
    with sync_playwright() as playwright:
        # headless=True already passes --headless; CHROMIUM_ARGS repeats it harmlessly for clarity.
        launched = playwright.chromium.launch(
            executable_path=str(chromium_executable), headless=True, args=CHROMIUM_ARGS, timeout=30_000
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page in its own context (own localStorage and cookies), closed after the test."""
    context = browser.new_context()
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


# --- holotable serve --------------------------------------------------------------------------------------

StartServer = Callable[..., LiveServer]


@pytest.fixture
def live_server() -> Iterator[StartServer]:
    """Factory: `live_server()` starts `python -m holotable serve` on a free loopback port and returns it.

    `live_server(database=url, extra_args=[...], env={...})` picks the database (default: a new SQLite file).
    The returned LiveServer has `.url`, `.database`, `.stop(kill=False)` and `.start()` (same port and DB);
    every server started here is killed at teardown.
    """
    workdir = Path(tempfile.mkdtemp(prefix="holotable-serve-"))
    servers: list[LiveServer] = []

    def start(
        database: str | None = None, extra_args: Sequence[str] = (), env: dict[str, str] | None = None
    ) -> LiveServer:
        database = database or f"sqlite:///{workdir / f'db{len(servers)}.sqlite'}"
        server = LiveServer(database=database, workdir=workdir, extra_args=tuple(extra_args), env=env)
        servers.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in servers:
            server.stop(kill=True)
        shutil.rmtree(workdir, ignore_errors=True)


BROWSER_FIXTURES = {"browser", "page", "chromium_executable"}
POSTGRES_FIXTURES = {"postgres_server", "postgres_url", "fresh_postgres_url"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that use the service fixtures get the `browser` / `postgres` markers, so `-m "not browser"` works."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if used & POSTGRES_FIXTURES:
            item.add_marker(pytest.mark.postgres)
