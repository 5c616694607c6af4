"""Array alignment for the diff (its rule for arrays), at the cost of the work.

:func:`align` pairs up equal elements of two sequences of keys (hashable
values that are equal exactly when the array elements are equal, such as
interned canonical texts).  The result is the one the contract prescribes:

1. the longest common prefix is matched, then the longest common suffix of what
   remains (never overlapping the prefix);
2. the middle parts ``A'`` and ``B'`` are walked from ``(0, 0)``: equal elements
   are matched; otherwise ``A'[i]`` is deleted when ``L(i+1, j) == L(i, j)``
   (``L`` being the length of the longest common subsequence of the suffixes
   ``A'[i:]`` and ``B'[j:]``), else ``B'[j]`` is inserted.

The walk is answered exactly, without the quadratic table, by the method that
suits the middle parts (each is checked byte for byte against the literal
table in ``tests/reference_diff.py``):

* :mod:`~cfgpatch.lcs.myers`, ``O((N+M)·D)``, tried first: most diffs change
  little, and it stops early at a distance it is given;
* :mod:`~cfgpatch.lcs.sparse`, ``O(R log L)`` for ``R`` pairs of equal
  elements: distinct elements however reordered (reversals, rotations,
  shuffles, block moves);
* :mod:`~cfgpatch.lcs.bits`, ``O(N·M/64)`` word operations: many equal pairs
  and many differences.

Tiny middle parts (at most :data:`SMALL` pairs of elements) are walked on the
literal table, which costs less than setting up any of them.  Otherwise the
choice is made per array from the key counts (the number of equal pairs
and the lengths): the cheaper of sparse and bits, unless the O(ND) search can
finish within a part of that cost.

Matches come back as runs ``(i, j, length)``.  An optional
:class:`~cfgpatch.lcs.budget.WorkBudget` bounds the steps spent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import compress
from math import isqrt

from . import bits, myers, sparse
from .budget import WorkBudget
from .runs import Run, common_run, common_suffix, pairs_to_runs

#: Distance up to which the O(ND) search is tried before anything else.
COMPRESS_AFTER = 256
#: Steps per diagonal of the O(ND) search, against the others' (about its time ratio).
MYERS_STEPS = 4
#: Time of a step of the sparse method against a step of the others, for the choice
#: only (its budget steps stay one per pair): measured at N=20000 on a generated
#: table with 500 edits, 0.9 us per pair against 0.34 us per diagonal of the O(ND)
#: search (which counts MYERS_STEPS steps).
SPARSE_TIME = 8
#: Bit-parallel steps that cost about as much as one diagonal of the O(ND) search
#: (measured on 2,000 elements of two values: 182,000 steps in 3.9 ms, against
#: about 1 us per diagonal); bounds the first try (see ``_first_try``).
FIRST_TRY_SHARE = 50
#: Middle parts with at most this many pairs of elements are walked on the literal table.
SMALL = 64

#: The methods :func:`align` chooses from.
METHODS = ("myers", "sparse", "bits")

__all__ = ["COMPRESS_AFTER", "METHODS", "Run", "WorkBudget", "align"]


def align(a: Sequence, b: Sequence, budget: WorkBudget | None = None, *,
          method: str | None = None) -> list[Run]:
    """Matched runs ``(i, j, length)`` of the contract's alignment, in order.

    ``method`` (``"myers"``, ``"sparse"`` or ``"bits"``) forces one method for
    the middle parts instead of the cheapest (for tests and benchmarks).

    >>> align(["p", "x"], ["x", "x"])
    [(1, 1, 1)]
    >>> align(["a", "b", "c"], ["b", "x", "c"])
    [(1, 0, 1), (2, 2, 1)]
    >>> align(list("abcd"), list("dcba"), method="sparse")
    [(3, 0, 1)]
    """
    if method not in (None, *METHODS):
        raise ValueError(f"unknown alignment method {method!r}")
    n, m = len(a), len(b)
    if n * m <= SMALL and method is None:
        return _small_align(a, b, budget)
    prefix = common_run(a, b, 0, 0, min(n, m)) if n and m else 0
    suffix = common_suffix(a, b, min(n, m) - prefix)
    runs: list[Run] = []
    if prefix:
        runs.append((0, 0, prefix))
    mid_a = a[prefix : n - suffix]
    mid_b = b[prefix : m - suffix]
    if mid_a and mid_b:
        for i, j, length in _walk(mid_a, mid_b, budget, method):
            runs.append((prefix + i, prefix + j, length))
    if suffix:
        runs.append((n - suffix, m - suffix, suffix))
    return runs


def _walk(a: Sequence, b: Sequence, budget: WorkBudget | None, method: str | None
          ) -> list[Run]:
    """The contract's walk over the middle parts, as matched runs, by the cheapest method."""
    if method is None and len(a) * len(b) <= SMALL:
        if budget is not None:
            budget.spend(len(a) * len(b))
        return _table_walk(a, b)
    reach: list[int] = []
    first = _first_try(len(a), len(b))
    if method is None:
        found = myers.frontiers(a, b, first, budget, reach)
        if found is not None:
            return myers.walk(a, b, None, None, found)
    count_a, count_b = Counter(a), Counter(b)
    keep_a = keep_b = None
    kept_a, kept_b = a, b
    if count_a.keys() != count_b.keys():
        keep_a = list(map(count_b.__contains__, a))
        keep_b = list(map(count_a.__contains__, b))
        kept_a = list(compress(a, keep_a))
        kept_b = list(compress(b, keep_b))
        if not kept_a or not kept_b:
            return []  # nothing in common: delete everything, insert everything
    if method == "myers":
        found = myers.frontiers(kept_a, kept_b, None, budget)
        assert found is not None  # without a limit the search always ends
        return myers.walk(a, b, keep_a, keep_b, found)
    sparse_cost = sparse.pair_count(count_a, count_b) + len(kept_a) + len(b)
    bits_cost = bits.cost(len(kept_a), len(kept_b))
    if method is None:
        method = "sparse" if sparse_cost <= bits_cost else "bits"
        # The O(ND) search, if it can end within a part of that (at least the
        # difference of the key counts is edited).
        distance = isqrt(min(SPARSE_TIME * sparse_cost, bits_cost) // (2 * MYERS_STEPS))
        # Unless the first try's progress says the distance is far beyond that: it
        # got ``reach`` of the ``n + m`` way in ``first`` costs (a guess of the cost
        # only: the walk is the same whichever method gives it).
        guess = first * (len(a) + len(b)) // max(1, reach[0]) if reach else 0
        if (distance > first and _count_distance(count_a, count_b) <= distance
                and guess <= 4 * distance):
            found = myers.frontiers(kept_a, kept_b, distance, budget)
            if found is not None:
                return myers.walk(a, b, keep_a, keep_b, found)
    if budget is not None:
        budget.spend(sparse_cost if method == "sparse" else bits_cost)
    # Elements of A' found on one side only are deleted as soon as the walk
    # meets them, so they may go; those of B' change where the walk goes (it
    # deletes down to the last row that keeps L before it inserts one), so the
    # walk keeps B' whole.
    if method == "sparse":
        runs = sparse.walk(kept_a, b)
    else:
        runs = bits.walk(kept_a, b, kept_b, keep_b)
    return runs if keep_a is None else _restore(runs, keep_a)


def _small_align(a: Sequence, b: Sequence, budget: WorkBudget | None) -> list[Run]:
    """:func:`align` of two short sequences (at most :data:`SMALL` pairs of elements):
    the same steps, element by element, which costs less than slicing here."""
    n, m = len(a), len(b)
    shorter = min(n, m)
    prefix = 0
    while prefix < shorter and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shorter - prefix and a[n - 1 - suffix] == b[m - 1 - suffix]:
        suffix += 1
    runs: list[Run] = [(0, 0, prefix)] if prefix else []
    if prefix + suffix < shorter:  # both middle parts hold elements
        if budget is not None:
            budget.spend((n - prefix - suffix) * (m - prefix - suffix))
        mid_a, mid_b = a[prefix : n - suffix], b[prefix : m - suffix]
        if not set(mid_a).isdisjoint(mid_b):  # else nothing in common: no match
            for i, j, length in _table_walk(mid_a, mid_b):
                runs.append((prefix + i, prefix + j, length))
    if suffix:
        runs.append((n - suffix, m - suffix, suffix))
    return runs


def _first_try(n: int, m: int) -> int:
    """The limit of the first O(ND) try: :data:`COMPRESS_AFTER`, or less where a try
    to that distance would cost more than the bit-parallel method on the whole
    (measured: about one bit-parallel step per :data:`FIRST_TRY_SHARE` of a
    search's diagonal; a try to distance ``D`` walks about ``D²/2`` diagonals)."""
    return min(COMPRESS_AFTER, isqrt(2 * bits.cost(n, m) // FIRST_TRY_SHARE))


def _table_walk(a: Sequence, b: Sequence) -> list[Run]:
    """The walk over the literal table of ``L`` (for tiny middle parts, where setting up
    any other method costs more than the table)."""
    n, m = len(a), len(b)
    below = [0] * (m + 1)  # row i + 1 of L, filled from the end
    rows = [below]
    for i in range(n - 1, -1, -1):
        row = [0] * (m + 1)
        x = a[i]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if x == b[j] else max(below[j], row[j + 1])
        rows.append(row)
        below = row
    rows.reverse()  # rows[i][j] == L(i, j)
    i = j = 0
    pairs_a: list[int] = []
    pairs_b: list[int] = []
    while i < n and j < m:
        if a[i] == b[j]:
            pairs_a.append(i)
            pairs_b.append(j)
            i += 1
            j += 1
        elif rows[i + 1][j] == rows[i][j]:
            i += 1
        else:
            j += 1
    return pairs_to_runs(pairs_a, pairs_b)


def _count_distance(count_a: Counter, count_b: Counter) -> int:
    """A lower bound of the edit distance: the keys that must be deleted or inserted."""
    return sum(((count_a - count_b) + (count_b - count_a)).values())


def _restore(runs: list[Run], keep_a: list) -> list[Run]:
    """Runs over the kept elements of A', in positions of the whole of A' (split where needed)."""
    index_a = list(compress(range(len(keep_a)), keep_a))
    out: list[Run] = []
    for i, j, length in runs:
        if index_a[i + length - 1] - index_a[i] == length - 1:
            out.append((index_a[i], j, length))
        else:
            out.extend(pairs_to_runs(index_a[i : i + length], list(range(j, j + length))))
    return out
