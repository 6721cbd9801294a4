"""Deadlines for slow clients: a connection must send its whole request head in time.

uvicorn closes an *idle kept-alive* connection after ``timeout_keep_alive`` seconds, but
restarts that clock on every byte received, and a new connection has no clock at all: a
bare TCP connection, or a request line followed by silence, or a header byte every 5 s,
stayed open for as long as the client liked (issue 45 item 5).  :func:`protocol` gives
uvicorn an HTTP protocol (its own h11 one) with one more clock: from the moment a
connection opens, or its previous response ends, the request line and all headers must be
in within ``header_s`` seconds, however they trickle, or the connection is answered 408
(when part of a request came) and closed.  The body has its own deadline in the app
(:data:`kakurolab.web.limits.Limits.body_s`), and a WebSocket that has not said ``hello``
in time is closed by the app too.

Imported by ``serve`` (and the tests' server) only: uvicorn comes with the ``web`` extra.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 26\r\n\r\nrequest head took too long"
)
LINGER_S = 1.0
"""How long a timed-out connection is still read (and what comes dropped) after its 408."""


class HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol with the request-head deadline of the module doc."""

    header_s: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_s, self._too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a whole request head came: its handler runs
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()  # the socket's own deadline (hello) takes over
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request's head has its own header_s

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered: not ours to cut
        started, _ = self.conn.trailing_data
        if started:
            self.transport.write(TIMEOUT_RESPONSE)
        self._linger()

    def _linger(self) -> None:
        """Half-close, then drop whatever still comes for :data:`LINGER_S` before closing.

        Closing at once while the client is still trickling bytes makes the kernel answer
        them with a reset, and a reset can destroy the 408 before the client reads it (CI
        saw exactly that); web servers close lingeringly for this reason.
        """
        self._lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER_S, self.transport.close)
        else:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if getattr(self, "_lingering", False):
            return  # after the 408: read and dropped, so that the close is clean
        super().data_received(data)


def protocol(header_s: float) -> type[Any]:
    """:class:`HeadDeadline` with ``header_s`` seconds for a request head."""
    return type("HeadDeadline", (HeadDeadline,), {"header_s": header_s})
