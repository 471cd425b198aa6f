"""Two people at one Space Pirates table, each in their own browser, playing with the mouse: neither page is
ever sent (nor shows) the other's energy cards, hold, market cards only the other has seen, or the face of a
token only the other knows."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import Frames, create_in_lobby, state_of, token_of, wait_ready
from test_browser_space_pirates_game import Driver

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def states_by_ply(frames: Frames) -> dict[int, dict[str, Any]]:
    return {m["ply"]: m for m in frames.messages if m.get("type") == "state"}


def quoted(text: str, word: str) -> bool:
    return re.search(rf'"{re.escape(word)}"', text) is not None


def secrets_of(other: dict[str, Any], mine: dict[str, Any], seat: int) -> dict[str, Any]:
    """What ``other`` (the other seat's state message) holds that ``mine`` (at the same ply) must not."""
    me = mine["view"]
    them = other["view"]
    other_seat = 1 - seat
    hand = them["players"][other_seat]["hand"] or []
    hold = them["players"][other_seat]["hold"] or []
    my_known = {t["tid"] for t in me["tokens"] if t["identity"] is not None}
    faces = {t["tid"]: t["identity"] for t in them["tokens"]
             if t["identity"] is not None and t["tid"] not in my_known}
    markets = {b["market"] for b, mine_b in zip(them["bases"], me["bases"], strict=True)
               if b["market"] and not mine_b["market"]}
    return {"hand": hand, "hold": hold, "faces": faces, "markets": markets}


def check_frame(mine: dict[str, Any], secret: dict[str, Any], seat: int) -> None:
    text = json.dumps(mine)
    view = mine["view"]
    other = view["players"][1 - seat]
    assert other["hand"] is None and other["hold"] is None
    for cid in secret["hand"]:
        assert not quoted(text, cid), f"seat {seat} was sent the other's card {cid}"
    for market in secret["markets"]:
        assert not quoted(text, market), f"seat {seat} was sent the unseen market card {market}"
    held = {item["tid"] for item in secret["hold"]}
    faces = set(secret["faces"])
    for t in view["tokens"] + view["transit"]:
        assert t["tid"] not in faces or t["identity"] is None
    for event in mine["log"]:
        if event["data"].get("tid") in held | faces:
            assert "identity" not in event["data"], event
    extra = json.dumps(mine.get("extra"))
    assert "identity" not in extra


#: A table whose eight turns hold captures (so their reveals can be checked page by page).
SEED = 7


def test_two_pirates_never_see_each_others_secrets(live_server, browser: Browser) -> None:
    srv: LiveServer = live_server()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(2)]
    try:
        alice, bob = (c.new_page() for c in contexts)
        for p in (alice, bob):
            p.set_default_timeout(20_000)
        seen = [Frames().attach(alice), Frames().attach(bob)]
        table_id = create_in_lobby(alice, srv.url, "space-pirates", ["human", "human"], seed=SEED,
                                   first_seat="0", turn_cap="8")
        invite = alice.input_value("#invite-link")
        alice.click("#open-table")
        wait_ready(alice)
        bob.goto(invite)
        wait_ready(bob)
        assert bob.inner_text("#seat-badge") == "you are seat 2"
        drivers = [Driver(alice, srv.url, table_id), Driver(bob, srv.url, table_id)]
        end = time.monotonic() + 150
        while True:
            public = state_of(srv.url, table_id, None)
            if public["status"] == "finished":
                break
            assert time.monotonic() < end, "the game did not end in time"
            seat = public["to_move"][0]
            drivers[seat].play_one(state_of(srv.url, table_id, drivers[seat].token))
        for page in (alice, bob):
            page.wait_for_selector("#result:not([hidden]) #sp-result")
        played = sum(sum(d.gestures.values()) for d in drivers)
        assert played >= 10
        # every state message each page was sent, against what the other page held at that ply
        frames = [states_by_ply(seen[0]), states_by_ply(seen[1])]
        compared = with_secrets = 0
        for seat in (0, 1):
            for ply, mine in frames[seat].items():
                other = frames[1 - seat].get(ply)
                if other is None:
                    continue
                secret = secrets_of(other, mine, seat)
                check_frame(mine, secret, seat)
                compared += 1
                with_secrets += bool(secret["hand"])
        assert compared >= 10 and with_secrets >= 10
        # captures are revealed to the capturing page only, one after the other, in route order
        captures = [sorted({(e["ply"], e["data"]["tid"], e["data"]["identity"]) for m in f.messages
                            if m.get("type") == "state" for e in m["log"] if e["kind"] == "captured_private"})
                    for f in seen]
        assert len(captures[0]) + len(captures[1]) >= 1, f"seed {SEED}: somebody captures a transport"
        for seat, page in enumerate((alice, bob)):
            assert drivers[seat].gestures.get("capture", 0) == len(captures[seat])
            page.wait_for_function("(n) => Number(document.querySelector('#sp-reveal').dataset.count) === n",
                                   arg=len(captures[seat]))
        # and the pages themselves: the other's hand and hold never shown
        final = [state_of(srv.url, table_id, token_of(p, table_id)) for p in (alice, bob)]
        for seat, page in enumerate((alice, bob)):
            text = page.inner_text("body")
            other = final[1 - seat]["view"]["players"][1 - seat]
            hand = other["hand"] or []
            for cid in hand:
                assert page.locator(f'[data-card="{cid}"]').count() == 0
            for item in other["hold"] or []:
                assert f"(token {item['tid']})" not in text
    finally:
        for c in contexts:
            c.close()
