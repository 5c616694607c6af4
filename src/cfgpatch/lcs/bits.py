"""The bit-parallel method: the walk over rows of ``L`` kept as integers.

For arrays with many pairs of equal elements and many differences (few
distinct values, heavily reordered), the cost is ``O(N·M/64)`` machine-word
operations done by Python's integer arithmetic in C, plus ``O(N + D)``
Python-level steps.

A row of ``L`` is one integer ``V`` of ``M`` bits (Allison and Dix; Crochemore
et al.'s update): bit ``t`` stands for ``B'[M-1-t]``, and ``L(i, j)`` is the
number of zero bits of ``V_i`` below bit ``M - j``.  ``V_N`` has every bit set,
and ``V_i`` follows from ``V_{i+1}`` and the set ``S`` of bits where ``B'``
holds ``A'[i]``: with ``U = V & S``, ``V_i = ((V + U) | (V - U))`` (kept to
``M`` bits).

The walk (the diff's rule for arrays) goes from row 0 down while the rows are
computed from row ``N`` up, so rows are kept: all of them when they fit in
:data:`ROW_BYTES`, otherwise every ``s``-th, and a block of ``s`` rows is
computed again from the one below it when the walk enters it.  At a mismatch
the walk deletes ``A'[i]`` exactly when ``L(i+1, j)`` is still the current
``L``, one count of the high bits of a row.
"""

from __future__ import annotations

from collections.abc import Sequence

from .runs import Run, common_run

#: Bytes of rows kept at once (all rows, or checkpoints plus one block).
ROW_BYTES = 16 * 2**20


def masks(b: Sequence) -> dict:
    """For each key of ``b``, the integer with bit ``M-1-j`` set where ``b[j]`` holds it.

    >>> {key: bin(mask) for key, mask in masks("aba").items()}
    {'a': '0b101', 'b': '0b10'}
    """
    m = len(b)
    where: dict = {}
    for j, key in enumerate(b):
        where.setdefault(key, []).append(m - 1 - j)
    size = (m + 7) // 8
    out = {}
    for key, bits in where.items():
        buffer = bytearray(size)
        for t in bits:
            buffer[t >> 3] |= 1 << (t & 7)
        out[key] = int.from_bytes(buffer, "little")
    return out


class _Rows:
    """The rows ``V_i`` (``0 <= i <= N``), kept whole or in checkpointed blocks."""

    def __init__(self, a: Sequence, b: Sequence) -> None:
        self.a = a
        self.masks = masks(b)
        self.full = (1 << len(b)) - 1
        n = len(a)
        per_row = len(b) // 8 + 1
        # All rows if they fit, else blocks of half the memory and a checkpoint each.
        self.step = n + 1 if n * per_row <= ROW_BYTES else max(1, ROW_BYTES // (2 * per_row))
        #: checkpoints[c] = V_{c * step}, for c * step <= N
        self.checkpoints: dict[int, int] = {}
        self.block_start = -1
        self.block: list[int] = []
        v = self.full
        if self.step > n:
            rows = [0] * (n + 1)
            rows[n] = v
            for i in range(n - 1, -1, -1):
                v = self._next(v, a[i])
                rows[i] = v
            self.block_start, self.block = 0, rows
            return
        if n % self.step == 0:
            self.checkpoints[n] = v
        for i in range(n - 1, -1, -1):
            v = self._next(v, a[i])
            if i % self.step == 0:
                self.checkpoints[i] = v

    def _next(self, v: int, key) -> int:
        u = v & self.masks.get(key, 0)
        return ((v + u) | (v - u)) & self.full

    def row(self, i: int) -> int:
        """``V_i``, computing the block that holds it if need be."""
        offset = i - self.block_start
        if 0 <= offset < len(self.block):
            return self.block[offset]
        start = i - i % self.step
        end = min(start + self.step, len(self.a))
        v = self.checkpoints.get(end, self.full)  # V_N: every bit set
        block = [0] * (end - start + 1)
        block[end - start] = v
        for r in range(end - 1, start - 1, -1):
            v = self._next(v, self.a[r])
            block[r - start] = v
        self.block_start, self.block = start, block
        return block[i - start]


def walk(a: Sequence, b: Sequence, kept_b: Sequence | None = None,
         keep_b: list | None = None) -> list[Run]:
    """The contract's walk over ``a`` and ``b`` (the middle parts), as matched runs.

    The rows may be those of ``kept_b``, the elements of ``b`` that ``keep_b``
    marks (those found in ``a``): the others are never matched, so ``L`` at
    column ``j`` is ``L`` at the first kept element from ``j`` on.

    >>> walk("abc", "cab")
    [(0, 1, 2)]
    >>> walk("xy", "yx")
    [(1, 0, 1)]
    >>> walk("ab", "xb", "b", [False, True])
    [(1, 1, 1)]
    """
    n, m = len(a), len(b)
    if kept_b is None or keep_b is None:
        kept_b, keep_b = b, None
    width = len(kept_b)
    rows = _Rows(a, kept_b)
    runs: list[Run] = []
    current = width - rows.row(0).bit_count()  # L(0, 0)
    i = j = y = 0  # y: the kept elements of b before j
    while i < n and j < m and current > 0:
        if a[i] == b[j]:
            length = common_run(a, b, i, j, min(n - i, m - j))
            runs.append((i, j, length))
            i += length
            j += length
            y += length  # matched elements are kept
            current -= length
            continue
        below = rows.row(i + 1)
        high = width - y  # L(i+1, j): zero bits of V_{i+1} below bit width - y
        if high - (below & ((1 << high) - 1)).bit_count() == current:
            i += 1
        else:
            if keep_b is None or keep_b[j]:
                y += 1
            j += 1
    return runs


def cost(n: int, m: int) -> int:
    """Steps of the method on ``n`` and ``m`` elements (see :mod:`cfgpatch.lcs.budget`).

    >>> cost(1000, 6400)
    234400
    """
    return 2 * n * (14 + m // 64) + m
