"""A move the server refuses (the page was behind): the reason is shown, and nothing changes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from browser_helpers import create_in_lobby, open_table, page_ply, state_of, token_of, wait_past, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def my_draws(base: str, table_id: str, token: str | None) -> list[int]:
    """Seat 0's draws so far, from the server's log (the bot's moves may come and go meanwhile)."""
    log = state_of(base, table_id, token)["log"]
    return [e["data"]["k"] for e in log if e["kind"] == "draw" and e["data"]["seat"] == 0]


def test_a_stale_move_is_refused_with_the_reason(live_server, page: Page, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy"])
    open_table(page)
    token = token_of(page, table_id)
    page.wait_for_selector("#draw-button:not([disabled])")

    # The same seat in a second window whose socket stops passing on new states: it falls behind.
    frozen = {"on": False}
    other = browser.new_context()
    try:
        behind = other.new_page()

        def relay(ws: WebSocketRoute) -> None:
            server = ws.connect_to_server()

            def to_page(message: str | bytes) -> None:
                if frozen["on"] and json.loads(message).get("type") == "state":
                    return  # held back: this window keeps showing the old table
                ws.send(message)

            server.on_message(to_page)

        behind.route_web_socket("**/ws/tables/**", relay)
        behind.goto(f"{srv.url}/")
        behind.evaluate("([t, k]) => localStorage.setItem('holotable:seat:' + t, k)", [table_id, token])
        behind.goto(f"{srv.url}/t/{table_id}")
        wait_ready(behind)
        behind.wait_for_selector("#draw-button:not([disabled])")
        frozen["on"] = True

        ply = page_ply(page)
        page.click('.quick[data-action="draw 1"]')  # the first window moves; the second does not hear of it
        wait_past(page, ply)
        mine = my_draws(srv.url, table_id, token)
        behind.click('.quick[data-action="draw 2"]')
        behind.wait_for_selector("#table-error:not([hidden])")
        message = behind.inner_text("#table-error")
        assert message.startswith("That move was refused: ") and len(message) > len("That move was refused: ")
        assert my_draws(srv.url, table_id, token) == mine, "the refused move changed nothing"
        assert not behind.is_disabled('.quick[data-action="draw 2"]'), "the page is usable again"
    finally:
        other.close()
