"""Black Hole Council's live negotiation in the browser (issue 17, points 4 and 6): every seat sees which
planets the Leader just moved, what each offer and pledge is in words, a timer that counts down from the
server's clock, a draft arrangement any seat can send as a suggestion or a conditional pledge, the bots'
engine talk in the chat, and a layout that keeps the moves beside the chat on a phone and on a laptop.

Tables here have only people (four human seats; the page's browsers take one or two of them, the rest act
through the HTTP API like a second person would), so nothing moves unless a test makes it move. Time is
never slept: the page's clock is Playwright's fake one (``page.clock``) where the test needs time to pass.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import PLY_AT_LEAST, Frames, no_horizontal_scroll, state_of, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OUTCOMES = ("settle", "tax", "mine", "conquer", "black_hole")


@dataclass
class Table:
    base: str
    id: str
    tokens: list[str]

    def state(self, seat: int | None = None) -> dict[str, Any]:
        return state_of(self.base, self.id, None if seat is None else self.tokens[seat])

    def act(self, seat: int, action: str) -> dict[str, Any]:
        """``seat`` plays ``action`` over HTTP (another person at the table)."""
        ply = self.state(seat)["ply"]
        response = httpx.post(f"{self.base}/api/tables/{self.id}/actions", json={"action": action, "ply": ply},
                              headers={"Authorization": f"Bearer {self.tokens[seat]}"}, timeout=10)
        assert response.status_code == 200, response.text
        payload: dict[str, Any] = response.json()
        return payload

    def ids(self) -> list[str]:
        table = self.state()["view"]["table"]
        return [table[o]["id"] for o in OUTCOMES]

    def wait(self, condition: Any, what: str, timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            state = self.state()
            if condition(state):
                return state
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.05)


def four_people(base: str, seconds: int = 300, seed: int = 3) -> Table:
    """A running 4-seat table of people (the smallest Council), seat 0 the first Leader."""
    made = httpx.post(f"{base}/api/tables", json={
        "game": "council", "players": 4, "seats": [{"kind": "human"}] * 4, "seed": seed,
        "params": {"negotiation_seconds": seconds, "first_leader": 0}}, timeout=10).json()
    tokens = [made["you"]["token"]]
    for _ in range(3):
        joined = httpx.post(f"{base}/api/tables/{made['table_id']}/join", json={"invite": made["invite"]}, timeout=10)
        tokens.append(joined.json()["token"])
    table = Table(base, made["table_id"], tokens)
    assert table.state()["status"] == "running"
    return table


@contextmanager
def seat_page(browser: Browser, table: Table, seat: int, width: int = 1366, height: int = 768,
              clock_at: float | None = None) -> Iterator[Page]:
    """The table page of ``seat`` in its own browser (its token in local storage, as after joining);
    ``clock_at``: the page runs on Playwright's fake clock, started at that Unix time."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        context.add_init_script(f"localStorage.setItem('holotable:seat:{table.id}', '{table.tokens[seat]}')")
        page = context.new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        if clock_at is not None:
            page.clock.install(time=clock_at)
        frames = Frames().attach(page)
        page.goto(f"{table.base}/t/{table.id}")
        wait_ready(page)
        page.wait_for_selector("#council-planets")
        # The socket's first state, too: the page measures the server's clock on each state, so a test
        # that moves the page's clock must not do it before that one arrives (a loaded machine is late).
        deadline = time.monotonic() + 15
        while not any(m.get("type") == "state" for m in frames.messages):
            assert time.monotonic() < deadline, "the table's socket sent no state"
            page.wait_for_timeout(50)
        yield page
        assert not errors, errors
    finally:
        context.close()


def synced(page: Page, table: Table) -> None:
    page.wait_for_function(PLY_AT_LEAST, arg=table.state()["ply"])


def stand(page: Page, seat: int) -> str:
    return page.inner_text(f'#council-stands li.seat-stand[data-seat="{seat}"]')


