"""uvicorn's HTTP/1.1 protocol (h11) with a deadline for the request head.

uvicorn has no timeout for a connection that never finishes its request line
and headers: ``timeout_keep_alive`` only runs between requests and is cancelled
by the first byte of the next one, and h11's ``max_incomplete_event_size``
bounds the size of a head, not its time.  A client sending half a request
line, or a byte now and then, holds a connection (and, with
``--limit-concurrency``, a slot) for ever: the slowloris attack.

:func:`header_timeout_protocol` gives a subclass of uvicorn's ``H11Protocol``
that closes a connection whose request head is not complete ``seconds`` after
the connection was made, or after the first byte of a later request on a
kept-alive connection.  Bodies and responses are not affected (the deadline
ends as soon as the head is parsed; the body's own deadline is :mod:`.front`'s).

It also answers the parser's own refusals (a malformed request line or header,
a head larger than h11 accepts) with the server's JSON error body instead of
uvicorn's plain text.

The class is a module-level name configured by :func:`header_timeout_protocol`,
so uvicorn can hand it to worker processes (``--workers``), which configure it
again from the same options.
"""

from __future__ import annotations

import asyncio
import json
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import INVALID_ARGUMENTS
from .problems import new_request_id

LOG = logging.getLogger("cfgpatch.server")


class HeaderDeadlineProtocol(H11Protocol):
    """``H11Protocol`` that closes connections whose request head takes too long."""

    header_timeout: float = 10.0
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm()  # part of a head, or nothing yet: the deadline keeps running
        else:
            self._disarm()  # the head is complete (or the connection is ending)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """The parser's refusal as the server's JSON error (and the connection closed)."""
        request_id = new_request_id()
        body = json.dumps({"error": INVALID_ARGUMENTS, "code": INVALID_ARGUMENTS,
                           "message": "the request is not valid HTTP/1.1 (request line or "
                                      "headers malformed, or a head too large)",
                           "request_id": request_id}).encode("ascii")
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode("ascii")),
                   (b"x-request-id", request_id.encode("ascii")), (b"connection", b"close")]
        LOG.info("request %s: refused by the HTTP parser from %s", request_id, self.client)
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expired(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            LOG.info("closing %s: no complete request head in %ss", self.client,
                     self.header_timeout)
            self.transport.close()


def header_timeout_protocol(seconds: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class to pass as ``uvicorn.run(http=...)``, its deadline set to
    ``seconds`` (for every server of this process)."""
    if not seconds > 0:
        raise ValueError("the header timeout must be a positive number of seconds")
    HeaderDeadlineProtocol.header_timeout = seconds
    return HeaderDeadlineProtocol
