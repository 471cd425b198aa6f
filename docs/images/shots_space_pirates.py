"""Screenshots of the Space Pirates page: laying a ruler (the 90-degree fan), aiming a flick (the noise
cone), and a finished game.

``shoot_space_pirates(base_url, out_dir)`` needs a running ``holotable serve``. It creates, through the
HTTP API, a two-player table (you and a normal bot, no turn cap) and plays your seat with the
first sensible legal moves up to the first ruler of your first move, then on to your next flick, and a
second table to the end (the bot's victory); it saves laptop (1280x800) and phone (390x844) PNGs of those moments.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from shooting import pages_by_size, play_seat, remember_seats

SEED = 4


def _create(http: httpx.Client) -> tuple[str, str]:
    body = {"game": "space-pirates", "players": 2, "seed": SEED,
            "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "level": "normal"}],
            "params": {"first_seat": 0}}  # no turn cap, as at any table with people: played to a victory
    made = http.post("/api/tables", json=body)
    made.raise_for_status()
    data = made.json()
    return data["table_id"], data["you"]["token"]


def _choose(texts: list[str]) -> str:
    for prefix in ("depart", "card ", "adv FLICK", "look", "dock", "capture", "flick 45.0 0.15"):
        found = [t for t in texts if t.startswith(prefix)]
        if found:
            return found[0]
    return texts[len(texts) // 2]


def _asked(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda state: bool(state["view"]["decision"]) and state["view"]["decision"]["kind"] == kind


def shoot_space_pirates(base_url: str, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=base_url, timeout=20) as http:
        live = _create(http)
        play_seat(http, *live, _choose, _asked("ruler"))
        done = _create(http)
        play_seat(http, *done, _choose)
    saved: list[Path] = []
    for size_name, page in pages_by_size():
        remember_seats(page, base_url, (live, done))
        page.goto(f"{base_url}/t/{live[0]}")
        page.wait_for_selector("#sp-canvas")
        page.wait_for_function("document.querySelector('#sp-canvas').dataset.animating !== 'true'")
        canvas = page.locator("#sp-canvas")
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        if box is not None:  # point inside the fan: the ruler is previewed where it would lie
            page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.6)
        path = out_dir / f"space-pirates-{size_name}.png"
        page.screenshot(path=str(path), full_page=False)
        saved.append(path)
        page.goto(f"{base_url}/t/{done[0]}")
        page.wait_for_selector("#result:not([hidden]) #sp-result")
        page.locator("#result").scroll_into_view_if_needed()
        path = out_dir / f"space-pirates-result-{size_name}.png"
        page.screenshot(path=str(path), full_page=False)
        saved.append(path)
    return saved


if __name__ == "__main__":  # pragma: no cover - by hand: python docs/images/shots_space_pirates.py URL DIR
    import sys

    for shot in shoot_space_pirates(sys.argv[1], Path(sys.argv[2])):
        print(shot)
