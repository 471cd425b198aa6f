"""Undo in the browser: a person presses Undo (from the keyboard) and sees the move taken back, and reads in
words why the button is off after a move that drew on chance; a seeded table says so, on the table page and
in the lobby."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import (
    create_in_lobby,
    no_horizontal_scroll,
    open_table,
    page_ply,
    state_of,
    token_of,
    wait_past,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLY_IS = "(n) => Number(document.querySelector('#ply').textContent.split(' ').pop()) === n"


def test_undo_takes_a_move_back_and_says_why_it_is_off(live_server: Any, page: Page, page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    page.goto(f"{srv.url}/")
    page.evaluate("() => localStorage.setItem('holotable:name', 'Ann')")
    table_id = create_in_lobby(page, srv.url, "kyrum", ["human"], seed=3)
    open_table(page)
    token = token_of(page, table_id)
    assert page.inner_text("#seeded-notice").startswith("Seeded table: the deal was chosen by Ann.")
    button = page.locator("#undo-button")
    assert button.is_visible() and button.is_disabled()
    assert page.inner_text("#undo-reason") == "Undo is not possible now: nothing has been played yet."

    # Exploring rolls dice: the move stands, and the page says why in words (not only in a tooltip).
    page.click('#game-area button[data-action="explore 1"]:not([disabled])')
    wait_past(page, 0)
    page.wait_for_function("() => document.querySelector('#undo-reason').textContent.includes('chance')")
    assert button.is_disabled()
    reason = page.inner_text("#undo-reason")
    assert reason == f"Undo is not possible now: {state_of(srv.url, table_id, token)['undo']['reason']}."
    explored = state_of(srv.url, table_id, token)
    log_before = page.locator("#log li").count()

    # Crafting is certain: it can be taken back.
    craft = next(e["text"] for e in explored["legal"] if e["text"].startswith("craft"))
    page.click(f'#game-area button[data-action="{craft}"]:not([disabled])')
    wait_past(page, 1)
    page.wait_for_selector("#undo-button:not([disabled])")
    assert page.inner_text("#undo-reason") == f"Takes back your last move, '{craft}'."
    assert page.locator("#log li").count() > log_before

    # From the keyboard: focus the button, press Enter; the table goes back and the keyboard goes on.
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(PLY_IS, arg=1)
    page.wait_for_function("() => document.querySelector('#undo-reason').textContent.includes('chance')")
    assert page_ply(page) == 1
    after = state_of(srv.url, table_id, token)
    assert (after["ply"], after["view"], after["undos"]) == (1, explored["view"], 1)
    page.wait_for_selector(f'#game-area button[data-action="{craft}"]:not([disabled])')
    assert page.locator("#log li").count() == log_before, "the undone move's lines left the log"
    assert page.evaluate("() => !!document.activeElement.closest('#your-move')"), "focus went to the move panel"
    assert not page.is_visible("#table-error")

    # A reload shows the same table.
    page.reload()
    page.wait_for_function(PLY_IS, arg=1)
    assert page.locator("#log li").count() == log_before

    # At phone size everything still fits, the reason included.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.is_visible("#undo-reason") and page.is_visible("#undo-button")
    assert no_horizontal_scroll(page), "the table page fits a phone screen"

    # The lobby lists the table as seeded, by whom.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{srv.url}/")
    item = page.locator(f'.table-item[data-table="{table_id}"]')
    item.wait_for()
    assert item.locator(".seeded").inner_text() == "Seeded table: the deal was chosen by Ann."

    # A spectator has no Undo.
    watcher = page.context.browser.new_context() if page.context.browser else None
    assert watcher is not None
    try:
        other = watcher.new_page()
        other.goto(f"{srv.url}/t/{table_id}")
        other.wait_for_selector("#turn-banner:not(:empty)")
        assert other.is_hidden("#undo-area")
        assert other.inner_text("#seeded-notice").startswith("Seeded table: the deal was chosen by Ann.")
    finally:
        watcher.close()
    assert page_errors == []
