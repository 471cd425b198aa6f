"""Black Hole Council drawn as art in the browser: every planet a picture with its colour in letters and a
symbol of its own, the board's outcome marks, the vote cards and the secret cards as pictures (loaded, alt=""),
nobody's secret in the page; the motion of a Leader's swap (the planets slide) and of the revealed votes (the
cards turn over), and none of it under prefers-reduced-motion. At a laptop's size and a phone's.

The table has only people (four human seats; the page is seat 1, the others act over HTTP), so nothing moves
unless the test moves it. Nothing sleeps: every wait is on a condition in the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import LOADED, LONGEST_MOTION, PLY_AT_LEAST, no_horizontal_scroll, state_of, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OUTCOMES = ("settle", "tax", "mine", "conquer", "black_hole")
TAGS = {"red": "Red", "green": "Grn", "yellow": "Yel", "blue": "Blu", "black": "Blk", "rainbow": "Any"}
SIZES = [pytest.param((1280, 800), id="laptop"), pytest.param((390, 844), id="phone")]

#: Every picture under ``sel`` as [src, alt, aria-hidden, naturalWidth, complete].
PICTURES = """(sel) => [...document.querySelectorAll(sel)].map(img =>
    [img.getAttribute('src'), img.getAttribute('alt'), img.getAttribute('aria-hidden'),
     img.naturalWidth, img.complete])"""

class Table:
    def __init__(self, base: str) -> None:
        made = httpx.post(f"{base}/api/tables", json={
            "game": "council", "players": 4, "seats": [{"kind": "human"}] * 4, "seed": 3,
            "params": {"negotiation_seconds": 300, "first_leader": 0}}, timeout=10).json()
        self.base, self.id = base, made["table_id"]
        self.tokens = [made["you"]["token"]]
        for _ in range(3):
            joined = httpx.post(f"{base}/api/tables/{self.id}/join", json={"invite": made["invite"]}, timeout=10)
            self.tokens.append(joined.json()["token"])

    def state(self, seat: int | None = None) -> dict[str, Any]:
        return state_of(self.base, self.id, None if seat is None else self.tokens[seat])

    def act(self, seat: int, action: str) -> None:
        ply = self.state(seat)["ply"]
        response = httpx.post(f"{self.base}/api/tables/{self.id}/actions", json={"action": action, "ply": ply},
                              headers={"Authorization": f"Bearer {self.tokens[seat]}"}, timeout=10)
        assert response.status_code == 200, response.text


@contextmanager
def seat_page(browser: Browser, table: Table, seat: int, size: tuple[int, int], **options: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    try:
        context.add_init_script(f"localStorage.setItem('holotable:seat:{table.id}', '{table.tokens[seat]}')")
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.goto(f"{table.base}/t/{table.id}")
        wait_ready(page)
        page.wait_for_selector("#council-planets .slot")
        yield page
        assert not errors, errors
    finally:
        context.close()


def synced(page: Page, table: Table) -> None:
    page.wait_for_function(PLY_AT_LEAST, arg=table.state()["ply"])


@pytest.mark.parametrize("size", SIZES)
def test_the_council_is_drawn_as_art_and_moves(live_server: Any, browser: Browser, size: tuple[int, int]) -> None:
    srv: LiveServer = live_server()
    table = Table(srv.url)
    mine = table.state(1)["view"]["you"]["agenda"]["id"]
    others = [table.state(s)["view"]["you"]["agenda"]["id"] for s in (0, 2, 3)]
    with seat_page(browser, table, 1, size) as page:
        planets = table.state()["view"]["table"]
        # Each planet: a loaded picture of its colour, its colour in letters, a symbol of its own.
        page.wait_for_function(LOADED, arg="#council-planets img")
        symbols = {}
        for outcome in OUTCOMES:
            planet = planets[outcome]
            slot = f'#council-planets [data-slot="{outcome}"]'
            face = page.locator(f"{slot} .planet-face")
            assert face.locator(".planet-colour").inner_text() == TAGS[planet["colour"]]
            (src, alt, hidden, width, _), = page.evaluate(PICTURES, f"{slot} img.planet-art")
            assert src == f"/static/art/council/planet-{planet['colour']}.svg"
            assert alt == "" and hidden == "true" and width > 0, "decorative, and loaded"
            symbols[planet["colour"]] = face.get_attribute("data-symbol")
            assert page.locator(f'[data-slot="{outcome}"] img.outcome-art').count() == 1
            # The accessible name says it all in words, the picture stays out of it.
            label = page.locator(f"{slot} [data-planet]").get_attribute("aria-label") or ""
            assert planet["colour"] in label.lower() or "rainbow" in label.lower(), label
        assert len(set(symbols.values())) == len(symbols), f"one symbol per colour: {symbols}"
        board = page.evaluate("getComputedStyle(document.querySelector('#council-planets')).backgroundImage")
        assert "board.svg" in board
        # The secret cards are cards with art, on their owner's page only; nobody else's Agenda is in the page.
        page.wait_for_function(LOADED, arg="#council-private img")
        assert page.locator("#council-private .agenda .goal-planet").count() == 5
        html = page.content()
        def named(agenda: str) -> bool:
            return re.search(rf"(?<![A-Za-z0-9-]){re.escape(agenda)}(?![A-Za-z0-9-])", html) is not None

        assert named(mine) and not [a for a in others if named(a)]

        # A Leader's swap: the two planets slide from their old slots to the new ones.
        table.act(0, "swap mine conquer")
        page.wait_for_selector('[data-slot="conquer"] .planet.sliding')
        page.wait_for_selector('[data-slot="mine"] .planet.sliding')
        assert page.locator('[data-slot="settle"] .planet.sliding').count() == 0, "only the moved planets slide"
        motion = page.evaluate("""() => { const el = document.querySelector('[data-slot="conquer"] .planet.sliding');
            if (!el) return null;
            const cs = getComputedStyle(el);
            return [cs.animationName, parseFloat(cs.animationDuration)]; }""")
        assert motion is not None and motion[0] == "council-slide" and motion[1] > 0, motion

        # The votes: face-down cards while they come in, turned over together once all are in.
        table.act(0, "call vote")
        table.act(2, "vote pass")
        page.wait_for_selector('#council-voters li.voted[data-seat="2"] img.voter-card')
        table.act(1, "vote pass")
        table.act(3, "vote fail")
        page.wait_for_selector("#council-votes li.ballot.flip")
        assert page.locator("#council-votes li.ballot.flip").count() == 3, "the three voters' cards turn over"
        page.wait_for_function(LOADED, arg="#council-votes img")
        fronts = page.evaluate(PICTURES, "#council-votes li.ballot img.ballot-face")
        assert {f[0] for f in fronts} >= {"/static/art/council/vote-pass.svg", "/static/art/council/vote-fail.svg"}
        assert page.locator('#council-votes li[data-seat="3"][data-vote="fail"]').inner_text().endswith("Fail")
        assert no_horizontal_scroll(page)


@pytest.mark.parametrize("size", SIZES)
def test_no_motion_under_reduced_motion(live_server: Any, browser: Browser, size: tuple[int, int]) -> None:
    srv: LiveServer = live_server()
    table = Table(srv.url)
    with seat_page(browser, table, 1, size) as page:
        page.emulate_media(reduced_motion="reduce")
        synced(page, table)
        table.act(0, "swap settle tax")
        page.wait_for_selector('[data-slot="tax"] .planet.sliding')  # the change is marked...
        page.wait_for_selector('[data-slot="tax"].moved')
        assert page.evaluate(LONGEST_MOTION) == 0, "...but nothing moves"
        table.act(0, "call vote")
        for seat in (1, 2, 3):
            table.act(seat, "vote pass")
        page.wait_for_selector("#council-votes li.ballot.flip")
        assert page.evaluate(LONGEST_MOTION) == 0
        page.wait_for_function(LOADED, arg="#council-planets img, #council-votes img")
