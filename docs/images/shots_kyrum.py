"""Screenshots of the Kyrum campaign pages: a game mid-way (booklet page open) and the campaign page.

``shoot_kyrum(base_url, out_dir)`` needs a running ``holotable serve``; it creates a campaign through the
HTTP API, plays a few moves of game 1 (first legal non-conceding move each time) until a script is being
read, and saves laptop (1280x800) and phone (390x844) PNGs of the table and of the campaign page, and of
another campaign's first game at its end (notoriety, link back to the campaign).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

SEED = 43  # game 1 reaches a script page within a few moves
SHORT_SEED = 193  # game 1 ends after 7 moves: the end-of-game screen
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _play_until_reading(http: httpx.Client, table_id: str, token: str, limit: int = 40,
                        to_the_end: bool = False) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(limit):
        state: dict[str, Any] = http.get(f"/api/tables/{table_id}/state", headers=headers).json()
        decision = state["view"]["decision"] or {}
        if state["status"] == "finished" or (decision.get("kind") == "choice" and not to_the_end):
            return
        texts = [entry["text"] for entry in state["legal"]]
        choice = next((t for t in texts if t != "concede"), texts[0])
        http.post(f"/api/tables/{table_id}/actions", json={"action": choice, "ply": state["ply"]},
                  headers=headers).raise_for_status()


def shoot_kyrum(base_url: str, out_dir: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=base_url, timeout=20) as http:
        made = http.post("/api/campaigns", json={"name": "Jaakub's voyage", "seed": SEED, "partner": True}).json()
        cid, token = made["campaign_id"], made["token"]
        game = http.post(f"/api/campaigns/{cid}/games", headers={"Authorization": f"Bearer {token}"}).json()
        _play_until_reading(http, game["table_id"], game["token"])
        short = http.post("/api/campaigns", json={"name": "A short trip", "seed": SHORT_SEED}).json()
        ended = http.post(f"/api/campaigns/{short['campaign_id']}/games",
                          headers={"Authorization": f"Bearer {short['token']}"}).json()
        _play_until_reading(http, ended["table_id"], ended["token"], to_the_end=True)
    saved: list[Path] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            for size_name, size in SIZES.items():
                context = browser.new_context(viewport=size)  # type: ignore[arg-type]
                page = context.new_page()
                page.goto(f"{base_url}/campaigns/{cid}#token={token}")
                page.wait_for_selector("#scoreboard")
                page.goto(f"{base_url}{game['url']}")
                page.wait_for_selector(".ky-slots .ky-planet")
                path = out_dir / f"kyrum-{size_name}.png"
                page.screenshot(path=str(path), full_page=size_name == "laptop")
                saved.append(path)
                page.goto(f"{base_url}/campaigns/{cid}")
                page.wait_for_selector("#scoreboard")
                path = out_dir / f"kyrum-campaign-{size_name}.png"
                page.screenshot(path=str(path))
                saved.append(path)
                page.goto(f"{base_url}/campaigns/{short['campaign_id']}#token={short['token']}")
                page.wait_for_selector("#scoreboard")
                page.goto(f"{base_url}{ended['url']}")
                page.wait_for_selector(".ky-result")
                path = out_dir / f"kyrum-result-{size_name}.png"
                page.screenshot(path=str(path))
                saved.append(path)
                context.close()
        finally:
            browser.close()
    return saved
