"""Request limits of the HTTP transport: body size, message length, header timeout.

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
        """The request body, refusing (413) as soon as it is known to be too large."""
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            raise self._too_large(int(declared))
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > self.max_body:
                raise self._too_large(size)
            chunks.append(chunk)
        return b"".join(chunks)

    def _too_large(self, size: int) -> BodyTooLarge:
        return BodyTooLarge(
            f"request body of {size} bytes or more; this server accepts at most {self.max_body}"
        )


def service_limits(*, max_body: int = DEFAULT_MAX_BODY, max_depth: int = DEFAULT_MAX_DEPTH,
                   max_patch_ops: int = DEFAULT_MAX_PATCH_OPS,
                   max_document_bytes: int | None = None,
                   max_diff_work: int | None = DEFAULT_MAX_DIFF_WORK) -> ServiceLimits:
    """The service's limits under a server (a stored document is at most ``max_body``
    bytes unless ``max_document_bytes`` says otherwise, so it can always be sent back)."""
    return ServiceLimits(
        max_depth=max_depth,
        max_document_bytes=max_document_bytes if max_document_bytes is not None else max_body,
        max_patch_ops=max_patch_ops,
        work_limit=max_diff_work,
    )
