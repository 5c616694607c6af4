"""In-memory store: the model behind ``run()`` (and the browser page)."""

from __future__ import annotations

from typing import Any

from .base import ConcurrentUpdate, StoredVersion, VersionInfo


class MemoryStore:
    """Keeps every version (text and parsed value) in a dict of lists."""

    def __init__(self) -> None:
        self._docs: dict[str, list[tuple[StoredVersion, VersionInfo]]] = {}

    def head_version(self, name: str) -> int | None:
        history = self._docs.get(name)
        return len(history) if history else None

    def get(self, name: str, version: int) -> StoredVersion | None:
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
        if self.head_version(name) != expected_head:
            raise ConcurrentUpdate(f"document {name!r} changed while the patch was applied")
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
