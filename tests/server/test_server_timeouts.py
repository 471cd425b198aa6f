"""A request's headers and body must arrive in time (a slow-loris defence, holotable.server.timeouts): a
client that stops halfway gets 408 and loses the connection, an ordinary or merely unhurried one does not.

The socket tests run a real uvicorn (in a thread, on a loopback port) with 0.3 s limits, so they wait
that long for real; the middleware's own tests move an injected clock by hand."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel
from starlette.types import Message
from typer.testing import CliRunner
from websockets.sync.client import connect as connect_websocket

from holotable.cli import app as cli_app
from holotable.server import create_app
from holotable.server.clocks import ManualClock
from holotable.server.quotas import Quotas
from holotable.server.timeouts import (
    BODY_TOO_SLOW,
    HEADERS_TOO_SLOW,
    BodyTimeout,
    HttpToolsHeaderTimeout,
    header_timeout_protocol,
)

LIMIT = 0.3  # seconds, for both the headers and the body
TABLE = {"game": "captain-black", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture(scope="module", params=["httptools", "h11"])
def port(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[int]:
    """A real uvicorn serving holotable with 0.3 s header and body limits, on each of uvicorn's HTTP
    implementations (httptools is what `holotable serve` runs); its loopback port."""
    database = tmp_path_factory.mktemp("timeouts") / "tables.sqlite3"
    quotas = Quotas(header_timeout=LIMIT, body_timeout=LIMIT)
    app = create_app(f"sqlite:///{database}", clock=ManualClock(), tick=0, quotas=quotas)
    app.state.store.create_schema()
    protocol = header_timeout_protocol(quotas.header_timeout, request.param)
    config = uvicorn.Config(app, http=protocol, log_level="warning", timeout_keep_alive=5)
    server = uvicorn.Server(config)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, name="uvicorn-timeouts",
                              daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 15
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()
        assert not thread.is_alive(), "uvicorn did not stop"


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=3)
    return sock


def read_to_close(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a socket timeout fails the test)."""
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data


def test_headers_that_stop_halfway_get_a_408_and_the_connection_closes(port: int) -> None:
    with connect(port) as sock:
        sent = time.monotonic()
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: loc")
        answer = read_to_close(sock)
        waited = time.monotonic() - sent
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), answer
    assert b"connection: close" in head.lower() and body.decode() == HEADERS_TOO_SLOW
    assert LIMIT * 0.8 <= waited < LIMIT + 2


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(port: int) -> None:
    with connect(port) as sock:
        sent = time.monotonic()
        assert read_to_close(sock) == b""
        assert time.monotonic() - sent < LIMIT + 2


def test_ordinary_and_unhurried_requests_still_go_through(port: int) -> None:
    with connect(port) as sock:  # the head in three pieces, complete well inside the limit
        for piece in (b"GET /api/tables HT", b"TP/1.1\r\nHost: localhost\r\n", b"Connection: close\r\n\r\n"):
            sock.sendall(piece)
            time.sleep(LIMIT / 3)
        answer = read_to_close(sock)
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and answer.endswith(b"[]"), answer

    client = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
    try:
        client.request("GET", "/api/tables")
        first = client.getresponse()
        assert first.status == 200 and json.loads(first.read()) == []
        kept = client.sock
        time.sleep(LIMIT + 0.2)  # idle between requests: that is the keep-alive timeout's (5 s), not this one
        client.request("POST", "/api/tables", body=json.dumps(TABLE), headers={"Content-Type": "application/json"})
        second = client.getresponse()
        assert second.status == 201, second.read()
        second.read()
        assert client.sock is kept  # the same connection
    finally:
        client.close()


def test_a_websocket_outlives_the_header_limit(port: int) -> None:
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
    try:
        client.request("POST", "/api/tables", body=json.dumps(TABLE), headers={"Content-Type": "application/json"})
        table_id = json.loads(client.getresponse().read())["table_id"]
    finally:
        client.close()
    with connect_websocket(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", open_timeout=3, proxy=None) as ws:
        assert json.loads(ws.recv(timeout=3))["type"] == "state"
        time.sleep(LIMIT + 0.2)
        ws.send(json.dumps({"type": "shout"}))
        assert json.loads(ws.recv(timeout=3))["status"] == 422  # still open: an unknown type is answered


def test_a_body_that_stops_halfway_gets_a_408(port: int) -> None:
    with connect(port) as sock:
        sent = time.monotonic()
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n" + b'{"game": "')
        answer = read_to_close(sock)
        waited = time.monotonic() - sent
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), answer
    assert b"connection: close" in head.lower() and body.decode() == BODY_TOO_SLOW
    assert LIMIT * 0.8 <= waited < LIMIT + 2

    with connect(port) as sock:  # a body in two pieces inside the limit is read whole
        payload = json.dumps(TABLE).encode()
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(payload) + payload[:10])
        time.sleep(LIMIT / 3)
        sock.sendall(payload[10:])
        answer = read_to_close(sock)
    assert answer.startswith(b"HTTP/1.1 201 Created\r\n"), answer


