"""Black Hole Council in the browser: five people in five browsers play a whole game through the page
(drag and drop, keys, buttons, the chat box), every one seeing the Leader's swaps live and nobody ever
being sent another seat's Agenda, Intrigue card, points or vote; and one person against four bots."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import PLY_AT_LEAST, Frames, create_in_lobby, no_horizontal_scroll, state_of, token_of, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OUTCOMES = ("settle", "tax", "mine", "conquer", "black_hole")

#: Keys that hold a seat's secrets in a Council payload.
SECRET_KEYS = {"agenda", "intrigue", "points", "points_with_intrigue"}


def wait_server(base: str, table_id: str, condition: Any, timeout: float = 20.0,
                what: str = "the table") -> dict[str, Any]:
    """Poll the public state until ``condition(state)``; return that state."""
    end = time.monotonic() + timeout
    while True:
        state = state_of(base, table_id, None)
        if condition(state):
            return state
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what} (ply {state['ply']}, phase {state['view']['phase']})")
        time.sleep(0.05)


def click_and_wait(page: Page, selector: str, base: str, table_id: str) -> dict[str, Any]:
    """Wait until the page shows the server's ply, click, and wait for the server to move on."""
    before = state_of(base, table_id, None)["ply"]
    page.wait_for_function(PLY_AT_LEAST, arg=before)
    page.locator(selector).first.click()
    return wait_server(base, table_id, lambda s: s["ply"] > before, what=f"the click on {selector}")


def mentions(text: str, word: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(word)}(?![A-Za-z0-9-])", text) is not None


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        planet = "colour" in value  # a planet card's printed points are public
        for key, item in value.items():
            if key in SECRET_KEYS and not planet:
                yield (*path, key)
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def check_payloads(frames: Frames, own_agenda: str, other_agendas: list[str]) -> int:
    """Every state payload this page got before the game ended holds only its own secrets: its Agenda,
    Intrigue card and points under ``view.you`` (played Intrigue cards in announced Advances are public),
    never another seat's Agenda id, nor a vote before the reveal. Returns how many payloads were checked."""
    checked = 0
    for raw in frames.raw:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict) or "view" not in message or message.get("outcome") is not None:
            continue
        checked += 1
        leaked = [a for a in other_agendas if mentions(raw, a)]
        assert not leaked, f"a payload named other seats' Agendas {leaked}"
        view = message["view"]
        if message.get("seat") is not None:
            assert view["you"]["agenda"]["id"] == own_agenda
        for path in _paths(message):
            public = "advances" in path or path[:1] == ("log",)  # announced Advances: the card played
            assert public or path[:2] == ("view", "you"), f"a secret outside the seat's own part: {path}"
        # Votes are shown only once revealed: every vote record is complete (no partial ballots).
        for record in view.get("votes", []):
            voters = [b for s, b in enumerate(record["votes"]) if s != record["leader"]]
            assert all(b in ("pass", "fail") for b in voters)
    return checked


def agenda_of(base: str, table_id: str, token: str) -> str:
    agenda: str = state_of(base, table_id, token)["view"]["you"]["agenda"]["id"]
    return agenda


def table_of(state: dict[str, Any]) -> dict[str, str]:
    """Outcome -> planet id of the arrangement on the table."""
    return {o: p["id"] for o, p in state["view"]["table"].items()}


def wait_planet(page: Page, outcome: str, planet: str) -> None:
    """Until the page shows ``planet`` above ``outcome`` (pushed live; nobody reloads)."""
    page.wait_for_selector(f'#council-planets [data-slot="{outcome}"] [data-planet="{planet}"]')


def call_vote(page: Page, base: str, table_id: str) -> None:
    """The Leader presses "Call the Vote" (unless the sand timer ends the negotiation first)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    state = state_of(base, table_id, None)
    page.wait_for_function(PLY_AT_LEAST, arg=state["ply"])
    with contextlib.suppress(PlaywrightTimeout):  # the timer may run out first: the Vote begins anyway
        page.locator('#council-timer-row [data-action="call vote"]').click(timeout=4_000)
    wait_server(base, table_id, lambda s: s["view"]["phase"] != "negotiate" or s["ply"] > state["ply"],
                what="the Vote")


def try_click(page: Page, selector: str, base: str, table_id: str) -> dict[str, Any] | None:
    """Click a negotiation control if it comes within 3 s, and wait for the table to move on; ``None``
    when the sand timer ended the negotiation first."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    state = state_of(base, table_id, None)
    page.wait_for_function(PLY_AT_LEAST, arg=state["ply"])
    try:
        page.locator(selector).first.click(timeout=3_000)
    except PlaywrightTimeout:
        return None
    return wait_server(base, table_id, lambda s: s["ply"] > state["ply"], what=f"the click on {selector}")


