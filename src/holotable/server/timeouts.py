"""How long a client may take to send a request: its headers, then its body (a slow-loris defence).

Without these a client that sends its request a byte at a time, or stops halfway and never finishes,
holds a connection (and, for a body, a running request) for as long as it likes; a few hundred such
clients use up the server. Uvicorn closes a keep-alive connection that stays idle between requests
(``timeout_keep_alive``) but has no limit on the time a request takes to arrive, so:

* :class:`HeaderTimeoutProtocol` is uvicorn's h11 protocol with a timer: armed when the connection is
  made and again when the first bytes of a later request arrive, cancelled once the request's headers
  are parsed. On expiry the client gets ``408 Request Timeout`` with ``Connection: close`` and the
  connection is closed (a connection that sent nothing at all is closed without an answer, as nginx
  and Apache do: it had no request to answer). The idle time between requests stays uvicorn's
  keep-alive timeout. :class:`HttpToolsHeaderTimeout` is the same on uvicorn's httptools protocol,
  which :func:`header_timeout_protocol` gives by default (uvicorn's own choice where it is installed).
* :class:`BodyTimeout` is an ASGI middleware: an HTTP request whose whole body has not arrived
  ``seconds`` after the request started gets a 408 (unless its response has started) and the
  application reads no more (it sees ``http.disconnect``). WebSockets are left alone.

Both are configured in :class:`~holotable.server.quotas.Quotas` (``header_timeout``, ``body_timeout``;
0 turns one off) and on ``holotable serve --header-timeout --body-timeout``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import h11
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

HEADERS_TOO_SLOW = "the request's headers took too long to arrive"
BODY_TOO_SLOW = "the request's body took too long to arrive"


def _plain_408(text: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    body = text.encode("utf-8")
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    return headers, body


class _HeaderTimer:
    """The timer both protocols share: armed once, cancelled, and on expiry ``_headers_too_slow``."""

    header_timeout: float = 10.0
    loop: asyncio.AbstractEventLoop
    _header_timer: asyncio.TimerHandle | None = None

    def _arm_header_timer(self) -> None:
        if self.header_timeout > 0 and self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        raise NotImplementedError


class HeaderTimeoutProtocol(_HeaderTimer, H11Protocol):
    """Uvicorn's h11 protocol that answers 408 to a request whose headers take over ``header_timeout``
    seconds (0: no limit) to arrive; make one with :func:`header_timeout_protocol`."""

    header_timeout: float = 10.0

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, object],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = False  # whether some of the awaited request has arrived

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # (part of) a request's head: on a kept-alive connection
            self._header_bytes = True           # the first bytes of the next request start the timer
            self._arm_header_timer()
        super().data_received(data)
        self._check_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # (parses a pipelined request already received)
        self._check_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _check_header_timer(self) -> None:
        """Cancel the timer once the headers are in (the client has moved past IDLE) or the connection
        closes; arm it when part of the next request's head is already in."""
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            self._cancel_header_timer()
        elif self.conn.trailing_data[0]:
            self._header_bytes = True
            self._arm_header_timer()

    def _cancel_header_timer(self) -> None:
        super()._cancel_header_timer()
        self._header_bytes = False

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self._header_bytes and self.conn.our_state is h11.IDLE:
            headers, body = _plain_408(HEADERS_TOO_SLOW)
            response = h11.Response(status_code=408, reason=b"Request Timeout",
                                    headers=self.server_state.default_headers + headers)
            self.transport.write(self.conn.send(response) + self.conn.send(h11.Data(data=body))
                                 + self.conn.send(h11.EndOfMessage()))
        self.transport.close()


class HttpToolsHeaderTimeout(_HeaderTimer, HttpToolsProtocol):
    """Uvicorn's httptools protocol (the fast one: llhttp, in C) with the same limit as
    :class:`HeaderTimeoutProtocol`: the timer is armed when the connection is made and when the first
    byte of a request arrives (``on_message_begin``), cancelled when its headers are complete."""

    header_timeout: float = 10.0

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, object],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._header_timer: asyncio.TimerHandle | None = None
        self._in_head = False  # part of a request's head has arrived, not all of it

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._cancel_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self._in_head:
            headers, body = _plain_408(HEADERS_TOO_SLOW)
            lines = [b"HTTP/1.1 408 Request Timeout\r\n"]
            lines += [name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers + headers]
            self.transport.write(b"".join(lines) + b"\r\n" + body)
        self.transport.close()


def header_timeout_protocol(seconds: float, implementation: str = "httptools",
                            ) -> type[H11Protocol | HttpToolsProtocol]:
    """The protocol class for ``uvicorn.run(http=...)`` that allows ``seconds`` for a request's headers:
    on httptools (uvicorn's own choice where it is installed, as ``uvicorn[standard]`` does; the
    load benchmark found h11's pure-Python parsing the largest part of a move's time on the server),
    or on h11 (``implementation="h11"``)."""
    base: type[HeaderTimeoutProtocol] | type[HttpToolsHeaderTimeout]
    base = HttpToolsHeaderTimeout if implementation == "httptools" else HeaderTimeoutProtocol
    return type("Configured" + base.__name__, (base,), {"header_timeout": seconds})


class BodyTimeout:
    """ASGI middleware: an HTTP request's body must have arrived ``seconds`` after the request started
    (0: no limit). ``clock`` gives the time in seconds (default: the event loop's)."""

    def __init__(self, app: ASGIApp, seconds: float, clock: Callable[[], float] | None = None) -> None:
        self.app = app
        self.seconds = seconds
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.seconds <= 0:
            await self.app(scope, receive, send)
            return
        clock = self.clock or asyncio.get_running_loop().time
        deadline = clock() + self.seconds
        body_done = False
        started = False  # a response has started (the application's or the 408)
        timed_out = False

        async def too_slow() -> Message:
            nonlocal started, timed_out
            timed_out = True
            if not started:
                started = True
                headers, body = _plain_408(BODY_TOO_SLOW)
                await send({"type": "http.response.start", "status": 408, "headers": headers})
                await send({"type": "http.response.body", "body": body})
            return {"type": "http.disconnect"}

        async def receive_in_time() -> Message:
            nonlocal body_done
            if body_done:  # after the body: only a disconnect is left to hear, however late
                return await receive()
            if timed_out:
                return {"type": "http.disconnect"}
            remaining = deadline - clock()
            if remaining <= 0:
                return await too_slow()
            try:
                async with asyncio.timeout(remaining) as waiting:
                    message = await receive()
            except TimeoutError:
                if not waiting.expired():
                    raise
                return await too_slow()
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        async def send_unless_timed_out(message: Message) -> None:
            nonlocal started
            if timed_out:  # the 408 has answered (or the connection is being closed): drop the rest
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive_in_time, send_unless_timed_out)
        except ClientDisconnect:  # the application read on after the 408's disconnect
            if not timed_out:
                raise
