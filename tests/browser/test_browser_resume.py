"""Leaving and coming back: a reload mid-game, and a server restart mid-game, both resume the same seat."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_helpers import (
    create_in_lobby,
    no_horizontal_scroll,
    open_table,
    page_ply,
    state_of,
    token_of,
    wait_past,
    wait_ready,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def grab(page: Page, k: int) -> None:
    """One Captain Black move through the page, waiting until the server has answered it."""
    page.wait_for_selector("#draw-button:not([disabled])")
    ply = page_ply(page)
    page.fill("#draw-count", str(k))
    page.click("#draw-button")
    wait_past(page, ply)


def log_lines(page: Page) -> list[str]:
    lines: list[str] = page.locator("#log li").all_inner_texts()
    return lines


def test_a_reload_mid_game_resumes_the_seat_on_a_phone(live_server, page: Page, page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy", "bot:easy"])
    open_table(page)
    for _ in range(3):
        grab(page, 2)
    page.wait_for_selector("#draw-button:not([disabled])")
    before_ply, before_log = page_ply(page), log_lines(page)
    token = token_of(page, table_id)

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#draw-button:not([disabled])")
    assert token_of(page, table_id) == token
    assert page.inner_text("#seat-badge") == "you are seat 1"
    assert page_ply(page) == before_ply
    assert log_lines(page) == before_log, "the whole log comes back after a reload"
    assert "Your turn" in page.inner_text("#turn-banner")
    assert no_horizontal_scroll(page), "the table page fits a phone screen"
    grab(page, 1)
    assert state_of(srv.url, table_id, token)["ply"] > before_ply
    assert not page_errors, page_errors


def test_a_server_restart_mid_game_resumes(live_server, page: Page) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy"])
    open_table(page)
    grab(page, 2)
    grab(page, 3)
    page.wait_for_selector("#draw-button:not([disabled])")
    before_ply, before_log = page_ply(page), log_lines(page)

    srv.stop()
    page.wait_for_function("() => document.querySelector('#connection').textContent.startsWith('offline')")
    srv.start()  # the same port and database: the table is rebuilt from its stored actions
    page.wait_for_function("() => document.querySelector('#connection').textContent === 'live'", timeout=20_000)
    page.wait_for_selector("#draw-button:not([disabled])")
    assert page_ply(page) == before_ply
    assert log_lines(page) == before_log
    grab(page, 1)
    page.wait_for_selector("#draw-button:not([disabled])")  # the bot has answered, pushed over the new socket
    server = state_of(srv.url, table_id, token_of(page, table_id))
    assert server["seat"] == 0 and server["ply"] == page_ply(page) >= before_ply + 2
    assert log_lines(page)[: len(before_log)] == before_log
