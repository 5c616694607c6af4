"""cfgpatch.lcs.bits: rows of L as integers, kept whole or in blocks, and the walk."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import cfgpatch.lcs.bits as bits
from test_lcs_sparse import as_pairs, literal_walk, suffix_lcs


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=12),
       st.lists(st.integers(0, 3), min_size=1, max_size=12))
def test_rows_hold_the_suffix_lengths(a, b):
    rows = bits._Rows(a, b)
    m = len(b)
    for i in range(len(a) + 1):
        row = rows.row(i)
        for j in range(m + 1):
            zeros_below = (m - j) - (row & ((1 << (m - j)) - 1)).bit_count()
            assert zeros_below == suffix_lcs(a, b, i, j)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=16), st.lists(st.integers(0, 5), max_size=16),
       st.sampled_from([16 * 2**20, 1, 7, 40]))
def test_the_walk_matches_the_literal_walk_with_any_row_memory(a, b, row_bytes):
    saved = bits.ROW_BYTES
    bits.ROW_BYTES = row_bytes
    try:
        assert as_pairs(bits.walk(a, b)) == literal_walk(a, b)
    finally:
        bits.ROW_BYTES = saved


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=16), st.lists(st.integers(0, 8), max_size=16))
def test_columns_found_on_one_side_may_be_left_out_of_the_rows(a, b):
    keep_b = [key in a for key in b]
    kept_b = [key for key in b if key in a]
    assert as_pairs(bits.walk(a, b, kept_b, keep_b)) == literal_walk(a, b)


def test_blocks_are_computed_again_from_checkpoints(monkeypatch):
    monkeypatch.setattr(bits, "ROW_BYTES", 64)
    a = [k % 3 for k in range(200)]
    b = [k % 4 for k in range(150)]
    rows = bits._Rows(a, b)
    assert rows.step < len(a)
    assert as_pairs(bits.walk(a, b)) == literal_walk(a, b)
