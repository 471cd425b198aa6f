"""Captain Black drawn as art and in motion in the browser: the coins, the bag, the island's fields, the
chests and the parrots are pictures (loaded, alt=""); a grab's coins drop out of the bag and a black one
lands on the island, a round's end fills the chests and turns the parrot cards over; none of it moves under
prefers-reduced-motion. At a laptop's size and a phone's. Nothing sleeps: every wait is on a condition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import (
    LOADED_DECORATIVE,
    LONGEST_MOTION,
    MY_TURN_OR_OVER,
    no_horizontal_scroll,
    state_of,
    wait_past,
    wait_ready,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = [pytest.param((1280, 800), id="laptop"), pytest.param((390, 844), id="phone")]

def new_table(base: str) -> tuple[str, str]:
    """A two-seat table, a person (seat 0) against an easy bot, two island fields: rounds end quickly."""
    made = httpx.post(f"{base}/api/tables", json={
        "game": "captain-black", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        "seed": 5, "params": {"island_fields": 2}}, timeout=10)
    made.raise_for_status()
    body = made.json()
    return body["table_id"], body["you"]["token"]


def open_seat(browser: Browser, base: str, table_id: str, token: str, size: tuple[int, int],
              **options: Any) -> tuple[BrowserContext, Page, list[str]]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    context.add_init_script(f"localStorage.setItem('holotable:seat:{table_id}', '{token}')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{base}/t/{table_id}")
    wait_ready(page)
    return context, page, errors


def grab_all(page: Page) -> None:
    """Grab every coin the bag allows (a black one comes up all but surely) and wait for the server."""
    page.wait_for_function(MY_TURN_OR_OVER)
    ply = int(page.inner_text("#ply").split()[-1])
    page.fill("#draw-count", page.get_attribute("#draw-count", "max") or "1")
    page.press("#draw-count", "Enter")
    wait_past(page, ply)


@pytest.mark.parametrize("size", SIZES)
def test_captain_black_is_drawn_as_art_and_moves(live_server: Any, browser: Browser, size: tuple[int, int]) -> None:
    srv: LiveServer = live_server()
    table_id, token = new_table(srv.url)
    context, page, errors = open_seat(browser, srv.url, table_id, token, size)
    try:
        page.wait_for_selector("#draw-button:not([disabled])")
        # The bag, the island's fields and the boxes are pictures.
        assert page.get_attribute("img.bag-art", "src") == "/static/art/captain-black/bag.svg"
        page.wait_for_function(LOADED_DECORATIVE, arg="#island-fields img.coin")
        view = state_of(srv.url, table_id, token)["view"]
        assert page.locator("#island-fields img.coin.black").count() == view["island"]
        assert page.locator("#island-fields img.coin").count() == 2, "one picture a field: black coin or empty"
        page.wait_for_function(LOADED_DECORATIVE, arg=".boxes img.box-art")
        island = page.evaluate("getComputedStyle(document.querySelector('#island-fields')).backgroundImage")
        assert "island.svg" in island

        # A grab: its coins drop out of the bag; a black coin lands on the island.
        grab_all(page)
        page.wait_for_selector("#last-grab img.coin.drop, #round-over")
        landed = page.locator("#island-fields img.coin.black.drop").count()
        round_over = page.locator("#round-over").count()
        assert landed or round_over, "the black coin lands on the island (or ends the round)"
        if page.locator("#last-grab img.coin").count():
            page.wait_for_function(LOADED_DECORATIVE, arg="#last-grab img.coin")
            anim = page.evaluate("getComputedStyle(document.querySelector('#last-grab img.coin')).animationName")
            assert anim in ("cb-drop", "none"), anim  # "none" once it has played and the page redrew

        # Until a round ends: the "round over" moment, the new chests falling in, the parrots turned over.
        seen_round_over = bool(round_over)
        for _ in range(20):
            if seen_round_over:
                break
            grab_all(page)
            seen_round_over = page.locator("#round-over").count() > 0 or page.locator(".cb-rounds.fresh").count() > 0
        assert seen_round_over, "a round ended with its moment"
        assert page.locator(".chest.fresh, .chest-back.fresh").count() > 0, "the chests handed out fall into place"
        state = state_of(srv.url, table_id, token)
        last = state["view"]["rounds"][-1]
        if any(last["parrots"].values()):
            page.wait_for_selector("#round-parrots .parrot-card.flip")
            page.wait_for_function(LOADED_DECORATIVE, arg="#round-parrots img")
        # The chips of this seat's own chests carry their picture (CSS), in words too.
        chests = page.locator('.boxes li[data-seat="0"] .chest')
        assert chests.count() == len(state["view"]["chests"][0])
        assert "chest" in chests.first.inner_text()
        assert no_horizontal_scroll(page)
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_no_motion_under_reduced_motion(live_server: Any, browser: Browser, size: tuple[int, int]) -> None:
    srv: LiveServer = live_server()
    table_id, token = new_table(srv.url)
    context, page, errors = open_seat(browser, srv.url, table_id, token, size)
    try:
        page.emulate_media(reduced_motion="reduce")
        page.wait_for_selector("#draw-button:not([disabled])")
        grab_all(page)
        page.wait_for_selector("#last-grab img.coin.drop, #round-over")  # the change is marked...
        assert page.evaluate(LONGEST_MOTION) == 0, "...but nothing moves"
        for _ in range(20):
            if page.locator("#round-over").count() or page.locator("#result:not([hidden])").count():
                break
            grab_all(page)
        assert page.locator("#round-over").count(), "the round's end is said, still"
        assert page.evaluate(LONGEST_MOTION) == 0
        assert not errors, errors
    finally:
        context.close()
