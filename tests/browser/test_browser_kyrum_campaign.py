"""Kyrum campaigns in the browser: a whole game played through the table page and folded into the
campaign page, the same after a reload and a server restart mid-game, and two campaigns linked for
the Black Hole encounter through two browser contexts, the message travelling from one to the other.

The moves are clicked on the page (buttons carrying the move's text in ``data-action``); which one is
the first legal, non-conceding move of the server's list, so the game follows a known short course."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import no_horizontal_scroll, page_ply, state_of, wait_past, wait_ready

from holotable.games.kyrum.pack import load_pack

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHORT_SEED = 193  # game 1 ends after 7 moves of this policy
RESUME_SEED = 271  # 11 moves
PARTNER_SEED_A = 43  # the Black Hole at move 11
PARTNER_SEED_B = 33  # the Black Hole at move 16


def create_campaign(page: Page, base: str, name: str, seed: int, partner: bool = False) -> str:
    page.goto(f"{base}/campaigns")
    page.fill("#new-name", name)
    page.fill("#new-seed", str(seed))
    if partner:
        page.check("#new-partner")
    page.click("#new-campaign button[type=submit]")
    page.wait_for_url("**/campaigns/*")
    page.wait_for_selector("#camp-title")
    return page.url.rsplit("/", 1)[-1]


def table_id_of(page: Page) -> str:
    return page.url.split("/t/", 1)[1].split("?")[0]


def seat_token(page: Page, table_id: str) -> str:
    token = page.evaluate("(id) => localStorage.getItem('holotable:seat:' + id)", table_id)
    assert isinstance(token, str)
    return token


def one_move(page: Page, base: str, message: str = "Look for the heron") -> dict[str, Any]:
    """Click the policy's move on the page and wait until the server has it; return the state before."""
    table_id = table_id_of(page)
    before = state_of(base, table_id, seat_token(page, table_id))
    texts = [entry["text"] for entry in before["legal"]]
    choice = next((t for t in texts if t != "concede"), texts[0])
    page.wait_for_function("(n) => Number(document.querySelector('#ply').textContent.split(' ').pop()) === n",
                           arg=before["ply"])
    if choice == "send":
        page.fill("#ky-message", message)
        page.click("#game-area form.ky-send button[type=submit]")
    else:
        page.click(f'#game-area button[data-action="{choice}"]:not([disabled])')
    wait_past(page, before["ply"])
    return before


def play_to_end(page: Page, base: str, limit: int = 200) -> None:
    for _ in range(limit):
        table_id = table_id_of(page)
        if state_of(base, table_id, seat_token(page, table_id))["status"] == "finished":
            return
        one_move(page, base)
    raise AssertionError("the game did not end")


def play_until_black_hole(page: Page, base: str, limit: int = 100) -> dict[str, Any]:
    for _ in range(limit):
        table_id = table_id_of(page)
        state = state_of(base, table_id, seat_token(page, table_id))
        if (state["view"]["decision"] or {}).get("kind") == "partner":
            return state
        one_move(page, base)
    raise AssertionError("no Black Hole")


def check_folded(page: Page, game: int) -> None:
    page.wait_for_selector("#ky-back-to-campaign")
    page.click("#ky-back-to-campaign")
    page.wait_for_selector("#scoreboard")
    row = page.locator(f'#scoreboard tr[data-game="{game}"]')
    assert row.locator("td").nth(2).inner_text() in ("victory", "defeat")
    assert page.inner_text("#next-game") == f"next game {game + 1} of 30"
    assert page.locator("#start-game").is_enabled()


