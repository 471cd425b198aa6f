"""Placing the cosmic storm in the browser, on a phone: the page shades where the storm may go, shows
where it would land at the pointer (snapped to the nearest legal spot, so never over another ship), and
a tap over the other ship places it at the first try instead of being refused."""

from __future__ import annotations

import math
import os
import random
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import open_pair, state_of, wait_past, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEED = 1


def step_towards_storm(base: str, table_id: str, tokens: list[str | None], rng: random.Random) -> dict[str, Any]:
    """Play both seats over HTTP (an energy card 5 whenever one may: its adventures include the storm,
    else a seeded random legal action) until a seat must place the storm; that seat's state."""
    for _ in range(400):
        public = state_of(base, table_id, None)
        seat = public["to_move"][0]
        mine = state_of(base, table_id, tokens[seat])
        if mine["view"]["decision"]["kind"] == "place_storm":
            return mine
        legal = [a["text"] for a in mine["legal"]]
        fives = [t for t in legal if "E5" in t]
        text = fives[0] if fives else rng.choice(legal)
        response = httpx.post(f"{base}/api/tables/{table_id}/actions", json={"action": text, "ply": mine["ply"]},
                              headers={"Authorization": f"Bearer {tokens[seat]}"}, timeout=30)
        assert response.status_code == 200, response.text
    raise AssertionError(f"seed {SEED}: no storm to place within 400 actions")


def to_page(page: Page, view: dict[str, Any], p: list[float]) -> tuple[float, float]:
    canvas = page.locator("#sp-canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box is not None
    w, h = view["field"]
    return box["x"] + p[0] / w * box["width"], box["y"] + (h - p[1]) / h * box["height"]


def test_a_phone_tap_over_another_ship_places_the_storm_at_the_nearest_legal_spot(live_server,
                                                                                    browser: Browser) -> None:
    srv: LiveServer = live_server()
    contexts, pages, table_id, tokens = open_pair(browser, srv.url, "space-pirates", {"width": 390, "height": 844},
                                                  touch=True, seed=SEED, first_seat="0")
    try:
        mine = step_towards_storm(srv.url, table_id, tokens, random.Random(SEED))
        seat, view, ply = mine["seat"], mine["view"], mine["ply"]
        area = mine["extra"]["area"]
        assert area["kind"] == "storm" and area["points"], "the server sends the legal storm area"
        page = pages[seat]
        page.reload()
        wait_ready(page)
        page.wait_for_selector("#sp-storm-preview")
        # a reload replays the last flick's animation; the pointer waits for it as a player would
        page.wait_for_function("() => document.querySelector('#sp-canvas').dataset.animating !== 'true'")
        # the other seat's ship (docked or in space): where a storm may never go
        other = view["players"][1 - seat]["ship"]
        dock = next((b for b in view["bases"] if b["index"] == other["base"]), None)
        target = other["center"] or dock["slots"][other["slot"]]
        x, y = to_page(page, view, target)
        page.mouse.move(x - 30, y - 30)
        page.mouse.move(x, y, steps=5)
        page.wait_for_function("() => document.querySelector('#sp-storm-preview').textContent.startsWith('Storm')")
        preview = page.inner_text("#sp-storm-preview")
        assert preview.startswith("Storm goes at") and "nearest legal spot" in preview, preview
        shot_dir = os.environ.get("HOLOTABLE_SHOTS")
        if shot_dir:
            page.screenshot(path=os.path.join(shot_dir, "sp-storm-phone.png"), full_page=False)
        page.touchscreen.tap(x, y)
        wait_past(page, ply)  # the first tap is taken: no refusal, no second try
        after = state_of(srv.url, table_id, tokens[seat])["view"]
        storm = after["storm"]
        assert storm is not None
        assert [round(storm[0], 1), round(storm[1], 1)] in [[round(a, 1), round(b, 1)] for a, b in area["points"]]
        assert math.dist(storm, target) > 1.0, "the storm was not placed over the other ship"
    finally:
        for c in contexts:
            c.close()