def advance_button(page: Page) -> str:
    """The page's Advance control to press: naturally if it may, else the smallest payment, else Get Paid."""
    for selector in ('#council-advance [data-action="natural"]', '#council-advance [data-action^="pay "]',
                     '#council-advance [data-action="get paid"]'):
        if page.locator(selector).count():
            return selector
    raise AssertionError("no Advance control on the page whose turn it is")


def test_five_people_play_a_whole_game_in_five_browsers(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    base = srv.url
    started = time.monotonic()
    contexts = [browser.new_context() for _ in range(5)]  # five people: five separate local storages
    try:
        pages = [c.new_page() for c in contexts]
        errors: list[str] = []
        for p in pages:
            p.set_default_timeout(15_000)
            p.on("pageerror", lambda err: errors.append(str(err)))
        seen = [Frames().attach(pages[0]), Frames().attach(pages[1])]
        table_id = create_in_lobby(pages[0], base, "council", ["human"] * 5, seed=5,
                                   negotiation_seconds="25", first_leader="0")
        invite = pages[0].input_value("#invite-link")
        pages[0].click("#open-table")
        wait_ready(pages[0])
        for seat, p in enumerate(pages[1:], 1):
            p.goto(invite)
            wait_ready(p)
            assert p.inner_text("#seat-badge") == f"you are seat {seat + 1}"
        tokens = [token_of(p, table_id) or "" for p in pages]
        agendas = [agenda_of(base, table_id, t) for t in tokens]
        assert len(set(agendas)) == 5
        for seat, p in enumerate(pages):
            assert p.get_attribute("#council-private [data-agenda]", "data-agenda") == agendas[seat]

        # --- Proposal 1 (Leader: seat 0): nobody calls the Vote; the sand timer runs out and the Vote begins.
        after = wait_server(base, table_id, lambda s: s["view"]["phase"] == "vote", timeout=60,
                            what="the sand timer to run out")
        assert after["view"]["leader"] == 0 and after["view"]["proposal"] == 1
        pages[2].wait_for_selector('#log li[data-kind="deadline"]')
        pages[2].wait_for_function("document.querySelector('#council-announce').textContent.includes('sand timer')")

        # The Vote: chat goes on (the engine takes no talk now); votes stay secret until all are in.
        pages[3].fill("#chat-input", "Fail it: Tax is mine!")
        pages[3].press("#chat-input", "Enter")
        for p in pages:
            p.wait_for_selector('#chat-log li[data-seat="3"]:has-text("Fail it: Tax is mine!")')
        assert pages[3].input_value("#chat-input") == ""
        # every announcement page 0 makes is kept: the next Proposal's replaces "failed" at once, and a
        # loaded machine may not look at the live region in between
        pages[0].evaluate("""() => { const live = document.querySelector('#council-announce'); window.announced = [];
            new MutationObserver(() => window.announced.push(live.textContent))
              .observe(live, {childList: true, characterData: true, subtree: true}); }""")
        for seat in (1, 2, 3):
            click_and_wait(pages[seat], '#your-move [data-action="vote fail"]', base, table_id)
        pages[4].wait_for_selector('#council-voters li[data-seat="3"][data-voted="true"]')
        assert "Fail" not in pages[4].inner_text("#council-voters")
        assert "You voted Fail" in pages[1].inner_text("#council-my-vote")
        assert pages[4].locator("#council-my-vote").count() == 0
        click_and_wait(pages[4], '#your-move [data-action="vote pass"]', base, table_id)
        for p in (pages[0], pages[4]):
            p.wait_for_selector('#council-votes li[data-seat="4"][data-vote="pass"]')
            p.wait_for_selector('#council-votes li[data-seat="1"][data-vote="fail"]')
        pages[0].wait_for_function("window.announced.some((t) => t.includes('failed'))")
        state = wait_server(base, table_id, lambda s: s["view"]["proposals_made"] == 2)
        assert state["view"]["leader"] == 1 and state["view"]["bribe_space"] == 2

        # --- Each later Proposal starts a fresh timer: the negotiation features are tried in order while
        # enough time is left (one the timer cuts short is tried again at the next Proposal).
        def drag(st: dict[str, Any]) -> bool:
            """The Leader drags Settle's planet onto Tax; another person's page shows the swap live."""
            leader, watcher = pages[st["view"]["leader"]], pages[(st["view"]["leader"] + 3) % 5]
            before = table_of(st)
            for p in (leader, watcher):
                p.wait_for_function(PLY_AT_LEAST, arg=st["ply"])
            assert leader.locator("#council-timer[role=timer]").count() == 1
            assert watcher.locator("#council-planets button.planet").count() == 0, "only the Leader arranges"
            leader.drag_and_drop('[data-slot="settle"] button.planet', '[data-slot="tax"]')
            moved = wait_server(base, table_id, lambda s: table_of(s) != before or s["view"]["phase"] != "negotiate")
            if table_of(moved) != {**before, "settle": before["tax"], "tax": before["settle"]}:
                return False
            wait_planet(watcher, "tax", before["settle"])
            wait_planet(watcher, "settle", before["tax"])
            return True

        def keyboard(st: dict[str, Any]) -> bool:
            """The Leader moves Mine's planet right with the arrow key; another page shows it live."""
            leader, watcher = pages[st["view"]["leader"]], pages[(st["view"]["leader"] + 1) % 5]
            before = table_of(st)
            leader.wait_for_function(PLY_AT_LEAST, arg=st["ply"])
            leader.focus('[data-slot="mine"] button.planet')
            leader.keyboard.press("ArrowRight")
            moved = wait_server(base, table_id, lambda s: table_of(s) != before or s["view"]["phase"] != "negotiate")
            if table_of(moved) != {**before, "mine": before["conquer"], "conquer": before["mine"]}:
                return False
            wait_planet(watcher, "conquer", before["mine"])
            wait_planet(watcher, "mine", before["conquer"])
            wait_planet(leader, "conquer", before["mine"])
            if leader.locator("button.planet").count():  # the focus followed the planet it moved
                assert leader.evaluate("document.activeElement.dataset.planet") == before["mine"]
            return True

        def suggestion(st: dict[str, Any]) -> bool:
            """A one-click suggestion; the Leader's page lists it."""
            leader = st["view"]["leader"]
            button = '#council-suggestions [data-action="suggest swap settle black_hole"]'
            if try_click(pages[(leader + 2) % 5], button, base, table_id) is None:
                return False
            pages[leader].wait_for_selector(f'#council-talk li[data-seat="{(leader + 2) % 5}"]:has-text("Black Hole")')
            return True

        def offer_and_accept(st: dict[str, Any]) -> bool:
            """A player offers the Leader 1 coin; the Leader accepts it."""
            leader = st["view"]["leader"]
            giver = (leader + 1) % 5
            if try_click(pages[giver], '#your-move [data-action="offer"]', base, table_id) is None:
                return False
            done = try_click(pages[leader], f'#council-bribes [data-action="accept {giver}"]', base, table_id)
            return done is not None and done["view"]["accepted_from"] == giver

        def bribe(st: dict[str, Any]) -> bool:
            """The Leader gives a coin from the Bribe Space; the bribed player's page shows it pending."""
            leader = st["view"]["leader"]
            target = (leader + 2) % 5
            done = try_click(pages[leader], f'#council-bribes [data-action="bribe {target} 1"]', base, table_id)
            if done is None or done["view"]["pending"][target] != 1:
                return False
            pages[target].wait_for_selector(f'#council-seats tr[data-seat="{target}"]:has-text("1 pending")')
            return True

        def claim(st: dict[str, Any]) -> bool:
            """A claim from the form: "Seat 0 wants red at Mine"; the Leader's page lists it."""
            leader = st["view"]["leader"]
            speaker = pages[(leader + 4) % 5]
            speaker.wait_for_function(PLY_AT_LEAST, arg=st["ply"])
            if not speaker.locator("#claim-box").count():
                return False
            if not speaker.locator("#claim-box[open]").count():
                speaker.click("#claim-box summary")
            speaker.select_option("#claim-seat", "0")
            speaker.select_option("#claim-outcome", "mine")
            speaker.select_option("#claim-colour", "red")
            if try_click(speaker, '#claim-box button[type="submit"]', base, table_id) is None:
                return False
            said = wait_server(base, table_id, lambda s: s["view"]["phase"] != "negotiate"
                               or any(t["text"] == "claim 0 mine red" for t in s["view"]["talk"]))
            if not any(t["text"] == "claim 0 mine red" for t in said["view"]["talk"]):
                return False
            pages[leader].wait_for_selector('#council-talk li:has-text("wants red at Mine")')
            return True

        features = [drag, keyboard, suggestion, claim, offer_and_accept, bribe]
        tried: set[int] = set()
        done_at: dict[str, int] = {}  # feature -> the Proposal (counted over the game) it was done in

        def time_left(st: dict[str, Any]) -> float:
            clock = st["clock"] or {}
            deadline = clock.get("period_deadline_ts")
            return float(deadline - clock["now"]) if deadline else 0.0

        def attempt(feature: Callable[[dict[str, Any]], bool], now: dict[str, Any], number: int) -> bool:
            """The feature, done; False when the sand timer ended the negotiation under it (a page waiting
            for a form the Vote took away): it is tried again at the next Proposal."""
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            try:
                return feature(now)
            except PlaywrightTimeout:
                later = state_of(base, table_id, None)["view"]
                if later["proposals_made"] == number and later["phase"] == "negotiate":
                    raise
                return False

        # --- The rest of the game: approve every Proposal, advance, deduce, to the final result.
        intrigue_played = checked_points = False
        for _ in range(400):
            state = state_of(base, table_id, None)
            if state["status"] == "finished":
                break
            view = state["view"]
            phase = view["phase"]
            if phase == "negotiate":
                number = view["proposals_made"]
                if number not in tried:
                    tried.add(number)
                    for feature in list(features):
                        now = state_of(base, table_id, None)
                        if now["view"]["proposals_made"] != number or now["view"]["phase"] != "negotiate" \
                                or time_left(now) < 2.5 or not attempt(feature, now, number):
                            break
                        features.remove(feature)
                        done_at[feature.__name__] = number
                call_vote(pages[view["leader"]], base, table_id)
            elif phase == "vote":
                seat = state["to_move"][0]
                click_and_wait(pages[seat], '#your-move [data-action="vote pass"]', base, table_id)
            elif phase == "advance":
                seat = view["turn"]
                page = pages[seat]
                page.wait_for_function(PLY_AT_LEAST, arg=state["ply"])
                page.wait_for_selector("#council-advance")
                if not checked_points:  # the secret points: on the mover's page only
                    assert page.locator("#council-my-points").count() == 1
                    assert all(p.locator("#council-my-points").count() == 0 for p in pages if p is not page)
                    checked_points = True
                    for seat_k in (0, 1):  # nor does any page show another seat's Agenda
                        body = pages[seat_k].inner_text("body")
                        assert not [a for s, a in enumerate(agendas) if s != seat_k and mentions(body, a)]
                        assert pages[seat_k].locator("[data-agenda]").count() == 1
                selector = advance_button(page)
                if not intrigue_played and page.locator("#council-advance-intrigue button").count():
                    selector = "#council-advance-intrigue button"
                    intrigue_played = True
                click_and_wait(page, selector, base, table_id)
            elif phase == "deduce":
                for seat in state["to_move"]:
                    click_and_wait(pages[seat], "#your-move fieldset.guess button", base, table_id)
        else:
            raise AssertionError("the game did not end")
        assert intrigue_played and not features, [f.__name__ for f in features]

        final = state_of(base, table_id, None)
        assert final["outcome"] and final["view"]["phase"] == "over"
        assert [a["id"] for a in final["view"]["agendas"]] == agendas
        assert len(final["view"]["history"]) == 6 and len(final["view"]["deductions"]) == 3
        for p in pages:
            p.wait_for_selector("#result:not([hidden]) #council-payout")
        assert "Final result" in pages[4].inner_text("#result")
        for seat, agenda in enumerate(agendas):
            assert agenda in pages[2].inner_text(f'#council-payout tr[data-seat="{seat}"]')

        # Nobody was ever sent another seat's secrets (checked for two seats: every socket frame and HTTP body).
        for seat in (0, 1):
            others = [a for s, a in enumerate(agendas) if s != seat]
            assert check_payloads(seen[seat], agendas[seat], others) > 50
            assert any(m.get("type") == "chat" for m in seen[seat].messages)
        assert not errors, errors
        elapsed = time.monotonic() - started
        print(f"five-browser Council game: {final['ply']} moves in {elapsed:.0f} s; features by Proposal {done_at}")
    finally:
        for context in contexts:
            context.close()


def test_one_person_and_four_bots_play_to_the_end_on_a_phone(live_server: Any, browser: Browser) -> None:
    srv: LiveServer = live_server()
    base = srv.url
    started = time.monotonic()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        seats = ["human", "bot:normal", "bot:normal", "bot:easy", "bot:normal"]
        table_id = create_in_lobby(page, base, "council", seats, seed=8, negotiation_seconds="10", first_leader="0")
        page.click("#open-table")
        wait_ready(page)
        # Someone watching without a seat: reads everything public (the chat too), can write nothing.
        watcher_context = browser.new_context()
        watcher = watcher_context.new_page()
        watched = Frames().attach(watcher)
        watcher.goto(f"{base}/t/{table_id}")
        wait_ready(watcher)
        assert watcher.inner_text("#seat-badge") == "watching"
        assert watcher.is_disabled("#chat-input") and watcher.locator("#council-private").count() == 0
        page.fill("#chat-input", "Good luck, bots")
        page.click("#chat-send")
        page.wait_for_selector('#chat-log li[data-seat="0"]:has-text("Good luck, bots")')
        assert no_horizontal_scroll(page), "the table fits a phone's width"

        swapped = restarted = False
        for _ in range(2000):
            state = state_of(base, table_id, None)
            if state["status"] == "finished":
                break
            view = state["view"]
            phase = view["phase"]
            if phase == "negotiate" and view["leader"] == 0:
                if not swapped:  # press one planet, then another: they swap (the phone-friendly way)
                    before = table_of(state)
                    page.wait_for_function(PLY_AT_LEAST, arg=state["ply"])
                    page.click('[data-slot="conquer"] button.planet')
                    page.wait_for_selector('[data-slot="conquer"] button.planet[aria-pressed="true"]')
                    page.click('[data-slot="black_hole"] button.planet')
                    moved = wait_server(base, table_id, lambda s, b=before: s["view"]["phase"] != "negotiate"
                                        or table_of(s) != b, what="the swap")
                    if moved["view"]["phase"] == "negotiate":
                        assert table_of(moved)["black_hole"] == before["conquer"]
                        swapped = True
                call_vote(page, base, table_id)
            elif phase == "vote" and 0 in state["to_move"]:
                click_and_wait(page, '#your-move [data-action="vote pass"]', base, table_id)
            elif phase == "advance" and view["turn"] == 0:
                page.wait_for_function(PLY_AT_LEAST, arg=state["ply"])
                click_and_wait(page, advance_button(page), base, table_id)
            elif phase == "deduce" and 0 in state["to_move"]:
                click_and_wait(page, "#your-move fieldset.guess button", base, table_id)
            elif view["round"] >= 4 and not restarted:
                # The server restarts mid-game: the table and its chat come back.
                srv.stop()
                srv.start()
                page.reload()
                wait_ready(page)
                page.wait_for_selector('#chat-log li[data-seat="0"]:has-text("Good luck, bots")')
                restarted = True
            else:
                time.sleep(0.1)  # the bots are thinking or negotiating
        else:
            raise AssertionError("the game did not end")
        assert swapped and restarted
        page.wait_for_selector("#result:not([hidden]) #council-payout")
        final = state_of(base, table_id, token_of(page, table_id))
        assert final["outcome"]["winners"] and len(final["view"]["history"]) == 6
        assert "Final result" in page.inner_text("#result")
        assert page.locator("#council-payout tbody tr").count() == 5
        assert no_horizontal_scroll(page)
        # Colour is never the only sign: every face-up planet (the history's among them) says it in letters.
        faces = page.evaluate("""() => [...document.querySelectorAll('.planet-face, .mini-planet')]
            .filter(el => !el.className.includes('colour-back'))
            .map(el => [el.className.match(/colour-(\\w+)/)[1],
                        (el.querySelector('.planet-colour, .mini-colour') || {}).textContent || ''])""")
        tags = {"red": "Red", "green": "Grn", "yellow": "Yel", "blue": "Blu", "black": "Blk", "rainbow": "Any"}
        shown_sets = sum(1 for h in final["view"]["history"] if not h["written_off"])
        assert len(faces) >= 5 * shown_sets and all(tag == tags[colour] for colour, tag in faces), faces
        watcher.wait_for_selector('#chat-log li[data-seat="0"]:has-text("Good luck, bots")')
        agendas = [a["id"] for a in final["view"]["agendas"]]
        assert check_payloads(watched, "", agendas) > 0, "the watcher was never sent an Agenda or a seat's secret"
        watcher_context.close()
        assert not errors, errors
        print(f"one person and four bots: {final['ply']} moves in {time.monotonic() - started:.0f} s")
    finally:
        context.close()