def in_viewport(page: Page, selector: str) -> bool:
    """Whether the whole of ``selector``'s first element is on the screen as it is scrolled now."""
    # One read in the page: the table may be redrawn (a state push) between a lookup and a measure,
    # which would leave a detached element with no box.
    page.wait_for_selector(selector)
    box = page.evaluate("""(sel) => { const el = document.querySelector(sel); if (!el) return null;
        const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }""",
                        selector)
    size = page.viewport_size
    assert box is not None and size is not None, selector
    inside = box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0 \
        and box["x"] + box["width"] <= size["width"]
    if not inside:
        print(f"{selector} at {box} in a {size} viewport")
    return inside


# ---------------------------------------------------------------------- who moved which planet
def test_a_leader_swap_lights_the_two_slots_on_another_page(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    before = table.ids()
    with seat_page(browser, table, 0) as leader, seat_page(browser, table, 2, clock_at=time.time()) as watcher:
        assert watcher.locator("#council-planets .slot.moved").count() == 0, "nothing moved yet"
        assert watcher.locator("#council-last-swap").count() == 0
        leader.click('[data-slot="mine"] button.planet')
        leader.click('[data-slot="conquer"] button.planet')
        table.wait(lambda s: s["view"]["swaps"] == [[2, 3]], "the swap")

        watcher.wait_for_selector(f'[data-slot="mine"].moved [data-planet="{before[3]}"]')
        moved = watcher.locator("#council-planets .slot.moved").evaluate_all("els => els.map(e => e.dataset.slot)")
        assert moved == ["mine", "conquer"]
        assert watcher.inner_text("#council-last-swap") == "Just now: Seat 1 (Leader) swapped Mine and Conquer."
        assert watcher.inner_text("#council-announce") == "Seat 1 (Leader) swapped Mine and Conquer."
        assert watcher.locator('[data-slot="mine"] .moved-tag').inner_text() == "moved"

        # A few seconds later (the page's clock, not a sleep) the glow is gone; the line stays.
        watcher.clock.run_for(7_000)
        watcher.wait_for_selector("#council-planets .slot.moved", state="detached")
        assert watcher.inner_text("#council-last-swap") == "Last change: Seat 1 (Leader) swapped Mine and Conquer."

        # The next swap takes over: only its two slots glow.
        synced(leader, table)
        leader.focus('[data-slot="settle"] button.planet')
        leader.keyboard.press("ArrowRight")
        table.wait(lambda s: len(s["view"]["swaps"]) == 2, "the second swap")
        watcher.wait_for_selector('[data-slot="tax"].moved')
        moved = watcher.locator("#council-planets .slot.moved").evaluate_all("els => els.map(e => e.dataset.slot)")
        assert moved == ["settle", "tax"]
        assert "swapped Settle and Tax" in watcher.inner_text("#council-announce")


# ---------------------------------------------------------------------- offers, pledges, suggestions in words
def test_an_offer_shows_with_accept_and_withdraw_until_withdrawn(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    with seat_page(browser, table, 0) as leader, seat_page(browser, table, 1) as giver:
        assert "offers" not in stand(leader, 1)
        giver.click('#your-move [data-action="offer"]')
        leader.wait_for_selector('#council-stands li[data-seat="1"] .stand-offer')
        assert "offers the Leader 1 coin" in stand(leader, 1)
        # The Leader may accept it from the line; only the offerer may withdraw it.
        assert leader.locator('#council-stands li[data-seat="1"] [data-action="accept 1"]').count() == 1
        assert leader.locator('#council-stands [data-action="withdraw"]').count() == 0
        giver.wait_for_selector('#council-stands li[data-seat="1"] [data-action="withdraw"]')
        assert giver.locator('#council-stands [data-action^="accept"]').count() == 0
        assert "offers you 1 coin" in leader.inner_text("#council-bribes")

        giver.click('#council-stands li[data-seat="1"] [data-action="withdraw"]')
        table.wait(lambda s: s["view"]["offers"] == [], "the withdrawal")
        leader.wait_for_selector('#council-stands li[data-seat="1"] .stand-offer', state="detached")
        assert "offers" not in stand(leader, 1)

        # Offered again and accepted: the line says so and the offer is gone.
        synced(giver, table)
        giver.click('#your-move [data-action="offer"]')
        leader.wait_for_selector('#council-stands li[data-seat="1"] [data-action="accept 1"]')
        leader.click('#council-stands li[data-seat="1"] [data-action="accept 1"]')
        table.wait(lambda s: s["view"]["accepted_from"] == 1, "the acceptance")
        giver.wait_for_selector('#council-stands li[data-seat="1"] .stand-accepted')
        assert giver.locator('#council-stands [data-action="withdraw"]').count() == 0


def test_pledges_and_suggestions_are_shown_in_words(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    ids = table.ids()
    with seat_page(browser, table, 0) as leader, seat_page(browser, table, 1) as player:
        # The draft: press Mine then Conquer (the real table does not move), send "Pass if Mine ↔ Conquer".
        assert player.locator('#council-draft [data-draft-send="pass"]').is_disabled()
        player.click('#council-draft [data-draft-slot="mine"] button')
        player.click('#council-draft [data-draft-slot="conquer"] button')
        assert player.inner_text("#council-draft-status") == "Your idea: Mine ↔ Conquer."
        assert table.ids() == ids
        player.click('#council-draft [data-draft-send="pass"]')
        said = table.wait(lambda s: s["view"]["talk"], "the pledge")["view"]["talk"][-1]
        assert said["text"] == "pledge pass if swap mine conquer" and said["vote"] == "pass"
        leader.wait_for_selector('#council-stands li[data-seat="1"] .stand-pledge')
        assert "will vote Pass if Mine ↔ Conquer" in stand(leader, 1)

        # A plain pledge, by button: "will vote Fail as it stands" (a second pledge, about another table).
        synced(player, table)
        player.click('#your-move [data-action="oppose"]')
        leader.wait_for_selector('#council-stands li[data-seat="1"] .stand-pledge >> nth=1')
        assert "will vote Fail as it stands" in stand(leader, 1)

        # A whole arrangement (two swaps in the draft) goes as "suggest table <ids>".
        synced(player, table)
        player.drag_and_drop('#council-draft [data-draft-slot="settle"] button',
                             '#council-draft [data-draft-slot="black_hole"]')
        assert player.inner_text("#council-draft-status") == "Your idea: 4 planets differ from the table."
        assert player.inner_text('#council-draft [data-draft-send="suggest"]') == "Suggest my table"
        player.click('#council-draft [data-draft-send="suggest"]')
        wanted = [ids[4], ids[1], ids[3], ids[2], ids[0]]
        table.wait(lambda s: s["view"]["talk"][-1]["text"] == "suggest table " + " ".join(wanted), "the suggestion")
        line = leader.locator('#council-stands li[data-seat="1"] .stand-suggest')
        line.wait_for()
        assert "suggests the table" in line.inner_text()
        names = ("Settle", "Tax", "Mine", "Conquer", "Black Hole")
        assert line.locator(".mini-table").get_attribute("aria-label") == ", ".join(
            f"{name} {pid}" for name, pid in zip(names, wanted, strict=True))

        # A request and a claim from another seat (over the API), in words.
        table.act(2, "ask bribe 2")
        table.act(3, "claim 1 mine red")
        leader.wait_for_selector('#council-stands li[data-seat="3"] .stand-claim')
        assert "asks the Leader for 2 coins" in stand(leader, 2)
        assert "claims Seat 2 wants red at Mine" in stand(leader, 3)  # about seat index 1
        assert "BHC-" not in leader.inner_text("#council-stands"), "no rule IDs in what a player reads"

        # The Leader swaps Mine and Conquer: everything said before is greyed "(before the last change)", and
        # the conditional pledge now matches the table.
        synced(leader, table)
        leader.drag_and_drop('[data-slot="mine"] button.planet', '[data-slot="conquer"]')
        table.wait(lambda s: s["view"]["swaps"], "the swap")
        pledge = player.locator('#council-stands li[data-seat="1"] .stand-pledge[data-stale="true"]').first
        pledge.wait_for()
        assert "(before the last change)" in pledge.inner_text()
        assert pledge.get_attribute("data-met") == "true" and "the table matches now" in pledge.inner_text()
        assert player.locator('#council-stands li[data-seat="2"] .stand-ask[data-stale="true"]').count() == 1
        # Said on the table as it is now: not greyed.
        synced(player, table)
        player.click('#your-move [data-action="support"]')
        fresh = player.locator('#council-stands li[data-seat="1"] .stand-pledge[data-stale="false"]')
        fresh.wait_for()
        assert "will vote Pass as it stands" in fresh.inner_text()


# ---------------------------------------------------------------------- the live timer
def test_the_timer_counts_down_from_the_servers_clock(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url, seconds=120)
    # This browser's own clock is an hour slow: the countdown still follows the server's.
    with seat_page(browser, table, 1, clock_at=time.time() - 3600) as page:
        timer = page.locator("#council-timer")
        left = int(timer.get_attribute("data-left") or 0)
        assert 100 <= left <= 120, left
        assert page.locator('#your-move [data-council-timer="small"]').count() == 1, "the move panel shows it too"
        assert "urgent" not in (timer.get_attribute("class") or "")

        page.clock.fast_forward(60_000)
        page.wait_for_function("(n) => Number(document.querySelector('#council-timer').dataset.left) <= n",
                               arg=left - 59)
        later = int(timer.get_attribute("data-left") or 0)
        assert left - 62 <= later <= left - 59, (left, later)
        minutes, seconds = timer.locator(".timer-text").inner_text().split(":")
        assert int(minutes) * 60 + int(seconds) == later
        width = float(timer.locator(".timer-fill").evaluate("el => parseFloat(el.style.width)"))
        assert abs(width - 100 * later / 120) < 2, width
        assert "urgent" not in (timer.get_attribute("class") or "")

        page.clock.fast_forward((later - 10) * 1000)
        page.wait_for_selector("#council-timer.urgent")
        page.wait_for_selector('#your-move [data-council-timer="small"].urgent')
        assert int(timer.get_attribute("data-left") or 99) < 15
        assert table.state()["view"]["phase"] == "negotiate", "only the page's clock ran: the server's did not"


# ---------------------------------------------------------------------- chat: the engine's talk joins it
def test_the_chat_shows_engine_talk_beside_chat_lines(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    with seat_page(browser, table, 1) as page:
        page.fill("#chat-input", "hello table")
        page.press("#chat-input", "Enter")
        page.wait_for_selector('#chat-log li[data-source="chat"]:has-text("hello table")')
        # Half a line typed when someone acts (a new state, a redraw): the typing goes on where it was.
        page.click("#chat-input")
        page.keyboard.type("I pass if")
        page.evaluate("document.querySelector('#chat-input').setSelectionRange(1, 1)")
        ply = table.state()["ply"]
        table.act(2, "offer")
        page.wait_for_function(PLY_AT_LEAST, arg=ply + 1)
        page.keyboard.type("'ll")
        assert page.input_value("#chat-input") == "I'll pass if"
        page.fill("#chat-input", "")
        table.act(3, "say Mine is mine")  # the engine's `say` talk, as a bot's one-line answer
        line = page.locator('#chat-log li[data-source="talk"][data-seat="3"]')
        line.wait_for()
        assert line.inner_text().endswith("Seat 4: Mine is mine")  # seat index 3
        texts = page.locator("#chat-log li").evaluate_all("els => els.map(e => e.dataset.source)")
        assert texts == ["chat", "talk"], "in the order they were said"
        # A page opened later shows both, in the same order.
        with seat_page(browser, table, 2) as late:
            late.wait_for_selector('#chat-log li[data-source="talk"]')
            order = late.locator("#chat-log li").evaluate_all("els => els.map(e => e.dataset.source)")
            assert order == ["chat", "talk"]


# ---------------------------------------------------------------------- layout
def test_on_a_phone_the_moves_sit_right_above_the_chat_box(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    for seat in (1, 0):  # a player and the Leader
        with seat_page(browser, table, seat, width=390, height=844) as page:
            assert no_horizontal_scroll(page)
            assert in_viewport(page, "#council-timer"), "the timer is on the first screen, above the table"
            # Scrolled to the move panel, the chat box is on the same screen (no scrolling in between).
            page.evaluate("document.querySelector('#your-move').scrollIntoView({block: 'start'})")
            first = '#your-move [data-action="support"]' if seat else '#council-bribes [data-action^="bribe"]'
            for selector in (first, "#chat-input", "#chat-send", "#chat-log"):
                assert in_viewport(page, selector), f"{selector} is off the screen with the chat box"


def test_on_a_laptop_the_table_talk_and_moves_fit_one_screen(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    table.act(2, "offer")
    for seat in (1, 0):
        with seat_page(browser, table, seat, width=1366, height=768) as page:
            assert no_horizontal_scroll(page)
            moves = '#council-draft [data-draft-send="pass"]' if seat \
                else '#council-timer-row [data-action="call vote"]'
            for selector in ("#council-timer", "#council-planets", moves, '#your-move [data-action]', "#chat-log",
                             "#chat-input", '#council-stands li[data-seat="0"]'):
                assert in_viewport(page, selector), f"{selector} is off the first screen"


def test_the_table_is_drawn_only_once_its_own_stylesheet_has_loaded(live_server: Any, browser: Browser) -> None:
    # A busy machine (or a slow network) delivers council.css late; a table drawn before it jumps when the
    # sheet lands (planets twice as tall, the move panel off the screen) and can be clicked into meanwhile.
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        context.add_init_script(f"localStorage.setItem('holotable:seat:{table.id}', '{table.tokens[1]}')")
        page = context.new_page()
        page.set_default_timeout(10_000)
        held: list[Any] = []
        page.route("**/static/css/council.css", lambda route: held.append(route))
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.goto(f"{table.base}/t/{table.id}")
        page.wait_for_function("() => [...document.querySelectorAll('link')].some(l => l.href.endsWith('council.css'))")
        while not held:  # Playwright hands the held request over while it waits for the page
            page.wait_for_function("() => true")
        # Held: the page does not draw the table, nor even ask for its state, before the sheet is there.
        assert page.locator("#council-planets").count() == 0
        assert not any(url.endswith("/state") for url in asked), asked
        held[0].continue_()
        page.wait_for_selector("#council-planets .slot")
        # One read inside the page: a state push may redraw the planets between a lookup and a measure, and a
        # detached slot has no computed style at all.
        display = page.evaluate("() => { const el = document.querySelector('#council-planets .slot');"
                                " return el ? getComputedStyle(el).display : 'missing' }")
        assert display == "flex", "drawn with the sheet's layout (.planets .slot)"
        assert in_viewport(page, "#council-planets")
    finally:
        context.close()


def test_on_a_phone_the_vote_is_pinned_to_the_screen_while_reading_the_chat(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    table = four_people(srv.url)
    table.act(0, "call vote")
    assert table.state()["view"]["phase"] == "vote"
    with seat_page(browser, table, 1, width=390, height=844) as page:
        page.wait_for_selector('#your-move [data-action="vote pass"]')
        page.evaluate("document.querySelector('#your-move').scrollIntoView({block: 'center'})")
        page.wait_for_timeout(100)  # a frame for the bar to notice the panel is on the screen
        assert page.locator("#action-bar").is_hidden(), "no bar while the panel itself is in view"
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down to the rules and the log
        page.wait_for_selector("#action-bar:not([hidden])")
        assert in_viewport(page, '#action-bar [data-bar-action="vote pass"]')
        assert page.evaluate("document.body.scrollHeight") > 3 * 844, "a table several screens long"
        assert page.inner_text("#action-bar .bar-title") == "Your move: vote in secret"
        page.click('#action-bar [data-bar-action="vote fail"]')
        page.wait_for_function("() => document.querySelector('#action-bar').hidden")  # the vote is in
        assert 1 not in table.state()["to_move"], "seat 1 has voted"
    with seat_page(browser, table, 2, width=1366, height=768) as page:  # a laptop has room: no bar
        page.wait_for_selector('#your-move [data-action="vote pass"]')
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_timeout(100)
        assert page.locator("#action-bar").is_hidden()
