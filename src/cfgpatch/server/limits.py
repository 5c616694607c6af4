"""Request limits of the HTTP API and the checks that enforce them.

A body larger than ``max_body`` bytes is refused with 413 before it is read
in full; a document nested deeper than ``max_depth`` or a patch with more than
``max_patch_ops`` operations is refused with 400 (code ``limit exceeded``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from ..errors import BODY_TOO_LARGE, LimitExceeded
from ..jsonvalue import MAX_DEPTH, check_depth

#: Code of a request body over the size limit (HTTP 413).


class BodyTooLarge(LimitExceeded):
    """The request body is larger than the server accepts."""

    default_code = BODY_TOO_LARGE


@dataclass(frozen=True)
class Limits:
    """What one request may carry."""

    max_body: int = 4 * 1024 * 1024
    max_depth: int = 64
    max_patch_ops: int = 10_000
    max_message: int = 1000

    def __post_init__(self) -> None:
        if self.max_body < 1 or self.max_patch_ops < 1 or self.max_message < 0:
            raise ValueError("limits must be positive")
        if not 1 <= self.max_depth <= MAX_DEPTH:
            raise ValueError(f"max_depth must be between 1 and {MAX_DEPTH}")

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

    def check_depth(self, value: Any) -> None:
        """Refuse a value nested deeper than ``max_depth``."""
        try:
            check_depth(value, self.max_depth)
        except Exception:
            raise LimitExceeded(
                f"nested more than {self.max_depth} levels deep (the server's --max-depth)"
            ) from None

    def check_patch(self, patch: Any) -> None:
        """Refuse a JSON Patch with more operations than ``max_patch_ops``."""
        if type(patch) is list and len(patch) > self.max_patch_ops:
            raise LimitExceeded(
                f"patch of {len(patch)} operations; this server accepts at most "
                f"{self.max_patch_ops} (--max-patch-ops)"
            )
        self.check_depth(patch)
