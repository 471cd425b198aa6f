"""Helpers for the browser tests: create tables through the lobby, read what a page was sent.

The fixtures `page`, `browser` and `live_server` come from tests/conftest.py (system Chromium, a real
`holotable serve` on a free loopback port with its own SQLite database).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Response, WebSocket


@dataclass
class Frames:
    """Everything a page was sent about its tables: every WebSocket message, parsed, and (in `raw`
    only) the bodies of its /api/tables responses."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    responses: int = 0

    def attach(self, page: Page) -> Frames:
        def on_socket(ws: WebSocket) -> None:
            ws.on("framereceived", self._add)

        def on_response(response: Response) -> None:
            # The catalog lists every card in the box (public component data), so it is left out.
            if "/api/tables" in response.url and not response.url.endswith("/catalog"):
                self.raw.append(response.text())
                self.responses += 1

        page.on("websocket", on_socket)
        page.on("response", on_response)
        return self

    def _add(self, payload: str | bytes) -> None:
        text = payload.decode() if isinstance(payload, bytes) else payload
        self.raw.append(text)
        self.messages.append(json.loads(text))

    def text(self) -> str:
        return "\n".join(self.raw)


def create_in_lobby(page: Page, base: str, game: str, seats: Sequence[str], seed: int | None = None,
                    public: bool = False, **params: str) -> str:
    """Fill the lobby form (seats like "human", "bot:easy"; options by name) and create; returns the table id.

    The page stays on the lobby, showing the invitation panel.
    """
    page.goto(f"{base}/")
    page.select_option("#game", game)
    if page.is_enabled("#players"):
        page.select_option("#players", str(len(seats)))
    for seat, spec in enumerate(seats):
        row = page.locator(f'.seat-row[data-seat="{seat}"]')
        kind, _, level = spec.partition(":")
        row.locator(".seat-kind").select_option(kind)
        if kind == "bot":
            row.locator(".seat-level").select_option(level or "easy")
    if public:
        page.check("#public")
    if params or seed is not None:
        page.click("#options-box summary")
    if seed is not None:
        page.fill("#seed", str(seed))
    if params:
        for name, value in params.items():
            field_ = page.locator(f"#param-{name}")
            if field_.evaluate("el => el.tagName") == "SELECT":
                field_.select_option(value)
            elif field_.get_attribute("type") == "checkbox":
                field_.set_checked(value == "true")
            else:
                field_.fill(value)
    page.click("#create")
    page.wait_for_selector("#open-table")
    href = page.get_attribute("#open-table", "href") or ""
    match = re.fullmatch(r"/t/([^/?#]+)", href)
    assert match, f"unexpected table link {href!r}"
    return match.group(1)


def open_pair(browser: Browser, base: str, game: str, viewport: dict[str, int], *, touch: bool, seed: int,
              **lobby: Any) -> tuple[list[BrowserContext], list[Page], str, list[str | None]]:
    """Two people at a new two-seat table of ``game``: the host creates it in the lobby (``lobby``: its
    options), the guest follows the invite. The contexts (to close), pages, table id and seat tokens."""
    contexts = [browser.new_context(viewport=viewport, has_touch=touch) for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    for p in (alice, bob):
        p.set_default_timeout(20_000)
    table_id = create_in_lobby(alice, base, game, ["human", "human"], seed=seed, **lobby)
    invite = alice.input_value("#invite-link")
    alice.click("#open-table")
    wait_ready(alice)
    bob.goto(invite)
    wait_ready(bob)
    pages = [alice, bob]
    return contexts, pages, table_id, [token_of(p, table_id) for p in pages]


def open_table(page: Page) -> None:
    """From the lobby's invitation panel to the table page, waiting for its first picture."""
    page.click("#open-table")
    wait_ready(page)


def wait_ready(page: Page) -> None:
    page.wait_for_selector("#turn-banner:not(:empty)")


def token_of(page: Page, table_id: str) -> str | None:
    value = page.evaluate("(id) => localStorage.getItem('holotable:seat:' + id)", table_id)
    return value if isinstance(value, str) else None


def state_of(base: str, table_id: str, token: str | None) -> dict[str, Any]:
    """The server's own answer (GET state), to compare the page against."""
    import httpx

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.get(f"{base}/api/tables/{table_id}/state", headers=headers, timeout=10)
    response.raise_for_status()
    payload: dict[str, Any] = response.json()
    return payload


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def page_ply(page: Page) -> int:
    return int(page.inner_text("#ply").split()[-1])


PLY_AT_LEAST = "(n) => Number(document.querySelector('#ply').textContent.split(' ').pop()) >= n"


def wait_past(page: Page, ply: int) -> None:
    """Until the page shows a ply after `ply` (the server has answered a move)."""
    page.wait_for_function(PLY_AT_LEAST, arg=ply + 1)


def synced_state(page: Page, base: str, table_id: str, token: str | None) -> dict[str, Any]:
    """The server's state at the very ply the page shows (bots may move meanwhile: wait for a quiet moment)."""
    for _ in range(50):
        before = state_of(base, table_id, token)
        page.wait_for_function(PLY_AT_LEAST, arg=before["ply"])
        if page_ply(page) == before["ply"] and state_of(base, table_id, token)["ply"] == before["ply"]:
            return before
    raise AssertionError("the table never stood still")


# ------------------------------------------------------------------ probes shared by the art tests
#: Captain Black: the seat may grab now, or the game is over.
MY_TURN_OR_OVER = """() => {
  const go = document.querySelector('#draw-button');
  return (go && !go.disabled) || !document.querySelector('#result').hidden;
}"""

#: Whether every picture under ``sel`` has loaded (a decoded SVG has a natural width).
LOADED = """(sel) => { const all = [...document.querySelectorAll(sel)];
  return all.length > 0 && all.every(i => i.complete && i.naturalWidth > 0); }"""

#: The same, and every one of them decorative (``alt=""``: the words beside it carry the information).
LOADED_DECORATIVE = """(sel) => { const all = [...document.querySelectorAll(sel)];
  return all.length > 0 && all.every(i => i.complete && i.naturalWidth > 0 && i.getAttribute('alt') === ''); }"""

#: The longest computed animation and transition duration (seconds) of anything in the game area.
LONGEST_MOTION = """() => {
  const secs = (v) => Math.max(0, ...v.split(',')
    .map(s => s.trim().endsWith('ms') ? parseFloat(s) / 1000 : parseFloat(s) || 0));
  let most = 0;
  for (const el of document.querySelectorAll('#game-area, #game-area *')) {
    for (const pseudo of [null, '::before', '::after']) {
      const cs = getComputedStyle(el, pseudo);
      most = Math.max(most, secs(cs.animationDuration), secs(cs.transitionDuration));
    }
  }
  return most;
}"""

#: Mark ``sel`` with ``cls`` as a page marks what just moved, and read its animation, in one go (a redraw
#: for a new state may replace the element a moment later).
MARK_AND_READ_MOTION = """([sel, cls]) => {
  const el = document.querySelector(sel);
  el.classList.add(cls);
  return { name: getComputedStyle(el).animationName, duration: getComputedStyle(el).animationDuration };
}"""
