"""Space Pirates in the browser: a whole game against a bot played with the mouse on the galaxy canvas
(flicks by dragging, rulers by pointing, base actions by buttons), a refused ruler with the rules'
reason, and a second screen that animates the flick."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import create_in_lobby, open_table, state_of, token_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class Driver:
    """Plays one seat through the page: reads the server's state for the seat, acts with real gestures."""

    def __init__(self, page: Page, base: str, table_id: str) -> None:
        self.page = page
        self.base = base
        self.table_id = table_id
        self.token = token_of(page, table_id)
        self.gestures: dict[str, int] = {}
        self.turns_seen: set[int] = set()

    # --------------------------------------------------------------- coordinates
    def to_page(self, view: dict[str, Any], p: list[float]) -> tuple[float, float]:
        canvas = self.page.locator("#sp-canvas")
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        assert box is not None
        w, h = view["field"]
        return box["x"] + p[0] / w * box["width"], box["y"] + (h - p[1]) / h * box["height"]

    def wait_synced(self, ply: int) -> None:
        self.page.wait_for_function(
            "(n) => Number(document.querySelector('#ply').textContent.split(' ').pop()) >= n"
            " && !document.querySelector('#your-move button[disabled]')", arg=ply)

    def wait_answer(self, ply: int) -> str:
        """After a gesture: 'moved' once the table is past ``ply``, 'refused' when the page shows a refusal."""
        handle = self.page.wait_for_function(
            """(n) => {
                const p = Number(document.querySelector('#ply').textContent.split(' ').pop());
                if (p > n) return 'moved';
                const r = document.querySelector('#sp-refusal');
                if (r && r.textContent.trim()) return 'refused';
                const e = document.querySelector('#table-error');
                return e && !e.hidden && e.textContent.trim() ? 'error: ' + e.textContent : false;
            }""", arg=ply)
        answer = str(handle.json_value())
        return answer

    def count(self, what: str) -> None:
        self.gestures[what] = self.gestures.get(what, 0) + 1

    # --------------------------------------------------------------- gestures
    def click_point(self, view: dict[str, Any], p: list[float]) -> None:
        x, y = self.to_page(view, p)
        self.page.mouse.click(x, y)

    def drag_flick(self, view: dict[str, Any], tid: int, strength: float) -> None:
        token = next(t for t in view["tokens"] if t["tid"] == tid)
        w, h = view["field"]
        start = token["pos"]
        angle = math.atan2(h / 2 - start[1], w / 2 - start[0])  # towards the middle of the table
        reach = strength * 100.0
        end = [start[0] + reach * math.cos(angle), start[1] + reach * math.sin(angle)]
        x0, y0 = self.to_page(view, start)
        x1, y1 = self.to_page(view, end)
        self.page.mouse.move(x0, y0)
        self.page.mouse.down()
        self.page.mouse.move(x1, y1, steps=8)
        self.page.mouse.up()

    @staticmethod
    def off_target(state: dict[str, Any], angle: float) -> float:
        """How far ``angle`` points from the nearest face-down transport ahead of the ruler's start."""
        origin = state["extra"]["fan"]["origin"]
        hidden = [t["pos"] for t in state["view"]["tokens"] if not t["open"]]
        if not hidden:
            return 0.0
        near = min(hidden, key=lambda p: math.dist(p, origin))
        towards = math.degrees(math.atan2(near[1] - origin[1], near[0] - origin[0]))
        return abs((angle - towards + 180.0) % 360.0 - 180.0)

    def button(self, text: str) -> None:
        self.page.locator(f'#game-area button[data-action="{text}"]').first.click()

    def play_one(self, state: dict[str, Any]) -> None:
        view, legal = state["view"], [a["text"] for a in state["legal"]]
        dec = view["decision"]
        kind, ply = dec["kind"], state["ply"]
        self.wait_synced(ply)
        verbs = {t.split()[0] for t in legal}
        if kind == "flick":
            self.drag_flick(view, dec["tid"], 0.12)
            self.count("flick")
        elif kind in ("place", "place_storm", "ruler", "drift"):
            points = [t for t in legal if t.split()[0] in ("place", "storm", "ruler", "drift")]
            points = points[len(points) // 2:] + points[:len(points) // 2]  # from the middle of the list
            if kind == "ruler":  # towards the nearest face-down transport: a capture is likely
                points.sort(key=lambda text: self.off_target(state, float(text.split()[1])))
            for text in points:
                verb, *args = text.split()
                if verb in ("place", "storm"):
                    self.click_point(view, [float(args[0]), float(args[1])])
                else:
                    fan = state["extra"]["fan"]
                    theta = math.radians(float(args[0]))
                    reach = fan["length"] + fan["offset"]
                    self.click_point(view, [fan["origin"][0] + reach * math.cos(theta),
                                            fan["origin"][1] + reach * math.sin(theta)])
                if self.wait_answer(ply) == "moved":
                    self.count(verb)
                    return
            assert "stop" in legal, f"no pointed {kind} was accepted"
            self.button("stop")
        elif kind == "flick_target":
            tid = int(legal[0].split()[1])
            token = next(t for t in view["tokens"] if t["tid"] == tid)
            self.click_point(view, token["pos"])
            self.count("target")
        elif kind == "wind_dir":
            ship = view["players"][state["seat"]]["ship"]
            me = ship["center"] or next(b for b in view["bases"] if b["index"] == ship["base"])["slots"][ship["slot"]]
            theta = math.radians(float(legal[0].split()[1]))
            self.click_point(view, [me[0] + 8 * math.cos(theta), me[1] + 8 * math.sin(theta)])
            self.count("wind")
        elif kind == "turn_mode":
            first_turn = not self.turns_seen
            self.turns_seen.add(view["turn"])
            self.button("stay" if first_turn and "stay" in verbs else "depart" if "depart" in verbs else legal[0])
        elif kind == "choose_card":
            cards = [t for t in legal if t.startswith("card ")]
            flicky = [t for t in cards if "FLICK" in self.page.locator(f'#sp-hand [data-action="{t}"]').inner_text()]
            self.page.locator(f'#sp-hand button[data-action="{(flicky or cards)[0]}"]').click()
            self.count("card")
        elif kind == "choose_adv":
            self.button(next((t for t in legal if t == "adv FLICK"), legal[0]))
        elif kind.startswith("base_"):
            preferred = {"base_buy": "buy", "base_look": "look", "base_recharge": "recharge 1"}.get(kind)
            self.button(preferred if preferred in legal else legal[0])
            self.count(kind)
        elif kind == "capture_offer":
            self.button("capture")
            self.count("capture")
        elif kind == "dock_offer":
            self.button("dock")
        else:
            self.button(legal[0])
        answer = self.wait_answer(ply)
        assert answer == "moved", (kind, answer, self.page.inner_text("#sp-refusal"))

    def play_to_end(self, budget: float, stop: Any = None) -> dict[str, Any]:
        end = time.monotonic() + budget
        while time.monotonic() < end:
            state = state_of(self.base, self.table_id, self.token)
            if state["status"] == "finished" or (stop is not None and stop(state)):
                return state
            if state["seat"] in state["to_move"] and state["legal"]:
                self.play_one(state)
            else:
                self.page.wait_for_timeout(100)
        raise AssertionError(f"the game did not end within {budget} s (gestures {self.gestures})")


def test_a_whole_game_against_a_bot_played_on_the_canvas(live_server, browser: Browser, page: Page,
                                                          page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.set_default_timeout(20_000)
    table_id = create_in_lobby(page, srv.url, "space-pirates", ["human", "bot:normal"], seed=4,
                               first_seat="0", turn_cap="6")
    open_table(page)
    watcher_context = browser.new_context()
    try:
        watcher = watcher_context.new_page()
        watcher.goto(f"{srv.url}/t/{table_id}")
        watcher.wait_for_selector("#sp-canvas")
        driver = Driver(page, srv.url, table_id)
        final = driver.play_to_end(150)
        # the whole game: placed, flicked with the mouse, laid rulers by pointing, base actions by buttons
        assert driver.gestures.get("place", 0) >= 3, driver.gestures
        assert driver.gestures.get("flick", 0) >= 1, driver.gestures
        assert driver.gestures.get("ruler", 0) >= 1, driver.gestures
        assert sum(n for k, n in driver.gestures.items() if k.startswith("base_")) >= 1, driver.gestures
        assert final["outcome"] is not None
        page.wait_for_selector("#result:not([hidden]) #sp-result")
        result = page.inner_text("#result")
        assert "turn cap" in result or "victory" in result
        money = [p["mc"] for p in final["view"]["players"]]
        assert f"{money[0]} MC" in result and f"{money[1]} MC" in result
        # the other screen animated the flicks it was sent
        last = final["extra"]["flick"]
        assert last is not None
        watcher.wait_for_function("(n) => Number(document.querySelector('#sp-canvas').dataset.animatedPly) === n",
                                  arg=last["ply"])
        assert int(watcher.get_attribute("#sp-canvas", "data-animations") or "0") >= 1
    finally:
        watcher_context.close()
    assert not page_errors


def test_an_illegal_ruler_is_refused_with_the_reason(live_server, page: Page, page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.set_default_timeout(20_000)
    table_id = create_in_lobby(page, srv.url, "space-pirates", ["human", "bot:easy"], seed=4, first_seat="0")
    open_table(page)
    driver = Driver(page, srv.url, table_id)
    state = driver.play_to_end(120, stop=lambda s: s["view"]["decision"] and s["view"]["decision"]["kind"] == "ruler"
                               and s["view"]["decision"]["seat"] == s["seat"])
    ply = state["ply"]
    driver.wait_synced(ply)
    fan = state["extra"]["fan"]
    page.wait_for_selector("#sp-canvas")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    backwards = math.radians(fan["heading"] + 180.0)
    driver.click_point(state["view"], [fan["origin"][0] + 4 * math.cos(backwards),
                                       fan["origin"][1] + 4 * math.sin(backwards)])
    answer = driver.wait_answer(ply)
    assert answer == "refused"
    refusal = page.inner_text("#sp-refusal")
    assert "is not allowed" in refusal and "(SP-" in refusal
    assert state_of(srv.url, table_id, driver.token)["ply"] == ply, "nothing was played"
    # the keyboard way: type a legal direction and lay the ruler
    legal = next(a["text"] for a in state["legal"] if a["text"].startswith("ruler "))
    page.fill("#sp-angle", legal.split()[1])
    page.click("#sp-go")
    assert driver.wait_answer(ply) == "moved"
    assert not page_errors