def test_a_whole_campaign_game_through_the_pages(live_server: Any, page: Page, page_errors: list[str]) -> None:
    started = time.monotonic()
    srv: LiveServer = live_server()
    create_campaign(page, srv.url, "Ada", SHORT_SEED)
    page.click("#start-game")
    page.wait_for_url("**/t/*")
    wait_ready(page)
    page.wait_for_selector(".ky-slots .ky-planet")
    assert page.locator(".ky-slots .ky-planet").count() == 4
    assert page.locator(".ky-gauge [role=meter]").count() == 9
    assert page.locator(".ky-craft tbody tr").count() >= 5  # the crafting costs are listed
    moves = [one_move(page, srv.url)["legal"][0]["text"] for _ in range(4)]
    assert moves == ["explore 0", "explore 1", "craft uncommon fuel", "explore 2"]  # the last one rolls dice
    page.wait_for_selector(".ky-dice .ky-die.rolled")  # the new exploration dice roll in
    # A spectator of a campaign's table sees that it runs, nothing of its board, scripts or log.
    assert page.context.browser is not None
    watcher_context = page.context.browser.new_context()
    try:
        watcher = watcher_context.new_page()
        frames: list[str] = []
        watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
        watcher.goto(page.url)
        watcher.wait_for_selector("#ky-private-title")
        assert watcher.locator(".ky-slots, .ky-booklet, .ky-boards").count() == 0
        assert watcher.locator("#log li").count() == 0
        watcher.wait_for_function("() => document.querySelector('#connection').textContent === 'live'")
        assert frames and not any("journal" in f or "slots" in f for f in frames)
        states = [m for m in map(json.loads, frames) if m.get("type") == "state"]
        assert states, "the watcher got the table's state"
        for message in states:  # every message: the game's number and phase, no board, no log, no moves
            engine_fields = {"game", "players", "seat", "ply", "to_move", "terminal", "outcome"}
            assert set(message["view"]) - engine_fields == {"private", "game_number", "phase"}
            assert message["log"] == [] and message["legal"] == [] and message["seat"] is None
            assert "campaign_id" not in (message.get("extra") or {})
    finally:
        watcher_context.close()
    play_to_end(page, srv.url)
    assert page.locator(".ky-result .ky-np").is_visible()
    assert not page.locator("#rematch").is_visible()  # the campaign's next game replaces a rematch
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_horizontal_scroll(page), "the table page fits a phone screen"
    check_folded(page, 1)
    assert no_horizontal_scroll(page), "the campaign page fits a phone screen"
    # Between games: a comment on the game and a journal note, kept on the server.
    page.fill("#comment-text", "A rough first trip")
    page.click("#comment-form button[type=submit]")
    page.wait_for_selector('#scoreboard tr[data-game="1"]:has-text("A rough first trip")')
    page.fill("#note-text", "Ask about Ilune at the next Thoth post")
    page.click("#note-form button[type=submit]")
    page.wait_for_selector("#journal:has-text('Ask about Ilune at the next Thoth post')")
    page.reload()
    page.wait_for_selector("#journal:has-text('Ask about Ilune at the next Thoth post')")
    items = len(load_pack("kyrum-demo").item_order)
    assert page.locator("#market-items button[data-buy]").count() == items  # the market is open between games
    # The list of this browser's campaigns shows it.
    page.goto(f"{srv.url}/campaigns")
    assert "1 game of 30 played" in page.inner_text("#campaign-list")
    assert not page_errors, page_errors
    assert time.monotonic() - started < 180


def test_a_campaign_game_resumes_after_a_reload_and_a_restart(live_server: Any, page: Page) -> None:
    srv: LiveServer = live_server()
    cid = create_campaign(page, srv.url, "Bo", RESUME_SEED)
    page.click("#start-game")
    page.wait_for_url("**/t/*")
    wait_ready(page)
    for _ in range(3):
        one_move(page, srv.url)
    ply = page_ply(page)
    page.reload()
    wait_ready(page)
    assert page_ply(page) == ply
    one_move(page, srv.url)
    # The campaign page offers to continue the same game (not to start another one).
    page.goto(f"{srv.url}/campaigns/{cid}")
    page.click("#continue-game")
    wait_ready(page)
    one_move(page, srv.url)
    ply = page_ply(page)
    srv.stop()
    page.wait_for_function("() => document.querySelector('#connection').textContent.startsWith('offline')")
    srv.start()
    page.wait_for_function("() => document.querySelector('#connection').textContent === 'live'", timeout=20_000)
    assert page_ply(page) == ply
    play_to_end(page, srv.url)
    check_folded(page, 1)


