"""A store wrapper for stores that are not safe to call from several threads.

The server runs store calls in a thread pool.  :class:`~cfgpatch.store.MemoryStore`
(the ``memory://`` store) checks the head and appends in two Python steps, so two
threads could both pass the check; :class:`SerializedStore` runs every call under
one lock.  The durable stores do not need it: their databases decide races.
"""

from __future__ import annotations

import threading
from typing import Any

from ..store.base import Store, StoredVersion, VersionInfo


class SerializedStore:
    """Every call of the wrapped store under one lock."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self._lock = threading.Lock()

    def head_version(self, name: str) -> int | None:
        with self._lock:
            return self.inner.head_version(name)

    def get(self, name: str, version: int) -> StoredVersion | None:
        with self._lock:
            return self.inner.get(name, version)

    def append(self, name: str, text: str, *, expected_head: int | None, value: Any = None,
               author: str | None = None, message: str | None = None) -> int:
        with self._lock:
            return self.inner.append(name, text, expected_head=expected_head, value=value,
                                     author=author, message=message)

    def versions(self, name: str) -> list[VersionInfo]:
        with self._lock:
            return self.inner.versions(name)

    def names(self) -> list[str]:
        with self._lock:
            return self.inner.names()

    def close(self) -> None:
        with self._lock:
            self.inner.close()
