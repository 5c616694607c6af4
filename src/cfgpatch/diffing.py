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
remove/add pairs into ``move`` operations.

Speed: array elements are compared through their canonical text
(computed once per element, cached by object identity in a
:class:`~cfgpatch.text_cache.TextCache`), :mod:`cfgpatch.lcs` picks an alignment
method per array whose cost follows the work, and the traversal is iterative,
so depth never touches Python's recursion limit.  ``work_limit`` bounds the
alignment steps of one diff (:mod:`cfgpatch.lcs.budget`).
``tests/reference_diff.py`` is a literal, slow second reading of the same
rules; property tests require byte-identical output.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring
from operator import itemgetter
from typing import Any

from .gc_pause import pausing
from .jsonvalue import JSON, SCALAR_TEXT, canonical_unchecked, deep_copy, equal, escape
from .lcs import WorkBudget, align
from .moves import Change, Planned, Removal, as_dicts, plan_moves
from .text_cache import BIG_ARRAY, TextCache

#: Element types that are equal exactly when their canonical texts are (``bool`` is
#: not ``int`` here: the types are compared exactly, and ``1 != "1"``).
_SELF_KEYED = {str, int}
#: At most this many key lists are kept per diff (see ``_Builder._same_shape``).
_SHAPES = 10_000


