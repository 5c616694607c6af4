"""Sorting as patch creation sorts (``kube/engine/keysort.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.kube.engine.keysort import dedupe_and_sort, sort_maps, sort_scalars, sorted_scalars
from cfgpatch.kube.go.runtime import go_format

SCALARS = st.lists(st.one_of(st.integers(-20, 20), st.sampled_from(["a", "b", "10", "9"]),
                             st.booleans()), max_size=40)


def test_text_order_not_number_order():
    items = [10, 9, "a", 100]
    sort_scalars(items)
    assert items == [10, 100, 9, "a"]


@given(SCALARS)
def test_sorted_by_text_and_a_permutation(items):
    out = sorted_scalars(items)
    texts = [go_format(item) for item in out]
    assert texts == sorted(texts)
    assert sorted(map(repr, out)) == sorted(map(repr, items))


@given(SCALARS)
def test_dedupe_and_sort_keeps_one_of_each(items):
    out = dedupe_and_sort(items)
    assert len({(type(i), i) for i in out}) == len(out)
    assert {(type(i), i) for i in out} == {(type(i), i) for i in items}


def test_equal_keys_reverse_in_short_lists():
    # insertion sort with a <= b swaps every pair of equal neighbours
    items = [{"name": "a", "n": 1}, {"name": "a", "n": 2}, {"name": "a", "n": 3}]
    assert [item["n"] for item in sort_maps(items, "name")] == [3, 2, 1]


def test_missing_key_sorts_as_nil():
    assert sort_maps([{"name": "z"}, {"x": 1}], "name") == [{"x": 1}, {"name": "z"}]
