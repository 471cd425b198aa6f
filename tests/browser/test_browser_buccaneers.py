"""A whole Black Hole Buccaneers game in the browser: one human clicking cards against two bots."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import httpx
import pytest
from browser_helpers import (
    create_in_lobby,
    no_horizontal_scroll,
    open_table,
    state_of,
    synced_state,
    token_of,
    wait_past,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OFFERED = "#your-move button[data-action], #hand button[data-action]"
MY_TURN_OR_OVER = f"""() => document.querySelector('{OFFERED.replace("]", "]:not([disabled])")}')
  || !document.querySelector('#result').hidden"""


def test_a_whole_buccaneers_game_against_two_bots(live_server, page: Page, page_errors: list[str]) -> None:
    srv: LiveServer = live_server()
    table_id = create_in_lobby(page, srv.url, "buccaneers", ["human", "bot:easy", "bot:easy"], seed=25)
    open_table(page)
    token = token_of(page, table_id)
    catalog = httpx.get(f"{srv.url}/api/tables/{table_id}/catalog", timeout=10).json()
    decisions: Counter[str] = Counter()
    saw_others_chosen = False
    turned_seen = 0
    while True:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=15_000)
        if page.is_visible("#result"):
            break
        server = synced_state(page, srv.url, table_id, token)
        legal = {m["text"] for m in server["legal"]}
        # Only the legal moves are offered, and all of them.
        offered = set(page.locator(OFFERED).evaluate_all("els => els.map(e => e.dataset.action)"))
        assert offered == legal
        kind = server["view"]["ask"]["kind"]
        decisions[kind] += 1
        if kind == "choose":
            # The hand shown is the seat's hand, card for card.
            shown = page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
            assert sorted(shown) == sorted(server["view"]["hand"])
            # Each card by its name and printed numbers, from the table's catalog.
            card = shown[0]
            face = page.inner_text(f'#hand [data-card="{card}"]')
            entry = catalog["cards"][card]
            assert entry["name"] in face and f"{entry['stats'][0][0]} / {entry['stats'][0][1]}" in face
            # Who has chosen, as the page shows it at the ply it shows (the bots may pick meanwhile): the
            # server's record of that very ply (its replay) says the same.
            shown_ply, chosen = page.evaluate("""() => [
                Number(document.querySelector('#ply').textContent.split(' ').pop()),
                document.querySelectorAll('#who-chose li[data-chosen="true"]').length]""")
            then = httpx.get(f"{srv.url}/api/tables/{table_id}/replay", params={"ply": shown_ply},
                             headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
            assert chosen == len(then["committed"])
            saw_others_chosen = saw_others_chosen or chosen > 0
        # A turned card is drawn turned: the value / weight upright on top of its picture is the one shown.
        for top, shown in page.evaluate("""() => [...document.querySelectorAll('.card.turned')].map(
                c => [c.querySelector('.turned-art').dataset.top, c.querySelector('.vw').textContent])"""):
            assert top == shown.replace(" ", ""), (top, shown)
            turned_seen += 1
        ply = server["ply"]
        page.locator(OFFERED).first.click()
        wait_past(page, ply)
        assert sum(decisions.values()) < 200

    assert decisions["choose"] >= 3 * 4, decisions  # at least 4 picks in each of the three rounds
    # Seed 25 also asks this seat for time-machine groups and a Swiss Pocket Laser card.
    assert decisions["group"] and decisions["laser"], decisions
    assert turned_seen, "seed 25 turns a card (a time-machine group): it was drawn turned"
    assert saw_others_chosen, "the bots' sealed picks show as 'has chosen' before the human picks"
    server = state_of(srv.url, table_id, token)
    outcome, view = server["outcome"], server["view"]
    assert outcome is not None
    # Scoring steps A-H of the last round, each explained; the pad holds all three rounds.
    steps = page.locator("#scoring li[data-step]").evaluate_all("els => els.map(e => e.dataset.step)")
    assert steps == list("ABCDEFGH")
    assert "Threshold =" in page.inner_text('#scoring li[data-step="F"]')
    assert page.locator("#scoring-pad tbody tr").count() == 3
    for seat in range(3):
        pad = page.inner_text(f"#scoring-pad tbody tr >> nth=2 >> td >> nth={seat}")
        assert f"→ {view['pad'][2]['total'][seat]}" in pad
    # Every tableau as the server has it, with each card's quarter turns.
    for seat in range(3):
        cards = page.locator(f'.tableau[data-seat="{seat}"] li[data-card]')
        shown = Counter(zip(cards.evaluate_all("els => els.map(e => e.dataset.card)"),
                            cards.evaluate_all("els => els.map(e => Number(e.dataset.turns))"), strict=True))
        assert shown == Counter((c["card"], c["turns"]) for c in view["tableaux"][seat])
    rows = page.locator("#final-scores tbody tr td:nth-child(3)").all_inner_texts()
    assert sorted(float(x) for x in rows) == sorted(outcome["scores"])
    assert page.inner_text("#turn-banner").startswith("Game over")
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_horizontal_scroll(page), "tableaux, scoring and the pad fit a phone screen"
    assert not page_errors, page_errors
