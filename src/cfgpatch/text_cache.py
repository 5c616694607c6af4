"""Canonical text of JSON values, computed once per object and kept by identity.

The diff compares array elements through their canonical text (equal values
have equal text, unequal values different text, number kinds included), and
the service writes each stored version's canonical text with the element texts
of its long arrays cached (:meth:`TextCache.document_text`), so later diffs and
round trips of the same stored values look texts up instead of encoding again.
:mod:`cfgpatch.document_reader` fills a cache while it reads a document.
"""

from __future__ import annotations

from itertools import compress
from json.encoder import encode_basestring
from operator import not_

from .jsonvalue import (
    JSON,
    MAX_DEPTH,
    SCALAR_TEXT,
    canonical_many,
    canonical_unchecked,
    check_depth,
)

#: Arrays at least this long are written element by element (texts cached).
BIG_ARRAY = 32
#: So are shorter arrays of at least this many elements whose first element is an
#: object or an array: a patch of one element of a stored version leaves the others
#: shared, and their cached texts spare encoding them again (a list of 30 routes of a
#: 4 KB config: one route encoded instead of 30).
CONTAINER_ARRAY = 2
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
    number of entries and ``max_chars`` the characters of their texts (the cache is
    emptied when either would be exceeded; it then holds at most about the limit
    plus the texts of the one document being written).
    """

    def __init__(self, parent: TextCache | None = None, limit: int = 4_000_000,
                 max_chars: int | None = None) -> None:
        self._by_id: dict[int, str] = {}
        self._arrays: dict[int, list[str]] = {}  # id of an array -> its elements' texts
        self._keep: list = []  # the values of the entries, so that no id is reused
        self._parent = parent._by_id if parent is not None else None
        self._parent_arrays = parent._arrays if parent is not None else None
        self._limit = limit
        self._max_chars = max_chars
        #: Characters of the texts held (counted when ``max_chars`` is set).
        self.chars = 0

    def _make_room(self, count: int) -> None:
        if len(self._by_id) + count > self._limit or (
                self._max_chars is not None and self.chars > self._max_chars):
            self._by_id.clear()
            self._arrays.clear()
            self._keep.clear()
            self.chars = 0

    def _count(self, texts: list[str], slots: int = 0) -> None:
        """Count the characters of ``texts`` and ``slots`` array slots (two characters
        each: a slot costs about what two characters of text do)."""
        if self._max_chars is not None:
            self.chars += sum(map(len, texts)) + 2 * slots

    def text(self, value: JSON) -> str:
        """Canonical text of ``value`` (containers are cached)."""
        kind = type(value)
        if kind is not dict and kind is not list:
            scalar = SCALAR_TEXT.get(kind)
            return scalar(value) if scalar is not None else canonical_unchecked(value)
        key = id(value)
        text = self._by_id.get(key)
        if text is None and self._parent is not None:
            text = self._parent.get(key)
        if text is None:
            self._make_room(1)
            text = canonical_unchecked(value)
            self._by_id[key] = text
            self._keep.append(value)
            if self._max_chars is not None:
                self.chars += len(text)
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
        if self._max_chars is not None:
            self.chars += 2 * len(values)
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
            self._count(texts)
            return texts
        for index in misses:
            value = values[index]
            found[index] = text = canonical_unchecked(value)
            own[ids[index]] = text
            self._keep.append(value)
            if self._max_chars is not None:
                self.chars += len(text)
        return found

    def remember_text(self, value: JSON, text: str) -> None:
        """Record the canonical text of a container computed elsewhere."""
        self._make_room(1)
        self._by_id[id(value)] = text
        self._keep.append(value)
        if self._max_chars is not None:
            self.chars += len(text)

    def remember_array(self, values: list, texts: list[str]) -> None:
        """Record the canonical texts of an array's elements computed elsewhere.

        ``texts`` must not change afterwards (it is kept as the array's keys).
        """
        self._make_room(len(values) + 1)
        self._arrays[id(values)] = texts
        self._by_id.update(zip(map(id, values), texts))
        self._keep.append(values)
        self._keep.extend(values)
        self._count(texts, len(values))

    def adopt(self, other: TextCache) -> None:
        """Take over the entries of ``other`` (a scratch cache of values kept from now on)."""
        self._make_room(len(other._by_id) + len(other._arrays))
        self._by_id.update(other._by_id)
        self._arrays.update(other._arrays)
        self._keep.extend(other._keep)
        self._count(list(other._by_id.values()), sum(map(len, other._arrays.values())))

    def same(self, x: JSON, y: JSON) -> bool:
        """Exact equality of two values of one container type."""
        return x is y or self.text(x) == self.text(y)

    def document_text(self, value: JSON, fresh: bool = False) -> str:
        """Canonical text of a whole document, caching the elements of long arrays.

        Identical to :func:`cfgpatch.jsonvalue.canonical_unchecked` (and raises
        ``ValueError`` for infinities like it); the cached element texts make
        later diffs and round trips of the same stored values cheap.  It also
        enforces :data:`~cfgpatch.jsonvalue.MAX_DEPTH` (``invalid json``): a
        piece written as text ``t`` at nesting level ``k`` is at most ``k`` plus
        the number of ``[`` and ``{`` in ``t`` deep (each level opens with one), so
        only pieces with that many brackets are ever walked.
        ``fresh=True`` (a value just parsed, in no cache yet) skips the lookups.
        """
        return self._document_text(value, 0, fresh)

    def fresh_document_text(self, value: JSON) -> str:
        """:meth:`document_text` of a value that was just parsed (for ``parse_with_text``)."""
        return self._document_text(value, 0, True)

    def _document_text(self, value: JSON, level: int, fresh: bool = False) -> str:
        kind = type(value)
        if kind is list and (len(value) >= BIG_ARRAY or (
                len(value) >= CONTAINER_ARRAY and type(value[0]) in _CONTAINERS)):
            texts = self.keys(value, fresh)
            room = MAX_DEPTH - level - 1
            if max(map(len, texts)) // 2 > room:
                for element, text in zip(value, texts, strict=True):
                    if _may_nest_deeper(text, room):
                        check_depth(element, room)
            return "[" + ",".join(texts) + "]"
        if kind is dict and level < OBJECT_WALK_DEPTH:
            member_text = self._document_text
            return "{" + ",".join(
                [encode_basestring(key) + ":" + member_text(value[key], level + 1, fresh)
                 for key in sorted(value)]
            ) + "}"
        text = self.text(value)
        if _may_nest_deeper(text, MAX_DEPTH - level):
            check_depth(value, MAX_DEPTH - level)
        return text


_CONTAINERS = (dict, list)


def _may_nest_deeper(text: str, room: int) -> bool:
    """Whether the value written as ``text`` may nest more than ``room`` levels: each
    level takes an opening ``[`` or ``{`` and a closing one, so both the text's length
    over two and its count of opening brackets (those inside strings too) bound its
    depth; only a value that passes both bounds needs a walk."""
    return len(text) // 2 > room and text.count("[") + text.count("{") > room
