"""Request limits of the HTTP transport: body size, message length, timeouts.

A body larger than ``max_body`` bytes is refused with 413 before it is read in
full.  The limits on what is stored and computed (document size and depth,
patch length, alignment work) are the service's own
(:class:`~cfgpatch.limits.ServiceLimits`): :func:`service_limits` builds them
with the server's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request

from ..errors import BODY_TOO_LARGE, LimitExceeded
from ..limits import DEFAULT_MAX_DIFF_WORK, ServiceLimits

#: Defaults of ``cfgpatch serve`` (documented in docs/server.md).
DEFAULT_MAX_BODY = 4 * 1024 * 1024
DEFAULT_MAX_DEPTH = 64
DEFAULT_MAX_PATCH_OPS = 10_000
#: Seconds a connection may take to send a complete request head.
DEFAULT_HEADER_TIMEOUT = 10.0
#: Seconds a request may take to send its whole body once its head is in.
DEFAULT_BODY_TIMEOUT = 20.0
#: Seconds an idle kept-alive connection stays open.
DEFAULT_KEEP_ALIVE_TIMEOUT = 5.0
#: Seconds ``/healthz`` waits for the store before answering 503.
DEFAULT_HEALTH_TIMEOUT = 1.0
#: Seconds a request waits for the service (store and computation) before a 503.
DEFAULT_REQUEST_TIMEOUT = 10.0
#: Longest ``?wait=`` of a long poll, and how often a waiting poll reads the head.
DEFAULT_MAX_WAIT = 60
DEFAULT_POLL_INTERVAL = 0.5


#: The scope key of a body read in full before the app runs (by the server's front).
BODY_KEY = "cfgpatch.body"


class BodyTooLarge(LimitExceeded):
    """The request body is larger than the server accepts."""

    default_code = BODY_TOO_LARGE


@dataclass(frozen=True)
class Limits:
    """What one request may carry."""

    max_body: int = DEFAULT_MAX_BODY
    max_message: int = 1000

    def __post_init__(self) -> None:
        if self.max_body < 1 or self.max_message < 0:
            raise ValueError("limits must be positive")

    async def read_body(self, request: Request) -> bytes:
        """The request body, refusing (413) as soon as it is known to be too large (the
        body :class:`~cfgpatch.server.front.Front` has read already, when it has)."""
        read = request.scope.get(BODY_KEY)
        if read is not None:
            self.check_size(len(read))
            return read
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit():
            self.check_size(int(declared))
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            self.check_size(size)
            chunks.append(chunk)
        return b"".join(chunks)

    def check_size(self, size: int) -> None:
        """Refuse (413) a body of ``size`` bytes or more when that is too many."""
        if size > self.max_body:
            raise self._too_large(size)

    def _too_large(self, size: int) -> BodyTooLarge:
        return BodyTooLarge(
            f"request body of {size} bytes or more; this server accepts at most {self.max_body}"
        )


@dataclass(frozen=True)
class Timeouts:
    """How long the server waits, in seconds (see docs/server.md, "Timeouts")."""

    body: float = DEFAULT_BODY_TIMEOUT
    health: float = DEFAULT_HEALTH_TIMEOUT
    request: float = DEFAULT_REQUEST_TIMEOUT
    max_wait: int = DEFAULT_MAX_WAIT
    poll_interval: float = DEFAULT_POLL_INTERVAL
    #: Seconds between two retention sweeps over every document (``None``: none).
    retention_sweep: float | None = None

    def __post_init__(self) -> None:
        for name in ("body", "health", "request", "poll_interval"):
            if not getattr(self, name) > 0:
                raise ValueError(f"the {name} timeout must be a positive number of seconds")
        if self.retention_sweep is not None and not self.retention_sweep > 0:
            raise ValueError("the retention sweep interval must be a positive number of seconds")
        if self.max_wait < 0:
            raise ValueError("the longest wait must be 0 or more seconds")


def service_limits(*, max_body: int = DEFAULT_MAX_BODY, max_depth: int = DEFAULT_MAX_DEPTH,
                   max_patch_ops: int = DEFAULT_MAX_PATCH_OPS,
                   max_document_bytes: int | None = None,
                   max_diff_work: int | None = DEFAULT_MAX_DIFF_WORK) -> ServiceLimits:
    """The service's limits under a server (a stored document is at most ``max_body``
    bytes unless ``max_document_bytes`` says otherwise, so it can always be sent back;
    a number a double cannot hold as written is refused, not stored rounded)."""
    return ServiceLimits(
        max_depth=max_depth,
        max_document_bytes=max_document_bytes if max_document_bytes is not None else max_body,
        max_patch_ops=max_patch_ops,
        work_limit=max_diff_work,
        exact_numbers=True,
    )