class _Builder:
    """Traversal that collects the two phases of the patch, in traversal order.

    Each pair of containers being compared is a generator: it appends the
    removals and changes it finds itself, and yields each nested pair of
    containers that differ.  :meth:`run` keeps the suspended generators on a
    stack and compares a yielded pair completely before the generator that
    yielded it goes on, so operations come out in traversal order, and depth
    costs heap, never Python's recursion limit.
    """

    def __init__(self, cache: TextCache, budget: WorkBudget | None = None) -> None:
        self.cache = cache
        self.budget = budget
        self.removals: list[Removal] = []
        self.changes: list[Change] = []
        self.tokens: dict[str, str] = {}  # object key -> its escaped "/token"
        #: key order -> its (key, token) pairs in sorted order, and whether that is the
        #: key order itself (see :meth:`_same_shape`)
        self.shapes: dict[tuple[Any, ...], tuple[list[tuple[str, str]], bool]] = {}

    def run(self, a: JSON, b: JSON) -> None:
        first = self._pair(a, b, "", "", None)
        if first is None:
            return
        stack = [first]
        pair = self._pair
        while stack:
            for nested in stack[-1]:
                inner = pair(*nested)
                if inner is not None:
                    stack.append(inner)
                    break
            else:
                stack.pop()

    def _pair(self, x: JSON, y: JSON, p1: str, p2: str, group: str | None) -> Iterator[Any] | None:
        """The generator comparing two containers of one kind; else the change, now."""
        kx, ky = type(x), type(y)
        if kx is dict and ky is dict:
            return self._object(x, y, p1, p2, group)
        if kx is list and ky is list:
            return self._array(x, y, p1, p2, group if group is not None else p1)
        if kx is not ky or x != y:
            self.changes.append(("replace", p2, y, group))
        return None

    def _object(self, x: dict[str, Any], y: dict[str, Any], p1: str, p2: str,
                group: str | None) -> Iterator[Any]:
        change = self.changes.append
        same = self.cache.same
        keys = tuple(x)
        if keys == tuple(y):  # one shape (most pairs of a document's objects)
            members = self._same_shape(keys, x, y)
        else:
            members = self._members(x, y, p1, p2, group)
        for (_, token), xv, yv in members:
            kind = type(xv)
            if kind is type(yv) and (kind is dict or kind is list):
                if xv != yv or not same(xv, yv):
                    yield xv, yv, p1 + token, p2 + token, group
            elif kind is not type(yv) or xv != yv:
                change(("replace", p2 + token, yv, group))

    def _members(self, x: dict[str, Any], y: dict[str, Any], p1: str, p2: str,
                 group: str | None) -> Iterator[Any]:
        """``((key, token), x[key], y[key])`` for the keys of both objects, in sorted
        order; a key of one only is removed or added here, in its turn."""
        remove, change = self.removals.append, self.changes.append
        for key, token in self._tokens_of(sorted(x.keys() | y.keys())):
            if key not in y:
                remove((p1 + token, x[key], group))
            elif key not in x:
                change(("add", p2 + token, y[key], group))
            else:
                yield (key, token), x[key], y[key]

    def _same_shape(self, keys: tuple[Any, ...], x: dict[str, Any], y: dict[str, Any]
                    ) -> Iterator[tuple[Any, ...]]:
        """``((key, token), x[key], y[key])`` for the keys of two objects whose keys
        are ``keys`` in this order, in sorted order of the keys.

        Objects of one document mostly share their keys, in one order: the
        sorted list is made once per diff, and where that order is the objects'
        own (documents read from canonical text) the values are taken in order,
        without looking keys up.
        """
        found = self.shapes.get(keys)
        if found is None:
            tokens = self._tokens_of(sorted(keys))
            found = (tokens, [key for key, _ in tokens] == list(keys))
            if len(self.shapes) < _SHAPES:
                self.shapes[keys] = found
        tokens, in_order = found
        if in_order:
            return zip(tokens, x.values(), y.values())
        return ((item, x[item[0]], y[item[0]]) for item in tokens)

    def _tokens_of(self, keys: list[str]) -> list[tuple[str, str]]:
        tokens = self.tokens
        out = []
        for key in keys:
            token = tokens.get(key)
            if token is None:
                token = tokens[key] = "/" + escape(key)
            out.append((key, token))
        return out

    def _array(self, x: list[Any], y: list[Any], p1: str, p2: str, group: str) -> Iterator[Any]:
        if self.budget is not None:
            self.budget.where = p1
        if len(x) < BIG_ARRAY and len(y) < BIG_ARRAY and set(map(type, x + y)) <= _SELF_KEYED:
            runs = align(x, y, self.budget)  # strings and integers are their own keys
        else:
            keys = self.cache.keys
            runs = align(keys(x), keys(y), self.budget)
        runs.append((len(x), len(y), 0))
        remove, change = self.removals.append, self.changes.append
        survivors = pi = pj = 0
        for i, j, length in runs:
            paired = min(i - pi, j - pj)
            for q in range(paired):
                xv, yv = x[pi + q], y[pj + q]
                kind = type(xv)
                if kind is type(yv) and (kind is dict or kind is list):
                    yield xv, yv, f"{p1}/{survivors}", f"{p2}/{pj + q}", group
                elif kind is not type(yv) or xv != yv:
                    change(("replace", f"{p2}/{pj + q}", yv, group))
                survivors += 1
            removed = f"{p1}/{survivors}"
            for q in range(pi + paired, i):
                remove((removed, x[q], group))
            for q in range(pj + paired, j):
                change(("add", f"{p2}/{q}", y[q], group))
            survivors += length
            pi, pj = i + length, j + length


def diff_ops(a: JSON, b: JSON, cache: TextCache | None = None, *,
             work_limit: int | None = None) -> list[dict[str, Any]]:
    """The patch as operation dicts whose values are ``b``'s own objects (no copies).

    ``work_limit`` bounds the steps of array alignment the diff may take
    (:mod:`cfgpatch.lcs.budget` says what a step is); past it the diff raises
    :class:`~cfgpatch.errors.LimitExceeded` (``limit exceeded``).
    """
    return as_dicts(diff_plan(a, b, cache, work_limit=work_limit))


@pausing
def diff_plan(a: JSON, b: JSON, cache: TextCache | None = None, *,
              work_limit: int | None = None) -> list[Planned]:
    """The patch of :func:`diff_ops` as :data:`~cfgpatch.moves.Planned` tuples."""
    cache = cache if cache is not None else TextCache()
    builder = _Builder(cache, WorkBudget(work_limit) if work_limit is not None else None)
    builder.run(a, b)
    return plan_moves(builder.removals, builder.changes, cache.text)


