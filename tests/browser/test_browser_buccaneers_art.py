"""Black Hole Buccaneers drawn as art: every hand card a card with its picture and figures readable at laptop
and phone size, another seat's face-down toy only a card back (nothing of it in that page), picks turning face
up with a motion, and no motion at all for a player who asks for reduced motion."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import create_in_lobby, no_horizontal_scroll, open_table, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: Seed 25 deals seat 0 robots and a shapeshifter: a pick that needs no further decision of this seat.
SEED = 25
PICKABLE = ('#hand button[data-action]:not([disabled])[data-card^="ROBOT"], '
            '#hand button[data-action]:not([disabled])[data-card^="SHAPE"], '
            '#hand button[data-action]:not([disabled])[data-card^="SHIP"]')
PICTURES_LOADED = "() => [...document.querySelectorAll('#game-area img')].every(i => i.complete && i.naturalWidth > 0)"

HAND_CARDS = """() => [...document.querySelectorAll('#hand [data-card]')].map(c => {
  const pics = [...c.querySelectorAll('img.card-pic')];
  const v = c.querySelector('.vw .v'), w = c.querySelector('.vw .w'), name = c.querySelector('.cname');
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const box = c.getBoundingClientRect();
  return {card: c.dataset.card, pictures: pics.length, alts: pics.map(i => i.getAttribute('alt')),
          loaded: pics.every(i => i.complete && i.naturalWidth > 0), value: v.textContent, weight: w.textContent,
          figures: Math.min(px(v), px(w)), name: name.textContent, nameSize: px(name),
          label: c.getAttribute('aria-label') || '', left: box.left, right: box.right, width: box.width};
})"""

MOTION_OFF = """() => {
  const els = [...document.querySelectorAll(
    '.bhb-reveal, .bhb-laid, .bhb-turn, .bhb-count, .bhb-fresh, .bhb-gain, .direction, #hand > li, .bhb-card')];
  const out = [];
  for (const el of els) {
    for (const pseudo of [null, '::after']) {
      const s = getComputedStyle(el, pseudo);
      for (const d of [s.animationDuration, s.transitionDuration]) {
        if (d.split(',').some(x => parseFloat(x) !== 0)) out.push(`${el.className}${pseudo || ''}: ${d}`);
      }
    }
  }
  return {checked: els.length, moving: out};
}"""


def against_bots(page: Page, base: str) -> str:
    table_id = create_in_lobby(page, base, "buccaneers", ["human", "bot:easy", "bot:easy"], seed=SEED)
    open_table(page)
    page.wait_for_selector("#hand button[data-action]:not([disabled])")
    page.wait_for_function(PICTURES_LOADED)
    return table_id


def pick_and_wait_for_reveal(page: Page) -> str:
    """Play a robot, shapeshifter or spaceship; returns the card once it lies face up in this seat's tableau."""
    button = page.locator(PICKABLE).first
    card = button.get_attribute("data-card") or ""
    assert card, "seed 25 deals a pick that asks nothing more of this seat"
    button.click()
    page.wait_for_selector(f'.tableau.me .bhb-card.bhb-reveal[data-card="{card}"]')
    return card


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_hand_cards_are_drawn_as_cards_and_picks_turn_up(live_server, page: Page, page_errors: list[str],
                                                         size: str) -> None:
    srv: LiveServer = live_server()
    viewport = VIEWPORTS[size]
    page.set_viewport_size(viewport)
    table_id = against_bots(page, srv.url)
    catalog = httpx.get(f"{srv.url}/api/tables/{table_id}/catalog", timeout=10).json()["cards"]

    cards = page.evaluate(HAND_CARDS)
    assert len(cards) >= 5
    for shown in cards:
        entry = catalog[shown["card"]]
        # A picture for the card, decoration only (the text says the same), and it loaded.
        assert shown["pictures"] == 1 and shown["alts"] == [""] and shown["loaded"], shown
        # Its printed value / weight as text, in figures large enough to read on a phone (20 px or more),
        # and its name in plain words.
        assert [int(shown["value"]), int(shown["weight"])] == entry["stats"][0], shown
        assert shown["figures"] >= 20, shown
        assert shown["name"] == entry["name"] and shown["nameSize"] >= 13, shown
        # The button still says what it does.
        assert shown["label"].startswith("play ") and entry["name"] in shown["label"], shown
        # Whole cards, side by side within the screen.
        assert shown["left"] >= 0 and shown["right"] <= viewport["width"] and shown["width"] >= 120, shown
    assert no_horizontal_scroll(page)
    # The black hole and its pile, and each seat's hand size and points, as small pictures.
    assert page.locator(".bhb-hole-art img.hole-pic").count() == 1
    assert page.locator(".tableau .bhb-chip.points img").count() == 3

    # A pick: all picks turn face up together, the card back flipping away.
    card = pick_and_wait_for_reveal(page)
    moving = page.evaluate("""(card) => {
        const el = document.querySelector(`.tableau.me .bhb-reveal[data-card="${card}"]`);
        const s = getComputedStyle(el), back = getComputedStyle(el, '::after');
        return [s.animationName, parseFloat(s.animationDuration), back.animationName,
                window.matchMedia('(prefers-reduced-motion: reduce)').matches];
    }""", card)
    assert moving[0] == "bhb-flip" and moving[1] > 0 and moving[2] == "bhb-back" and not moving[3], moving
    page.wait_for_function(PICTURES_LOADED)
    assert page.locator(f'.tableau.me .bhb-card[data-card="{card}"] img.card-pic').count() == 1
    assert no_horizontal_scroll(page)
    assert not page_errors, page_errors


