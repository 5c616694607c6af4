"""The sparse method: the walk computed from the pairs of equal elements only.

For arrays that share few equal pairs (distinct elements: reversals, rotations,
shuffles, block moves), the cost is ``O(R log L)`` for ``R`` pairs ``(i, j)``
with ``A'[i] == B'[j]``, however far apart the arrays are.

*Levels* (Hunt and Szymanski's thresholds, run from the end).  For a pair
``(i, j)`` let ``h(i, j) = L(i, j) = 1 + L(i+1, j+1)``.  Pairs of one level
never dominate each other (two pairs of level ``h`` with ``i < i'`` and
``j < j'`` would give the first a level above ``h``), so the level-``h`` pairs,
taken by decreasing ``i``, have non-decreasing ``j``.  Rows are read from the
last: ``T[h]``, the largest ``j`` of a level-``h`` pair seen so far, decreases
with ``h``, and ``L(i+1, q)`` is the number of ``h`` with ``T[h] >= q``
(a bisection).

*The walk* (the diff's rule for arrays), at a point ``(i, j)`` with ``l = L(i, j)``,
always reaches its next match on level ``l``.  Let ``k`` be the largest row of
a level-``l`` pair with column ``>= j`` (``L(r, j) = l`` exactly for rows
``i <= r <= k``).  Going down column ``j`` deletes rows as long as ``L`` stays
``l``, so: if ``B'[j]`` occurs in ``A'`` at a row ``r`` with ``i <= r <= k``, the
first such ``r`` is matched with ``j``; otherwise the walk arrives at row
``k``, where deleting would lose a match, and inserts along row ``k`` up to the
first column after ``j`` where ``B'`` holds ``A'[k]``.  Each match is followed
by the run of equal elements after it (compared slice by slice), so the walk
costs a few bisections per run.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from .runs import Run, common_run


def positions(keys: Sequence) -> dict:
    """The positions of each key, increasing.

    >>> positions("abca")
    {'a': [0, 3], 'b': [1], 'c': [2]}
    """
    found: dict = {}
    for index, key in enumerate(keys):
        where = found.get(key)
        if where is None:
            found[key] = [index]
        else:
            where.append(index)
    return found


def levels(a: Sequence, where_b: dict) -> tuple[list[list[int]], list[list[int]]]:
    """Rows and columns of the pairs of each level ``h`` (index ``h - 1``).

    Within a level, rows decrease and columns do not decrease.

    >>> levels("ab", positions("ba"))
    ([[1, 0]], [[0, 1]])
    """
    rows: list[list[int]] = []
    cols: list[list[int]] = []
    negated: list[int] = []  # negated[h - 1] = -T[h], increasing
    for i in range(len(a) - 1, -1, -1):
        for p in where_b.get(a[i], ()):
            h = bisect_left(negated, -p)  # L(i+1, p+1), the level below this pair
            if h == len(negated):
                negated.append(-p)
                rows.append([i])
                cols.append([p])
            else:
                negated[h] = -p  # in increasing p, later pairs of the row are unaffected
                rows[h].append(i)
                cols[h].append(p)
    return rows, cols


def walk(a: Sequence, b: Sequence) -> list[Run]:
    """The contract's walk over ``a`` and ``b`` (the middle parts), as matched runs.

    >>> walk("abc", "cab")
    [(0, 1, 2)]
    >>> walk("xy", "yx")
    [(1, 0, 1)]
    """
    where_b = positions(b)
    rows, cols = levels(a, where_b)
    where_a = positions(a)
    n, m = len(a), len(b)
    runs: list[Run] = []
    i = j = 0
    level = len(rows)
    while level > 0:
        level_cols = cols[level - 1]
        k = rows[level - 1][bisect_left(level_cols, j)]
        here = where_a.get(b[j])
        r = -1
        if here is not None:
            at = bisect_left(here, i)
            if at < len(here) and here[at] <= k:
                r = here[at]
        if r >= 0:
            c = j
        else:
            r = k
            across = where_b[a[k]]
            c = across[bisect_right(across, j)]
        length = 1 + common_run(a, b, r + 1, c + 1, min(n - r - 1, m - c - 1))
        runs.append((r, c, length))
        i, j = r + length, c + length
        level -= length
    return runs


def pair_count(count_a: dict, count_b: dict) -> int:
    """How many pairs of equal elements two arrays have (from their key counts).

    >>> pair_count({"x": 2, "y": 1}, {"x": 3, "z": 1})
    6
    """
    if len(count_b) < len(count_a):
        count_a, count_b = count_b, count_a
    get = count_b.get
    return sum(count * get(key, 0) for key, count in count_a.items())
