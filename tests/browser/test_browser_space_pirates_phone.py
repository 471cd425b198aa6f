"""Space Pirates on a phone (390 x 844, touch): targets a finger can hit and a map it can zoom (issue 19).

* The start base: a tap beside a base (not on it) chooses it; the bases that may be chosen are green.
* A drawn transport: the legal area is shaded, a ghost follows the pointer, and a tap near a legal spot
  (on a spot the rules refuse) is snapped to the nearest legal one and taken at the first try.
* A flick target: a tap near a token (not on it) picks it.
* The zoom buttons and a pinch change the canvas's scale without the page scrolling sideways; a drag pans.
* Every button of the page's panels is at least 44 x 44 CSS px; the bases' labels (ids and prices) are
  at least 11 px and never under a ship, on a phone and on a laptop (1280 x 800).

Screenshots go to ``$HOLOTABLE_SHOTS`` when it is set.
"""

from __future__ import annotations

import math
import os
import random
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import no_horizontal_scroll, open_pair, state_of, wait_past, wait_ready
from shapely.geometry import Point, Polygon

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEED = 1
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
#: the page's fingertip: a tap this close (CSS px) to a target picks it
HIT_PX = 22


#: two touch pointers at (x, y) +- 30 px spreading to +- 60 px, then lifted: a pinch, as pointer events
PINCH = """([x, y]) => {
  const c = document.querySelector('#sp-canvas');
  const fire = (type, id, dx) => c.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: 'touch',
    isPrimary: id === 11, clientX: x + dx, clientY: y, bubbles: true, cancelable: true }));
  fire('pointerdown', 11, -30);
  fire('pointerdown', 12, 30);
  for (let k = 1; k <= 6; k++) { fire('pointermove', 11, -30 - 5 * k); fire('pointermove', 12, 30 + 5 * k); }
  fire('pointerup', 11, -60);
  fire('pointerup', 12, 60);
}"""


def shot(page: Page, name: str) -> None:
    shot_dir = os.environ.get("HOLOTABLE_SHOTS")
    if shot_dir:
        page.screenshot(path=os.path.join(shot_dir, f"sp-{name}.png"), full_page=False)


