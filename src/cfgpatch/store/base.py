"""The store protocol: append-only version history per document name.

A store keeps, for each document name, versions numbered from 1 without gaps.
Each version holds the document's canonical text and who wrote it.  Versions are
never rewritten: :meth:`Store.append` only adds the next one, and only if the
caller's idea of the head is still true (optimistic concurrency), which is what
makes concurrent writers safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import INVALID_ARGUMENTS, InvalidInput, StoreError


class ConcurrentUpdate(StoreError):
    """The head moved between reading it and appending: re-read and try again."""

    default_code = "concurrent update"


def check_utf8(**fields: str | None) -> None:
    """Raise :func:`not_utf8`'s error if a field holds a lone surrogate (for a store
    whose storage would take it: the memory store keeps to what the others can keep).
    ASCII text, which ``str.isascii`` tells at once, is passed without a look."""
    for text in fields.values():
        if text is not None and not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise not_utf8(**fields) from None


def not_utf8(**fields: str | None) -> InvalidInput:
    """The error for a text a SQL store cannot keep: one holding a lone surrogate.

    The service refuses such text long before a store sees it; a store called
    directly names the first field at fault instead of raising the driver's
    ``UnicodeEncodeError``.
    """
    for what, text in fields.items():
        if text is None or text.isascii():
            continue
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            return InvalidInput(f"the {what} holds a lone surrogate (U+{ord(text[error.start]):04X}"
                                f" at character {error.start + 1}), which UTF-8 cannot store",
                                code=INVALID_ARGUMENTS)
    return InvalidInput("a text holds a lone surrogate, which UTF-8 cannot store",
                        code=INVALID_ARGUMENTS)


@dataclass(frozen=True)
class VersionInfo:
    """Metadata of one stored version."""

    name: str
    version: int
    created_at: str | None = None
    author: str | None = None
    message: str | None = None

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "version": self.version,
            "created_at": self.created_at,
            "author": self.author,
            "message": self.message,
        }


@dataclass(frozen=True)
class StoredVersion:
    """One version: its canonical text and, when the store keeps it, its parsed value.

    ``value`` must be treated as immutable: it may be shared with other versions.
    """

    version: int
    text: str
    value: Any = None
    has_value: bool = False


class Store(Protocol):
    """What the service needs from a storage backend."""

    def head_version(self, name: str) -> int | None:
        """The newest version number of ``name``, or ``None`` if it does not exist."""

    def get(self, name: str, version: int) -> StoredVersion | None:
        """Version ``version`` of ``name``, or ``None`` if there is no such version."""

    def append(
        self,
        name: str,
        text: str,
        *,
        expected_head: int | None,
        value: Any = None,
        author: str | None = None,
        message: str | None = None,
    ) -> int:
        """Add version ``expected_head + 1`` (1 when ``expected_head`` is None).

        Raises :class:`ConcurrentUpdate` if the head is not ``expected_head``.
        ``value`` is the parsed form of ``text``; a store may keep it.
        """

    def versions(self, name: str) -> list[VersionInfo]:
        """Metadata of every version of ``name``, oldest first (empty if unknown)."""

    def names(self) -> list[str]:
        """All document names, sorted."""

    def close(self) -> None:
        """Release connections and files."""
