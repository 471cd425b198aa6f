"""Playing with the keyboard alone: the skip link, Tab, Enter and Space; the focus survives the server's pushes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_helpers import create_in_lobby, open_table, page_ply, wait_past

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def focused(page: Page) -> str:
    active = "document.activeElement"
    return str(page.evaluate(f"{active}.id || {active}.dataset.key || {active}.tagName"))


def test_captain_black_by_keyboard_alone(live_server, page: Page) -> None:
    srv: LiveServer = live_server()
    create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy"])
    open_table(page)
    page.wait_for_selector("#draw-button:not([disabled])")
    assert page.get_attribute("#turn-banner", "aria-live") == "polite"
    assert page.inner_text("#turn-banner").startswith("Your turn")

    page.keyboard.press("Tab")
    assert focused(page) == "A" and page.inner_text(":focus") == "Skip to your move"
    page.keyboard.press("Enter")
    assert focused(page) == "your-move"
    page.keyboard.press("Tab")
    assert focused(page) == "draw-count"
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    assert page.inner_text("#draw-button") == "Grab 2 coins"
    ply = page_ply(page)
    page.keyboard.press("Enter")
    wait_past(page, ply)
    page.wait_for_selector("#draw-button:not([disabled])")  # the bot has moved: the page was redrawn twice
    assert focused(page) == "draw-count", "the focus stays where the player left it"
    assert page.input_value("#draw-count") == "2", "and so does the number typed"

    # Tab on to the Grab button (past − and +) and press it with Space.
    for _ in range(10):
        page.keyboard.press("Tab")
        if focused(page) == "draw-button":
            break
    assert focused(page) == "draw-button"
    ply = page_ply(page)
    page.keyboard.press("Space")
    wait_past(page, ply)
    page.wait_for_selector("#draw-button:not([disabled])")
    assert focused(page) == "draw-button"


def test_buccaneers_cards_are_buttons_in_tab_order(live_server, page: Page) -> None:
    srv: LiveServer = live_server()
    create_in_lobby(page, srv.url, "buccaneers", ["human", "bot:easy", "bot:easy"])
    open_table(page)
    offered = "#your-move button[data-action]:not([disabled]), #hand button[data-action]:not([disabled])"
    picks = 0
    while picks < 3:  # three cards played, each: Tab to the first offered move, Enter
        page.wait_for_selector(offered)
        for _ in range(30):  # the focus may already be on the next move (a group choice after a pick)
            if page.evaluate("document.activeElement.dataset.action || ''"):
                break
            page.keyboard.press("Tab")
        action = str(page.evaluate("document.activeElement.dataset.action"))
        assert page.locator(offered).first.get_attribute("data-action") == action, "tab order follows the page"
        ply = page_ply(page)
        page.keyboard.press("Enter")
        wait_past(page, ply)
        if action.startswith("play "):  # (a time-machine part may ask for its group first)
            picks += 1
            card = action.split()[1]
            page.wait_for_selector(f'.tableau[data-seat="0"] [data-card="{card}"], #last-reveal')
