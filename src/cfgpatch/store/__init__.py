"""Storage of versioned documents.

:mod:`.base` defines the :class:`~.base.Store` protocol; :mod:`.memory` is the
in-memory store behind ``run()``.  Durable stores (SQLite, PostgreSQL) live in
sibling modules and are opened with :func:`open_store`.
"""

from __future__ import annotations

from .base import ConcurrentUpdate, Store, StoredVersion, VersionInfo
from .memory import MemoryStore

__all__ = ["ConcurrentUpdate", "MemoryStore", "Store", "StoredVersion", "VersionInfo", "open_store"]


def open_store(url: str) -> Store:
    """Open a store from a URL: ``memory://``, ``sqlite:///path`` or ``postgresql://...``."""
    if url.startswith("memory:"):
        return MemoryStore()
    if url.startswith("sqlite:"):
        from .sqlite import SQLiteStore

        return SQLiteStore.from_url(url)
    if url.startswith(("postgresql:", "postgres:")):
        from .postgres import PostgresStore

        return PostgresStore.from_url(url)
    raise ValueError(f"unknown store URL {url!r} (use memory://, sqlite:///PATH or postgresql://...)")
