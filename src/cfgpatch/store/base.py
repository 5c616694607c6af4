"""The store protocol: append-only version history per document name.

A store keeps, for each document name, versions numbered from 1 without gaps.
Each version holds the document's canonical text and who wrote it.  Versions are
never rewritten: :meth:`Store.append` only adds the next one, and only if the
caller's idea of the head is still true (optimistic concurrency), which is what
makes concurrent writers safe.

A durable store may keep a version as a delta (a JSON Patch from the version
before, :mod:`.deltas`) and a deletion as a tombstone version; :meth:`Store.get`
always answers the whole text, :meth:`Store.chain` the rows as kept.  Only
retention (:meth:`Store.prune`) removes rows: whole blocks of old versions,
never the head.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import INVALID_ARGUMENTS, InvalidInput, StoreError


class ConcurrentUpdate(StoreError):
    """The head moved between reading it and appending: re-read and try again."""

    default_code = "concurrent update"


class WouldBlock(Exception):  # noqa: N818 (a signal to its caller, not an error)
    """A store read was about to run where :data:`NO_READS` forbids it (on an event loop,
    where it would hold up every other request): the caller starts again on a thread."""


#: True while a write computes on an event loop (``cfgpatch serve``'s PATCH): a read of
#: the store there raises :class:`WouldBlock` instead (see :func:`may_read`).
NO_READS: ContextVar[bool] = ContextVar("cfgpatch_no_store_reads", default=False)


def may_read() -> None:
    """Raise :class:`WouldBlock` when this context may not wait for the store now."""
    if NO_READS.get():
        raise WouldBlock


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
    """Metadata of one stored version (``deleted``: a tombstone)."""

    name: str
    version: int
    created_at: str | None = None
    author: str | None = None
    message: str | None = None
    deleted: bool = False

    def to_dict(self) -> dict:
        info = {
            "name": self.name,
            "version": self.version,
            "created_at": self.created_at,
            "author": self.author,
            "message": self.message,
        }
        if self.deleted:  # only tombstones carry the key: other entries are as they were
            info["deleted"] = True
        return info


@dataclass(frozen=True)
class RetentionPolicy:
    """Old versions of the documents whose names start with ``prefix`` may go when
    they are neither among the last ``keep_last`` nor younger than ``keep_seconds``
    (``None``: that rule keeps nothing by itself; the head always stays)."""

    prefix: str
    keep_last: int | None = None
    keep_seconds: int | None = None

    def to_dict(self) -> dict:
        return {"prefix": self.prefix, "keep_last": self.keep_last,
                "keep_seconds": self.keep_seconds}


@dataclass(frozen=True)
class StoredVersion:
    """One version: its canonical text and, when the store keeps it, its parsed value.

    ``value`` must be treated as immutable: it may be shared with other versions.
    """

    version: int
    text: str
    value: Any = None
    has_value: bool = False
    #: How the row is kept: :data:`~.deltas.FULL` (``text`` is the document),
    #: :data:`~.deltas.DELTA` (``text`` is a JSON Patch from the version before) or
    #: :data:`~.deltas.TOMBSTONE` (the document was deleted; ``text`` is ``null``).
    kind: int = 0


class Store(Protocol):
    """What the service needs from a storage backend."""

    #: Whether :meth:`append` keeps a ``delta`` it is given (else the caller need not
    #: compute one).
    keeps_deltas: bool

    def head_version(self, name: str) -> int | None:
        """The newest version number of ``name``, or ``None`` if it does not exist."""

    def head_state(self, name: str) -> tuple[int, bool] | None:
        """The newest version of ``name`` and whether it is a tombstone (one read)."""

    def get(self, name: str, version: int) -> StoredVersion | None:
        """Version ``version`` of ``name`` as whole text, or ``None`` if there is none."""

    def chain(self, name: str, version: int) -> list[StoredVersion]:
        """The rows from the newest one kept whole (or a tombstone) at or below
        ``version`` up to ``version``, oldest first, as kept (empty: no such version)."""

    def append(
        self,
        name: str,
        text: str,
        *,
        expected_head: int | None,
        value: Any = None,
        author: str | None = None,
        message: str | None = None,
        delta: str | None = None,
        deleted: bool = False,
    ) -> int:
        """Add version ``expected_head + 1`` (1 when ``expected_head`` is None).

        Raises :class:`ConcurrentUpdate` if the head is not ``expected_head``.
        ``value`` is the parsed form of ``text``; a store may keep it.  ``delta``
        (canonical JSON Patch text turning the head into ``text``) may be kept
        instead of ``text`` (:func:`.deltas.keeps_delta` says when); ``deleted``
        appends a tombstone (``text`` is then ``null``).
        """

    def versions(self, name: str, *, after: int = 0, limit: int | None = None
                 ) -> list[VersionInfo]:
        """Metadata of the versions of ``name`` above ``after``, oldest first, at
        most ``limit`` of them (empty if unknown)."""

    def prune(self, name: str, before: int) -> int:
        """Remove the versions of ``name`` below ``before`` (a block start of
        :mod:`.deltas`, never above the head); return how many went."""

    def names(self, *, include_deleted: bool = False) -> list[str]:
        """The names of the documents that exist (not deleted), sorted; with
        ``include_deleted`` also those whose head is a tombstone (every name that has
        versions: what retention sweeps)."""

    def retention(self) -> list[RetentionPolicy]:
        """The retention policies, by prefix."""

    def set_retention(self, policy: RetentionPolicy) -> None:
        """Add or replace the policy of ``policy.prefix`` (both rules ``None``: remove it)."""

    def close(self) -> None:
        """Release connections and files."""


@contextmanager
def utf8_only(**fields: str | None) -> Iterator[None]:
    """Within it, the driver's ``UnicodeEncodeError`` becomes :func:`not_utf8`'s error
    naming the first of ``fields`` at fault."""
    try:
        yield
    except UnicodeEncodeError:
        raise not_utf8(**fields) from None


def row_name(row: tuple) -> str:
    """The document of a SQL store's row (``(name, version, ...)``): the group commit's key."""
    return row[0]


def appended(row: tuple, inserted: bool) -> int:
    """The version a group-committed ``(name, version, ...)`` row appended, or the
    concurrent update that kept it out."""
    if not inserted:
        raise ConcurrentUpdate(f"document {row[0]!r} changed while the patch was applied")
    return row[1]
