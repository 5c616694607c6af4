"""uvicorn's HTTP/1.1 protocols with a deadline for the request head and JSON refusals.

Two parsers, one behaviour (``cfgpatch serve --http``):

* ``httptools`` (the default when installed): uvicorn's ``HttpToolsProtocol``,
  llhttp in C, several times cheaper per request than h11;
* ``h11``: uvicorn's ``H11Protocol``, pure Python.

uvicorn has no timeout for a connection that never finishes its request line
and headers: ``timeout_keep_alive`` only runs between requests and is cancelled
by the first byte of the next one.  A client sending half a request line, or a
byte now and then, holds a connection (and, with ``--limit-concurrency``, a
slot) for ever: the slowloris attack.  Both protocols here close a connection
whose request head is not complete ``header_timeout`` seconds after the
connection was made, or after the first byte of a later request on a kept-alive
connection.  Bodies and responses are not affected (the deadline ends as soon
as the head is parsed; the body's own deadline is :mod:`.front`'s).

Both answer the parser's own refusals (a malformed request line or header, a
head larger than :data:`MAX_HEAD_BYTES`, an HTTP/1.1 request without exactly one
``Host``) with the server's JSON error body and a request id instead of
uvicorn's plain text.  h11 checks the head's size and ``Host`` itself; llhttp
does not, so the httptools protocol counts the head's bytes and ``Host`` lines.

The httptools protocol also writes an answer's head with its first piece of body,
in one ``write`` (one system call, one TCP segment) instead of two: uvicorn writes
the head as soon as the app starts the answer, and a small JSON answer then costs
two writes, the larger part of the worker's time spent outside Python per request.

The classes are module-level names configured by :func:`header_timeout_protocol`,
so uvicorn can hand them to worker processes (``--workers``), which configure
them again from the same options.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import INVALID_ARGUMENTS
from .problems import new_request_id

LOG = logging.getLogger("cfgpatch.server")
#: The most bytes a request line and headers may take (h11's own default bound).
MAX_HEAD_BYTES = 16 * 1024
#: The parsers ``cfgpatch serve --http`` offers.
PARSERS = ("httptools", "h11")


class HeadTooLarge(Exception):
    """The request head passed :data:`MAX_HEAD_BYTES`, or it is not what HTTP/1.1 allows
    (raised in a parser callback: llhttp stops and uvicorn answers a 400)."""


def refusal_bytes() -> bytes:
    """The whole answer to a request the parser refused: a JSON 400 that closes."""
    request_id = new_request_id()
    body = json.dumps({"error": INVALID_ARGUMENTS, "code": INVALID_ARGUMENTS,
                       "message": "the request is not valid HTTP/1.1 (request line or "
                                  "headers malformed, no single Host, or a head too large)",
                       "request_id": request_id}).encode("ascii")
    return (b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode("ascii") + b"\r\n"
            b"x-request-id: " + request_id.encode("ascii") + b"\r\nconnection: close\r\n\r\n"
            + body)


class HeadDeadline:
    """The head deadline shared by both protocols (a mixin: the protocol provides
    ``loop``, ``transport``, ``client`` and :meth:`head_incomplete`)."""

    header_timeout: float = 10.0
    _head_timer: asyncio.TimerHandle | None = None
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    client: Any

    def head_incomplete(self) -> bool:
        raise NotImplementedError

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expired(self) -> None:
        self._head_timer = None
        if self.head_incomplete() and not self.transport.is_closing():
            LOG.info("closing %s: no complete request head in %ss", self.client,
                     self.header_timeout)
            self.transport.close()

    def _refuse(self) -> None:
        """Answer the parser's refusal as the server's JSON error and close."""
        LOG.info("refused by the HTTP parser from %s", self.client)
        self.transport.write(refusal_bytes())
        self.transport.close()


class HeaderDeadlineProtocol(HeadDeadline, H11Protocol):
    """``H11Protocol`` with the head deadline and JSON refusals."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.head_incomplete() and not self.transport.is_closing():
            self._arm()  # part of a head, or nothing yet: the deadline keeps running
        else:
            self._disarm()  # the head is complete (or the connection is ending)

    def head_incomplete(self) -> bool:
        return self.conn.their_state is h11.IDLE

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        self._refuse()