def post(base: str, table_id: str, token: str | None, text: str, ply: int) -> None:
    response = httpx.post(f"{base}/api/tables/{table_id}/actions", json={"action": text, "ply": ply},
                          headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert response.status_code == 200, response.text


def legal_by_server(base: str, table_id: str, token: str | None, text: str) -> bool:
    response = httpx.post(f"{base}/api/tables/{table_id}/preview", json={"action": text},
                          headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert response.status_code == 200, response.text
    return bool(response.json()["legal"])


def to_move(base: str, table_id: str, tokens: list[str | None]) -> dict[str, Any]:
    seat = state_of(base, table_id, None)["to_move"][0]
    return state_of(base, table_id, tokens[seat])


def step_until(base: str, table_id: str, tokens: list[str | None], kind: str, rng: random.Random) -> dict[str, Any]:
    """Play both seats over HTTP until a seat must decide ``kind``: FLICK adventures whenever one may be
    chosen, else a seeded random legal action; that seat's state."""
    catalog = httpx.get(f"{base}/api/tables/{table_id}/catalog", timeout=10).json()
    flickers = {cid for cid, c in catalog["cards"].items() if "FLICK" in c["symbols"]}
    for _ in range(400):
        mine = to_move(base, table_id, tokens)
        if mine["view"]["decision"]["kind"] == kind:
            return mine
        legal = [a["text"] for a in mine["legal"]]
        wanted = [t for t in legal if t == "adv FLICK" or (t.startswith("card ") and t.split()[1] in flickers)]
        text = wanted[0] if wanted else rng.choice(legal)
        post(base, table_id, tokens[mine["seat"]], text, mine["ply"])
    raise AssertionError(f"seed {SEED}: no {kind} within 400 actions")


def canvas_box(page: Page) -> dict[str, float]:
    canvas = page.locator("#sp-canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box is not None
    return box


def to_page(page: Page, view: dict[str, Any], p: list[float] | tuple[float, float]) -> tuple[float, float]:
    box = canvas_box(page)
    w, h = view["field"]
    return box["x"] + p[0] / w * box["width"], box["y"] + (h - p[1]) / h * box["height"]


def px_per_cm(page: Page, view: dict[str, Any]) -> float:
    return canvas_box(page)["width"] / view["field"][0]


def settle(page: Page) -> None:
    """A reload replays the last flick's animation; the finger waits for it as a player would."""
    page.wait_for_function("() => document.querySelector('#sp-canvas').dataset.animating !== 'true'")


def small_buttons(page: Page) -> list[str]:
    """The page's visible buttons (and summaries) under 44 x 44 CSS px: what a finger misses."""
    return list(page.evaluate("""() => [...document.querySelectorAll('main button, main summary')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => [b.textContent.trim().slice(0, 30) || b.id, b.getBoundingClientRect()])
        .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
        .map(([t, r]) => `${t}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""))


def ship_discs(view: dict[str, Any]) -> list[tuple[float, float, float]]:
    out = []
    for p in view["players"]:
        ship = p["ship"]
        if ship["center"] is not None:
            out.append((ship["center"][0], ship["center"][1], 1.5))
        elif ship["base"] is not None:
            base = next(b for b in view["bases"] if b["index"] == ship["base"])
            out.append((*base["slots"][ship["slot"]], 1.5))
    return out


def check_labels(page: Page, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The canvas's base labels: legible (>= 11 px), every base labelled, none under a ship."""
    font = int(page.evaluate("() => document.querySelector('#sp-canvas').dataset.labelFont"))
    assert font >= 11, font
    labels: list[dict[str, Any]] = page.evaluate(
        "() => JSON.parse(document.querySelector('#sp-canvas').dataset.labels)")
    assert sorted(lab["base"] for lab in labels) == sorted(b["id"] for b in view["bases"])
    for lab in labels:
        x0, y0, x1, y1 = lab["box"]
        for sx, sy, r in ship_discs(view):
            dx, dy = max(x0 - sx, 0, sx - x1), max(y0 - sy, 0, sy - y1)
            assert dx * dx + dy * dy >= r * r - 1e-6, f"label {lab} under the ship at {sx}, {sy}"
    return labels


def beside_base(view: dict[str, Any], index: int, legal: list[int], reach_cm: float) -> tuple[float, float]:
    """A point outside base ``index`` about half a fingertip from its outline, nearer it than any other
    legal base, inside the field."""
    base = next(b for b in view["bases"] if b["index"] == index)
    shape = Polygon(base["polygon"])
    others = [Polygon(b["polygon"]) for b in view["bases"] if b["index"] in legal and b["index"] != index]
    cx, cy = shape.centroid.x, shape.centroid.y
    w, h = view["field"]
    for k in range(16):
        theta = 2 * math.pi * k / 16
        for r in [i * 0.25 for i in range(1, 80)]:
            p = Point(cx + r * math.cos(theta), cy + r * math.sin(theta))
            d = shape.distance(p)
            if 0.35 * reach_cm <= d <= 0.65 * reach_cm and 0 < p.x < w and 0 < p.y < h \
                    and all(o.distance(p) > d + 0.5 for o in others):
                return (p.x, p.y)
    raise AssertionError(f"no point beside base {index}")


def tap_start_base(page: Page, base: str, table_id: str, token: str | None) -> int:
    """Choose a start base with a tap beside it (within a fingertip, not on it); the base's index."""
    mine = state_of(base, table_id, token)
    view = mine["view"]
    assert view["decision"]["kind"] == "start_base"
    legal = [int(a["text"].split()[1]) for a in mine["legal"] if a["text"].startswith("base ")]
    page.wait_for_selector("#sp-base-preview")
    settle(page)
    choice = legal[len(legal) // 2]
    p = beside_base(view, choice, legal, HIT_PX / px_per_cm(page, view))
    x, y = to_page(page, view, p)
    page.mouse.move(x, y)
    name = next(b["id"] for b in view["bases"] if b["index"] == choice)
    page.wait_for_function("(t) => document.querySelector('#sp-base-preview').textContent === t",
                           arg=f"Start at base {name}")
    page.touchscreen.tap(x, y)
    wait_past(page, mine["ply"])
    return choice


def test_a_phone_picks_its_start_base_and_places_a_transport_with_taps_near_them(live_server,
                                                                                  browser: Browser) -> None:
    srv: LiveServer = live_server()
    contexts, pages, table_id, tokens = open_pair(browser, srv.url, "space-pirates", PHONE, touch=True,
                                                  seed=SEED, first_seat="0")
    try:
        # both start bases, each by a tap beside the base
        for seat in (0, 1):
            mine = to_move(srv.url, table_id, tokens)
            assert mine["seat"] == seat and mine["view"]["decision"]["kind"] == "start_base"
            page = pages[seat]
            if seat == 0:
                page.wait_for_selector("#sp-base-preview")
                settle(page)
                assert not small_buttons(page), small_buttons(page)
                shot(page, "phone-start-base")
            chosen = tap_start_base(page, srv.url, table_id, tokens[seat])
            assert state_of(srv.url, table_id, tokens[seat])["view"]["players"][seat]["ship"]["base"] == chosen

        # the first transport, by a tap on a spot the rules refuse, next to the legal area
        mine = to_move(srv.url, table_id, tokens)
        seat, view, ply = mine["seat"], mine["view"], mine["ply"]
        assert view["decision"]["kind"] == "place"
        area = mine["extra"]["area"]
        assert area["kind"] == "place" and area["points"] and area["tid"] == view["decision"]["tid"]
        page = pages[seat]
        page.wait_for_selector("#sp-place-preview")
        settle(page)
        assert not small_buttons(page), small_buttons(page)
        check_labels(page, view)
        points = [tuple(q) for q in area["points"]]
        w, h = view["field"]
        tap = None
        for q in points[len(points) // 2:] + points[:len(points) // 2]:
            for k in range(8):
                p = (q[0] + 2.0 * math.cos(k * math.pi / 4), q[1] + 2.0 * math.sin(k * math.pi / 4))
                near, second = sorted(points, key=lambda r: math.dist(r, p))[:2]
                alone = math.dist(second, p) > math.dist(near, p) + 0.3  # one nearest spot, no tie
                if 1.6 < math.dist(near, p) < 3.0 and alone and 2 < p[0] < w - 2 and 2 < p[1] < h - 2 \
                        and not legal_by_server(srv.url, table_id, tokens[seat], f"place {p[0]:.1f} {p[1]:.1f}"):
                    tap = (p, near)
                    break
            if tap:
                break
        assert tap is not None, "no refused spot next to the legal area"
        p, near = tap
        x, y = to_page(page, view, p)
        page.mouse.move(x - 20, y - 20)
        page.mouse.move(x, y, steps=4)
        page.wait_for_function(
            "() => document.querySelector('#sp-place-preview').textContent.startsWith('Transport goes at')")
        preview = page.inner_text("#sp-place-preview")
        assert preview == f"Transport goes at {near[0]:.1f}, {near[1]:.1f} (nearest legal spot)", preview
        shot(page, "phone-place")
        page.touchscreen.tap(x, y)
        wait_past(page, ply)  # taken at the first tap: no refusal, no second try
        assert page.inner_text("#sp-refusal") == ""
        after = state_of(srv.url, table_id, tokens[seat])["view"]
        placed = next(t for t in after["tokens"] if t["tid"] == area["tid"])
        assert [round(v, 1) for v in placed["pos"]] == [round(v, 1) for v in near]
    finally:
        for c in contexts:
            c.close()


def test_a_phone_tap_near_a_token_picks_it_as_the_flick_target_and_the_map_zooms(live_server,
                                                                                  browser: Browser) -> None:
    srv: LiveServer = live_server()
    contexts, pages, table_id, tokens = open_pair(browser, srv.url, "space-pirates", PHONE, touch=True,
                                                  seed=SEED, first_seat="0")
    try:
        mine = step_until(srv.url, table_id, tokens, "flick_target", random.Random(SEED))
        seat, view, ply = mine["seat"], mine["view"], mine["ply"]
        page = pages[seat]
        page.reload()
        wait_ready(page)
        page.wait_for_selector("#sp-target-preview")
        settle(page)
        assert not small_buttons(page), small_buttons(page)
        legal = [int(a["text"].split()[1]) for a in mine["legal"] if a["text"].startswith("target ")]
        scale = px_per_cm(page, view)
        off_cm = 1.25 + 15 / scale  # 15 px beyond the token's edge
        tokens_at = {t["tid"]: t["pos"] for t in view["tokens"]}
        choice = None
        for tid in legal:
            c = tokens_at[tid]
            for k in range(12):
                p = (c[0] + off_cm * math.cos(k * math.pi / 6), c[1] + off_cm * math.sin(k * math.pi / 6))
                w, h = view["field"]
                others = [math.dist(tokens_at[o], p) for o in tokens_at if o != tid]
                if 0 < p[0] < w and 0 < p[1] < h and all(d > math.dist(c, p) + 1.0 for d in others):
                    choice = (tid, p)
                    break
            if choice:
                break
        assert choice is not None
        tid, p = choice
        gap_px = (math.dist(tokens_at[tid], p) - 1.25) * scale
        assert 8 < gap_px < HIT_PX, gap_px  # off the token, within a fingertip of its edge
        x, y = to_page(page, view, p)
        page.mouse.move(x, y)
        page.wait_for_function("(t) => document.querySelector('#sp-target-preview').textContent.startsWith(t)",
                               arg=f"Token {tid} (")
        shot(page, "phone-target")
        page.touchscreen.tap(x, y)
        wait_past(page, ply)
        after = state_of(srv.url, table_id, tokens[seat])["view"]
        assert after["decision"]["kind"] == "flick" and after["decision"]["tid"] == tid

        # the zoom: larger map, same frame, no sideways scrolling of the page
        settle(page)
        before = canvas_box(page)
        frame = page.locator(".sp-canvas-wrap").bounding_box()
        assert frame is not None
        page.click("#sp-zoom-in")
        page.wait_for_function("() => document.querySelector('#sp-canvas').dataset.zoom === '1.5'")
        zoomed = page.locator("#sp-canvas").bounding_box()
        assert zoomed is not None
        assert zoomed["width"] == pytest.approx(before["width"] * 1.5, abs=2)
        assert page.inner_text("#sp-zoom-level") == "150%"
        frame2 = page.locator(".sp-canvas-wrap").bounding_box()
        assert frame2 is not None and frame2["width"] == pytest.approx(frame["width"], abs=1)
        assert no_horizontal_scroll(page)
        page.click("#sp-zoom-in")
        page.wait_for_function("() => document.querySelector('#sp-canvas').dataset.zoom === '2'")
        assert not small_buttons(page), small_buttons(page)
        shot(page, "phone-zoomed")
        page.click("#sp-zoom-fit")
        page.wait_for_function("() => document.querySelector('#sp-canvas').dataset.zoom === '1'")
        back = page.locator("#sp-canvas").bounding_box()
        assert back is not None and back["width"] == pytest.approx(before["width"], abs=2)

        # a pinch (two fingers spreading from 60 to 120 px apart) doubles the scale and chooses nothing
        cx, cy = back["x"] + back["width"] / 2, back["y"] + back["height"] / 2
        page.evaluate(PINCH, [cx, cy])
        page.wait_for_function("() => Number(document.querySelector('#sp-canvas').dataset.zoom) > 1.8")
        assert 1.8 < float(page.evaluate("() => document.querySelector('#sp-canvas').dataset.zoom")) < 2.2
        # a drag that starts off the transport pans the zoomed map (no refusal, no flick)
        frame = page.locator(".sp-canvas-wrap").bounding_box()
        assert frame is not None
        scroll = page.evaluate("() => document.querySelector('.sp-canvas-wrap').scrollLeft")
        start = (frame["x"] + 20, frame["y"] + frame["height"] - 20)
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + 60, start[1], steps=6)
        page.mouse.up()
        assert page.evaluate("() => document.querySelector('.sp-canvas-wrap').scrollLeft") != scroll
        assert page.inner_text("#sp-refusal") == ""
        still = state_of(srv.url, table_id, tokens[seat])
        assert still["ply"] == ply + 1 and still["view"]["decision"]["kind"] == "flick"
    finally:
        for c in contexts:
            c.close()


def test_base_labels_are_legible_and_never_under_a_ship_on_a_laptop(live_server, browser: Browser) -> None:
    srv: LiveServer = live_server()
    contexts, pages, table_id, tokens = open_pair(browser, srv.url, "space-pirates", LAPTOP, touch=False,
                                                  seed=SEED, first_seat="0")
    try:
        for _ in range(2):  # both ships docked at their start bases: their labels must dodge them
            mine = to_move(srv.url, table_id, tokens)
            legal = [a["text"] for a in mine["legal"]]
            post(srv.url, table_id, tokens[mine["seat"]], legal[0], mine["ply"])
        mine = state_of(srv.url, table_id, tokens[0])
        page = pages[0]
        page.reload()
        wait_ready(page)
        settle(page)
        labels = check_labels(page, mine["view"])
        assert any(len(lab["text"].split("\n")) == 2 for lab in labels), "the start base's prices are on the map"
        page.evaluate("() => document.querySelector('#sp-table-title').scrollIntoView()")
        shot(page, "laptop-labels")
        shot_dir = os.environ.get("HOLOTABLE_SHOTS")
        if shot_dir:  # the whole map, below the fold at this size
            page.locator("#sp-canvas").screenshot(path=os.path.join(shot_dir, "sp-laptop-map.png"))
    finally:
        for c in contexts:
            c.close()
