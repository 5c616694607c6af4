"""cfgpatch.lcs.sparse: levels of the pairs of equal elements, and the walk over them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.lcs.sparse import levels, pair_count, positions, walk


def suffix_lcs(a, b, i, j):
    """L(i, j) by the literal table (small inputs only)."""
    n, m = len(a) - i, len(b) - j
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for x in range(n - 1, -1, -1):
        for y in range(m - 1, -1, -1):
            table[x][y] = (table[x + 1][y + 1] + 1 if a[i + x] == b[j + y]
                           else max(table[x + 1][y], table[x][y + 1]))
    return table[0][0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=12), st.lists(st.integers(0, 3), max_size=12))
def test_levels_are_the_suffix_lengths_of_every_pair(a, b):
    rows, cols = levels(a, positions(b))
    seen = 0
    for h, (level_rows, level_cols) in enumerate(zip(rows, cols), start=1):
        assert level_rows == sorted(level_rows, reverse=True)
        assert level_cols == sorted(level_cols)
        for i, j in zip(level_rows, level_cols):
            assert a[i] == b[j]
            assert suffix_lcs(a, b, i, j) == h
            seen += 1
    assert seen == pair_count({k: a.count(k) for k in a}, {k: b.count(k) for k in b})


def literal_walk(a, b):
    """Rule 2(c) as written: the table of suffix lengths, then the walk from (0, 0)."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = (table[i + 1][j + 1] + 1 if a[i] == b[j]
                           else max(table[i + 1][j], table[i][j + 1]))
    matches, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            matches.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] == table[i][j]:
            i += 1
        else:
            j += 1
    return matches


def as_pairs(runs):
    return [(i + k, j + k) for i, j, length in runs for k in range(length)]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=16), st.lists(st.integers(0, 5), max_size=16))
def test_the_walk_matches_the_literal_walk(a, b):
    assert as_pairs(walk(a, b)) == literal_walk(a, b)


def test_a_reversal_has_one_level_and_one_match():
    a = list(range(500))
    rows, _ = levels(a, positions(a[::-1]))
    assert len(rows) == 1 and len(rows[0]) == 500
    assert walk(a, a[::-1]) == [(499, 0, 1)]
