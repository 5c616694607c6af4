"""Sorting list elements as apimachinery's patch creation does.

Patch creation walks two lists side by side in the order of the ``fmt.Sprintf("%v")``
text of each element (scalars) or of its merge key (maps), sorted with Go's
``sort.Sort`` and the comparison ``sort.StringsAreSorted([]string{a, b})``, which is
``a <= b``: equal texts do not keep their order (:mod:`..go.pdqsort` makes Go's moves).
``"80"`` and ``80`` have the same text, so they sort (and later pair up) together.

>>> items = ["b", 10, "a", 9]
>>> sort_scalars(items)
>>> items
[10, 9, 'a', 'b']
>>> sort_maps([{"name": "b"}, {"name": "a"}, {}], "name")
[{}, {'name': 'a'}, {'name': 'b'}]
"""

from __future__ import annotations

from ..go.pdqsort import go_sort
from ..go.runtime import dedupe_in_place, go_format
from .listorder import element_type


def _text_le(a: tuple, b: tuple) -> bool:
    return a[0] <= b[0]


def sort_scalars(items: list) -> None:
    """``sortScalars`` in place: ``sort.Sort`` by ``%v`` text with ``a <= b``."""
    keyed = [(go_format(item), item) for item in items]
    go_sort(keyed, _text_le)
    items[:] = [item for _, item in keyed]


def sorted_scalars(items: list) -> list:
    """A sorted copy (``sortScalars`` on a copy of the slice)."""
    out = list(items)
    sort_scalars(out)
    return out


def dedupe_and_sort(items: list) -> list:
    """``deduplicateAndSortScalars`` on a copy: Go's in-place de-duplication, then sort."""
    array = list(items)
    last = dedupe_in_place(array)
    array = array[:last + 1]
    sort_scalars(array)
    return array


def sort_maps(items: list, merge_key: str) -> list:
    """``sortMergeListsByNameArray`` (not recursive): a sorted copy, by the ``%v`` text of
    each map's merge key (``<nil>`` when missing).  Raises kubectl's error for a list
    whose elements are not all maps of one type."""
    if not items:
        return items
    element_type(items)
    keyed = [(go_format(item.get(merge_key)), item) for item in items]
    go_sort(keyed, _text_le)
    return [item for _, item in keyed]
