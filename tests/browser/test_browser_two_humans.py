"""Two people at one Buccaneers table, each in their own browser: neither ever sees the other's hand."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import PLY_AT_LEAST, Frames, create_in_lobby, page_ply, state_of, token_of, wait_past, wait_ready

from holotable.games.buccaneers.cards import CARDS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]



def hand_of(page: Page) -> list[str]:
    cards: list[str] = page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    return cards


def dom_cards(page: Page) -> set[str]:
    cards: list[str] = page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    return set(cards)


def mentions(text: str, card: str) -> bool:
    """Whether `card`'s id occurs in `text` as a whole id ("SHAPE-8" is not in "SHAPE-8-a")."""
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(card)}(?![A-Za-z0-9-])", text) is not None


def settle(base: str, table_id: str, *pages: Page) -> dict[str, Any]:
    """Answer any decision the reveal asked of a page (a group, the Laser, the Tentacle) with its first
    offered move, until everyone is picking again; returns the server's state (as Alice sees it)."""
    for _ in range(20):
        state = state_of(base, table_id, token_of(pages[0], table_id))
        if state["view"]["ask"]["kind"] == "choose":
            for page in pages:
                page.wait_for_function(PLY_AT_LEAST, arg=state["ply"])
            return state
        for page in pages:
            offered = page.locator("#your-move button[data-action]:not([disabled])")
            if offered.count():
                ply = page_ply(page)
                offered.first.click()
                wait_past(page, ply)
                break
        else:
            pages[0].wait_for_timeout(100)  # a bot is deciding
    raise AssertionError("the reveal's decisions never ended")


def test_two_humans_never_see_each_others_hand(live_server, browser: Browser) -> None:
    srv: LiveServer = live_server()
    contexts = [browser.new_context(), browser.new_context()]  # separate localStorage: two people
    try:
        alice, bob = (c.new_page() for c in contexts)
        for p in (alice, bob):
            p.set_default_timeout(10_000)
        seen = {"alice": Frames().attach(alice), "bob": Frames().attach(bob)}  # everything each page is sent
        table_id = create_in_lobby(alice, srv.url, "buccaneers", ["human", "human", "bot:easy"], seed=1,
                                   direction='"CW"')
        invite = alice.input_value("#invite-link")
        alice.click("#open-table")
        wait_ready(alice)
        assert "Waiting for players" in alice.inner_text("#turn-banner")
        bob.goto(invite)  # the invitation link claims the next free human seat
        wait_ready(bob)
        assert bob.inner_text("#seat-badge") == "you are seat 2"
        assert token_of(bob, table_id) and token_of(bob, table_id) != token_of(alice, table_id)
        assert "invite=" not in bob.url, "the invitation is spent: the address bar shows the table only"
        alice.wait_for_selector("#hand button[data-action]:not([disabled])")
        bob.wait_for_selector("#hand button[data-action]:not([disabled])")

        hands = {"alice": hand_of(alice), "bob": hand_of(bob)}
        assert any(c.startswith("TOY") for c in hands["alice"]), "seed 1 deals Alice a toy: it is laid face down"
        assert hands["alice"] and hands["bob"] and not set(hands["alice"]) & set(hands["bob"])
        server_hands = [state_of(srv.url, table_id, token_of(p, table_id))["view"]["hand"] for p in (alice, bob)]
        assert [sorted(h) for h in server_hands] == [sorted(hands["alice"]), sorted(hands["bob"])]

        def nothing_of(other: str, who: str, page: Page) -> None:
            secret = set(hands[other])
            assert not secret & dom_cards(page), f"{who}'s page shows a card of {other}'s hand"
            text = seen[who].text()
            leaked = [card for card in secret if mentions(text, card)]
            assert not leaked, f"{who} was sent {other}'s cards {leaked}"
            body = page.inner_text("body")
            assert not [card for card in secret if mentions(body, card)]

        nothing_of("bob", "alice", alice)
        nothing_of("alice", "bob", bob)
        assert seen["bob"].responses and seen["bob"].messages, "both HTTP answers and socket messages were checked"

        # Alice picks first: Bob learns that she has chosen, never what.
        pick = next((c for c in hands["alice"] if c.startswith("TOY")), hands["alice"][0])
        ply = page_ply(bob)
        alice.click(f'#hand button[data-action="play {pick}"]')
        alice.wait_for_selector('#who-chose li[data-seat="0"][data-chosen="true"]')
        wait_past(bob, ply)
        bob.wait_for_selector('#who-chose li[data-seat="0"][data-chosen="true"]')
        assert "has chosen" in bob.inner_text('#who-chose li[data-seat="0"]')
        assert "You picked" in alice.inner_text("#your-move")
        nothing_of("alice", "bob", bob)
        assert not [m for m in seen["bob"].messages if m.get("view", {}).get("my_choice")]

        # Bob picks: both picks are revealed to both (a toy only as "a toy, face down"), nothing else.
        bob_pick = next((c for c in hands["bob"] if not c.startswith("TOY")), hands["bob"][0])
        bob.click(f'#hand button[data-action="play {bob_pick}"]')
        for p in (alice, bob):
            p.wait_for_selector("#last-reveal")
        state = settle(srv.url, table_id, alice, bob)
        for card, owner, other in ((pick, "alice", "bob"), (bob_pick, "bob", "alice")):
            if card.startswith("TOY"):  # face down: its owner alone knows which toy it is
                assert not mentions(seen[other].text(), card), f"{other} was told {owner}'s face-down toy"
                assert card not in dom_cards(alice if other == "alice" else bob)
            else:
                named = CARDS[card].shown_name  # the log names a card as it is printed, never by its id
                assert named in alice.inner_text("#last-reveal") and named in bob.inner_text("#last-reveal")
        revealed = {pick, bob_pick}
        rest = {"alice": set(hands["alice"]) - revealed, "bob": set(hands["bob"]) - revealed}
        # The hands were passed in the direction the card shows now (a Reality Gyro may have flipped it):
        # clockwise Alice's rest goes to Bob, counter-clockwise Bob's rest to Alice. (TIIT CLO UHL may
        # have added a card to each hand, so "contains".)
        if state["view"]["direction"] == "CW":
            assert rest["alice"] <= set(hand_of(bob))
        else:
            assert rest["bob"] <= set(hand_of(alice))
        for who in ("alice", "bob"):
            errors = [m for m in seen[who].messages if m.get("type") == "error"]
            assert not errors, errors
    finally:
        for context in contexts:
            context.close()
