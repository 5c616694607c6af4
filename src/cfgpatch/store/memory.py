"""In-memory store: the model behind ``run()`` (and the browser page).

It refuses what the SQL stores cannot keep (text with a lone surrogate) with
their error, so the three stores agree on every input.
"""

from __future__ import annotations

from typing import Any

from .base import ConcurrentUpdate, StoredVersion, VersionInfo, check_utf8


class MemoryStore:
    """Keeps every version (text and parsed value) in a dict of lists."""

    def __init__(self) -> None:
        self._docs: dict[str, list[tuple[StoredVersion, VersionInfo]]] = {}

    def head_version(self, name: str) -> int | None:
        history = self._docs.get(name)
        return len(history) if history else None

    def get(self, name: str, version: int) -> StoredVersion | None:
        check_utf8(name=name)
        history = self._docs.get(name)
        if not history or not 1 <= version <= len(history):
            return None
        return history[version - 1][0]

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
        check_utf8(name=name)  # the name first, then the head, then the rest (as SQLite)
        if self.head_version(name) != expected_head:
            raise ConcurrentUpdate(f"document {name!r} changed while the patch was applied")
        check_utf8(text=text, author=author, message=message)
        history = self._docs.setdefault(name, [])
        version = len(history) + 1
        stored = StoredVersion(version, text, value, True)
        history.append((stored, VersionInfo(name, version, None, author, message)))
        return version

    def versions(self, name: str) -> list[VersionInfo]:
        return [info for _, info in self._docs.get(name, [])]

    def names(self) -> list[str]:
        return sorted(self._docs)

    def close(self) -> None:
        self._docs.clear()
