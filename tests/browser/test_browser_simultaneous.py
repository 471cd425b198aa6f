"""Simultaneous clicks count: two people (and a bot) picking in the same instant all get their pick.

A choice is stale only when the seat's own decision changed since it was made (the game's decision key),
not whenever anyone acted: the others' sealed picks change nothing on the table."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocket

    from support.services import LiveServer

pytestmark = [pytest.mark.browser]

PICK = "#hand button[data-action]:not([disabled])"
# Each page clicks its first offered card at one shared wall-clock instant (both pages run on this machine's
# clock): the two actions leave for the server together, each chosen at the ply the pick opened at.
CLICK_AT = f"(at) => {{ setTimeout(() => document.querySelector('{PICK}').click(), at - Date.now()); }}"


def test_two_people_picking_in_the_same_instant_both_count(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    made = httpx.post(f"{srv.url}/api/tables", json={
        "game": "buccaneers", "players": 3, "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]}, timeout=10).json()
    table_id = made["table_id"]
    joined = httpx.post(f"{srv.url}/api/tables/{table_id}/join", json={"invite": made["invite"]}, timeout=10)
    tokens = [made["you"]["token"], joined.json()["token"]]
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}),
                browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)]
    refusals: list[dict[str, Any]] = []

    def listen(ws: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "error":
                refusals.append(message)
        ws.on("framereceived", on_frame)

    try:
        pages: list[Page] = []
        for context, token in zip(contexts, tokens, strict=True):
            context.add_init_script(f"localStorage.setItem('holotable:seat:{table_id}', '{token}')")
            page = context.new_page()
            page.set_default_timeout(10_000)
            page.on("websocket", listen)
            page.goto(f"{srv.url}/t/{table_id}")
            page.wait_for_selector(PICK)
            pages.append(page)
        # The ply the pick opened at (the bot's sealed pick may already be in: it does not count).
        start = httpx.get(f"{srv.url}/api/tables/{table_id}/state", timeout=10).json()
        opened = start["ply"] - len(start["committed"])
        at = pages[0].evaluate("Date.now()") + 500
        for page in pages:
            page.evaluate(CLICK_AT, at)
        for page in pages:  # each page hears back: its pick is in (the hand is put away, or the pick resolved),
            page.wait_for_function(  # or it was refused (an error shows)
                f"() => !document.querySelector('{PICK}') || !document.querySelector('#table-error').hidden || "
                f"Number(document.querySelector('#ply').textContent.split(' ').pop()) >= {opened + 3}")
        state = httpx.get(f"{srv.url}/api/tables/{table_id}/state", timeout=10).json()
        assert state["ply"] >= opened + 2, "both picks were taken"
        assert not refusals, refusals
        for page in pages:
            assert page.locator("#table-error").is_hidden(), page.inner_text("#table-error")
    finally:
        for context in contexts:
            context.close()
