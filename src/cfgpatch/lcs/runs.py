"""Runs of equal keys, compared slice by slice (C speed), and matches as runs.

A *run* ``(i, j, length)`` says ``a[i:i+length]`` is matched with
``b[j:j+length]``; every alignment method returns its matches as runs, in
order.
"""

from __future__ import annotations

from collections.abc import Sequence

Run = tuple[int, int, int]


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


def common_suffix(a: Sequence, b: Sequence, limit: int) -> int:
    """Length of the longest common suffix of ``a`` and ``b``, at most ``limit``.

    >>> common_suffix("xabc", "yybc", 4)
    2
    """
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


def pairs_to_runs(rows: list[int], cols: list[int]) -> list[Run]:
    """Matched pairs ``(rows[k], cols[k])``, increasing, joined into maximal runs.

    >>> pairs_to_runs([0, 1, 2, 5], [3, 4, 5, 6])
    [(0, 3, 3), (5, 6, 1)]
    """
    runs: list[Run] = []
    start = 0
    for k in range(1, len(rows) + 1):
        if k == len(rows) or rows[k] != rows[k - 1] + 1 or cols[k] != cols[k - 1] + 1:
            runs.append((rows[start], cols[start], k - start))
            start = k
    return runs
