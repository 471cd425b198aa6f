"""A whole Captain Black game in the browser: one human clicking and typing in the page against a bot."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from browser_helpers import MY_TURN_OR_OVER, Frames, create_in_lobby, open_table, state_of, token_of, wait_past

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

def test_a_whole_captain_black_game_against_a_bot(live_server, page: Page, page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    frames = Frames().attach(page)
    table_id = create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy"])
    assert srv.url + f"/t/{table_id}?invite=" in (page.input_value("#invite-link") or "")
    open_table(page)
    token = token_of(page, table_id)
    assert token, "the creator's seat token is kept in localStorage"
    assert page.inner_text("#seat-badge") == "you are seat 1"  # seat 0, as players count from 1
    # Everything the box pinned to the top shows, as it shows it: the box goes after 8 s of real time,
    # so sampling it at this seat's turns alone misses lines on a slow machine.
    page.evaluate("""() => {
        window.__happened = [];
        const box = document.getElementById("happened");
        new MutationObserver(() => { if (!box.hidden) window.__happened.push(box.innerText); })
            .observe(box, { childList: true, subtree: true, characterData: true, attributes: true });
    }""")

    moves = 0
    saw_awards = False
    checked_range = False
    happened: list[str] = []  # what the box pinned to the top of the screen said the table just did
    while True:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=15_000)
        if page.is_visible("#happened"):
            happened.append(page.inner_text("#happened"))
        if page.is_visible("#result"):
            break
        assert "Your turn" in page.inner_text("#turn-banner")
        if not checked_range:
            # Only legal draws are offered: the input's range is exactly the server's legal list.
            legal = [int(m["text"].split()[1]) for m in state_of(srv.url, table_id, token)["legal"]]
            assert page.get_attribute("#draw-count", "min") == str(min(legal))
            assert page.get_attribute("#draw-count", "max") == str(max(legal))
            assert page.locator(".quick").count() == len([k for k in range(1, 7) if k in legal])
            checked_range = True
        ply = int(page.inner_text("#ply").split()[-1])
        if moves % 3 == 0:  # the keyboard: type a number, press Enter
            page.fill("#draw-count", "2")
            page.press("#draw-count", "Enter")
        elif moves % 3 == 1:  # a quick-grab button, pressed with Space
            page.focus('.quick[data-action="draw 1"]')
            page.keyboard.press("Space")
        elif int(page.get_attribute("#draw-count", "max") or 1) < 2:  # one coin left to grab: + is off
            page.click("#draw-button")
        else:  # a click on the big button after the + button
            page.fill("#draw-count", "1")
            page.click('[aria-label="One coin more"]')
            assert page.inner_text("#draw-button") == "Grab 2 coins"
            page.click("#draw-button")
        wait_past(page, ply)
        moves += 1
        if not saw_awards and page.is_visible("#round-awards"):
            awards = page.inner_text("#round-awards")
            assert "Chest cards by rank" in awards and "Gold in the boxes" in awards
            saw_awards = True
        assert moves < 400, "the game should have ended"

    server = state_of(srv.url, table_id, token)
    outcome = server["outcome"]
    assert outcome is not None and server["status"] == "finished"
    assert saw_awards or len(server["view"]["rounds"]) == 2
    # The final result: ranks and scores as the server has them, every chest shown.
    rows = page.locator("#final-scores tbody tr")
    assert rows.count() == 2
    for i in range(2):
        place, who, score = (c.strip() for c in rows.nth(i).locator("td").all_inner_texts())
        seat = int(re.match(r"Seat (\d)", who).group(1)) - 1  # type: ignore[union-attr]  # players count from 1
        assert int(place) == outcome["ranks"][seat]
        assert float(score) == outcome["scores"][seat]
    chests = page.locator("#final-chests tbody tr")
    for seat in range(2):
        cells = chests.nth(seat).locator("td").all_inner_texts()
        cards = server["view"]["chests"][seat]
        assert int(cells[1]) == cards.count("filled") and int(cells[2]) == len(cards)
    banner = page.inner_text("#turn-banner")
    assert banner.startswith("Game over")
    assert ("You win" in banner) == (0 in outcome["winners"] and len(outcome["winners"]) == 1)
    # The log is readable text, with the round ends and their parrots and chests.
    log = page.inner_text("#log")
    assert "Round 1 ends" in log and "chest card" in log
    # The bot's moves and the round's end did not pass in silence: each showed up top as it happened.
    happened += page.evaluate("window.__happened")
    assert any("Seat 2 draws" in text for text in happened), happened  # the bot, seat index 1
    assert any("Round 1 ends" in text for text in happened), happened
    assert page.locator("#rematch").is_visible()
    assert any(m.get("type") == "state" for m in frames.messages), "the page listens on the WebSocket"
    assert not page_errors, page_errors


def test_play_again_starts_a_new_table_with_the_same_seats(live_server, page: Page) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy"], island_fields="2")
    open_table(page)
    assert "/ 2" in page.inner_text("#island-count"), "the house rule chosen in the lobby is the table's"
    while not page.is_visible("#result"):  # grab everything: each draw almost surely brings a black coin
        page.wait_for_function(MY_TURN_OR_OVER, timeout=15_000)
        if page.is_visible("#result"):
            break
        ply = int(page.inner_text("#ply").split()[-1])
        page.fill("#draw-count", page.get_attribute("#draw-count", "max") or "1")
        page.press("#draw-count", "Enter")
        wait_past(page, ply)
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/t/(?!" + re.escape(table_id) + r")[^/?]+$"))
    new_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#turn-banner:not(:empty)")
    assert token_of(page, new_id), "the rematch seat is this browser's"
    summary = state_of(srv.url, new_id, token_of(page, new_id))
    assert summary["game"] == "captain-black" and summary["seat"] == 0 and summary["outcome"] is None


def test_the_hidden_tally_variant_hides_the_other_boxes(live_server, page: Page) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "captain-black", ["human", "bot:easy"], public_tally="false")
    open_table(page)
    page.wait_for_selector("#draw-button:not([disabled])")
    view = state_of(srv.url, table_id, token_of(page, table_id))["view"]
    assert view["boxes"][1] is None and "gold" not in view["bag"]
    bot_box = page.inner_text('.boxes li[data-seat="1"]')
    assert "box: not shown" in bot_box
    # the variant hides nothing a careful player cannot work out, and the page says so
    assert "A careful player can still work every box out" in page.inner_text("#tally-note")
    assert "box: 0 gold coins" in page.inner_text('.boxes li[data-seat="0"]')
    assert "colours are secret" in page.inner_text("#game-area")
    assert "Chance" not in page.inner_text("#draw-odds"), "no odds from a bag whose colours are secret"