class _Held:
    """A transport whose ``write`` keeps the bytes (the head of an answer) for later."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class _Prefixed(_Held):
    """A transport whose first ``write`` sends ``head`` with its bytes, in one write."""

    def __init__(self, transport: asyncio.Transport, head: bytes) -> None:
        super().__init__(transport)
        self.data = head

    def write(self, data: bytes) -> None:
        head, self.data = self.data, b""
        self.transport.write(head + data if head else data)

    def flush(self) -> None:
        """Send the head if no write did (a HEAD answer, or an empty body)."""
        if self.data:
            self.write(b"")

    def close(self) -> None:
        self.flush()
        self.transport.close()


def _httptools_protocol() -> type | None:
    """The httptools protocol class, or ``None`` when httptools is not installed."""
    try:
        import httptools  # noqa: F401
        from uvicorn.protocols.http.httptools_impl import (
            STATUS_LINE,
            HttpToolsProtocol,
            RequestResponseCycle,
        )
    except ImportError:
        return None
    # The parser's callbacks and the answer's sends call uvicorn's own directly: a
    # ``super()`` costs about 0.2 us, and each request makes about ten such calls.
    base, base_send = HttpToolsProtocol, RequestResponseCycle.send

    class OneWriteCycle(RequestResponseCycle):
        """uvicorn's request cycle, writing the answer's head with its first body bytes."""

        _head: bytes | None = None

        def body_complete(self) -> bool:
            """Whether the request's whole body has arrived (``receive`` answers it without
            waiting: :class:`~.front.Front` then sets no deadline for it)."""
            return not self.more_body and self.message_event.is_set()

        async def send_whole(self, status: int, headers: list[tuple[bytes, bytes]],
                             body: bytes) -> None:
            """A whole answer in one write: what :meth:`send` makes of a start (``headers``
            lower-case, made by this server, with their ``content-length``) and a last body
            message, its bytes joined once, without uvicorn's checks of header names and
            values (``send`` itself for a HEAD, or with uvicorn's access log)."""
            if self.response_started or self.access_log or self.scope["method"] == "HEAD":
                await self.send({"type": "http.response.start", "status": status,
                                 "headers": headers})
                await self.send({"type": "http.response.body", "body": body})
                return
            if self.flow.write_paused and not self.disconnected:
                await self.flow.drain()
            if self.disconnected:
                return
            self.response_started, self.waiting_for_100_continue = True, False
            content = [STATUS_LINE[status]]
            for name, value in (*self.default_headers, *headers):
                content += (name, b": ", value, b"\r\n")
            if not self.keep_alive:
                content.append(b"connection: close\r\n")
            content += (b"\r\n", body)
            self.transport.write(b"".join(content))
            self.response_complete = True
            self.message_event.set()
            if not self.keep_alive:
                self.transport.close()
            self.on_response()

        async def send(self, message: Any) -> None:
            if message["type"] == "http.response.start" and not self.response_started:
                transport = self.transport
                held = self.transport = _Held(transport)  # type: ignore[assignment]
                try:
                    await base_send(self, message)
                finally:
                    self.transport = transport
                self._head = held.data or None
                return
            head, self._head = self._head, None
            if head is None:
                await base_send(self, message)
                return
            transport = self.transport
            prefixed = self.transport = _Prefixed(transport, head)  # type: ignore[assignment]
            try:
                await base_send(self, message)
            finally:
                self.transport = transport
                if not transport.is_closing():
                    prefixed.flush()

    class FastHeaderDeadlineProtocol(HeadDeadline, HttpToolsProtocol):
        """``HttpToolsProtocol`` with the head deadline, a bound on the head's size,
        exactly one ``Host`` on HTTP/1.1, and JSON refusals."""

        _in_head = True
        _head_bytes = 0
        #: The request cycle of each request (uvicorn's, one write per small answer).
        Cycle = OneWriteCycle

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def head_incomplete(self) -> bool:
            return self._in_head

        def data_received(self, data: bytes) -> None:
            base.data_received(self, data)
            if self._in_head and not self.transport.is_closing():
                self._arm()  # part of a head: its deadline runs (no timer for a whole head)

        def on_message_begin(self) -> None:
            base.on_message_begin(self)
            self._in_head, self._head_bytes = True, 0  # the first byte of a request

        def on_url(self, url: bytes) -> None:
            self._head_bytes += len(url)  # (counted in place: a call a header costs more)
            if self._head_bytes > MAX_HEAD_BYTES:
                raise HeadTooLarge(f"request head over {MAX_HEAD_BYTES} bytes")
            base.on_url(self, url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._head_bytes += len(name) + len(value) + 4
            if self._head_bytes > MAX_HEAD_BYTES:
                raise HeadTooLarge(f"request head over {MAX_HEAD_BYTES} bytes")
            base.on_header(self, name, value)

        def on_headers_complete(self) -> None:
            self._in_head = False
            if self._head_timer is not None:  # a head that took more than one read
                self._disarm()
            if self.parser.get_http_version() == "1.1":
                hosts = [name for name, _ in self.headers].count(b"host")
                if hosts != 1:  # RFC 9112 section 3.2 (h11 refuses these too)
                    raise HeadTooLarge(f"{hosts} Host lines")
            base.on_headers_complete(self)
            if type(self.cycle) is RequestResponseCycle:  # made just now: not started yet
                self.cycle.__class__ = self.Cycle

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            self._refuse()

    FastHeaderDeadlineProtocol.__qualname__ = FastHeaderDeadlineProtocol.__name__
    return FastHeaderDeadlineProtocol


#: The httptools protocol (``None`` without httptools); a module-level name so
#: uvicorn's worker processes find it.
FastHeaderDeadlineProtocol = _httptools_protocol()


def default_parser() -> str:
    """``httptools`` when it is installed, else ``h11``."""
    return "httptools" if FastHeaderDeadlineProtocol is not None else "h11"


def header_timeout_protocol(seconds: float, parser: str = "h11") -> type:
    """The protocol class to pass as ``uvicorn.run(http=...)`` for ``parser``, its
    deadline set to ``seconds`` (for every server of this process)."""
    if not seconds > 0:
        raise ValueError("the header timeout must be a positive number of seconds")
    if parser not in PARSERS:
        raise ValueError(f"--http must be one of {', '.join(PARSERS)}, not {parser!r}")
    HeadDeadline.header_timeout = seconds
    if parser == "h11":
        return HeaderDeadlineProtocol
    if FastHeaderDeadlineProtocol is None:
        raise ValueError("--http httptools needs the httptools package "
                         "(pip install 'cfgpatch[server]')")
    return FastHeaderDeadlineProtocol
