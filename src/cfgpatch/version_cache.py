"""Parsed versions in memory, bounded in bytes, rebuilt from a store's deltas.

A durable store keeps most versions as a JSON Patch from the version before
(:mod:`cfgpatch.store.deltas`).  :class:`VersionCache` reads a version by asking
the store for its chain (the rows from the nearest whole one) and replaying it,
starting from the newest version of the chain it still holds, so reading the
version after a cached one applies one patch.  Values are immutable and patches
are applied copy-on-write, so consecutive versions share every subtree a patch
did not touch.

The cache is bounded by weight, the characters of the canonical text of each
entry (a parsed value takes about ten times that in memory): when a new entry
brings the total over ``max_chars``, the least recently used entries go.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from .errors import UNKNOWN_VERSION, LookupFailed
from .jsonvalue import JSON
from .store.base import Store, StoredVersion, may_read
from .store.deltas import TOMBSTONE, replay

Key = tuple[str, int]


class VersionCache:
    """Parsed versions by ``(name, version)``, at most ``max_chars`` of text in weight."""

    def __init__(self, store: Store, parse_text: Callable[[str], JSON], max_chars: int
                 ) -> None:
        self.store = store
        self.parse_text = parse_text
        self.max_chars = max_chars
        self.chars = 0
        self._entries: OrderedDict[Key, tuple[JSON, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def remember(self, key: Key, value: JSON, weight: int) -> None:
        """Keep a version (versions never change, so an entry never goes stale).

        A server calls this from several threads without a lock (the browser has
        none): each step is one dict operation, and one that loses a race to
        another thread is skipped; the weight total may drift by an entry then.
        """
        old = self._entries.pop(key, None)
        if old is not None:
            self.chars -= old[1]
        self._entries[key] = (value, weight)
        self.chars += weight
        while self.chars > self.max_chars and len(self._entries) > 1:
            try:
                _, (_, dropped) = self._entries.popitem(last=False)
            except KeyError:
                break
            self.chars -= dropped

    def weight(self, key: Key) -> int | None:
        """The weight (characters of text) of the version ``key`` if it is cached now
        (another thread may evict it), else ``None``."""
        entry = self._entries.get(key)
        return None if entry is None else entry[1]

    def forget(self, name: str, below: int) -> None:
        """Drop the versions of ``name`` below ``below`` (retention removed them)."""
        for key in [key for key in list(self._entries) if key[0] == name and key[1] < below]:
            entry = self._entries.pop(key, None)
            if entry is not None:
                self.chars -= entry[1]

    def clear(self) -> None:
        self._entries.clear()
        self.chars = 0

    def value(self, name: str, version: int, chain: list[StoredVersion] | None = None
              ) -> JSON:
        """The parsed value of ``version`` (``unknown version`` if the store lacks it
        or it is a deletion); ``chain`` is the store's chain when the caller read it."""
        key = (name, version)
        entry = self._entries.get(key)
        if entry is not None:
            try:  # noqa: SIM105 (contextlib.suppress costs a context manager a read)
                self._entries.move_to_end(key)
            except KeyError:  # evicted by another thread meanwhile
                pass
            return entry[0]
        if chain is None:
            may_read()
            chain = self.store.chain(name, version)
        if not chain or chain[-1].kind == TOMBSTONE:
            raise LookupFailed(f"{name!r} has no version {version}"
                               + (" (the document was deleted there)" if chain else ""),
                               code=UNKNOWN_VERSION)
        value = self._replay(name, chain)
        self.remember(key, value, sum(len(row.text) for row in chain))
        return value

    def _replay(self, name: str, chain: list[StoredVersion]) -> JSON:
        start, first = None, 0
        for index in range(len(chain) - 1, 0, -1):
            entry = self._entries.get((name, chain[index].version))
            if entry is not None:
                start, first = entry[0], index
                break
        if start is None and chain[0].kind == TOMBSTONE:
            raise LookupFailed(f"{name!r}: version {chain[-1].version} follows a deletion "
                               "without a whole text", code=UNKNOWN_VERSION)
        return replay(chain[first:], start, self.parse_text)
