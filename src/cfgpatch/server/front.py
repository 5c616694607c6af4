"""The front of every request: its id, its body, its slot, its log line, its metrics.

:class:`Front` is the outermost ASGI middleware of the app:

* **Request id.** An ``X-Request-Id`` sent by the client (1 to 128 characters
  from ``A-Z a-z 0-9 . _ : -``) is kept, any other value is replaced by a fresh
  one; the id is echoed on every answer, logged with every line about the
  request and named by store and internal errors (:data:`.problems.REQUEST_ID`).
* **The body, within a deadline.** The body is read here, before the request
  takes a slot: ``timeouts.body`` seconds for the whole body (408 and the
  connection closed when it is late; a body that came with the head, as most do,
  has nothing to wait for and gets no deadline), ``limits.max_body`` bytes (413), and a
  client that goes away mid-body is logged as such (``INFO``), not as an error.
* **Slots.** With ``limit`` set, at most that many requests are answered at once
  (their bodies already read, so clients sending a byte a second never hold a
  slot); beyond it a JSON 503 with ``Retry-After``.  A long poll gives its slot
  back while it waits (:meth:`Slots.leave`).
* **An access line** (logger ``cfgpatch.access``) and the request metrics
  (:mod:`.metrics`) when the answer has been sent; an exception no handler
  turned into an answer becomes the JSON 500 of :func:`.problems.internal_error_response`
  (logged once, with its traceback, under the request id).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..errors import OVERLOADED, REQUEST_TIMEOUT
from . import access_lines, metrics
from .limits import BODY_KEY, BodyTooLarge, Limits, Timeouts
from .logs import quick_record
from .problems import (
    REQUEST_ID,
    HttpProblem,
    internal_error_response,
    new_request_id,
    problem_response,
)

ACCESS = logging.getLogger("cfgpatch.access")
#: ``respond(scope, receive, body, answer)``: what answers a request (:meth:`Front.serve`).
Respond = Callable[[dict, Callable, bytes, "Answer"], Awaitable[None]]
LOG = logging.getLogger("cfgpatch.server")
_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:-]{1,128}")
#: Route label of requests that matched no route (kept apart from real routes).
UNMATCHED = "(unmatched)"
#: scope keys this module sets for the app.
SLOT_KEY = "cfgpatch.slot"
ROUTE_KEY = "cfgpatch.route"


class Slots:
    """At most ``limit`` requests being answered at once (``None``: no limit)."""

    def __init__(self, limit: int | None) -> None:
        if limit is not None and limit < 1:
            raise ValueError("the concurrency limit must be a positive number")
        self.limit = limit
        self.busy = 0

    def take(self) -> bool:
        if self.limit is not None and self.busy >= self.limit:
            return False
        self.busy += 1
        return True

    def leave(self) -> None:
        self.busy -= 1


class Held:
    """One request's slot, given back once (by a long poll, or at the end)."""

    def __init__(self, slots: Slots) -> None:
        self.slots = slots
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            self.slots.leave()


def request_id_of(scope: dict) -> str:
    """The client's ``X-Request-Id`` if it is acceptable, else a fresh id."""
    for key, value in scope.get("headers") or ():
        if key == b"x-request-id":
            return value.decode("ascii") if _REQUEST_ID.fullmatch(value) else new_request_id()
    return new_request_id()


