"""Screenshots of the Black Hole Council page: a negotiation with you as the Leader, and a finished game.

``shoot_council(base_url, out_dir)`` needs a running ``holotable serve``. It creates, through the HTTP
API, a table of one person and four bots where you lead the first Proposal (the sand timer running, a
line of chat sent from the page, one swap made), and a second table played to the end (your moves are the
first sensible legal ones), and saves laptop (1280x800) and phone (390x844) PNGs of both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from shooting import pages_by_size, play_seat, remember_seats

SEED = 12
BOT = {"kind": "bot", "level": "normal"}


def _create(http: httpx.Client, **params: Any) -> tuple[str, str]:
    body = {"game": "council", "players": 5, "seats": [{"kind": "human", "name": "You"}, BOT, BOT, BOT, BOT],
            "seed": SEED, "params": {"first_leader": 0, **params}}
    made = http.post("/api/tables", json=body)
    made.raise_for_status()
    data = made.json()
    return data["table_id"], data["you"]["token"]


def _choose(texts: list[str]) -> str:
    for wanted in ("call vote", "vote pass", "natural"):
        if wanted in texts:
            return wanted
    pays = [t for t in texts if t.startswith("pay ") and not t.endswith("+intrigue")]
    return pays[0] if pays else texts[0]


def shoot_council(base_url: str, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=base_url, timeout=20) as http:
        live = _create(http, negotiation_seconds=120)
        done = _create(http, negotiation_seconds=0)
        play_seat(http, *done, _choose)
    saved: list[Path] = []
    for size_name, page in pages_by_size():
        remember_seats(page, base_url, (live, done))
        page.goto(f"{base_url}/t/{live[0]}")
        page.wait_for_selector("#council-planets")
        if size_name == "laptop":  # once: a line of chat and a swap, seen by both pictures
            page.fill("#chat-input", "Mine and Conquer swapped: who passes?")
            page.click("#chat-send")
            page.wait_for_selector("#chat-log li[data-seat='0']")
            page.click('[data-slot="mine"] button.planet')
            page.click('[data-slot="conquer"] button.planet')
            page.wait_for_timeout(500)
        page.wait_for_timeout(800)
        page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        path = out_dir / f"council-{size_name}.png"
        page.screenshot(path=str(path))
        saved.append(path)
        page.goto(f"{base_url}/t/{done[0]}")
        page.wait_for_selector("#result:not([hidden]) #council-payout")
        page.locator("#result").scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        path = out_dir / f"council-result-{size_name}.png"
        page.screenshot(path=str(path))
        saved.append(path)
    return saved
