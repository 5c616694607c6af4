"""Versioned documents: the service under ``run()`` and the HTTP server.

:class:`Service` keeps named documents as append-only histories in a
:class:`~cfgpatch.store.base.Store` (in memory for ``run()``, SQLite or
PostgreSQL for the HTTP server).  Every version is stored as canonical text and,
where the store keeps it, its parsed value, which is never mutated afterwards:
patches are applied copy-on-write, so versions share untouched subtrees safely.

Writes are optimistic: read the head (or guess it: :func:`~cfgpatch.lifecycle.guessing`),
check the request's preconditions (:mod:`cfgpatch.preconditions`) against it,
compute the new version, check it against the limits
(:class:`~cfgpatch.limits.ServiceLimits`), and append it only if the head is still
the same; otherwise start again from the new head, preconditions included.  A
precondition is therefore always judged against the version the write replaces.

A JSON Patch (or merge patch) sent with ``base_version`` older than the head is
rebased (replayed on its base, merged three ways with the head, diffed).  With
``tests_on_head=True`` (the HTTP rebase request) every ``test`` of the patch is
also judged against the head (:mod:`cfgpatch.guards`); ``run()`` leaves it off,
as the contract says the head plays no part in a patch's failures.

Durable stores keep most versions as deltas (:mod:`cfgpatch.store.deltas`):
the service gives each write the patch that made it (the client's JSON Patch as
applied, or the diff engine's patch for a whole new text or a merge patch), and
reads versions back through a :class:`~cfgpatch.version_cache.VersionCache`
bounded in bytes.  A write with ``force=False`` that would store the text the
head already has stores nothing and answers the head (``run()`` and every
caller that leaves ``force`` alone commit every write, as the contract says).
Every write answers a :class:`Written` (the version, and whether the write
``created`` or ``changed`` the document).  The loop every write runs, and the
patches as steps the HTTP server drives on its event loop: :mod:`cfgpatch.write_steps`.
Deletion (a tombstone version), restore and retention: :mod:`cfgpatch.lifecycle`.

``run(operations)`` itself lives in :mod:`cfgpatch.contract`.
"""

from __future__ import annotations

from .diffing import diff_plan, diff_stats, plan_text
from .document_reader import read_document
from .errors import UNKNOWN_VERSION, LookupFailed
from .guards import replay_with_head_tests
from .jsonpatch import parse_patch
from .jsonvalue import JSON, canonical
from .lifecycle import State, Written, drive, guessing
from .limits import ServiceLimits
from .preconditions import NONE, Preconditions
from .spellings import SpellingTable
from .store.base import Store, VersionInfo
from .store.deltas import FULL
from .store.memory import MemoryStore
from .text_cache import TextCache
from .version_cache import VersionCache
from .write_steps import WriteSteps

#: Most array elements whose canonical text the service caches (then it starts over).
SERVICE_TEXT_CACHE_SIZE = 500_000
#: Memory the service's caches may hold, estimated (``Service(cache_bytes=...)``,
#: ``cfgpatch serve --cache-bytes``): half for parsed versions, a quarter for the
#: canonical texts of array elements, a quarter for element spellings.
DEFAULT_CACHE_BYTES = 64 * 1024 * 1024
#: Estimated bytes of memory a parsed version takes per character of its text.
VALUE_WEIGHT = 10
#: The weight bound of the version cache with ``cache_bytes=None``.
UNBOUNDED = 2**62


