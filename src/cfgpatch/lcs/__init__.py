"""Array alignment for the diff (contract Part 2, rule 2), at the cost of the work.

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
* elements found on one side only are then set aside (they can never be
  matched, so no answer of the walk changes without them).

Matches come back as runs ``(i, j, length)``.  An optional
:class:`~cfgpatch.lcs.budget.WorkBudget` bounds the steps spent.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import myers
from .budget import WorkBudget
from .runs import Run, common_run, common_suffix

#: Distance beyond which elements found on one side only are set aside first.
COMPRESS_AFTER = 256

__all__ = ["COMPRESS_AFTER", "Run", "WorkBudget", "align"]


def align(a: Sequence, b: Sequence, budget: WorkBudget | None = None) -> list[Run]:
    """Matched runs ``(i, j, length)`` of the contract's alignment, in order.

    >>> align(["p", "x"], ["x", "x"])
    [(1, 1, 1)]
    >>> align(["a", "b", "c"], ["b", "x", "c"])
    [(1, 0, 1), (2, 2, 1)]
    """
    n, m = len(a), len(b)
    prefix = common_run(a, b, 0, 0, min(n, m)) if n and m else 0
    suffix = common_suffix(a, b, min(n, m) - prefix)
    runs: list[Run] = []
    if prefix:
        runs.append((0, 0, prefix))
    mid_a = a[prefix : n - suffix]
    mid_b = b[prefix : m - suffix]
    for i, j, length in _walk(mid_a, mid_b, budget):
        runs.append((prefix + i, prefix + j, length))
    if suffix:
        runs.append((n - suffix, m - suffix, suffix))
    return runs


def _walk(a: Sequence, b: Sequence, budget: WorkBudget | None) -> list[Run]:
    """The contract's walk over the middle parts, as matched runs."""
    n, m = len(a), len(b)
    if not n or not m:
        return []
    found = myers.frontiers(a, b, COMPRESS_AFTER, budget)
    if found is not None:
        return myers.walk(a, b, None, None, found)
    in_a, in_b = set(a), set(b)
    keep_a = [key in in_b for key in a]
    keep_b = [key in in_a for key in b]
    if all(keep_a) and all(keep_b):
        return myers.walk(a, b, None, None, myers.frontiers(a, b, None, budget))
    kept_a = [key for key, kept in zip(a, keep_a) if kept]
    kept_b = [key for key, kept in zip(b, keep_b) if kept]
    if not kept_a or not kept_b:
        return []  # nothing in common: delete everything, insert everything
    return myers.walk(a, b, keep_a, keep_b, myers.frontiers(kept_a, kept_b, None, budget))