# --- the body middleware with a hand-moved clock ------------------------------------------------------------


class Item(BaseModel):
    name: str


def small_app(seconds: float, clock: ManualClock | None = None) -> FastAPI:
    app = FastAPI()

    @app.post("/items")
    async def add(item: Item) -> dict[str, str]:
        return {"name": item.name}

    app.add_middleware(BodyTimeout, seconds=seconds, clock=clock.now if clock else None)
    return app


def call(app: Any, chunks: list[bytes], clock: ManualClock | None = None, step: float = 0.0,
         scope_type: str = "http") -> tuple[list[dict[str, Any]], int]:
    """Run one request through ``app``: the body in ``chunks`` (the clock moves ``step`` after each);
    what it sent and how many times it asked for more."""
    sent: list[dict[str, Any]] = []
    asked = 0

    async def receive() -> dict[str, Any]:
        nonlocal asked
        asked += 1
        if asked <= len(chunks):
            if clock is not None:
                clock.advance(step)
            return {"type": "http.request", "body": chunks[asked - 1], "more_body": asked < len(chunks)}
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(dict(message))

    scope = {"type": scope_type, "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/items", "raw_path": b"/items", "root_path": "", "query_string": b"",
             "headers": [(b"content-type", b"application/json")], "client": ("127.0.0.1", 5000),
             "server": ("127.0.0.1", 8000)}
    asyncio.run(app(scope, receive, send))
    return sent, asked


def test_a_body_trickling_past_the_limit_is_a_408_and_the_app_reads_no_more() -> None:
    clock = ManualClock()
    chunks = [b'{"name":', b' "a', b'bc"}']
    sent, asked = call(small_app(30, clock), chunks, clock, step=20)  # the third piece would come at 40 s
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]  # the app's 400 dropped
    assert sent[0]["status"] == 408 and (b"connection", b"close") in sent[0]["headers"]
    assert sent[1]["body"].decode() == BODY_TOO_SLOW
    assert asked == 2  # the third piece was never asked for

    sent, _ = call(small_app(30, clock), chunks, clock, step=9)  # all in by 27 s: fine
    assert sent[0]["status"] == 200 and json.loads(sent[1]["body"]) == {"name": "abc"}


def test_a_receive_that_never_returns_times_out_on_the_event_loop() -> None:
    async def run() -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []

        async def never() -> dict[str, Any]:  # headers only: the body never comes
            await asyncio.Event().wait()
            raise AssertionError("unreachable")

        async def send(message: Message) -> None:
            sent.append(dict(message))

        async def reads_on(scope: Any, receive: Any, send: Any) -> None:
            assert await receive() == {"type": "http.disconnect"}
            assert await receive() == {"type": "http.disconnect"}  # and stays so

        await asyncio.wait_for(BodyTimeout(reads_on, seconds=0.05)({"type": "http"}, never, send), 5)
        return sent

    sent = asyncio.run(run())
    assert sent[0]["status"] == 408 and sent[1]["body"].decode() == BODY_TOO_SLOW


def test_after_the_body_and_for_websockets_receive_is_the_servers_own() -> None:
    clock = ManualClock()
    late: list[dict[str, Any]] = []

    async def listens_after(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["more_body"] is False
        clock.advance(3600)  # long after the limit, waiting to hear of a disconnect (a stream's response)
        late.append(await receive())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent, _ = call(BodyTimeout(listens_after, seconds=1, clock=clock.now), [b"{}"], clock)
    assert late == [{"type": "http.disconnect"}] and sent[0]["status"] == 200

    seen: list[Any] = []

    async def websocket(scope: Any, receive: Any, send: Any) -> None:
        seen.append(receive)

    async def own_receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def no_send(message: Message) -> None:
        raise AssertionError(message)

    asyncio.run(BodyTimeout(websocket, seconds=1, clock=clock.now)({"type": "websocket"}, own_receive, no_send))
    assert seen == [own_receive]


# --- holotable serve ----------------------------------------------------------------------------------------


def test_serve_has_the_options_and_hands_them_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(cli_app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "--header-timeout" in shown.output and "--body-timeout" in shown.output

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(app=app, **options))
    result = runner.invoke(cli_app, ["serve", "--database", f"sqlite:///{tmp_path / 'db.sqlite3'}",
                                     "--header-timeout", "2.5", "--body-timeout", "4"])
    assert result.exit_code == 0, result.output
    protocol = ran["http"]
    assert issubclass(protocol, HttpToolsHeaderTimeout) and protocol.header_timeout == 2.5
    assert ran["app"].state.manager.quotas.body_timeout == 4
    timeouts = [m for m in ran["app"].user_middleware if m.cls is BodyTimeout]
    assert len(timeouts) == 1 and timeouts[0].kwargs == {"seconds": 4}

    # (a database of its own: the first app, never stopped here, still holds its file)
    result = runner.invoke(cli_app, ["serve", "--database", f"sqlite:///{tmp_path / 'other.sqlite3'}"])
    assert result.exit_code == 0, result.output
    assert ran["http"].header_timeout == 10 and ran["app"].state.manager.quotas.body_timeout == 30
