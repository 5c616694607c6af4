"""A connection that never completes its request head is closed after --header-timeout,
with either parser (``--http httptools`` and ``--http h11``); the parsers' own refusals
are the same JSON 400s."""

from __future__ import annotations

import contextlib
import json
import socket
import time

import pytest

from cfgpatch.server.protocol import MAX_HEAD_BYTES
from server_support import ServerProcess

TIMEOUT = 1.0


@pytest.fixture(scope="module", params=["httptools", "h11"])
def server(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("slow")
    process = ServerProcess(f"sqlite:///{folder / 's.db'}", "--header-timeout", str(TIMEOUT),
                            "--http", request.param)
    yield process
    process.stop()


def _closed_after(sock: socket.socket, limit: float) -> float | None:
    """Seconds until the server closes ``sock`` (EOF or reset), or None within ``limit``."""
    start = time.monotonic()
    sock.settimeout(limit)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return time.monotonic() - start
    except (ConnectionResetError, BrokenPipeError):
        return time.monotonic() - start
    except TimeoutError:
        return None


@pytest.mark.parametrize("sent", [b"GET /heal", b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n",
                                  b""])
def test_a_partial_head_is_closed_within_the_timeout(server, sent):
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        if sent:
            sock.sendall(sent)
        elapsed = _closed_after(sock, TIMEOUT + 4)
    assert elapsed is not None, "the server kept a half-sent request open"
    assert elapsed < TIMEOUT + 2


def test_trickling_bytes_do_not_extend_the_deadline(server):
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        start = time.monotonic()
        closed = False
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\n":
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.2)
            if time.monotonic() - start > TIMEOUT + 3:
                break
        if not closed:
            closed = _closed_after(sock, 2) is not None
    assert closed and time.monotonic() - start < TIMEOUT + 4


def _read_response(sock: socket.socket) -> bytes:
    """One whole response (head and Content-Length body): uvicorn may send them apart."""
    sock.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"connection closed after {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(4096)
        assert chunk, "connection closed inside the body"
        body += chunk
    assert len(body) == length, "more bytes than one response"
    return head + b"\r\n\r\n" + body


def test_complete_requests_and_kept_alive_connections_work(server):
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        for _ in range(2):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            answer = _read_response(sock)
            assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'"ok":true,"store":"SQLiteStore"}')
            time.sleep(TIMEOUT * 0.6)  # idle between requests: keep-alive, not the deadline


@pytest.mark.parametrize("request_bytes", [
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n",
    b"NOT HTTP AT ALL\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: x\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\n\r\n",  # no Host (RFC 9112 section 3.2)
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n",
])
def test_the_parsers_own_refusals_are_json(server, request_bytes):
    _assert_refused(server, request_bytes)


# h11 bounds a head only while it is incomplete (one read of the socket holds these whole,
# so it answers them); llhttp keeps no bound of its own: the httptools protocol counts.
@pytest.mark.parametrize("server", ["httptools"], indirect=True)
@pytest.mark.parametrize("request_bytes", [
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * MAX_HEAD_BYTES + b"\r\n\r\n",
    b"GET /healthz?" + b"q" * MAX_HEAD_BYTES + b" HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + b"X-Many: 1\r\n" * 2000 + b"\r\n",
])
def test_heads_over_the_bound_are_refused(server, request_bytes):
    _assert_refused(server, request_bytes)


def _assert_refused(server: ServerProcess, request_bytes: bytes) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        with contextlib.suppress(OSError):  # closed before all was read: the answer is there
            sock.sendall(request_bytes)
        sock.settimeout(5)
        data = b""
        try:
            while chunk := sock.recv(4096):
                data += chunk
        except ConnectionResetError:
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), data[:200]
    assert b"content-type: application/json" in head.lower()
    assert b"x-request-id: " in head.lower() and b"connection: close" in head.lower()
    assert json.loads(body)["code"] == "invalid arguments"


def test_a_head_just_under_the_bound_is_answered(server):
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: "
                     + b"a" * 15_000 + b"\r\n\r\n")
        assert _read_response(sock).startswith(b"HTTP/1.1 200")


def test_the_parser_and_loop_options(tmp_path):
    from cfgpatch.server.protocol import (
        FastHeaderDeadlineProtocol,
        HeaderDeadlineProtocol,
        header_timeout_protocol,
    )

    assert header_timeout_protocol(3.0, "h11") is HeaderDeadlineProtocol
    assert header_timeout_protocol(3.0, "httptools") is FastHeaderDeadlineProtocol
    assert HeaderDeadlineProtocol.header_timeout == FastHeaderDeadlineProtocol.header_timeout == 3
    for seconds, parser in ((0, "h11"), (1, "h2")):
        with pytest.raises(ValueError):
            header_timeout_protocol(seconds, parser)
    process = ServerProcess(f"sqlite:///{tmp_path / 'l.db'}", "--http", "h11", "--loop",
                            "asyncio")
    try:
        with socket.create_connection(("127.0.0.1", process.port)) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert _read_response(sock).startswith(b"HTTP/1.1 200")
    finally:
        process.stop()