def test_two_campaigns_linked_for_the_black_hole(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    ada_context, bo_context = browser.new_context(), browser.new_context()
    try:
        ada, bo = ada_context.new_page(), bo_context.new_page()
        for p in (ada, bo):
            p.set_default_timeout(10_000)
        create_campaign(ada, srv.url, "Ada", PARTNER_SEED_A, partner=True)
        bo_id = create_campaign(bo, srv.url, "Bo", PARTNER_SEED_B, partner=True)
        ada.click("#create-link")
        code = ada.inner_text("#link-invite-code")
        assert code.startswith("KYRLINK-")
        bo.fill("#link-code", code)
        bo.click("#link-form button[type=submit]")
        bo.wait_for_selector("#partner-status:has-text('Linked with Ada')")
        ada.reload()
        ada.wait_for_selector("#partner-status:has-text('Linked with Bo')")
        # Bo cannot read Ada's campaign with Bo's own key.
        assert bo.evaluate("""async () => (await fetch(location.pathname.replace('/campaigns/', '/api/campaigns/')
            .replace(/[^/]+$/, 'nope'))).status""") in (403, 404)

        ada.click("#start-game")
        ada.wait_for_url("**/t/*")
        wait_ready(ada)
        play_until_black_hole(ada, srv.url)
        ada.wait_for_selector("#ky-message")
        one_move(ada, srv.url, message="Look for the heron")

        bo.goto(f"{srv.url}/campaigns/{bo_id}")
        bo.wait_for_selector("#partner-inbox:has-text('Look for the heron')")
        # The same message as a code, for a partner elsewhere: pasted into an unlinked campaign.
        ada.goto(ada.url.split("/t/")[0] + "/campaigns")
        ada.click("#campaign-list a")
        ada.wait_for_selector("#partner-outbox:has-text('Look for the heron')")
        code_text = ada.locator("#partner-outbox code").first.text_content() or ""
        assert code_text.startswith("KYR1-")
        create_campaign(ada, srv.url, "Cy", PARTNER_SEED_B, partner=True)
        ada.fill("#import-code", code_text)
        ada.click("#import-form button[type=submit]")
        ada.wait_for_selector("#partner-inbox:has-text('Look for the heron')")
        ada.fill("#import-code", code_text[:-3] + "AAA")
        ada.click("#import-form button[type=submit]")
        ada.wait_for_selector("#campaign-error:has-text('checksum')")
        bo.click("#start-game")
        bo.wait_for_url("**/t/*")
        wait_ready(bo)
        play_until_black_hole(bo, srv.url)
        bo.wait_for_selector(".ky-received:has-text('Look for the heron')")
    finally:
        ada_context.close()
        bo_context.close()


def test_the_questionnaire_at_the_end_of_a_campaign(live_server: Any, page: Page, page_errors: list[str]) -> None:
    from sqlalchemy import create_engine, select

    from holotable.games.kyrum.campaign import CampaignState
    from holotable.games.kyrum.server_store import campaigns_t

    srv: LiveServer = live_server()
    cid = create_campaign(page, srv.url, "Cy", SHORT_SEED)
    assert page.locator("#quest-form").count() == 0  # not before game 30
    # The campaign's stored state says every scheduled game was played (what thirty games would leave).
    engine = create_engine(srv.database)
    try:
        with engine.begin() as conn:
            raw = conn.execute(select(campaigns_t.c.state).where(campaigns_t.c.id == cid)).scalar_one()
            state = CampaignState.from_json(raw)
            state.next_game = 31
            conn.execute(campaigns_t.update().where(campaigns_t.c.id == cid).values(state=state.to_json()))
    finally:
        engine.dispose()
    page.reload()
    page.wait_for_selector("#quest-form")
    assert page.inner_text("#next-game") == "campaign complete"
    questions = load_pack("kyrum-demo").questionnaire["questions"]
    for q in questions:  # the right answer to each
        page.check(f'#quest-form input[name="{q["id"]}"][value="{q["answer"]}"]')
    page.click("#quest-form button[type=submit]")
    page.wait_for_selector("#quest-result")
    full = sum(int(q["points"]) for q in questions)
    assert f"{2 * full} / 100" in page.inner_text("#quest-result")
    assert not page_errors, page_errors
