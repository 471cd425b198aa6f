"""What the screenshot scripts share: the system Chromium at two screen sizes, and a seat's moves
through the HTTP API (used by make_screenshots.py and the shots_<game>.py modules)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx
    from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

State = dict[str, Any]


def pages_by_size(sizes: dict[str, dict[str, int]] = SIZES) -> Iterator[tuple[str, Page]]:
    """One fresh browser page per screen size, as ``(size name, page)``; each closes when the next comes."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, viewport in sizes.items():
                context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
                try:
                    yield name, context.new_page()
                finally:
                    context.close()
        finally:
            browser.close()


def remember_seats(page: Page, base_url: str, seats: Iterable[tuple[str, str]]) -> None:
    """Give the page's browser the seat tokens of ``(table id, token)`` pairs, as the lobby would."""
    page.goto(f"{base_url}/")
    for table_id, token in seats:
        page.evaluate("([t, k]) => localStorage.setItem('holotable:seat:' + t, k)", [table_id, token])


def play_seat(http: httpx.Client, table_id: str, token: str, choose: Callable[[list[str]], str],
              stop: Callable[[State], bool] = lambda state: False, limit: float = 120.0) -> State:
    """Play the seat of ``token`` with ``choose(legal texts)`` until the game ends or ``stop(state)``
    holds at one of its turns (waiting for bots in between); returns that state."""
    headers = {"Authorization": f"Bearer {token}"}
    end = time.monotonic() + limit
    while time.monotonic() < end:
        state: State = http.get(f"/api/tables/{table_id}/state", headers=headers).json()
        texts = [entry["text"] for entry in state["legal"]]
        if state["status"] == "finished" or (texts and stop(state)):
            return state
        if not texts:
            time.sleep(0.05)  # the bots are thinking
            continue
        http.post(f"/api/tables/{table_id}/actions", json={"action": choose(texts), "ply": state["ply"]},
                  headers=headers)  # a 409 (a bot was quicker) is simply retried
    raise RuntimeError(f"table {table_id} did not get there within {limit:g} s")
