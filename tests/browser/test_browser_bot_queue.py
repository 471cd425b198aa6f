"""When the server's search bots are all busy, a bot seat waiting for one says so (issue 21): the seat
list and the turn banner explain the wait, at laptop and phone size, and it goes once the bot thinks."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest
from browser_helpers import wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _seats(seconds: float) -> list[dict[str, str]]:
    return [{"kind": "human"}, {"kind": "bot", "agent": f"ismcts:iterations=1000000:time_limit={seconds:g}"}]


def test_a_bot_waiting_for_a_free_worker_says_so(live_server, browser: Browser) -> None:
    srv: LiveServer = live_server(extra_args=["--bot-workers", "1"])
    with httpx.Client(base_url=srv.url, timeout=20) as http:
        # One worker: this table's bot searches for 6 s and holds it...
        busy = http.post("/api/tables", json={"game": "captain-black", "players": 2, "seats": _seats(6),
                                              "params": {"start_seat": 1}})
        assert busy.status_code == 201, busy.text
        # ...so the bot of this one, asked at once, waits in line (then thinks for a second).
        made = http.post("/api/tables", json={"game": "captain-black", "players": 2, "seats": _seats(1),
                                              "params": {"start_seat": 1}}).json()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{srv.url}/")
        page.evaluate("([t, k]) => localStorage.setItem('holotable:seat:' + t, k)",
                      [made["table_id"], made["you"]["token"]])
        page.goto(f"{srv.url}/t/{made['table_id']}")
        wait_ready(page)
        badge = page.locator('#seat-list li[data-seat="1"] [data-queued]')
        for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):  # laptop, phone
            page.set_viewport_size(viewport)
            badge.wait_for(timeout=15_000)
            assert badge.inner_text() == "bot waiting in line"
            banner = page.locator("#turn-banner")
            assert banner.is_visible()
            text = banner.inner_text()
            assert text.startswith("Waiting for Seat 2.") and "bots are all busy" in text, text
        # Once the worker is free the bot thinks, moves, and the explanation goes.
        page.wait_for_function("() => !document.querySelector('[data-queued]') && "
                               "document.getElementById('turn-banner').innerText.startsWith('Your turn')",
                               timeout=40_000)
    finally:
        context.close()
