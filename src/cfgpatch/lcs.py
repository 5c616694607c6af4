"""Array alignment for the diff (contract Part 2, rule 2), in O((N+M)·D) time.

:func:`align` pairs up equal elements of two sequences of keys (hashable
values that are equal exactly when the array elements are equal, such as
interned canonical texts).  The result is the one the contract prescribes:

1. the longest common prefix is matched, then the longest common suffix of what
   remains (never overlapping the prefix);
2. the middle parts ``A'`` and ``B'`` are walked from ``(0, 0)``: equal elements
   are matched; otherwise ``A'[i]`` is deleted when ``L(i+1, j) == L(i, j)``
   (``L`` being the length of the longest common subsequence of the suffixes
   ``A'[i:]`` and ``B'[j:]``), else ``B'[j]`` is inserted.

The walk is answered exactly without the quadratic table.  Let ``E(i, j)`` be
the insert/delete edit distance of the suffixes, ``(n-i) + (m-j) - 2·L(i, j)``.
Deleting ``A'[i]`` keeps ``L`` exactly when ``E(i+1, j) == E(i, j) - 1``.  A
Myers-style search run from the *end* of both middle parts records, for every
cost ``d`` and diagonal, the furthest point (towards the start) whose suffix
distance is at most ``d``; since the distance never decreases towards the
start along a diagonal, "``E(x) <= d``" is one comparison with that frontier.
The walk starts at cost ``D = E(0, 0)`` and each insert or delete lowers it by
one, so every question it asks is answered from the recorded frontiers.

Runs of equal keys are compared slice by slice (C speed) and matches come back
as runs ``(i, j, length)``, so the Python-level work is ``O(D²)`` plus the number
of runs, and memory is ``O(D²)`` for the frontiers.
"""

from __future__ import annotations

from collections.abc import Sequence

Run = tuple[int, int, int]

#: Distance beyond which elements found on one side only are set aside first.
COMPRESS_AFTER = 256


def common_run(a: Sequence, b: Sequence, i: int, j: int, limit: int) -> int:
    """Length of the longest common run ``a[i:i+k] == b[j:j+k]`` with ``k <= limit``.

    >>> common_run([1, 2, 3, 9], [0, 1, 2, 3], 0, 1, 3)
    3
    """
    if limit <= 0 or a[i] != b[j]:
        return 0
    length, step = 1, 1
    while length + step <= limit and a[i + length : i + length + step] == b[
        j + length : j + length + step
    ]:
        length += step
        step *= 2
    while step > 1:
        step //= 2
        if length + step <= limit and a[i + length : i + length + step] == b[
            j + length : j + length + step
        ]:
            length += step
    return length


def _common_suffix(a: Sequence, b: Sequence, limit: int) -> int:
    """Length of the longest common suffix of ``a`` and ``b``, at most ``limit``."""
    length, step = 0, 1
    n, m = len(a), len(b)
    while length + step <= limit and a[n - length - step : n - length] == b[
        m - length - step : m - length
    ]:
        length += step
        step *= 2
    while step > 1:
        step //= 2
        if length + step <= limit and a[n - length - step : n - length] == b[
            m - length - step : m - length
        ]:
            length += step
    return length


def align(a: Sequence, b: Sequence) -> list[Run]:
    """Matched runs ``(i, j, length)`` of the contract's alignment, in order.

    >>> align(["p", "x"], ["x", "x"])
    [(1, 1, 1)]
    >>> align(["a", "b", "c"], ["b", "x", "c"])
    [(1, 0, 1), (2, 2, 1)]
    """
    n, m = len(a), len(b)
    prefix = common_run(a, b, 0, 0, min(n, m)) if n and m else 0
    suffix = _common_suffix(a, b, min(n, m) - prefix)
    runs: list[Run] = []
    if prefix:
        runs.append((0, 0, prefix))
    mid_a = a[prefix : n - suffix]
    mid_b = b[prefix : m - suffix]
    for i, j, length in _walk(mid_a, mid_b):
        runs.append((prefix + i, prefix + j, length))
    if suffix:
        runs.append((n - suffix, m - suffix, suffix))
    return runs


