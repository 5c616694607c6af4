"""Deterministic diff of two JSON values, with move detection (contract Parts 2-4).

:func:`diff` returns the JSON Patch that turns ``a`` into ``b``:

* objects: the keys of both, in sorted order; a key only in ``a`` is removed,
  a key only in ``b`` is added, a key in both is compared recursively;
* arrays: aligned by :func:`cfgpatch.lcs.align` (prefix, suffix, then the
  longest common subsequence walk with its tie-break); between matches the
  unmatched elements are paired in order and compared recursively, and the
  rest are removed or added;
* anything else that differs: one ``replace`` with ``b``'s value.

The patch has two phases: every ``remove`` (in traversal order, with indices
counting the surviving elements to the left), then every ``add`` and
``replace`` (in traversal order, with indices that are final positions in
``b``; never ``-``).  :func:`cfgpatch.moves.place_moves` then turns matching
remove/add pairs into ``move`` operations (Part 3a).

Speed (Part 4): array elements are compared through their canonical text
(computed once per element, cached by object identity), the alignment runs in
``O((N+M)·D)``, and the traversal is iterative, so depth never touches Python's
recursion limit.  ``tests/reference_diff.py`` is a literal, slow second
reading of the same rules; property tests require byte-identical output.
"""

from __future__ import annotations

import hashlib
from itertools import compress
from json.encoder import encode_basestring
from operator import not_

from .jsonvalue import (
    JSON,
    MAX_DEPTH,
    canonical_many,
    canonical_unchecked,
    check_depth,
    deep_copy,
    escape,
)
from .lcs import align
from .moves import Change, Removal, place_moves

#: Arrays at least this long are written element by element (texts cached).
BIG_ARRAY = 32
#: Objects nested deeper than this are written in one piece by the C encoder.
OBJECT_WALK_DEPTH = 8


