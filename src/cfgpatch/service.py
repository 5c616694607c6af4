"""Versioned documents: the service under ``run()`` and the HTTP server.

:class:`Service` keeps named documents as append-only histories in a
:class:`~cfgpatch.store.base.Store` (in memory for ``run()``, SQLite or
PostgreSQL for the HTTP server).  Every version is stored as canonical text and,
where the store keeps it, its parsed value, which is never mutated afterwards:
patches are applied copy-on-write, so versions share untouched subtrees safely.

Writes are optimistic: read the head, check the request's preconditions
(:mod:`cfgpatch.preconditions`) against it, compute the new version and check
it against the limits (:class:`~cfgpatch.limits.ServiceLimits`), and append
it only if the head is still the same; otherwise start again from the new head,
preconditions included.  A precondition is therefore always judged against the
version the write replaces.

A JSON Patch (or merge patch) sent with ``base_version`` older than the head is
rebased (Part 3b of the contract: replay on base, three-way merge, diff).  With
``tests_on_head=True`` (the HTTP rebase request) every ``test`` of the patch is
also judged against the head (:mod:`cfgpatch.guards`); ``run()`` leaves it off,
as the contract says the head plays no part in a patch's failures.

``run(operations)`` itself lives in :mod:`cfgpatch.contract`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from .diffing import diff_plan, diff_stats, plan_text
from .document_reader import read_document
from .errors import UNKNOWN_DOCUMENT, UNKNOWN_VERSION, LookupFailed
from .guards import replay_with_head_tests
from .jsonpatch import apply_patch, parse_patch
from .jsonvalue import JSON, canonical, parse
from .limits import ServiceLimits
from .mergepatch import apply_merge_patch
from .preconditions import NONE, Preconditions
from .spellings import SpellingTable
from .store.base import ConcurrentUpdate, Store, StoredVersion, VersionInfo
from .store.memory import MemoryStore
from .text_cache import TextCache

#: How often a write is recomputed when other writers keep moving the head.
MAX_WRITE_ATTEMPTS = 1000
#: Most array elements whose canonical text the service caches (then it starts over).
SERVICE_TEXT_CACHE_SIZE = 500_000
#: Parsed versions kept in memory for stores that keep only text.
VALUE_CACHE_SIZE = 256


class Service:
    """Named, versioned JSON documents over a store, within ``limits``."""

    def __init__(self, store: Store | None = None, *, limits: ServiceLimits | None = None
                 ) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self.limits = limits if limits is not None else ServiceLimits()
        self._values: OrderedDict[tuple[str, int], JSON] = OrderedDict()
        #: Canonical text of the elements of long arrays in stored values, by
        #: identity (filled when a version is written; diff and round trips reuse it).
        self.texts = TextCache(limit=SERVICE_TEXT_CACHE_SIZE)
        #: Array element spellings read so far, by every read of stored or put text
        #: (:mod:`cfgpatch.spellings`: two bounded generations; only speed depends on it).
        self.spellings = SpellingTable()

    # -- reading ---------------------------------------------------------------
    def head(self, name: str) -> int:
        """The head version of ``name``; ``unknown document`` if there is none."""
        head = self.store.head_version(name)
        if head is None:
            raise LookupFailed(f"no document named {name!r}", code=UNKNOWN_DOCUMENT)
        return head

    def check_version(self, name: str, version: int) -> int:
        """``version`` if it exists for ``name``; raise the lookup errors in order."""
        head = self.head(name)
        if not 1 <= version <= head:
            raise LookupFailed(
                f"{name!r} has versions 1..{head}, not {version}", code=UNKNOWN_VERSION
            )
        return version

    def get(self, name: str, version: int | None = None) -> str:
        """Canonical text of ``version`` (the head by default)."""
        version = self.head(name) if version is None else self.check_version(name, version)
        return self._stored(name, version).text

    def read(self, name: str, version: int | None = None, when: Preconditions = NONE
             ) -> tuple[int, str | None]:
        """The version read and its text; the text is ``None`` when ``when`` says the
        caller already has it (``If-None-Match`` matched: "not modified")."""
        number = self.head(name) if version is None else self.check_version(name, version)
        if not when.evaluate(name, number, read=True):
            return number, None
        return number, self._stored(name, number).text

    def get_value(self, name: str, version: int | None = None) -> JSON:
        """Parsed value of ``version`` (the head by default).  Do not mutate it.

        The value is the service's own (later calls return the same object),
        and equal elements of its arrays may be one shared object.
        """
        version = self.head(name) if version is None else self.check_version(name, version)
        return self._value(name, version)

    def versions(self, name: str, when: Preconditions = NONE
                 ) -> tuple[int, list[VersionInfo] | None]:
        """The head judged and the metadata of every version of ``name``, oldest first
        (``None``: not modified, judged on that head as :meth:`read` does)."""
        infos = self.store.versions(name)
        if not infos:
            raise LookupFailed(f"no document named {name!r}", code=UNKNOWN_DOCUMENT)
        head = infos[-1].version
        return head, (infos if when.evaluate(name, head, read=True) else None)

    def names(self) -> list[str]:
        return self.store.names()

    def _stored(self, name: str, version: int) -> StoredVersion:
        stored = self.store.get(name, version)
        if stored is None:  # only if the store lost it between two calls
            raise LookupFailed(f"{name!r} has no version {version}", code=UNKNOWN_VERSION)
        return stored

    def _value(self, name: str, version: int) -> JSON:
        key = (name, version)
        try:  # a server calls this from several threads: another may evict the key
            value = self._values[key]
            self._values.move_to_end(key)
            return value
        except KeyError:
            pass
        stored = self._stored(name, version)
        if stored.has_value:
            return stored.value
        value = read_document(stored.text, self.texts, self.spellings)[0]
        self._remember(key, value)
        return value

    def _remember(self, key: tuple[str, int], value: JSON) -> None:
        """Keep a parsed version (versions never change, so the entry never goes stale)."""
        self._values[key] = value
        while len(self._values) > VALUE_CACHE_SIZE:
            try:
                self._values.popitem(last=False)
            except KeyError:
                break

    # -- writing ---------------------------------------------------------------
    def put(self, name: str, text: str, *, author: str | None = None,
            message: str | None = None, when: Preconditions = NONE) -> int:
        """Store ``text`` (any JSON) as the next version of ``name``.

        ``when`` is judged first (before ``text`` is read, as RFC 9110 orders it)
        and again against the head the write replaces.
        """
        return self.put_text(name, text, author=author, message=message, when=when)[0]

    def put_text(self, name: str, text: str | bytes, *, author: str | None = None,
                 message: str | None = None, when: Preconditions = NONE) -> tuple[int, str]:
        """:meth:`put`, and the canonical text stored (which may differ from ``text``)."""
        when.evaluate(name, self.store.head_version(name))
        value, canon = read_document(text, self.texts, self.spellings)
        version = self.put_value(name, value, author=author, message=message, text=canon,
                                 when=when)
        return version, canon

    def put_value(self, name: str, value: JSON, *, author: str | None = None,
                  message: str | None = None, text: str | None = None,
                  when: Preconditions = NONE) -> int:
        """Store a parsed value (it must not be mutated afterwards).

        ``text`` is its canonical text when the caller already has it.
        """
        if text is None:
            text = self._canonical(value)
        return self._write(name, lambda head: (value, None), text=text, author=author,
                           message=message, must_exist=False, when=when)

    def apply(self, name: str, patch_text: str, base_version: int | None = None, *,
              author: str | None = None, message: str | None = None,
              when: Preconditions = NONE, tests_on_head: bool = False) -> int:
        """Apply a JSON Patch and commit the result as a new version.

        With ``base_version`` older than the head, the patch is first rebased
        onto the head (replay on the base, three-way merge, diff); with
        ``tests_on_head`` its ``test`` operations must also hold on the head.
        Order of refusals: unknown document, unknown version, ``when``, invalid
        json, the limits, the patch itself.
        """
        head = self._lookups(name, base_version)
        when.evaluate(name, head)
        patch = parse_patch(patch_text)
        self.limits.check_patch(patch, patch_text)

        def compute(head: int) -> tuple[JSON, list]:
            doc = self._value(name, head)
            patch_now = patch
            if base_version is not None and base_version != head:
                patch_now = self._rebased(name, patch, base_version, doc, tests_on_head)
            return apply_patch(doc, patch_now, share_unchanged=True, trusted=True), patch_now

        return self._write(name, compute, author=author, message=message, when=when)

    def apply_merge_patch(self, name: str, patch_text: str, base_version: int | None = None,
                          *, author: str | None = None, message: str | None = None,
                          when: Preconditions = NONE) -> int:
        """Apply a JSON Merge Patch (RFC 7386) and commit the result.

        With ``base_version`` older than the head, the patch is applied to that
        version and the result merged three ways with the head (a conflict
        names its pointer), as a rebased JSON Patch is.  A merge patch's result
        is never deeper than the patch or the head, so the depth limit on the
        patch covers it.
        """
        head = self._lookups(name, base_version)
        when.evaluate(name, head)
        patch = parse(patch_text)
        self.limits.check_value_depth(patch, patch_text, "the merge patch is")

        def compute(head: int) -> tuple[JSON, list]:
            doc = self._value(name, head)
            if base_version is None or base_version == head:
                return apply_merge_patch(doc, patch, share_unchanged=True), []
            base = self._value(name, base_version)
            mine = apply_merge_patch(base, patch, share_unchanged=True)
            from .rebasing import merge

            return merge(base, mine, doc), []  # linear: arrays are atomic, nothing aligned

        return self._write(name, compute, author=author, message=message, when=when)

    def _lookups(self, name: str, base_version: int | None) -> int:
        head = self.head(name)
        if base_version is not None:
            self.check_version(name, base_version)
        return head

    def _write(self, name: str, compute: Callable[[int | None], tuple[JSON, list | None]], *,
               text: str | None = None, author: str | None, message: str | None,
               must_exist: bool = True, when: Preconditions = NONE) -> int:
        """Append ``compute(head)``'s value; ``when`` and the limits judged on each try.

        ``compute`` returns the new value and the JSON Patch that made it from
        the head (``None``: a whole new value), which bounds the result's depth.
        """
        for _ in range(MAX_WRITE_ATTEMPTS):
            head = self.head(name) if must_exist else self.store.head_version(name)
            when.evaluate(name, head)
            value, applied = compute(head)
            new_text = text if text is not None else self._canonical(value)
            self.limits.check_result(value, new_text, applied)
            try:
                version = self.store.append(
                    name, new_text, expected_head=head, value=value, author=author, message=message
                )
            except ConcurrentUpdate:
                continue
            self._remember((name, version), value)  # the next patch starts from it
            return version
        raise ConcurrentUpdate(f"gave up on {name!r} after {MAX_WRITE_ATTEMPTS} concurrent updates")

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
        head_doc = self._value(name, head)
        return head, canonical(self._rebased(name, patch, base_version, head_doc,
                                             tests_on_head))

    def _rebased(self, name: str, patch: list, base_version: int, head_doc: JSON,
                 tests_on_head: bool = False) -> list:
        from .rebasing import rebase

        base = self._value(name, base_version)
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

