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
        # Wherever the player has scrolled to, the reason is on the screen (pinned to its bottom).
        behind.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert on_screen(behind, "#table-error") and on_screen(behind, "#table-error .dismiss")
        behind.evaluate("window.scrollTo(0, 0)")
        assert on_screen(behind, "#table-error")
        message = behind.inner_text("#table-error .error-text")
        assert message.startswith("That move was refused: ") and len(message) > len("That move was refused: ")
        assert my_draws(srv.url, table_id, token) == mine, "the refused move changed nothing"
        assert not behind.is_disabled('.quick[data-action="draw 2"]'), "the page is usable again"
    finally:
        other.close()


def on_screen(page: Page, selector: str) -> bool:
    return bool(page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }""",
                              selector))


def test_a_lost_connection_greys_the_moves_and_says_so_until_it_is_back(live_server, browser: Browser) -> None:
    srv: LiveServer = live_server()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        link = {"down": False, "open": []}

        def relay(ws: WebSocketRoute) -> None:
            if link["down"]:
                ws.close(code=1011, reason="down")  # the network is gone: every reconnection fails
                return
            ws.connect_to_server()
            link["open"].append(ws)

        page.route_web_socket("**/ws/tables/**", relay)
        create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy"])
        open_table(page)
        draw = '.quick[data-action="draw 1"]'
        page.wait_for_selector(f"{draw}:not([disabled])")
        page.wait_for_function("() => document.querySelector('#connection').textContent === 'live'")
        assert page.title().startswith("Your turn")

        link["down"] = True
        for ws in link["open"]:
            ws.close(code=1006, reason="lost")
        page.wait_for_function("() => document.querySelector('#turn-banner').textContent.startsWith('Connection lost')")
        assert not page.title().startswith("Your turn"), "the tab no longer says it is your turn"
        assert page.evaluate("document.querySelector('#game-area').inert"), "the moves cannot be pressed"
        assert "offline" in page.inner_text("#connection")
        # A press that still reaches the page (a click on its way) is not sent, and says so in words.
        page.evaluate(f"document.querySelector('{draw}').click()")
        page.wait_for_selector("#table-error:not([hidden])")
        assert page.inner_text("#table-error .error-text").startswith("Not sent: the connection to the server is lost")
        assert on_screen(page, "#table-error")

        link["down"] = False  # the network is back: the page reconnects by itself (within 3 s)
        page.wait_for_function("() => document.querySelector('#connection').textContent === 'live'")
        page.wait_for_function("() => document.querySelector('#turn-banner').textContent.startsWith('Your turn')")
        assert page.locator("#table-error").is_hidden(), "the connection message goes once it is back"
        assert not page.evaluate("document.querySelector('#game-area').inert")
        ply = page_ply(page)
        page.click(draw)
        wait_past(page, ply)
    finally:
        context.close()