class TextCache:
    """Canonical text of values, computed once per object (keyed by identity).

    Equal values have equal text and unequal values different text (number
    kinds included: ``1``, ``1.0`` and ``true`` print differently).  The cache
    holds a reference to every container it has seen, so an ``id`` is never
    reused while its entry lives: share one cache only between calls on values
    that are never mutated (stored versions).

    A cache made with ``parent`` reads the parent's entries but writes its own,
    so temporary values never land in a long-lived cache.  ``limit`` bounds the
    number of entries (the cache is emptied when it is exceeded).
    """

    def __init__(self, parent: TextCache | None = None, limit: int = 4_000_000) -> None:
        self._by_id: dict[int, str] = {}
        self._arrays: dict[int, list[str]] = {}  # id of an array -> its elements' texts
        self._keep: list = []  # the values of the entries, so that no id is reused
        self._parent = parent._by_id if parent is not None else None
        self._parent_arrays = parent._arrays if parent is not None else None
        self._limit = limit

    def _make_room(self, count: int) -> None:
        if len(self._by_id) + count > self._limit:
            self._by_id.clear()
            self._arrays.clear()
            self._keep.clear()

    def text(self, value: JSON) -> str:
        """Canonical text of ``value`` (containers are cached)."""
        kind = type(value)
        if kind is not dict and kind is not list:
            return canonical_unchecked(value)
        key = id(value)
        text = self._by_id.get(key)
        if text is None and self._parent is not None:
            text = self._parent.get(key)
        if text is None:
            self._make_room(1)
            text = canonical_unchecked(value)
            self._by_id[key] = text
            self._keep.append(value)
        return text

    def keys(self, values: list, fresh: bool = False) -> list[str]:
        """Canonical texts of the elements of an array (do not modify the result).

        An array seen before costs one lookup; otherwise its elements are looked
        up and encoded with C-level ``map`` calls.  ``fresh`` says the values
        were just parsed, so there is nothing to look up.
        """
        if not fresh:
            texts = self._arrays.get(id(values))
            if texts is None and self._parent_arrays is not None:
                texts = self._parent_arrays.get(id(values))
            if texts is not None and len(texts) == len(values):
                return texts
        texts = self._element_keys(values, fresh)
        self._arrays[id(values)] = texts
        self._keep.append(values)
        return texts

    def _element_keys(self, values: list, fresh: bool) -> list[str]:
        ids = list(map(id, values))
        own = self._by_id
        if fresh:
            found: list = [None] * len(values)
        else:
            found = list(map((self._parent if self._parent is not None else own).get, ids))
            if all(found):  # texts are never empty; truth tests are cheaper than "is None"
                return found
        misses = list(compress(range(len(found)), map(not_, found)))
        if own and self._parent is not None and not fresh:
            for index in misses:
                found[index] = own.get(ids[index])
            misses = [index for index in misses if found[index] is None]
            if not misses:
                return found
        self._make_room(len(misses))
        if len(misses) == len(values):
            texts = canonical_many(values)
            own.update(zip(ids, texts))
            self._keep.extend(values)
            return texts
        for index in misses:
            value = values[index]
            found[index] = text = canonical_unchecked(value)
            own[ids[index]] = text
            self._keep.append(value)
        return found

    def remember_text(self, value: JSON, text: str) -> None:
        """Record the canonical text of a container computed elsewhere."""
        self._make_room(1)
        self._by_id[id(value)] = text
        self._keep.append(value)

    def remember_array(self, values: list, texts: list[str]) -> None:
        """Record the canonical texts of an array's elements computed elsewhere.

        ``texts`` must not change afterwards (it is kept as the array's keys).
        """
        self._make_room(len(values) + 1)
        self._arrays[id(values)] = texts
        self._by_id.update(zip(map(id, values), texts))
        self._keep.append(values)
        self._keep.extend(values)

    def adopt(self, other: TextCache) -> None:
        """Take over the entries of ``other`` (a scratch cache of values kept from now on)."""
        self._make_room(len(other._by_id) + len(other._arrays))
        self._by_id.update(other._by_id)
        self._arrays.update(other._arrays)
        self._keep.extend(other._keep)

    def same(self, x: JSON, y: JSON) -> bool:
        """Exact equality of two values of one container type."""
        return x is y or self.text(x) == self.text(y)

    def document_text(self, value: JSON, fresh: bool = False) -> str:
        """Canonical text of a whole document, caching the elements of long arrays.

        Identical to :func:`cfgpatch.jsonvalue.canonical_unchecked` (and raises
        ``ValueError`` for infinities like it); the cached element texts make
        later diffs and round trips of the same stored values cheap.  It also
        enforces :data:`~cfgpatch.jsonvalue.MAX_DEPTH` (``invalid json``): a
        piece written as text ``t`` at nesting level ``k`` is at most
        ``k + len(t) // 2`` deep, so only long pieces are ever walked.
        ``fresh=True`` (a value just parsed, in no cache yet) skips the lookups.
        """
        return self._document_text(value, 0, fresh)

    def fresh_document_text(self, value: JSON) -> str:
        """:meth:`document_text` of a value that was just parsed (for ``parse_with_text``)."""
        return self._document_text(value, 0, True)

    def _document_text(self, value: JSON, level: int, fresh: bool = False) -> str:
        kind = type(value)
        if kind is list and len(value) >= BIG_ARRAY:
            texts = self.keys(value, fresh)
            if level + 1 + max(map(len, texts)) // 2 > MAX_DEPTH:
                for element in value:
                    check_depth(element, MAX_DEPTH - level - 1)
            return "[" + ",".join(texts) + "]"
        if kind is dict and level < OBJECT_WALK_DEPTH:
            text = self._document_text
            return "{" + ",".join(
                [encode_basestring(key) + ":" + text(value[key], level + 1, fresh)
                 for key in sorted(value)]
            ) + "}"
        text = self.text(value)
        if level + len(text) // 2 > MAX_DEPTH:
            check_depth(value, MAX_DEPTH - level)
        return text


