"""The guided first game in a real browser: started from the lobby, its lesson panel follows the game,
its *Try it* button plays the suggested move, it pages back and forth, reloads as it was, and a watcher
of the same table is taught nothing; at laptop and phone size."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from browser_helpers import no_horizontal_scroll, state_of, token_of, wait_ready

from holotable.engine import registry

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _table_id(page: Page) -> str:
    match = re.search(r"/t/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_tutorial_from_the_lobby_teaches_step_by_step(live_server, page: Page, browser: Browser,
                                                          page_errors: list[str], size: str) -> None:
    srv: LiveServer = live_server()
    tutorial = registry.offered("captain-black", "tutorial")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{srv.url}/")
    page.select_option("#game", "captain-black")
    offer = page.locator("#start-tutorial")
    offer.wait_for()
    offer.click()
    page.wait_for_url(re.compile(r"/t/"))
    wait_ready(page)
    table_id = _table_id(page)
    panel = page.locator("#tutorial")
    panel.wait_for()
    assert tutorial.title in panel.inner_text() and tutorial.intro[:40] in panel.inner_text()
    assert page.inner_text(".lesson-count") == f"Step 1 of {len(tutorial.lessons)}"
    assert page.inner_text("#lesson-try") == "Try it: Grab 2 coins"
    assert page.inner_text(".lesson-text") == tutorial.lessons[0].say
    # The rules sit in a details line, never in the words.
    assert "CB-" not in page.inner_text(".lesson-text")
    assert "CB-DRAW-01" in page.locator("#lesson .rule-ids").text_content()
    assert page.locator("#rules-tutorial").is_hidden()  # no offer of a tutorial inside one
    assert no_horizontal_scroll(page)

    # The suggested move, played by its button: the learner's own grab of two coins.
    page.click("#lesson-try")
    page.wait_for_function("document.querySelector('.lesson-count').textContent.startsWith('Step 2 ')",
                           timeout=20_000)
    state = state_of(srv.url, table_id, token_of(page, table_id))
    assert state["log"][0]["text"].startswith("Seat 1 draws 2")
    assert page.inner_text(".lesson-text") == tutorial.lessons[1].say
    # Page back through what was reached, and forward again.
    page.click("#lesson-back")
    assert page.inner_text(".lesson-count").startswith("Step 1 ")
    assert page.locator("#lesson-back").is_disabled()
    page.click("#lesson-next")
    assert page.inner_text(".lesson-count").startswith("Step 2 ")

    # A reload brings the same step back (the server keeps what the learner reached).
    page.reload()
    wait_ready(page)
    page.locator("#tutorial .lesson").wait_for()
    reached = len(state_of(srv.url, table_id, token_of(page, table_id))["tutorial"]["lessons"])
    assert page.inner_text(".lesson-count").startswith(f"Step {reached} ")

    # Someone watching the table is taught nothing: no panel, no lesson in the state.
    other = browser.new_context()
    try:
        watcher = other.new_page()
        watcher.goto(f"{srv.url}/t/{table_id}")
        wait_ready(watcher)
        assert watcher.locator("#tutorial").is_hidden()
        assert "tutorial" not in state_of(srv.url, table_id, None)
        # A watcher is offered a tutorial of their own from *How to play*.
        assert watcher.locator("#rules-tutorial").is_visible()
    finally:
        other.close()
    assert page_errors == []
