"""Screenshots of the browser client for the docs: the lobby and each table page, laptop and phone size.

    .venv/bin/python docs/images/make_screenshots.py            # writes docs/images/*.png
    .venv/bin/python docs/images/make_screenshots.py --out /tmp/shots

Starts `holotable serve` on a free loopback port with a throwaway SQLite database, sets up tables with
fixed seeds through the HTTP API (playing a few moves so the boards are not empty), and photographs them
with the system Chromium (/usr/bin/chromium) through Playwright. Nothing is fetched from the network.
"""

from __future__ import annotations

import argparse
import importlib
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from shooting import pages_by_size, remember_seats

SIZES = {"laptop": {"width": 1280, "height": 920}, "phone": {"width": 390, "height": 844}}
HERE = Path(__file__).resolve().parent
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Api:
    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with NO_PROXY.open(request, timeout=30) as response:
            return json.loads(response.read() or b"null")

    def create(self, game: str, seats: list[dict[str, str]], seed: int, **params: Any) -> tuple[str, str]:
        made = self.call("POST", "/api/tables", {"game": game, "players": len(seats), "seats": seats,
                                                  "params": params, "seed": seed})
        return made["table_id"], made["you"]["token"]

    def state(self, table: str, token: str) -> dict[str, Any]:
        result: dict[str, Any] = self.call("GET", f"/api/tables/{table}/state", token=token)
        return result

    def play(self, table: str, token: str, moves: int, choose: Any = None) -> dict[str, Any]:
        """Make `moves` moves for the seat (waiting for the bots in between); `choose` picks from the legal texts."""
        state = self.state(table, token)
        made = 0
        deadline = time.monotonic() + 60
        while made < moves and state["outcome"] is None and time.monotonic() < deadline:
            legal = [m["text"] for m in state["legal"]]
            if not legal:
                time.sleep(0.05)
                state = self.state(table, token)
                continue
            action = choose(legal, state) if choose else legal[0]
            try:
                state = self.call("POST", f"/api/tables/{table}/actions", {"action": action}, token)
            except urllib.error.HTTPError as refused:  # a bot moved first and the move is no longer ours
                if refused.code not in (403, 409, 422):
                    raise
                state = self.state(table, token)
                continue
            made += 1
        time.sleep(0.3)  # let the bots answer the last move
        return self.state(table, token)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (workdir / "serve.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "holotable", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--database", f"sqlite:///{workdir / 'shots.sqlite'}"], stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            NO_PROXY.open(base + "/api/games", timeout=1).read()
            return proc, base
        except OSError:  # not listening yet (URLError, a refused connection or a timeout)
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"holotable serve did not start; see {workdir / 'serve.log'}")


def cb_choice(legal: list[str], state: dict[str, Any]) -> str:
    return "draw 4" if "draw 4" in legal else legal[0]


def set_up_tables(api: Api) -> dict[str, tuple[str, str]]:
    """Tables in an interesting moment, by screenshot name: (table id, seat token)."""
    bot = {"kind": "bot", "level": "normal"}
    tables: dict[str, tuple[str, str]] = {}
    cb = api.create("captain-black", [{"kind": "human"}, bot, bot, bot], seed=7)
    state = api.play(*cb, moves=4, choose=cb_choice)
    while state["view"]["round"] < 2 and state["outcome"] is None:  # into round 2: the awards are shown
        state = api.play(*cb, moves=1, choose=cb_choice)
    api.play(*cb, moves=1, choose=cb_choice)
    tables["captain-black"] = cb
    bhb = api.create("buccaneers", [{"kind": "human"}, bot, bot, bot], seed=11)
    api.play(*bhb, moves=3)
    tables["buccaneers"] = bhb
    done = api.create("buccaneers", [{"kind": "human"}, bot, bot], seed=5)
    api.play(*done, moves=500)  # to the end: scoring steps A-H and the final result
    tables["buccaneers-result"] = done
    made = api.call("POST", "/api/tutorials/captain-black", {})  # a guided first game, one step in
    tutorial = made["table_id"], made["you"]["token"]
    api.play(*tutorial, moves=1, choose=lambda legal, state: "draw 2")
    tables["tutorial"] = tutorial
    return tables


#: The games whose pages are photographed by their own module here (shots_<game>.py, shoot_<game>(base, out)).
GAME_SHOTS = ("council", "kyrum", "space_pirates")


def shoot_games(base: str, out: Path) -> list[Path]:
    sys.path.insert(0, str(HERE))
    written: list[Path] = []
    for name in GAME_SHOTS:
        module = importlib.import_module(f"shots_{name}")
        written += getattr(module, f"shoot_{name}")(base, out)
    return written


def shoot(base: str, tables: dict[str, tuple[str, str]], out: Path) -> list[Path]:
    written: list[Path] = []
    for size, page in pages_by_size(SIZES):
        remember_seats(page, base, tables.values())
        page.reload()  # the lobby lists the tables knowing this browser's seats
        page.wait_for_selector(".table-item")
        page.wait_for_timeout(300)
        written.append(out / f"lobby-{size}.png")
        page.screenshot(path=str(written[-1]))
        for name, (table, _) in tables.items():
            page.goto(f"{base}/t/{table}")
            page.wait_for_selector("#turn-banner:not(:empty)")
            page.wait_for_timeout(600)
            page.evaluate("document.activeElement && document.activeElement.blur()")
            if name == "buccaneers-result":
                page.locator("#scoring").scroll_into_view_if_needed()
            written.append(out / f"{name}-{size}.png")
            page.screenshot(path=str(written[-1]))
        # The finished Buccaneers game replayed in round 2, as its first seat saw it.
        page.goto(f"{base}/t/{tables['buccaneers-result'][0]}?replay=12")
        page.wait_for_selector("#replay-bar:not([hidden])")
        page.wait_for_timeout(600)
        written.append(out / f"replay-{size}.png")
        page.screenshot(path=str(written[-1]))
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the PNG files (default: docs/images)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="holotable-shots-") as tmp:
        proc, base = start_server(Path(tmp))
        try:
            files = shoot(base, set_up_tables(Api(base)), args.out)
            files += shoot_games(base, args.out)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    for path in files:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
