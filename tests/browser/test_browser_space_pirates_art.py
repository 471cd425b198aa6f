"""Space Pirates drawn as art (issue: illustrated components and motion), on a laptop and on a phone:

* the galaxy's planets are pictures (gradients, many colours), not flat grey polygons, over a starfield;
* the energy cards and the adventures' pictures are SVG images that load (decorative: alt="");
* under ``prefers-reduced-motion: reduce`` the last flick is not played: the canvas shows where the pieces
  came to rest at once, and the cards' and reveal's CSS animations are off; without it they play.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import MARK_AND_READ_MOTION, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]
SEED = 1

#: the RGBA pixels of a square of side 2r+1 (device px) around the field point (x, y) cm
PATCH = """([x, y, r]) => {
  const c = document.querySelector('#sp-canvas');
  const g = c.getContext('2d');
  const k = c.width / Number(c.dataset.fieldW);
  const px = Math.round(x * k), py = Math.round((Number(c.dataset.fieldH) - y) * k);
  return Array.from(g.getImageData(px - r, py - r, 2 * r + 1, 2 * r + 1).data);
}"""


def two_seats(base: str) -> tuple[str, list[str]]:
    with httpx.Client(base_url=base, timeout=20) as http:
        created = http.post("/api/tables", json={"game": "space-pirates", "players": 2, "seed": SEED, "name": "Ann",
                                                 "seats": [{"kind": "human"}] * 2, "params": {"first_seat": 0}})
        assert created.status_code == 201, created.text
        body = created.json()
        joined = http.post(f"/api/tables/{body['table_id']}/join", json={"invite": body["invite"], "name": "Bo"})
        assert joined.status_code == 200, joined.text
        return body["table_id"], [body["you"]["token"], joined.json()["token"]]


def after_a_flick(base: str) -> tuple[str, list[str]]:
    """A table where seat 0 or 1 has just flicked a transport (the page replays it when it opens)."""
    table_id, tokens = two_seats(base)
    catalog = httpx.get(f"{base}/api/tables/{table_id}/catalog", timeout=10).json()
    flickers = {cid for cid, c in catalog["cards"].items() if "FLICK" in c["symbols"]}
    rng = random.Random(3)
    for _ in range(400):
        seat = state_of(base, table_id, None)["to_move"][0]
        mine = state_of(base, table_id, tokens[seat])
        legal = [a["text"] for a in mine["legal"]]
        if not legal:
            continue  # between two moves: ask again
        if mine["view"]["decision"]["kind"] == "flick":
            text = "flick 45.0 0.300"
        else:
            wanted = [t for t in legal if t == "adv FLICK" or (t.startswith("card ") and t.split()[1] in flickers)]
            text = wanted[0] if wanted else rng.choice(legal)
        response = httpx.post(f"{base}/api/tables/{table_id}/actions", json={"action": text, "ply": mine["ply"]},
                              headers={"Authorization": f"Bearer {tokens[seat]}"}, timeout=30)
        assert response.status_code in (200, 409), response.text  # 409: the table moved on meanwhile
        if text.startswith("flick ") and response.status_code == 200:
            return table_id, tokens
    raise AssertionError(f"seed {SEED}: no flick within 400 actions")


def open_seat(page: Page, base: str, table_id: str, token: str) -> None:
    page.add_init_script(f"localStorage.setItem('holotable:seat:{table_id}', '{token}')")
    page.goto(f"{base}/t/{table_id}")
    page.wait_for_selector("#turn-banner:not(:empty)")
    page.wait_for_selector("#sp-canvas[data-field-w]")


def pixels(page: Page, p: list[float], r: int) -> list[tuple[int, int, int]]:
    raw = page.evaluate(PATCH, [p[0], p[1], r])
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 4)]


#: the seats' colours on the page (space-pirates.js COLORS)
COLOURS = [(0xE4, 0x57, 0x2E), (0x29, 0xA3, 0xD6), (0x9B, 0xC5, 0x3D), (0xC7, 0x7D, 0xFF)]


def ship_at(view: dict[str, Any], ship: dict[str, Any]) -> list[float] | None:
    if ship["center"]:
        return list(ship["center"])
    if ship["base"] is not None and ship["slot"] is not None:
        base = next(b for b in view["bases"] if b["index"] == ship["base"])
        return list(base["slots"][ship["slot"]])
    return None


def centre(polygon: list[list[float]]) -> list[float]:
    return [sum(q[0] for q in polygon) / len(polygon), sum(q[1] for q in polygon) / len(polygon)]


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["laptop", "phone"])
def test_the_galaxy_and_the_cards_are_drawn_as_art(live_server: Any, page: Page, page_errors: list[str],
                                                   viewport: dict[str, int]) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size(viewport)
    table_id, tokens = after_a_flick(srv.url)
    open_seat(page, srv.url, table_id, tokens[0])
    page.wait_for_function("() => document.querySelector('#sp-canvas').dataset.animating !== 'true'")
    view = httpx.get(f"{srv.url}/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {tokens[0]}"},
                     timeout=10).json()["view"]
    # every round world of the map is a lit sphere: many colours, and coloured (not the old flat grey)
    worlds = [e for e in view["elements"] if "World" in e["name"] or "Giant" in e["name"]]
    assert worlds
    for e in worlds:
        patch = pixels(page, centre(e["polygon"]), 6)
        assert len(set(patch)) >= 12, e["name"]
        assert max(max(c) - min(c) for c in patch) > 60, f"{e['name']} is grey"
    # the space around is a starfield over a gradient, not one flat colour
    sky = pixels(page, [view["field"][0] / 2, view["field"][1] / 2], 40)
    assert len(set(sky)) > 30
    # a ship is drawn in its seat's colour (its stand on the table, its hull along its heading)
    for player in view["players"]:
        at = ship_at(view, player["ship"])
        if at is None:
            continue
        hull = pixels(page, at, 5)
        want = COLOURS[player["seat"]]
        assert any(sum(abs(c[i] - want[i]) for i in range(3)) < 90 for c in hull), player["seat"]
    # the energy cards: the adventures' pictures are local SVG images that loaded, decorative for readers
    page.wait_for_selector("#sp-hand .sp-adv-icon")
    icons = page.evaluate("""() => [...document.querySelectorAll('.sp-adv-icon, .sp-token-pic')].map((i) => ({
        src: i.getAttribute('src'), alt: i.getAttribute('alt'), ok: i.complete && i.naturalWidth > 0 }))""")
    assert icons
    for icon in icons:
        assert icon["src"].startswith("/static/art/space-pirates/") and icon["alt"] == ""
    page.wait_for_function("""() => [...document.querySelectorAll('.sp-adv-icon')]
        .every((i) => i.complete && i.naturalWidth > 0)""")
    # the canvas says what it is drawn from only: no token's face on its data attributes
    shown = page.locator("#sp-canvas").evaluate("(c) => JSON.stringify({...c.dataset, labels: ''})")
    for word in ("ORE", "SPICE", "TECH", "MEDS", "RELICS", "POLICE", "identity"):
        assert word not in shown
    assert not page_errors, page_errors


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["laptop", "phone"])
@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_draws_the_flick_s_end_at_once(live_server: Any, page: Page, page_errors: list[str],
                                                       viewport: dict[str, int], motion: str) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size(viewport)
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    table_id, tokens = after_a_flick(srv.url)
    open_seat(page, srv.url, table_id, tokens[0])
    page.wait_for_function("() => Number(document.querySelector('#sp-canvas').dataset.animations) >= 1")
    data = page.locator("#sp-canvas").evaluate("(c) => ({...c.dataset})")
    assert data["motion"] == ("reduced" if motion == "reduce" else "full")
    assert data["animating"] == "false"
    # the CSS motion: a card dealt into the hand, the capture's reveal (marked as the page marks them)
    page.wait_for_selector("#sp-hand .sp-card")
    dealt = page.evaluate(MARK_AND_READ_MOTION, ["#sp-hand .sp-card", "dealt"])
    reveal = page.evaluate(MARK_AND_READ_MOTION, ["#sp-reveal", "flash"])
    if motion == "reduce":
        assert dealt["name"] == "none" and reveal["name"] == "none"
    else:
        assert dealt["name"] == "sp-deal" and float(dealt["duration"].rstrip("s")) > 0
        assert reveal["name"] == "sp-flash"
    assert not page_errors, page_errors