class _Transport:
    """A transport recording each write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    responses = 0

    def responded(self) -> None:
        self.responses += 1


def _cycle(method: str, *, keep_alive: bool = True, default_headers=()):
    """The httptools protocol's request cycle over a recording transport."""
    import asyncio
    import logging

    from uvicorn.protocols.http.flow_control import FlowControl

    from cfgpatch.server.protocol import FastHeaderDeadlineProtocol

    assert FastHeaderDeadlineProtocol is not None
    transport = _Transport()
    flow = FlowControl(transport)  # type: ignore[arg-type]
    scope = {"type": "http", "method": method, "http_version": "1.1", "path": "/",
             "headers": []}
    cycle = FastHeaderDeadlineProtocol.Cycle(
        scope=scope, transport=transport, flow=flow, logger=logging.getLogger("t"),
        access_logger=logging.getLogger("t"), access_log=False,
        default_headers=list(default_headers), message_event=asyncio.Event(),
        expect_100_continue=False, keep_alive=keep_alive, on_response=transport.responded)
    return cycle, transport


def _answer(cycle, body: bytes, *, more: bytes | None = None) -> None:
    import asyncio

    async def main() -> None:
        await cycle.send({"type": "http.response.start", "status": 200,
                          "headers": [(b"content-length",
                                       str(len(body) + len(more or b"")).encode())]})
        await cycle.send({"type": "http.response.body", "body": body,
                          "more_body": more is not None})
        if more is not None:
            await cycle.send({"type": "http.response.body", "body": more})

    asyncio.run(main())