def diff(a: JSON, b: JSON, *, work_limit: int | None = None) -> list[dict[str, Any]]:
    """The JSON Patch that turns ``a`` into ``b`` (values are independent copies).

    ``work_limit``: as for :func:`diff_ops`.

    >>> diff({"ttl": 30, "tags": ["a"]}, {"ttl": 60, "tags": ["a", "b"]})
    [{'op': 'add', 'path': '/tags/1', 'value': 'b'}, {'op': 'replace', 'path': '/ttl', 'value': 60}]
    >>> diff({"db": {"host": "h"}}, {"database": {"host": "h"}})
    [{'op': 'move', 'from': '/db', 'path': '/database'}]
    """
    ops = diff_ops(a, b, work_limit=work_limit)
    for op in ops:
        if "value" in op:
            op["value"] = deep_copy(op["value"])
    return ops


def patch_text(ops: list[dict[str, Any]]) -> str:
    """Canonical text of a patch (keys sorted, no whitespace)."""
    return canonical_unchecked(ops)


def plan_text(plan: list[Planned], text_of: Callable[[Any], str]) -> str:
    """:func:`patch_text` of a plan's operations, the values' texts from ``text_of``.

    ``text_of`` gives canonical text (a :class:`TextCache`'s ``text``: the values
    are the new document's own, whose texts the service has mostly cached).
    """
    quote = encode_basestring
    scalar_text = SCALAR_TEXT.get
    parts: list[str] = []
    add = parts.append
    for op, path, other, _ in plan:
        if op == "remove":
            add(f'{{"op":"remove","path":{quote(path)}}}')
        elif op == "move":
            add(f'{{"from":{quote(other)},"op":"move","path":{quote(path)}}}')
        else:
            scalar = scalar_text(type(other))  # most values of a big diff are scalars
            value = scalar(other) if scalar is not None else text_of(other)
            add(f'{{"op":"{op}","path":{quote(path)},"value":{value}}}')
    return "[" + ",".join(parts) + "]"


def digest(text: str) -> str:
    """The contract's digest: the first 12 hex digits of SHA-1 of the UTF-8 text."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def count_ops(ops: list[dict[str, Any]]) -> dict[str, int]:
    """How many operations of each generated kind a patch has."""
    counts = {"add": 0, "remove": 0, "replace": 0, "move": 0}
    for op in ops:
        counts[op["op"]] = counts.get(op["op"], 0) + 1
    return counts


@pausing
def diff_stats(a: JSON, b: JSON, *, cache: TextCache | None = None,
               work_limit: int | None = None) -> dict[str, Any]:
    """The contract's statistics: op counts, digest of the patch text, round trip.

    ``roundtrip`` says whether applying the patch to ``a`` gives text equal to
    ``b``'s canonical text.  Canonical text is equal exactly when values are
    :func:`~cfgpatch.jsonvalue.equal` (stored values hold no negative zero and
    no NaN), so the result is compared as a value: the replay shares ``b``'s own
    objects wherever the patch wrote, and identical objects need no walk.
    ``work_limit``: as for :func:`diff_ops`.
    """
    from .errors import CfgPatchError
    from .jsonpatch import apply_patch
    from .replay import Unreplayable, replay

    cache = cache if cache is not None else TextCache()
    plan = diff_plan(a, b, cache, work_limit=work_limit)
    text = plan_text(plan, cache.text)
    counts = {"add": 0, "remove": 0, "replace": 0, "move": 0}
    counts.update(Counter(map(itemgetter(0), plan)))
    try:
        try:
            result = replay(a, plan, cache.text)
        except Unreplayable:  # apply_patch decides (and most likely fails)
            result = apply_patch(a, as_dicts(plan), share_unchanged=True, trusted=True)
        roundtrip = equal(result, b)
    except CfgPatchError:
        roundtrip = False
    return {"ops": len(plan), **counts, "digest": digest(text), "roundtrip": roundtrip}