def _frontiers(a: Sequence, b: Sequence, limit: int | None = None) -> list[list[int]] | None:
    """Furthest-reaching frontiers of a Myers search from the end of ``a`` and ``b``.

    ``None`` if the distance is more than ``limit``.

    Coordinates count from the end: ``x = n - i``, ``y = m - j``, diagonal
    ``k = x - y``.  ``result[d][(k + d) // 2]`` is the largest ``x`` on diagonal
    ``k`` whose suffix pair is within distance ``d`` (``-1`` if none).
    """
    n, m = len(a), len(b)
    ra, rb = a[::-1], b[::-1]
    offset = n + m + 1
    frontier = [-1] * (2 * offset + 1)
    result: list[list[int]] = []
    for d in range(n + m + 1):
        for k in range(-d, d + 1, 2):
            # Best start on diagonal k: one step from diagonal k+1 (in y) or k-1
            # (in x).  Points within a cost form a prefix of each diagonal, so
            # a neighbour's frontier may be clamped to the grid before stepping.
            x = -1 if d else 0
            if k < d:
                x = frontier[offset + k + 1]
                if x > m + k:
                    x = m + k
                if x < k + 1:
                    x = -1
            if k > -d:
                right = frontier[offset + k - 1]
                if right >= 0:
                    if right > n - 1:
                        right = n - 1
                    if right >= k - 1 and right >= 0 and right + 1 > x:
                        x = right + 1
            if x >= 0:
                y = x - k
                if x < n and y < m and ra[x] == rb[y]:
                    x += common_run(ra, rb, x, y, min(n - x, m - y))
            frontier[offset + k] = x
        result.append(frontier[offset - d : offset + d + 1 : 2])
        if frontier[offset + n - m] >= n:
            return result
        if limit is not None and d >= limit:
            return None
    raise AssertionError("unreachable: the end corner is within distance n + m")


def _walk(a: Sequence, b: Sequence) -> list[Run]:
    """The contract's walk over the middle parts, as matched runs.

    When the parts differ a lot, elements that occur on one side only are
    set aside first: they can never be matched, so the longest common
    subsequences of any two suffixes are the same without them, and the search
    runs on the (often much shorter) rest.
    """
    n, m = len(a), len(b)
    if not n or not m:
        return []
    frontiers = _frontiers(a, b, COMPRESS_AFTER)
    if frontiers is not None:
        return _walk_kept(a, b, None, None, frontiers)
    in_a, in_b = set(a), set(b)
    keep_a = [key in in_b for key in a]
    keep_b = [key in in_a for key in b]
    if all(keep_a) and all(keep_b):
        return _walk_kept(a, b, None, None, _frontiers(a, b))
    kept_a = [key for key, kept in zip(a, keep_a) if kept]
    kept_b = [key for key, kept in zip(b, keep_b) if kept]
    if not kept_a or not kept_b:
        return []  # nothing in common: delete everything, insert everything
    return _walk_kept(a, b, keep_a, keep_b, _frontiers(kept_a, kept_b))


def _walk_kept(
    a: Sequence, b: Sequence, keep_a: list | None, keep_b: list | None, frontiers: list
) -> list[Run]:
    """The walk, with costs counted on the kept elements only (all when ``None``).

    ``x``, ``y`` are the positions among the kept elements and ``cost`` their
    suffix distance ``E(x, y)``; deleting ``a[i]`` keeps the longest common
    subsequence exactly when ``E(x+1, y) == cost - 1`` (or when ``a[i]`` is not
    kept, as it can never be matched).
    """
    n, m = len(a), len(b)
    kn = n if keep_a is None else sum(keep_a)
    km = m if keep_b is None else sum(keep_b)
    cost = len(frontiers) - 1  # E(0, 0) of the kept parts
    runs: list[Run] = []
    i = j = x = y = 0
    while i < n and j < m:
        if a[i] == b[j]:
            length = common_run(a, b, i, j, min(n - i, m - j))
            runs.append((i, j, length))
            i += length
            j += length
            x += length  # equal elements occur on both sides, so they are kept
            y += length
            continue
        if keep_a is not None and not keep_a[i]:
            i += 1
            continue
        # Is E(x+1, y) == cost - 1?  In end coordinates: (kn-x-1, km-y).
        k = (kn - x - 1) - (km - y)
        level = cost - 1
        if level >= 0 and -level <= k <= level and frontiers[level][(k + level) // 2] >= kn - x - 1:
            i += 1
            x += 1
            cost -= 1
        else:
            if keep_b is None or keep_b[j]:
                y += 1
                cost -= 1
            j += 1
    return runs
