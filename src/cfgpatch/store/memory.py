"""In-memory store: the model behind ``run()`` (and the browser page).

It refuses what the SQL stores cannot keep (text with a lone surrogate) with
their error, so the three stores agree on every input.
"""

from __future__ import annotations

from typing import Any

from .base import ConcurrentUpdate, RetentionPolicy, StoredVersion, VersionInfo, check_utf8
from .deltas import TOMBSTONE, block_start


class MemoryStore:
    """Keeps every version (text and parsed value) in a dict of lists; versions
    pruned by retention are ``None``, so a version is still its index plus one."""

    #: Every version is kept whole (its value shares structure with the one before).
    keeps_deltas = False

    def __init__(self) -> None:
        self._docs: dict[str, list[tuple[StoredVersion, VersionInfo] | None]] = {}
        self._retention: dict[str, RetentionPolicy] = {}

    def head_version(self, name: str) -> int | None:
        history = self._docs.get(name)
        return len(history) if history else None

    def head_state(self, name: str) -> tuple[int, bool] | None:
        history = self._docs.get(name)
        if not history:
            return None
        head = history[-1]
        assert head is not None  # the head is never pruned
        return len(history), head[0].kind == TOMBSTONE

    def get(self, name: str, version: int) -> StoredVersion | None:
        check_utf8(name=name)
        history = self._docs.get(name)
        if not history or not 1 <= version <= len(history):
            return None
        entry = history[version - 1]
        return entry[0] if entry is not None else None

    def chain(self, name: str, version: int) -> list[StoredVersion]:
        stored = self.get(name, version)
        return [] if stored is None else [stored]

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
        check_utf8(name=name)  # the name first, then the head, then the rest (as SQLite)
        if self.head_version(name) != expected_head:
            raise ConcurrentUpdate(f"document {name!r} changed while the patch was applied")
        check_utf8(text=text, author=author, message=message)
        history = self._docs.setdefault(name, [])
        version = len(history) + 1
        if deleted:
            stored = StoredVersion(version, "null", None, True, TOMBSTONE)
        else:
            stored = StoredVersion(version, text, value, True)
        history.append((stored, VersionInfo(name, version, None, author, message, deleted)))
        return version

    def versions(self, name: str, *, after: int = 0, limit: int | None = None
                 ) -> list[VersionInfo]:
        infos = [entry[1] for entry in self._docs.get(name, [])[after:] if entry is not None]
        return infos if limit is None else infos[:limit]

    def prune(self, name: str, before: int) -> int:
        if before != block_start(before):
            raise ValueError(f"prune below a block start, not {before}")
        history = self._docs.get(name)
        if not history or before > block_start(len(history)):
            return 0
        gone = sum(entry is not None for entry in history[:before - 1])
        history[:before - 1] = [None] * (before - 1)
        return gone

    def retention(self) -> list[RetentionPolicy]:
        return [self._retention[prefix] for prefix in sorted(self._retention)]

    def set_retention(self, policy: RetentionPolicy) -> None:
        check_utf8(prefix=policy.prefix)
        self._retention.pop(policy.prefix, None)
        if policy.keep_last is not None or policy.keep_seconds is not None:
            self._retention[policy.prefix] = policy

    def names(self, *, include_deleted: bool = False) -> list[str]:
        return sorted(name for name, history in self._docs.items()
                      if history and history[-1] is not None
                      and (include_deleted or history[-1][0].kind != TOMBSTONE))

    def close(self) -> None:
        self._docs.clear()
        self._retention.clear()
