"""Kyrum's cards in the browser (issue 18): a planet's name opens its card, with the same arrows the rules
(and the bots) read; Escape closes it and the focus goes back; the card fits a phone screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import no_horizontal_scroll, wait_ready

from holotable.games.kyrum.card_text import describe_ops
from holotable.games.kyrum.pack import load_pack

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PACK = load_pack("kyrum-demo")


def test_a_planet_card_opens_with_its_arrows(live_server: Any, page: Page, page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    with httpx.Client(base_url=srv.url, timeout=20) as http:
        made = http.post("/api/campaigns", json={"name": "Ada", "seed": 193}).json()
        game = http.post(f"/api/campaigns/{made['campaign_id']}/games",
                         headers={"Authorization": f"Bearer {made['token']}"}).json()
        view = http.get(f"/api/tables/{game['table_id']}/state",
                        headers={"Authorization": f"Bearer {game['token']}"}).json()["view"]
    page.goto(f"{srv.url}/campaigns/{made['campaign_id']}#token={made['token']}")
    page.wait_for_selector("#scoreboard")
    page.goto(f"{srv.url}{game['url']}")
    wait_ready(page)
    slot = view["slots"][0]
    planet = PACK.planets[slot["planet"]]
    opener = page.locator(f'.ky-slots button[data-card="planet:{planet.number}"]')
    assert f"white: {describe_ops(planet.white, PACK)}" in page.inner_text(".ky-slots li:first-child .ky-arrows")
    opener.click()
    sheet = page.locator("#ky-card-dialog[open]")
    sheet.wait_for()
    said = sheet.inner_text()
    assert f"{planet.number} {planet.name}" in said and planet.description in said
    assert f"white die higher: {describe_ops(planet.white, PACK)}" in said
    assert f"black die higher: {describe_ops(planet.black, PACK)}" in said
    assert page.evaluate("() => document.activeElement.id") == "ky-card-close"
    page.keyboard.press("Escape")
    page.wait_for_selector("#ky-card-dialog[open]", state="detached")
    assert page.evaluate("() => document.activeElement.dataset.card") == f"planet:{planet.number}"
    page.set_viewport_size({"width": 390, "height": 844})
    opener.click()
    sheet.wait_for()
    box = page.locator("#ky-card-dialog").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert no_horizontal_scroll(page)
    page.click("#ky-card-close")
    assert not page_errors, page_errors