class _Builder:
    """Iterative traversal that collects the two phases of the patch."""

    def __init__(self, cache: TextCache) -> None:
        self.cache = cache
        self.removals: list[Removal] = []
        self.changes: list[Change] = []
        self.stack: list[tuple] = []

    def run(self, a: JSON, b: JSON) -> None:
        self.stack.append(("diff", a, b, "", "", None))
        stack, removals, changes = self.stack, self.removals, self.changes
        while stack:
            item = stack.pop()
            tag = item[0]
            if tag == "diff":
                self._expand(*item[1:])
            elif tag == "remove":
                removals.append(item[1:])
            else:
                changes.append(item[1:])

    def _expand(self, x: JSON, y: JSON, p1: str, p2: str, group: str | None) -> None:
        kx, ky = type(x), type(y)
        if kx is dict and ky is dict:
            items = self._object_items(x, y, p1, p2, group)
        elif kx is list and ky is list:
            items = self._array_items(x, y, p1, p2, group if group is not None else p1)
        elif kx is ky and x == y:
            return
        else:
            self.changes.append(("replace", p2, y, group))
            return
        items.reverse()
        self.stack.extend(items)

    def _object_items(self, x: dict, y: dict, p1: str, p2: str, group: str | None) -> list:
        items: list[tuple] = []
        same = self.cache.same
        for key in sorted(x.keys() | y.keys()):
            token = "/" + escape(key)
            if key not in y:
                items.append(("remove", p1 + token, x[key], group))
            elif key not in x:
                items.append(("change", "add", p2 + token, y[key], group))
            else:
                xv, yv = x[key], y[key]
                kind = type(xv)
                if kind is type(yv) and xv == yv and (kind not in (dict, list) or same(xv, yv)):
                    continue
                items.append(("diff", xv, yv, p1 + token, p2 + token, group))
        return items

    def _array_items(self, x: list, y: list, p1: str, p2: str, group: str) -> list:
        keys = self.cache.keys
        runs = align(keys(x), keys(y))
        runs.append((len(x), len(y), 0))
        items: list[tuple] = []
        survivors = pi = pj = 0
        for i, j, length in runs:
            paired = min(i - pi, j - pj)
            for q in range(paired):
                items.append(("diff", x[pi + q], y[pj + q], f"{p1}/{survivors}",
                              f"{p2}/{pj + q}", group))
                survivors += 1
            removed = f"{p1}/{survivors}"
            for q in range(pi + paired, i):
                items.append(("remove", removed, x[q], group))
            for q in range(pj + paired, j):
                items.append(("change", "add", f"{p2}/{q}", y[q], group))
            survivors += length
            pi, pj = i + length, j + length
        return items


def diff_ops(a: JSON, b: JSON, cache: TextCache | None = None) -> list[dict]:
    """The patch as operation dicts whose values are ``b``'s own objects (no copies)."""
    cache = cache if cache is not None else TextCache()
    builder = _Builder(cache)
    builder.run(a, b)
    return place_moves(builder.removals, builder.changes, cache.text)


def diff(a: JSON, b: JSON) -> list[dict]:
    """The JSON Patch that turns ``a`` into ``b`` (values are independent copies).

    >>> diff({"ttl": 30, "tags": ["a"]}, {"ttl": 60, "tags": ["a", "b"]})
    [{'op': 'add', 'path': '/tags/1', 'value': 'b'}, {'op': 'replace', 'path': '/ttl', 'value': 60}]
    >>> diff({"db": {"host": "h"}}, {"database": {"host": "h"}})
    [{'op': 'move', 'from': '/db', 'path': '/database'}]
    """
    ops = diff_ops(a, b)
    for op in ops:
        if "value" in op:
            op["value"] = deep_copy(op["value"])
    return ops


def patch_text(ops: list[dict]) -> str:
    """Canonical text of a patch (keys sorted, no whitespace)."""
    return canonical_unchecked(ops)


def digest(text: str) -> str:
    """The contract's digest: the first 12 hex digits of SHA-1 of the UTF-8 text."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def count_ops(ops: list[dict]) -> dict[str, int]:
    """How many operations of each generated kind a patch has."""
    counts = {"add": 0, "remove": 0, "replace": 0, "move": 0}
    for op in ops:
        counts[op["op"]] = counts.get(op["op"], 0) + 1
    return counts


def diff_stats(a: JSON, b: JSON, *, b_text: str | None = None,
               cache: TextCache | None = None) -> dict:
    """The contract's statistics: op counts, digest of the patch text, round trip.

    ``roundtrip`` says whether applying the patch to ``a`` gives text equal to
    ``b``'s canonical text (``b_text``, computed if not given).
    """
    from .errors import CfgPatchError
    from .jsonpatch import apply_patch

    cache = cache if cache is not None else TextCache()
    ops = diff_ops(a, b, cache)
    text = patch_text(ops)
    try:
        result = apply_patch(a, ops, share_unchanged=True, trusted=True)
        roundtrip = cache.document_text(result) == (
            b_text if b_text is not None else cache.document_text(b)
        )
    except CfgPatchError:
        roundtrip = False
    return {"ops": len(ops), **count_ops(ops), "digest": digest(text), "roundtrip": roundtrip}