class Service(WriteSteps):
    """Named, versioned JSON documents over a store, within ``limits``; the caches
    hold about ``cache_bytes`` of memory at most (the write loop: :class:`~cfgpatch.
    write_steps.WriteSteps`; deletion, restore and retention: :class:`~cfgpatch.lifecycle.
    Lifecycle`)."""

    def __init__(self, store: Store | None = None, *, limits: ServiceLimits | None = None,
                 cache_bytes: int | None = DEFAULT_CACHE_BYTES) -> None:
        """``cache_bytes=None``: the caches are bounded by their entry counts only
        (``run()``: its store keeps every version in memory anyway)."""
        if cache_bytes is not None and (type(cache_bytes) is not int or cache_bytes < 1):
            raise ValueError(f"cache_bytes must be a positive integer, not {cache_bytes!r}")
        chars = None if cache_bytes is None else cache_bytes // VALUE_WEIGHT
        self.store: Store = store if store is not None else MemoryStore()
        self.known_heads, self.head_hashes = {}, {}
        self.limits = limits if limits is not None else ServiceLimits()
        #: Canonical text of the elements of long arrays in stored values, by
        #: identity (filled when a version is written; diff and round trips reuse it).
        #: (Each cache counts characters of text; the values it keeps alive weigh
        #: about :data:`VALUE_WEIGHT` bytes per character.)
        self.texts = TextCache(limit=SERVICE_TEXT_CACHE_SIZE,
                               max_chars=None if chars is None else chars // 4)
        #: Array element spellings read so far, by every read of stored or put text
        #: (:mod:`cfgpatch.spellings`: two bounded generations; only speed depends on it).
        self.spellings = (SpellingTable() if chars is None
                          else SpellingTable(max_chars=chars // 8))
        self.values = VersionCache(self.store, self._parse_stored,
                                   max_chars=UNBOUNDED if chars is None else chars // 2)

    def cache_bytes(self) -> int:
        """Estimated memory the caches hold now (at most about ``cache_bytes``)."""
        spelled = self.spellings.chars + sum(map(len, self.spellings.previous))
        return (self.values.chars + self.texts.chars + spelled) * VALUE_WEIGHT

    def _parse_stored(self, text: str) -> JSON:
        return read_document(text, self.texts, self.spellings)[0]

    # -- reading ---------------------------------------------------------------
    def head(self, name: str) -> int:
        """The head version of ``name``; ``unknown document`` if there is none."""
        live, last = self._state(name)
        if live is None:
            raise self._missing(name, last)
        return live

    def check_version(self, name: str, version: int, state: State | None = None) -> int:
        """``version`` if it exists for ``name``; raise the lookup errors in order.
        A deleted document's earlier versions stay readable."""
        live, last = state if state is not None else self._state(name)
        if last is None:
            raise self._missing(name, last)
        top = live if live is not None else last - 1
        if not 1 <= version <= top:
            raise LookupFailed(f"{name!r} has versions 1..{top}, not {version}",
                               code=UNKNOWN_VERSION)
        return version

    def get(self, name: str, version: int | None = None) -> str:
        """Canonical text of ``version`` (the head by default)."""
        version = self.head(name) if version is None else self.check_version(name, version)
        return self._text(name, version)

    def read(self, name: str, version: int | None = None, when: Preconditions = NONE
             ) -> tuple[int, str | None]:
        """The version read and its text; the text is ``None`` when ``when`` says the
        caller already has it (``If-None-Match`` matched: "not modified")."""
        number = self.head(name) if version is None else self.check_version(name, version)
        if not when.evaluate(name, number, read=True):
            return number, None
        return number, self._text(name, number)

    def get_value(self, name: str, version: int | None = None) -> JSON:
        """Parsed value of ``version`` (the head by default).  Do not mutate it.

        The value is the service's own (later calls usually return the same
        object), and equal elements of its arrays may be one shared object.
        """
        version = self.head(name) if version is None else self.check_version(name, version)
        return self.values.value(name, version)

    def versions(self, name: str, when: Preconditions = NONE, *, after: int = 0,
                 limit: int | None = None) -> tuple[int, list[VersionInfo] | None]:
        """The head judged and the metadata of the versions of ``name`` above ``after``
        (at most ``limit``), oldest first (``None``: not modified, judged on that head
        as :meth:`read` does).  A deleted document's history is listed, its last entry
        ``deleted``; the head is then that tombstone."""
        head: int | None
        if after == 0 and limit is None:
            infos = self.store.versions(name)
            if not infos:
                raise self._missing(name, None)
            head = infos[-1].version
        else:
            _, head = self._state(name)
            if head is None:
                raise self._missing(name, None)
            infos = self.store.versions(name, after=after, limit=limit)
        return head, (infos if when.evaluate(name, head, read=True) else None)

    def names(self) -> list[str]:
        return self.store.names()

    def _text(self, name: str, version: int) -> str:
        chain = self.store.chain(name, version)
        if len(chain) == 1 and chain[0].kind == FULL:
            return chain[0].text
        if not chain:  # removed by retention (another process's cache may still hold it)
            raise LookupFailed(f"{name!r} has no version {version} (removed by retention)",
                               code=UNKNOWN_VERSION)
        return self._canonical(self.values.value(name, version, chain))

    # -- writing ---------------------------------------------------------------
    def put(self, name: str, text: str, *, author: str | None = None,
            message: str | None = None, when: Preconditions = NONE, force: bool = True
            ) -> Written:
        """Store ``text`` (any JSON) as the next version of ``name``.

        ``when`` is judged first (before ``text`` is read, as RFC 9110 orders it)
        and again against the head the write replaces.  With ``force=False`` a
        text equal to the head's stores nothing and answers the head.
        """
        return self.put_text(name, text, author=author, message=message, when=when,
                             force=force)[0]

    @guessing
    def put_text(self, name: str, text: str | bytes, *, author: str | None = None,
                 message: str | None = None, when: Preconditions = NONE, force: bool = True
                 ) -> tuple[Written, str]:
        """:meth:`put`, and the canonical text stored (which may differ from ``text``)."""
        state = self._state(name)
        when.evaluate(name, state[0])
        value, canon = read_document(text, self.texts, self.spellings)
        self.limits.check_numbers(text, "the document")
        version = self._write(name, lambda head: (value, None), text=canon, author=author,
                              message=message, must_exist=False, when=when, force=force,
                              state=state)
        return version, canon

    @guessing
    def put_value(self, name: str, value: JSON, *, author: str | None = None,
                  message: str | None = None, text: str | None = None,
                  when: Preconditions = NONE, force: bool = True) -> Written:
        """Store a parsed value (it must not be mutated afterwards).

        ``text`` is its canonical text when the caller already has it.
        """
        if text is None:
            text = self._canonical(value)
        return self._write(name, lambda head: (value, None), text=text, author=author,
                           message=message, must_exist=False, when=when, force=force)

    @guessing
    def apply(self, name: str, patch_text: str, base_version: int | None = None, *,
              author: str | None = None, message: str | None = None,
              when: Preconditions = NONE, tests_on_head: bool = False, force: bool = True
              ) -> Written:
        """Apply a JSON Patch and commit the result as a new version.

        With ``base_version`` older than the head, the patch is first rebased
        onto the head (replay on the base, three-way merge, diff); with
        ``tests_on_head`` its ``test`` operations must also hold on the head.
        Order of refusals: unknown document, unknown version, ``when``, invalid
        json, the limits, the patch itself.  With ``force=False`` a patch that
        changes nothing stores nothing and answers the head.
        """
        return drive(self.applying(name, patch_text, base_version, author=author,
                                   message=message, when=when, tests_on_head=tests_on_head,
                                   force=force))

    @guessing
    def apply_merge_patch(self, name: str, patch_text: str, base_version: int | None = None,
                          *, author: str | None = None, message: str | None = None,
                          when: Preconditions = NONE, force: bool = True) -> Written:
        """Apply a JSON Merge Patch (RFC 7386) and commit the result.

        With ``base_version`` older than the head, the patch is applied to that
        version and the result merged three ways with the head (a conflict
        names its pointer), as a rebased JSON Patch is.  A merge patch's result
        is never deeper than the patch or the head, so the depth limit on the
        patch covers it.
        """
        return drive(self.merging(name, patch_text, base_version, author=author,
                                  message=message, when=when, force=force))

    # -- diff and rebase (Parts 2 and 3 of the contract) ------------------------
    def rebase(self, name: str, patch_text: str, base_version: int, *,
               tests_on_head: bool = False, when: Preconditions = NONE) -> tuple[int, str]:
        """The head the patch was rebased onto and the canonical text of ``patch_text``
        (written against ``base_version``) rebased onto it; nothing is stored.  ``when``
        is judged on that head as for a write (the answer is not a "not modified")."""
        head = self.head(name)
        when.evaluate(name, head)
        self.check_version(name, base_version)
        patch = parse_patch(patch_text)
        self.limits.check_patch(patch, patch_text)
        self.limits.check_numbers(patch_text, "the patch")
        head_doc = self.values.value(name, head)
        return head, canonical(self._rebased(name, patch, base_version, head_doc,
                                             tests_on_head))

    def _rebased(self, name: str, patch: list, base_version: int, head_doc: JSON,
                 tests_on_head: bool = False) -> list:
        from .rebasing import rebase

        base = self.values.value(name, base_version)
        if tests_on_head:
            replay_with_head_tests(base, head_doc, patch)
        return rebase(base, head_doc, patch, trusted=True, cache=TextCache(parent=self.texts),
                      **self.limits.work())

    def diff(
        self, name_a: str, name_b: str, version_a: int | None = None, version_b: int | None = None
    ) -> str:
        """Canonical text of the patch turning ``name_a`` into ``name_b`` (heads by default)."""
        a, b = self._pair(name_a, name_b, version_a, version_b)
        cache = TextCache(parent=self.texts)
        return plan_text(diff_plan(a, b, cache, **self.limits.work()), cache.text)

    def diff_stats(
        self, name_a: str, name_b: str, version_a: int | None = None, version_b: int | None = None
    ) -> dict:
        """The contract's statistics of ``diff``: counts, digest and round trip."""
        a, b = self._pair(name_a, name_b, version_a, version_b)
        return diff_stats(a, b, cache=TextCache(parent=self.texts), **self.limits.work())

    def _canonical(self, value: JSON) -> str:
        """Canonical text of a value about to be stored (long arrays' elements cached)."""
        try:
            return self.texts.document_text(value)
        except (TypeError, ValueError):
            return canonical(value)  # raises the precise invalid-input error

    def _pair(
        self, name_a: str, name_b: str, version_a: int | None, version_b: int | None
    ) -> tuple[JSON, JSON]:
        return self.get_value(name_a, version_a), self.get_value(name_b, version_b)

