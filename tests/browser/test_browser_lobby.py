"""The lobby's table lists and links, watching a table, and the plain (generic) page every game has."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_helpers import (
    create_in_lobby,
    no_horizontal_scroll,
    open_table,
    page_ply,
    synced_state,
    token_of,
    wait_past,
    wait_ready,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_lobby_lists_tables_with_continue_join_and_watch(live_server, page: Page, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "captain-black", ["human", "human", "bot:normal"])
    item = page.locator(f'#tables-open [data-table="{table_id}"]')
    item.wait_for()
    assert "Captain Black" in item.inner_text() and "2: human (free)" in item.inner_text()
    assert item.get_by_role("link", name="Continue").get_attribute("href") == f"/t/{table_id}"

    other = browser.new_context()
    try:
        visitor = other.new_page()
        visitor.goto(f"{srv.url}/")
        seen = visitor.locator(f'#tables-open [data-table="{table_id}"]')
        seen.wait_for()
        assert seen.get_by_role("link", name="Continue").count() == 0, "the visitor holds no seat here"
        seen.get_by_role("link", name="Watch").click()
        wait_ready(visitor)
        # A spectator: no seat, no moves offered, nobody's chests.
        assert visitor.inner_text("#seat-badge") == "watching"
        assert "Waiting for players" in visitor.inner_text("#turn-banner")
        assert visitor.locator("button[data-action]").count() == 0
        assert token_of(visitor, table_id) is None
        assert "no chest cards yet" not in visitor.inner_text("#game-area")
    finally:
        other.close()

    # The invitation panel's own link joins as the second human; the table starts and moves to "Running".
    invite = page.input_value("#invite-link")
    second = browser.new_context()
    try:
        friend = second.new_page()
        friend.goto(invite)
        wait_ready(friend)
        assert friend.inner_text("#seat-badge") == "you are seat 2"
        # Who came by the link names their seat at the table; the host's page shows it.
        assert friend.is_visible("#name-form") and friend.input_value("#name-input") == ""
        friend.fill("#name-input", "Bo")
        friend.click("#name-save")
        friend.wait_for_selector('#name-status:has-text("Saved")')
        friend.wait_for_selector('#seat-list li[data-seat="1"]:has-text("Seat 2 (you): Bo")')
        host = page.context.new_page()
        host.goto(f"{srv.url}/t/{table_id}")
        host.wait_for_selector('#seat-list li[data-seat="1"]:has-text("Seat 2: Bo")')
        # Who has the table open: Bo's page is, and so is this one (seat 0); nobody watches.
        host.wait_for_selector('#seat-list li[data-seat="1"] [data-presence="online"]')
        host.wait_for_selector('#seat-list li[data-seat="0"] [data-presence="online"]')
        assert host.locator("#watchers").count() == 0
        watcher = browser.new_context().new_page()
        watcher.goto(f"{srv.url}/t/{table_id}")
        host.wait_for_selector('#watchers:has-text("1 person is watching")', timeout=15_000)  # the next summary
        watcher.context.close()
        host.close()
    finally:
        second.close()
    page.click("#refresh")
    page.locator(f'#tables-running [data-table="{table_id}"]').wait_for()
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_horizontal_scroll(page), "the lobby fits a phone screen"


def test_a_public_table_can_be_joined_from_anyones_lobby(live_server, page: Page, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "buccaneers", ["human", "human", "bot:easy"], public=True)
    other = browser.new_context()
    try:
        visitor = other.new_page()
        visitor.goto(f"{srv.url}/")
        item = visitor.locator(f'#tables-open [data-table="{table_id}"]')
        item.get_by_role("link", name="Join").click()
        wait_ready(visitor)
        assert visitor.inner_text("#seat-badge") == "you are seat 2"
        visitor.wait_for_selector("#hand button[data-action]")  # every seat is taken: the game is on
        visitor.goto(f"{srv.url}/")
        visitor.locator(f'#tables-running [data-table="{table_id}"]').get_by_role("link", name="Continue").wait_for()
    finally:
        other.close()


@pytest.mark.parametrize(("game", "seats"), [("kyrum", ["human"]), ("space-pirates", ["human", "bot:easy"])])
def test_the_plain_page_plays_any_game(live_server, page: Page, game: str, seats: list[str]) -> None:
    """`?page=plain` (linked from every table page) shows any game on the generic page."""
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, game, seats)
    open_table(page)
    page.click("#page-switch")
    page.wait_for_url(f"**/t/{table_id}?page=plain")
    wait_ready(page)
    token = token_of(page, table_id)
    for _ in range(3):
        page.wait_for_selector("#your-move button[data-action]:not([disabled])", timeout=15_000)
        server = synced_state(page, srv.url, table_id, token)
        offered = page.locator("#your-move button[data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
        assert sorted(offered) == sorted(m["text"] for m in server["legal"]), "exactly the legal moves"
        assert page.locator("#game-area details, #game-area .kv").count() > 3, "the view, as readable key/values"
        ply = page_ply(page)
        page.locator("#your-move button[data-action]").first.click()
        wait_past(page, ply)
    assert page.locator("#log li").count() > 0


def test_the_options_show_what_a_table_with_people_gets(live_server, page: Page) -> None:
    import httpx

    srv: LiveServer = live_server()
    games = {g["name"]: g for g in httpx.get(f"{srv.url}/api/games", timeout=10).json()}
    page.goto(f"{srv.url}/")
    page.select_option("#game", "space-pirates")
    page.click("#options-box summary")
    for param in games["space-pirates"]["params"]:
        field = page.locator(f"#param-{param['name']}")
        shown = param.get("table_default", param["default"])
        if param["kind"] == "int" and not param.get("choices") and shown is not None:
            assert field.input_value() == str(shown), param["name"]
    params = games["space-pirates"]["params"]
    differs = [p["name"] for p in params if p.get("table_default", p["default"]) != p["default"]]
    assert differs, "Space Pirates has an option whose table value is not its simulation default (turn_cap)"


def test_the_lobby_says_what_each_game_is_and_create_stays_on_screen(live_server, browser: Browser) -> None:
    import httpx

    srv: LiveServer = live_server()
    games = httpx.get(f"{srv.url}/api/games", timeout=10).json()
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.goto(f"{srv.url}/")
            page.wait_for_selector("#game option", state="attached")
            for game in games:
                page.select_option("#game", game["name"])
                assert game["description"] in page.inner_text("#game-about"), game["name"]
                note = page.locator("#game-note")
                if game["name"] == "kyrum":  # a campaign game: the lobby points to the campaigns
                    assert note.is_visible() and "campaign" in note.inner_text()
                    assert page.get_attribute("#game-note-link", "href") == "/campaigns"
                    assert page.inner_text("#create") == "Create a single game"
                else:
                    assert note.is_hidden() and page.inner_text("#create") == "Create table"
            page.select_option("#game", "buccaneers")
            page.select_option("#players", "6")  # the longest form: six seats, the options open
            page.click("#options-box summary")
            for scrolled in (0, 400, 10_000):
                page.evaluate(f"window.scrollTo(0, {scrolled})")
                box = page.locator("#create").bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (viewport, scrolled)
            assert no_horizontal_scroll(page)
        finally:
            context.close()