def test_an_answer_is_one_write_with_its_head():
    cycle, transport = _cycle("PATCH")
    _answer(cycle, b'{"version":2}')
    assert len(transport.writes) == 1 and transport.responses == 1
    head, _, body = transport.writes[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK") and body == b'{"version":2}'
    assert cycle.response_complete and not transport.closed


@pytest.mark.parametrize("keep_alive", [True, False])
@pytest.mark.parametrize("method", ["PATCH", "HEAD"])
def test_a_whole_answer_is_the_bytes_send_makes(keep_alive, method):
    """``send_whole`` writes what the two messages would, in one write: the same head
    (default headers first), ``connection: close`` and the close when the connection
    ends, the cycle completed and the protocol told."""
    import asyncio

    body = b'{"version":2}'
    headers = [(b"etag", b'"2"'), (b"content-length", b"13"),
               (b"content-type", b"application/json"), (b"x-request-id", b"r-1")]
    made = []
    for whole in (False, True):
        cycle, transport = _cycle(method, keep_alive=keep_alive,
                                  default_headers=[(b"date", b"Mon, 07 Dec 2026")])
        if whole:
            asyncio.run(cycle.send_whole(200, list(headers), body))
        else:
            async def two(cycle=cycle) -> None:
                await cycle.send({"type": "http.response.start", "status": 200,
                                  "headers": list(headers)})
                await cycle.send({"type": "http.response.body", "body": body})

            asyncio.run(two())
        made.append((transport.writes, transport.closed, transport.responses,
                     cycle.response_complete, cycle.message_event.is_set()))
    assert made[0] == made[1]
    writes = made[1][0]
    assert len(writes) == 1 and writes[0].startswith(b"HTTP/1.1 200 OK\r\ndate: Mon")
    assert writes[0].endswith(b"\r\n\r\n" + (b"" if method == "HEAD" else body))


def test_a_reply_is_sent_whole_by_the_cycle_that_can():
    import asyncio

    from cfgpatch.server.front import Answer

    cycle, transport = _cycle("PATCH")
    sent = []
    cycle.send_whole = lambda *a: sent.append(a) or asyncio.sleep(0)  # type: ignore[method-assign]
    asyncio.run(Answer(cycle.send, "r-1").reply(200, [(b"content-length", b"2")], b"{}"))
    assert sent == [(200, [(b"content-length", b"2"), (b"x-request-id", b"r-1")], b"{}")]
    assert transport.writes == []


def test_a_streamed_answer_sends_its_head_with_the_first_piece():
    cycle, transport = _cycle("GET")
    _answer(cycle, b"abc", more=b"def")
    assert len(transport.writes) == 2
    assert transport.writes[0].endswith(b"\r\n\r\nabc") and transport.writes[1] == b"def"


@pytest.mark.parametrize("keep_alive", [True, False])
def test_a_head_answer_still_sends_its_head(keep_alive):
    cycle, transport = _cycle("HEAD", keep_alive=keep_alive)
    _answer(cycle, b"")
    assert len(transport.writes) == 1 and transport.writes[0].startswith(b"HTTP/1.1 200 OK")
    assert transport.writes[0].endswith(b"\r\n\r\n")
    assert transport.closed is not keep_alive  # written before the close


def test_a_body_that_came_with_the_head_is_read_without_a_deadline(monkeypatch):
    """The front sets no body deadline when the httptools cycle already holds the whole
    body (it came in the same read as the head); a body still on its way gets one."""
    import asyncio

    from cfgpatch.server.front import Front, Slots
    from cfgpatch.server.limits import BODY_KEY, Limits, Timeouts

    deadlines: list[float] = []
    real_timeout = asyncio.timeout
    monkeypatch.setattr(asyncio, "timeout",
                        lambda delay: deadlines.append(delay) or real_timeout(delay))
    bodies: list[bytes] = []

    async def app(scope, receive, send) -> None:
        bodies.append(scope[BODY_KEY])
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    front = Front(app, limits=Limits(), timeouts=Timeouts(), slots=Slots(None),
                  access_log=False)

    async def serve(arrived: bool) -> None:
        cycle, _ = _cycle("PATCH")

        def arrive() -> None:  # what the protocol's on_body and on_message_complete do
            cycle.body += b"[1]"
            cycle.more_body = False
            cycle.message_event.set()

        if arrived:
            arrive()
        else:
            asyncio.get_running_loop().call_later(0.01, arrive)
        await front(cycle.scope, cycle.receive, cycle.send)

    asyncio.run(serve(True))
    assert bodies == [b"[1]"] and deadlines == []
    asyncio.run(serve(False))
    assert bodies == [b"[1]", b"[1]"] and deadlines == [Timeouts().body]


class _Transport2(_Transport):
    """A connection's transport, for a whole protocol."""

    def get_extra_info(self, name: str, default=None):
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name,
                                                                                      default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def test_a_head_that_comes_whole_sets_no_head_timer():
    """The head's deadline is a timer only for a head that is still incomplete after a
    read (the connection's first, and the rest of a split one); a kept-alive request
    whose head comes in one read sets none, and is answered."""
    import asyncio

    import uvicorn
    from uvicorn.server import ServerState

    from cfgpatch.server.protocol import FastHeaderDeadlineProtocol

    assert FastHeaderDeadlineProtocol is not None

    async def app(scope, receive, send) -> None:
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    class Loop:
        """The running loop, counting the head timers made."""

        def __init__(self, loop) -> None:
            self.loop, self.head_timers = loop, 0

        def call_later(self, delay, callback, *args):
            self.head_timers += getattr(callback, "__name__", "") == "_expired"
            return self.loop.call_later(delay, callback, *args)

        def __getattr__(self, name: str):
            return getattr(self.loop, name)

    async def main() -> tuple:
        config = uvicorn.Config(app, http=FastHeaderDeadlineProtocol, log_config=None)
        config.load()
        protocol = FastHeaderDeadlineProtocol(config=config, server_state=ServerState(),
                                              app_state={})
        loop = protocol.loop = Loop(protocol.loop)
        transport = _Transport2()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        request = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"
        counts = [loop.head_timers]
        for _ in range(3):
            protocol.data_received(request)
            await asyncio.sleep(0.01)
        counts.append(loop.head_timers)
        protocol.data_received(request[:10])
        split_armed = protocol._head_timer is not None
        protocol.data_received(request[10:])
        await asyncio.sleep(0.01)
        counts.append(loop.head_timers)
        protocol.connection_lost(None)
        return counts, split_armed, transport.writes

    counts, split_armed, writes = asyncio.run(main())
    assert counts == [1, 1, 2] and split_armed
    assert len(writes) == 4 and all(w.startswith(b"HTTP/1.1 200 OK") for w in writes)


def test_the_protocols_request_path_calls_uvicorn_without_super():
    """The parser's callbacks and the answer's sends call uvicorn's own directly (a
    ``super()`` each was about a tenth of the protocol's own cost per request)."""
    from cfgpatch.server.protocol import FastHeaderDeadlineProtocol as protocol

    assert protocol is not None
    hot = [vars(protocol)[name] for name in ("data_received", "on_message_begin", "on_url",
                                             "on_header", "on_headers_complete")]
    for method in [*hot, protocol.Cycle.send]:
        assert "super" not in method.__code__.co_names, method.__name__
    for method in hot[2:4]:  # the head's bytes counted in place, not by a call a header
        assert "_count" not in method.__code__.co_names, method.__name__
