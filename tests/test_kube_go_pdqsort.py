"""Go's ``sort.Sort`` (``kube/go/pdqsort.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.kube.go.pdqsort import go_sort


def _insertion(items, less):
    items = list(items)
    for i in range(1, len(items)):
        j = i
        while j > 0 and less(items[j], items[j - 1]):
            items[j], items[j - 1] = items[j - 1], items[j]
            j -= 1
    return items


@given(st.lists(st.integers(0, 5), max_size=12))
def test_short_lists_are_insertion_sorted(values):
    items = list(enumerate(values))

    def less(a, b):
        return a[1] <= b[1]

    expected = _insertion(items, less)
    go_sort(items, less)
    assert items == expected


@given(st.lists(st.integers(0, 30), max_size=400))
def test_long_lists_come_out_sorted(values):
    items = list(enumerate(values))
    go_sort(items, lambda a, b: a[1] <= b[1])
    assert [v for _, v in items] == sorted(values)
    assert sorted(items) == sorted(enumerate(values))


def test_strict_order_on_patterns():
    for pattern in (list(range(300)), list(range(300, 0, -1)), [1] * 300,
                    [i % 7 for i in range(300)]):
        items = list(pattern)
        go_sort(items, lambda a, b: a < b)
        assert items == sorted(pattern)
