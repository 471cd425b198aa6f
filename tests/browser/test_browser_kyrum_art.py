"""Black Hole: Kyrum drawn as art (issue: illustrated components and motion), on a laptop and on a phone:

* every distance die is a die face with as many pips as its value (SVG), named in words for readers;
* every planet card of the area has its picture (SVG), the boards' gauges and elements their pictures
  (local SVG images that load, decorative: alt="");
* a die rolls in and a planet card is dealt in (CSS animations), and neither moves under
  ``prefers-reduced-motion: reduce``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import MARK_AND_READ_MOTION, no_horizontal_scroll, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]


def open_game(page: Page, base: str) -> dict[str, Any]:
    """A new campaign's first game, opened by its player; the area's view."""
    with httpx.Client(base_url=base, timeout=20) as http:
        made = http.post("/api/campaigns", json={"name": "Ada", "seed": 193}).json()
        game = http.post(f"/api/campaigns/{made['campaign_id']}/games",
                         headers={"Authorization": f"Bearer {made['token']}"}).json()
        view: dict[str, Any] = http.get(f"/api/tables/{game['table_id']}/state",
                                        headers={"Authorization": f"Bearer {game['token']}"}).json()["view"]
    page.goto(f"{base}/campaigns/{made['campaign_id']}#token={made['token']}")
    page.wait_for_selector("#scoreboard")
    page.goto(f"{base}{game['url']}")
    wait_ready(page)
    page.wait_for_selector(".ky-slots .ky-planet")
    return view


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["laptop", "phone"])
def test_dice_planets_and_boards_are_pictures(live_server: Any, page: Page, page_errors: list[str],
                                              viewport: dict[str, int]) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size(viewport)
    view = open_game(page, srv.url)
    dice = page.evaluate("""() => [...document.querySelectorAll('.ky-slots .ky-die')].map((d) => ({
        label: d.getAttribute('aria-label'), role: d.getAttribute('role'),
        svg: d.querySelectorAll('svg.ky-die-face[aria-hidden=true]').length,
        pips: d.querySelectorAll('.ky-pip').length }))""")
    assert len(dice) == len(view["slots"])
    for shown, slot in zip(dice, view["slots"], strict=True):
        assert shown["svg"] == 1 and shown["role"] == "img"
        assert shown["label"] == f"distance die of {slot['name']} {slot['die']}"
        assert shown["pips"] == (slot["die"] if slot["die"] <= 6 else 0)
    arts = page.locator(".ky-slots .ky-planet-art")
    assert arts.count() == len(view["slots"])
    for k in range(arts.count()):
        arts.nth(k).wait_for(state="visible")  # a redraw may be replacing the card this instant
        box = arts.nth(k).bounding_box()
        assert box is not None and box["width"] >= 100 and box["height"] >= 50
    # the pictures beside the gauges and elements: local SVG files that loaded, hidden from readers
    page.wait_for_function("""() => { const pics = [...document.querySelectorAll('.ky-pic, .ky-kind-pic')];
        return pics.length >= 9 && pics.every((i) => i.complete && i.naturalWidth > 0); }""")
    pics = page.evaluate("""() => [...document.querySelectorAll('.ky-pic, .ky-kind-pic')].map((i) => [
        i.getAttribute('src'), i.getAttribute('alt')])""")
    assert all(src.startswith("/static/art/kyrum/") and alt == "" for src, alt in pics)
    assert no_horizontal_scroll(page)
    # the planet's card, opened, shows the same picture as the table
    page.locator(".ky-slots li:first-child button.ky-card-open").first.click()
    page.wait_for_selector("#ky-card-dialog[open] .ky-planet-art")
    page.click("#ky-card-close")
    assert not page_errors, page_errors


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["laptop", "phone"])
@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_rolls_and_deals_move_unless_reduced(live_server: Any, page: Page, page_errors: list[str],
                                             viewport: dict[str, int], motion: str) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size(viewport)
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    open_game(page, srv.url)
    # as the page marks a die it has just rolled and a card it has just dealt
    rolled = page.evaluate(MARK_AND_READ_MOTION, [".ky-slots .ky-die", "rolled"])
    dealt = page.evaluate(MARK_AND_READ_MOTION, [".ky-slots .ky-planet", "dealt"])
    if motion == "reduce":
        assert rolled["name"] == "none" and dealt["name"] == "none"
    else:
        assert rolled["name"] == "ky-roll" and float(rolled["duration"].rstrip("s")) > 0
        assert dealt["name"] == "ky-deal" and float(dealt["duration"].rstrip("s")) > 0
    assert not page_errors, page_errors