def test_reduced_motion_stills_every_motion(live_server, page: Page, page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size(VIEWPORTS["phone"])
    page.emulate_media(reduced_motion="reduce")
    against_bots(page, srv.url)
    card = pick_and_wait_for_reveal(page)
    # The reveal is marked as ever, but nothing moves: no animation, no transition, and the card back that
    # would flip away is not drawn over the face.
    still = page.evaluate(MOTION_OFF)
    assert still["checked"] and not still["moving"], still
    back = page.evaluate("""(card) => getComputedStyle(
        document.querySelector(`.tableau.me .bhb-reveal[data-card="${card}"]`), '::after').opacity""", card)
    assert back == "0"
    # The same on the next pick (a passed hand, turned robots, ...).
    page.wait_for_selector("#hand button[data-action]:not([disabled])")
    still = page.evaluate(MOTION_OFF)
    assert still["checked"] and not still["moving"], still
    assert not page_errors, page_errors


def mentions(text: str, card: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(card)}(?![A-Za-z0-9-])", text) is not None


def seat_state(base: str, table_id: str, page: Page) -> dict[str, Any]:
    token = page.evaluate("(id) => localStorage.getItem('holotable:seat:' + id)", table_id)
    response = httpx.get(f"{base}/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"},
                         timeout=10)
    response.raise_for_status()
    payload: dict[str, Any] = response.json()
    return payload


def test_another_seats_face_down_toy_is_only_a_card_back(live_server, browser: Browser) -> None:
    srv: LiveServer = live_server()
    contexts = [browser.new_context(viewport=VIEWPORTS["laptop"]), browser.new_context(viewport=VIEWPORTS["phone"])]
    try:
        alice, bob = (c.new_page() for c in contexts)
        for p in (alice, bob):
            p.set_default_timeout(15_000)
        # Seed 1 deals Alice (seat 0) a toy (as in test_browser_two_humans).
        table_id = create_in_lobby(alice, srv.url, "buccaneers", ["human", "human", "bot:easy"], seed=1,
                                   direction='"CW"')
        invite = alice.input_value("#invite-link")
        alice.click("#open-table")
        wait_ready(alice)
        bob.goto(invite)
        wait_ready(bob)
        for p in (alice, bob):
            p.wait_for_selector("#hand button[data-action]:not([disabled])")
        toy = alice.locator('#hand button[data-card^="TOY"]').first.get_attribute("data-card") or ""
        assert toy, "seed 1 deals Alice a toy"
        name = httpx.get(f"{srv.url}/api/tables/{table_id}/catalog", timeout=10).json()["cards"][toy]["name"]
        alice.click(f'#hand button[data-action="play {toy}"]')
        bob.locator('#hand button[data-action]:not([disabled]):not([data-card^="TOY"])').first.click()

        # Bob sees a card back laid down in Alice's tableau, and nothing else of it.
        down = bob.locator('.tableau[data-seat="0"] .bhb-card.facedown.bhb-laid')
        down.wait_for()
        assert down.get_attribute("data-card") == "facedown"
        assert (down.locator("img.back-pic").get_attribute("src") or "").endswith("/card-back.svg")
        assert down.locator("img.back-pic").get_attribute("alt") == ""
        assert "face down" in down.inner_text()
        html = bob.content()
        assert not mentions(html, toy), f"Bob's page names Alice's face-down toy {toy}"
        assert name not in html, f"Bob's page shows the face-down toy's name {name!r}"
        assert seat_state(srv.url, table_id, bob)["view"]["tableaux"][0][0]["card"] is None
        bob.wait_for_function(PICTURES_LOADED)
        assert no_horizontal_scroll(bob)

        # Alice sees her own toy's face, marked as face down.
        mine = alice.locator(f'.tableau.me .bhb-card.own-facedown[data-card="{toy}"]')
        mine.wait_for()
        assert name in mine.inner_text() and "face down" in mine.inner_text()
        assert mine.locator("img.card-pic").count() == 1
    finally:
        for context in contexts:
            context.close()