class Front:
    """The outermost middleware (see the module docstring)."""

    def __init__(self, app: Any, *, limits: Limits, timeouts: Timeouts, slots: Slots,
                 access_log: bool = True, cache_bytes: Callable[[], int] | None = None) -> None:
        self.app = app
        self.limits = limits
        self.timeouts = timeouts
        self.slots = slots
        self.access_log = access_log
        self.cache_bytes = cache_bytes

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.serve(scope, receive, send, self._pass_on)

    async def serve(self, scope: dict, receive: Callable, send: Callable,
                    respond: Respond) -> None:
        """Answer the request with ``respond(scope, receive, body, answer)`` once its body is
        in and it holds a slot, with the id, log line and metrics of every request."""
        request_id = request_id_of(scope)
        token = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        answer = Answer(send, request_id)
        metrics.IN_PROGRESS.inc()
        try:
            await self._answer(scope, receive, answer, respond)
        finally:
            metrics.IN_PROGRESS.dec()
            self._finish(scope, answer, time.perf_counter() - started)
            REQUEST_ID.reset(token)

    async def _answer(self, scope: dict, receive: Callable, answer: Answer,
                      respond: Respond) -> None:
        body = await self._body(scope, receive, answer)
        if body is None:
            return
        if not self.slots.take():
            problem = HttpProblem(f"more than {self.slots.limit} requests in progress; "
                                  "try again", code=OVERLOADED)
            await problem_response(problem, 503)(scope, receive, answer.send)
            return
        held = scope[SLOT_KEY] = Held(self.slots)
        scope[BODY_KEY] = body  # read once (the app's handlers take it from here)
        try:
            await respond(scope, receive, body, answer)
        except Exception as exc:  # no handler answered: log once, answer a JSON 500
            if answer.status is not None:
                raise
            await internal_error_response(exc)(scope, receive, answer.send)
        finally:
            held.release()

    async def _pass_on(self, scope: dict, receive: Callable, body: bytes,
                       answer: Answer) -> None:
        """The app answers (its ``receive`` gives the body read already, then the real
        events)."""
        await self.app(scope, _replay(body, receive), answer.send)

    async def _body(self, scope: dict, receive: Callable, answer: Answer) -> bytes | None:
        """The whole body, or ``None`` once the request has been answered or is gone."""
        try:
            if _arrived(receive):  # nothing to wait for: no deadline to set
                return await self._read(scope, receive)
            async with asyncio.timeout(self.timeouts.body):  # no task of its own
                return await self._read(scope, receive)
        except TimeoutError:
            problem = HttpProblem(f"the request body did not arrive within "
                                  f"{self.timeouts.body:g} s", code=REQUEST_TIMEOUT)
            await _closing(problem_response(problem, 408))(scope, receive, answer.send)
        except BodyTooLarge as error:
            await _closing(problem_response(error))(scope, receive, answer.send)
        except ClientGone as gone:
            answer.gone = True
            LOG.info("request %s: the client went away after %d bytes of the body of %s %s",
                     answer.request_id, gone.received, scope["method"], scope["path"])
        return None

    async def _read(self, scope: dict, receive: Callable) -> bytes:
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit():
            self.limits.check_size(int(declared))
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientGone(size)
            chunk = message.get("body", b"")
            size += len(chunk)
            self.limits.check_size(size)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _finish(self, scope: dict, answer: Answer, seconds: float) -> None:
        route = scope.get(ROUTE_KEY) or _route_of(scope)
        status = answer.status or (499 if answer.gone else 500)
        metrics.observe_request(route, scope["method"], status, seconds)
        if scope["method"] not in ("GET", "HEAD"):
            metrics.observe_cache(self.cache_bytes, now=time.monotonic())
        if self.access_log and ACCESS.isEnabledFor(logging.INFO):
            client = scope.get("client")
            where = f"{client[0]}:{client[1]}" if client else "-"
            method, path = scope["method"], scope["path"]
            if access_lines.write(where, method, path, status, seconds, answer.request_id,
                                  route):
                return
            # The record ``ACCESS.info`` would hand to the handlers, without its search of
            # the stack for the caller's file and line (the record names this function,
            # line 0) and its per-record look-ups (logs.quick_record).
            ACCESS.handle(quick_record(
                ACCESS.name, logging.INFO, __file__, "_finish", "%s %s %s %d %.1fms",
                (where, method, path, status, seconds * 1000), {
                    "request_id": answer.request_id, "client": where, "method": method,
                    "path": path, "status": status, "duration_ms": round(seconds * 1000, 3),
                    "route": route}))


class ClientGone(Exception):
    """The client closed the connection before its body was complete."""

    def __init__(self, received: int) -> None:
        super().__init__(received)
        self.received = received


class Answer:
    """``send`` adding ``X-Request-Id`` to the answer, and what was sent."""

    __slots__ = ("_send", "request_id", "status", "gone")

    def __init__(self, send: Callable, request_id: str) -> None:
        self._send = send
        self.request_id = request_id
        self.status: int | None = None
        self.gone = False

    async def send(self, message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            headers = [(k, v) for k, v in message.get("headers", ()) if k != b"x-request-id"]
            headers.append((b"x-request-id", self.request_id.encode("ascii")))
            message = {**message, "headers": headers}
        await self._send(message)

    async def reply(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        """Send a whole answer: ``headers`` (raw, lower-case, without ``X-Request-Id``) and
        ``body``."""
        self.status = status
        headers.append((b"x-request-id", self.request_id.encode("ascii")))
        whole = getattr(getattr(self._send, "__self__", None), "send_whole", None)
        if whole is not None:  # the httptools cycle's: one write, its bytes joined once
            await whole(status, headers, body)
            return
        await self._send({"type": "http.response.start", "status": status, "headers": headers})
        await self._send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Callable) -> Callable:
    """A ``receive`` that gives the body read already, then the real events."""
    given = False

    async def replay() -> dict:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _arrived(receive: Callable) -> bool:
    """Whether ``receive`` belongs to a request cycle that holds the whole body already
    (the httptools protocol's, :mod:`.protocol`: a small body comes in the same read
    as the head, before the app runs)."""
    complete = getattr(getattr(receive, "__self__", None), "body_complete", None)
    return complete is not None and complete()


def _closing(response: Any) -> Any:
    """``response`` with ``Connection: close`` (the rest of the body is not read)."""
    response.headers["connection"] = "close"
    return response


def _header(scope: dict, key: bytes) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == key:
            return value.decode("latin-1")
    return None


def _route_of(scope: dict) -> str:
    route = scope.get("route")
    if route is None:
        return UNMATCHED
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "/"

