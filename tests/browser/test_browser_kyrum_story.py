"""Kyrum's story in the browser: the booklet shows every page being read in reading order with what it
did (the set-up encounter with its check, the finale with the choice made, the epilogue it leads to), the
whole game's story folds out and stays open across redraws, the partner log lists every transmission, and
all of it fits a phone screen (390 px)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import no_horizontal_scroll, page_ply, wait_past, wait_ready

import holotable
from holotable.games.kyrum.campaign import new_campaign
from holotable.games.kyrum.pack import load_pack

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PACK = load_pack("kyrum-demo")
FINALE = 30  # the last scheduled game: its end-of-game script's choice reads one of three epilogues


def finale_campaign() -> str:
    camp = new_campaign(PACK, seed=0, partner=True)
    camp.next_game = FINALE
    camp.partner_log = [
        {"game": 28, "sent": None, "received": "The heron is the ship", "from": "Bo", "partner_game": 27,
         "heard_in": 28},
        {"game": 29, "sent": "Ilune was on Thurn", "received": None},
    ]
    return camp.to_json()


def setup_encounter_seed(campaign: str) -> int:
    """A seed whose set-up meets a danger card (its check on the first screen) and stops at no decision."""
    game = holotable.load("kyrum")
    for seed in range(200):
        st = game.new_state(1, seed=seed, campaign=campaign, partner=True)
        if st.data.story and st.data.story[0].check is not None and st.data.decision is None:
            return seed
    raise AssertionError("no seed meets a danger card during set-up")


def move(page: Page, action: str) -> None:
    ply = page_ply(page)
    page.click(f'#game-area button[data-action="{action}"]:not([disabled])')
    wait_past(page, ply)


def test_the_booklet_shows_every_page_with_its_effects_and_the_story_folds_out(
        live_server: Any, page: Page, page_errors: list[str], tmp_path: Path) -> None:
    srv: LiveServer = live_server()
    campaign = finale_campaign()
    seed = setup_encounter_seed(campaign)
    made = httpx.post(f"{srv.url}/api/tables", json={"game": "kyrum", "players": 1, "seats": [{"kind": "human"}],
                                                      "params": {"campaign": campaign, "partner": True}, "seed": seed},
                      timeout=20).json()
    table_id, token = made["table_id"], made["you"]["token"]
    page.goto(f"{srv.url}/")
    page.evaluate("([t, k]) => localStorage.setItem('holotable:seat:' + t, k)", [table_id, token])
    page.goto(f"{srv.url}/t/{table_id}")
    wait_ready(page)
    # The set-up's encounter is the first page shown: the card, its check in words, marked new.
    card = page.locator(".ky-booklet .ky-page.ky-encounter.new")
    card.wait_for()
    assert "Check: dice white" in card.inner_text() and "needed" in card.inner_text()
    page.screenshot(path=str(tmp_path / "kyrum-setup-laptop.png"))

    page.click("#game-area .ky-danger summary")
    move(page, "concede")
    finale = page.locator('.ky-booklet .ky-page[data-page="A.70.30"]')
    finale.wait_for()
    assert "new" in (finale.get_attribute("class") or "")
    assert PACK.scripts["A.70.30"]["title"] in finale.inner_text()
    assert page.locator(".ky-booklet .ky-page.ky-encounter").count() == 0, "conceding began a new reading"
    move(page, "option 2")
    epilogue = page.locator('.ky-booklet .ky-page[data-page="A.70.32"]')
    epilogue.wait_for()
    order = page.locator(".ky-booklet .ky-page[data-page]").evaluate_all("els => els.map(e => e.dataset.page)")
    assert order == ["A.70.30", "A.70.32"], "reading order: the finale, then its epilogue"
    assert "you chose" in finale.inner_text(), "the choice made is written on the finale's page"
    first_words = " ".join(PACK.scripts["A.70.32"]["text"].split()[:8])
    assert first_words in " ".join(epilogue.inner_text().split())
    assert page.locator(".ky-market").is_visible(), "the end-of-game pages stay in the booklet at the market"

    # The story so far: every page of the game, folded away; it stays open when the page is redrawn.
    page.click(".ky-story details.ky-fold-story summary")
    pages = page.locator(".ky-story details.ky-fold-story .ky-page").evaluate_all("els => els.map(e => e.dataset.page)")
    assert pages[1:] == ["A.70.30", "A.70.32"] and pages[0].startswith("ENC-")
    page.click(".ky-story details.ky-fold-partner summary")
    log = page.inner_text(".ky-story details.ky-fold-partner")
    assert log.index("The heron is the ship") < log.index("Ilune was on Thurn")
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_horizontal_scroll(page), "the booklet and the story fit a phone screen"
    page.locator(".ky-booklet").screenshot(path=str(tmp_path / "kyrum-booklet-phone.png"))
    page.locator(".ky-story").screenshot(path=str(tmp_path / "kyrum-story-phone.png"))
    move(page, "close")
    page.wait_for_selector(".ky-result")
    folded = page.locator(".ky-story details.ky-fold-story")
    assert folded.get_attribute("open") is not None, "still open after a redraw"
    assert page.locator('.ky-booklet .ky-page[data-page="A.70.32"]').count() == 1, "and after the game ends"
    assert not page_errors, page_errors
