"""What a player reads on every game's table page is plain language (issue 20): after some real play,
no rule ID, card, token, planet or black-hole id, code name or typed action shows in the page's
visible text (rule IDs belong in the folded details lines, which a closed ``<details>`` hides).

One table per game, a human against bots, played through the HTTP API with random legal moves, then
read at laptop and at phone size (the phone adds its action bar)."""

from __future__ import annotations

import random
import re
import time
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from support.services import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Everywhere: a rule ID, an ASCII arrow, a snake_case name.
ANYWHERE = r"\b(BHB|BHC|KYR|SP|CB)-[A-Z]+(-[A-Z]+)*-\d|\bAMB-\d|->|\b[a-z]+_[a-z_]+\b"
#: Per game: its component ids and code names.
IDS = {
    "buccaneers": r"\b(ART|REL|ROBOT|SHAPE|SHIP|TM|TOY)-[A-Z0-9]+(-[A-Za-z0-9]+)*\b|\bBH-[MRD]\d\b|\bTH-\d\b"
                  r"|\([a-d]\)",
    "council": r"\b(RED|BLUE|GREEN|YELLOW|BLACK|RAINBOW)-[A-Z]\b",
    "kyrum": r"\bENC-\d+\b|\b\d+/(white|black)\b|\bNP\b",
    "space-pirates": r"\bE\d-\d+\b|\bM\d\d\b|\b(FLICK|NEW_RIGHT|NEW_LEFT|STORM|WIND|SPICE|MEDS|RELICS|ORE|TECH)\b",
    "captain-black": r"\bP\d+-\d+\b",
}
TABLES = {  # game: (seats after the human, params, moves the human makes, preferred moves)
    "buccaneers": (2, {}, 14, ()),
    "council": (3, {"first_leader": 1}, 8, ("done",)),
    "kyrum": (0, {}, 14, ("explore", "read", "option", "roll")),
    "space-pirates": (1, {"first_seat": 0}, 14, ("depart", "card ", "adv ", "flick 40.0 0.2", "capture")),
    "captain-black": (2, {}, 8, ("draw 2",)),
}


def _play(http: httpx.Client, table_id: str, token: str, moves: int, prefer: tuple[str, ...], seed: int) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(seed)
    made, end = 0, time.monotonic() + 60
    while made < moves and time.monotonic() < end:
        state = http.get(f"/api/tables/{table_id}/state", headers=headers).json()
        if state["outcome"] is not None:
            return
        texts = [m["text"] for m in state["legal"] if m["text"] != "concede"]
        if not texts:
            time.sleep(0.05)  # the bots are thinking
            continue
        pick = next((t for p in prefer for t in texts if t.startswith(p)), None) or rng.choice(texts)
        answer = http.post(f"/api/tables/{table_id}/actions", json={"action": pick, "ply": state["ply"]},
                           headers=headers)
        made += answer.status_code == 200


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["laptop", "phone"])
def test_every_games_page_reads_in_plain_words(live_server: Any, page: Page, page_errors: list[str],
                                               viewport: dict[str, int]) -> None:
    srv: LiveServer = live_server()
    page.set_viewport_size(viewport)
    found: dict[str, list[str]] = {}
    with httpx.Client(base_url=srv.url, timeout=20) as http:
        for seed, (game, (bots, params, moves, prefer)) in enumerate(TABLES.items(), start=3):
            seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "easy"}] * bots
            made = http.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats,
                                                  "params": params, "seed": seed})
            assert made.status_code == 201, made.text
            table_id, token = made.json()["table_id"], made.json()["you"]["token"]
            _play(http, table_id, token, moves, prefer, seed)
            page.goto(f"{srv.url}/")
            page.evaluate("([t, k]) => localStorage.setItem('holotable:seat:' + t, k)", [table_id, token])
            page.goto(f"{srv.url}/t/{table_id}")
            wait_ready(page)
            page.wait_for_selector("#log li")
            text = page.inner_text("body")
            assert len(text) > 800, f"{game}: the page shows its game"
            jargon = re.compile(f"{ANYWHERE}|{IDS[game]}")
            found[game] = sorted({line.strip() for line in text.splitlines() if jargon.search(line)})
    assert not {g: lines for g, lines in found.items() if lines}, found
    assert not page_errors
