"""Screenshots of the Black Hole Council page: a negotiation with you as the Leader, and a finished game.

``shoot_council(base_url, out_dir)`` needs a running ``holotable serve``. It creates, through the HTTP
API, a table of one person and four bots where you lead the first Proposal (the sand timer running, a
line of chat sent from the page, one swap made), and a second table played to the end (your moves are the
first sensible legal ones), and saves laptop (1280x800) and phone (390x844) PNGs of both.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

SEED = 12
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
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


def _play_to_the_end(http: httpx.Client, table_id: str, token: str, limit: float = 120.0) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    end = time.monotonic() + limit
    while time.monotonic() < end:
        state: dict[str, Any] = http.get(f"/api/tables/{table_id}/state", headers=headers).json()
        if state["status"] == "finished":
            return
        texts = [entry["text"] for entry in state["legal"]]
        if not texts:
            time.sleep(0.05)  # the bots are thinking
            continue
        http.post(f"/api/tables/{table_id}/actions", json={"action": _choose(texts), "ply": state["ply"]},
                  headers=headers)  # a 409 (a bot was quicker) is simply retried
    raise RuntimeError(f"the Council table {table_id} did not finish in time")


def shoot_council(base_url: str, out_dir: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=base_url, timeout=20) as http:
        live = _create(http, negotiation_seconds=120)
        done = _create(http, negotiation_seconds=0)
        _play_to_the_end(http, *done)
    saved: list[Path] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            for size_name, size in SIZES.items():
                context = browser.new_context(viewport=size)  # type: ignore[arg-type]
                page = context.new_page()
                page.goto(f"{base_url}/")
                for table_id, token in (live, done):
                    page.evaluate("([t, k]) => localStorage.setItem('holotable:seat:' + t, k)", [table_id, token])
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
                context.close()
        finally:
            browser.close()
    return saved
