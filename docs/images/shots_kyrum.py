"""Screenshots of the Kyrum campaign pages: a game mid-way (booklet page open) and the campaign page.

``shoot_kyrum(base_url, out_dir)`` needs a running ``holotable serve``; it creates a campaign through the
HTTP API, plays a few moves of game 1 (first legal non-conceding move each time) until a script is being
read, and saves laptop (1280x800) and phone (390x844) PNGs of the table, of a planet's card opened from it,
of the campaign page, and of another campaign's first game at its end (notoriety, link back to the campaign).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from shooting import pages_by_size, play_seat

SEED = 43  # game 1 reaches a script page within a few moves
SHORT_SEED = 193  # game 1 ends after 7 moves: the end-of-game screen


def _first_not_conceding(texts: list[str]) -> str:
    return next((t for t in texts if t != "concede"), texts[0])


def _reading(state: dict[str, Any]) -> bool:
    return bool(state["view"]["decision"]) and state["view"]["decision"].get("kind") == "choice"


def shoot_kyrum(base_url: str, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=base_url, timeout=20) as http:
        made = http.post("/api/campaigns", json={"name": "Jaakub's voyage", "seed": SEED, "partner": True}).json()
        cid, token = made["campaign_id"], made["token"]
        game = http.post(f"/api/campaigns/{cid}/games", headers={"Authorization": f"Bearer {token}"}).json()
        play_seat(http, game["table_id"], game["token"], _first_not_conceding, _reading)
        short = http.post("/api/campaigns", json={"name": "A short trip", "seed": SHORT_SEED}).json()
        ended = http.post(f"/api/campaigns/{short['campaign_id']}/games",
                          headers={"Authorization": f"Bearer {short['token']}"}).json()
        play_seat(http, ended["table_id"], ended["token"], _first_not_conceding)
    saved: list[Path] = []
    for size_name, page in pages_by_size():
        page.goto(f"{base_url}/campaigns/{cid}#token={token}")
        page.wait_for_selector("#scoreboard")
        page.goto(f"{base_url}{game['url']}")
        page.wait_for_selector(".ky-slots .ky-planet")
        path = out_dir / f"kyrum-{size_name}.png"
        page.screenshot(path=str(path), full_page=size_name == "laptop")
        saved.append(path)
        page.click(".ky-slots button.ky-card-open")  # a planet's card: arrows, danger, double, description
        page.wait_for_selector("#ky-card-dialog[open]")
        path = out_dir / f"kyrum-card-{size_name}.png"
        page.screenshot(path=str(path))
        saved.append(path)
        page.keyboard.press("Escape")
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
        page.screenshot(path=str(path), full_page=size_name == "laptop")  # the end-of-game page is below
        saved.append(path)
    return saved
