"""Replays in the browser: step back through a running game as your seat saw it, and share a finished one."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import page_ply, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser]


def new_table(base: str, seed: int) -> tuple[str, str]:
    made = httpx.post(f"{base}/api/tables", json={"game": "captain-black", "players": 2, "seed": seed,
                                                  "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]},
                      timeout=10).json()
    return made["table_id"], made["you"]["token"]


def play(base: str, table_id: str, token: str, until: Any) -> dict[str, Any]:
    """The human draws one coin at a time (the bot answers) until ``until(state)``."""
    headers = {"Authorization": f"Bearer {token}"}
    end = time.monotonic() + 60
    while time.monotonic() < end:
        state = state_of(base, table_id, token)
        if until(state) or state["status"] == "finished":
            return state
        if state["legal"]:
            httpx.post(f"{base}/api/tables/{table_id}/actions", json={"action": "draw 1", "ply": state["ply"]},
                       headers=headers, timeout=10)
        else:
            time.sleep(0.02)
    raise AssertionError("the game stalled")


def replay_of(base: str, table_id: str, token: str | None, **params: Any) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body: dict[str, Any] = httpx.get(f"{base}/api/tables/{table_id}/replay", params=params, headers=headers,
                                     timeout=10).json()
    return body


def seat_page(browser: Browser, table_id: str, token: str | None, **viewport: int) -> Page:
    context = browser.new_context(viewport=viewport or {"width": 390, "height": 844})
    if token:
        context.add_init_script(f"localStorage.setItem('holotable:seat:{table_id}', '{token}')")
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def shown_move(page: Page, ply: int) -> None:
    page.wait_for_function("(n) => document.querySelector('#ply').textContent === 'move ' + n", arg=ply)


def test_a_player_steps_back_through_a_running_game_as_their_seat_saw_it(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table_id, token = new_table(srv.url, seed=6)
    now = play(srv.url, table_id, token, lambda s: s["ply"] >= 6 and s["legal"])["ply"]
    page = seat_page(browser, table_id, token)  # a phone
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(f"{srv.url}/t/{table_id}")
        page.click("#replay-link")
        page.wait_for_selector("#replay-bar:not([hidden])")
        shown_move(page, now - 1)
        assert page.inner_text("#turn-banner").startswith(f"Replay: the table after move {now - 1} of {now}")
        assert page.locator("button[data-action]:not([disabled])").count() == 0, "a replay offers no moves"
        page.click("#replay-first")
        shown_move(page, 0)
        assert page.is_disabled("#replay-back") and page.is_disabled("#replay-first")
        for ply in (1, 2, 3):
            page.click("#replay-next")
            shown_move(page, ply)
            # What the page shows is the server's replay of that ply for this seat: the bag and each box.
            view = replay_of(srv.url, table_id, token, ply=ply)["view"]
            assert page.inner_text("#bag-count") == str(view["bag"]["gold"] + view["bag"]["black"])
            for seat, box in enumerate(view["boxes"]):
                coins = f"{box} gold coin" + ("" if box == 1 else "s")
                assert page.inner_text(f'li[data-seat="{seat}"] .box') == f"box: {coins}"
            assert f"?replay={ply}" in page.url
        page.keyboard.press("ArrowLeft")
        shown_move(page, 2)
        page.locator('#log li[data-ply="1"] button').click()  # the move list jumps
        shown_move(page, 1)
        # Another seat's view is not for this browser while the game runs: refused, in words.
        page.goto(f"{srv.url}/t/{table_id}?replay=2&seat=1")
        page.wait_for_selector("#table-error:not([hidden])")
        assert "only what your own seat saw" in page.inner_text("#table-error")
        page.goto(f"{srv.url}/t/{table_id}")
        page.wait_for_selector("#draw-button:not([disabled])")  # back at the live table, the move still waits
        assert page_ply(page) == now
        assert not errors, errors
    finally:
        page.context.close()


def test_a_finished_games_replay_link_shows_any_seat_to_anyone(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table_id, token = new_table(srv.url, seed=3)
    final = play(srv.url, table_id, token, lambda s: s["status"] == "finished")
    page = seat_page(browser, table_id, token, width=1280, height=800)
    try:
        page.goto(f"{srv.url}/t/{table_id}")
        page.wait_for_selector("#result:not([hidden]) #replay-share")
        link = page.input_value("#replay-share")
        assert link.endswith(f"/t/{table_id}?replay=0")
    finally:
        page.context.close()
    stranger = seat_page(browser, table_id, None, width=1280, height=800)  # no seat: whoever got the link
    try:
        stranger.goto(link)
        shown_move(stranger, 0)
        assert "as the open table shows it" in stranger.inner_text("#turn-banner")
        stranger.select_option("#replay-seat", "1")  # the bot's seat, secrets and all, now that it is over
        stranger.wait_for_function("() => location.search.includes('seat=1')")
        assert "as Seat 2 saw it" in stranger.inner_text("#turn-banner")  # seat index 1
        stranger.click("#replay-last")
        shown_move(stranger, final["ply"])
        assert "Game over" in stranger.inner_text("#turn-banner")
        assert replay_of(srv.url, table_id, None, seat=1)["view"] == replay_of(srv.url, table_id, None, seat=1,
                                                                                 ply=final["ply"])["view"]
    finally:
        stranger.context.close()
