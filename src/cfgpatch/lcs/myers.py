"""The O(ND) method: a Myers search from the end, then the contract's walk.

The contract's walk over the middle parts ``A'`` and ``B'`` (see
:mod:`cfgpatch.lcs`) asks, at every mismatch, whether ``L(i+1, j) == L(i, j)``.
Let ``E(i, j)`` be the insert/delete edit distance of the suffixes,
``(n-i) + (m-j) - 2·L(i, j)``.  Deleting ``A'[i]`` keeps ``L`` exactly when
``E(i+1, j) == E(i, j) - 1``.  A Myers-style search run from the *end* of both
middle parts records, for every cost ``d`` and diagonal, the furthest point
(towards the start) whose suffix distance is at most ``d``; since the distance
never decreases towards the start along a diagonal, "``E(x) <= d``" is one
comparison with that frontier.  The walk starts at cost ``D = E(0, 0)`` and each
insert or delete lowers it by one, so every question it asks is answered from
the recorded frontiers.

Runs of equal keys are compared slice by slice, so the Python-level work is
``O(D²)`` plus the number of runs, and memory is ``O(D²)`` for the frontiers:
the method for arrays that differ little.  :func:`frontiers` stops at a given
distance, so :mod:`cfgpatch.lcs` can try it first and fall back to the sparse
or bit-parallel method.
"""

from __future__ import annotations

from collections.abc import Sequence

from .budget import WorkBudget
from .runs import Run, common_run

#: Costs at which a search with a ``limit`` looks at its pace (see :data:`HOPELESS`).
_LOOKOUTS = frozenset((64, 128))
#: A search with a ``limit`` gives up early when, at its pace so far, it would cover
#: less than ``1 / HOPELESS`` of the way to the end by the limit: only the choice of
#: method changes, never the walk (every method gives the same one).
HOPELESS = 4


def _reach(frontier: list[int], offset: int, d: int) -> int:
    """The furthest ``x + y`` of the frontier at cost ``d``."""
    return max(2 * frontier[offset + k] - k for k in range(-d, d + 1, 2))


def frontiers(a: Sequence, b: Sequence, limit: int | None = None,
              budget: WorkBudget | None = None, reach: list[int] | None = None
              ) -> list[list[int]] | None:
    """Furthest-reaching frontiers of a Myers search from the end of ``a`` and ``b``.

    ``None`` if the distance is more than ``limit`` (or looks far more: see
    :data:`HOPELESS`); then ``reach`` (if given) gets the furthest ``x + y`` the
    search got to by ``limit`` (or would get to at its pace), from which a caller
    may estimate the distance.  Each cost ``d`` spends ``d + 1`` steps of ``budget``.

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
        if budget is not None:
            budget.spend(d + 1)
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
            if reach is not None:
                reach.append(_reach(frontier, offset, d))
            return None
        if limit is not None and d in _LOOKOUTS and d < limit:
            got = _reach(frontier, offset, d)
            if got * limit * HOPELESS < (n + m) * d:  # far from the end at this pace
                if reach is not None:
                    reach.append(got * limit // d)  # the pace's guess for ``limit``
                return None
    raise AssertionError("unreachable: the end corner is within distance n + m")


def walk(
    a: Sequence, b: Sequence, keep_a: list | None, keep_b: list | None, found: list
) -> list[Run]:
    """The walk, as matched runs, with costs counted on the kept elements only.

    ``keep_a`` and ``keep_b`` say which elements take part (all when ``None``);
    ``found`` are the :func:`frontiers` of the kept elements.  Setting aside elements that
    occur on one side only changes no answer: they can never be matched, so the
    longest common subsequences of any two suffixes stay the same without them.

    ``x``, ``y`` are the positions among the kept elements and ``cost`` their
    suffix distance ``E(x, y)``; deleting ``a[i]`` keeps the longest common
    subsequence exactly when ``E(x+1, y) == cost - 1`` (or when ``a[i]`` is not
    kept, as it can never be matched).
    """
    n, m = len(a), len(b)
    kn = n if keep_a is None else sum(keep_a)
    km = m if keep_b is None else sum(keep_b)
    cost = len(found) - 1  # E(0, 0) of the kept parts
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
        if level >= 0 and -level <= k <= level and found[level][(k + level) // 2] >= kn - x - 1:
            i += 1
            x += 1
            cost -= 1
        else:
            if keep_b is None or keep_b[j]:
                y += 1
                cost -= 1
            j += 1
    return runs
