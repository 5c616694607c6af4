"""How JSON values behave inside kubectl's Go code, for exact results and messages.

kubectl decodes JSON into Go ``interface{}`` values: ``map[string]interface {}``,
``[]interface {}``, ``string``, ``int64`` (integers within int64), ``float64``,
``bool`` and ``nil``.  Strategic merge compares them with Go's ``==``, uses them as
map keys, sorts with ``sort.SliceStable`` and prints them with ``%v`` in its error
messages; it edits lists in place through slices that share one array
(:class:`GoSlice`, :func:`append_unique`).  This module reproduces those
behaviours for the Python values
cfgpatch uses (``int`` for int64, ``float`` for float64), including the cases
where Go panics (comparing or hashing a map or a list), which kubectl reports as
a crash with exit code 2.

>>> go_format({"image": "x", "ports": [80, 1.5, None, True]})
'map[image:x ports:[80 1.5 <nil> true]]'
>>> go_format(1000000.0)
'1e+06'
"""

from __future__ import annotations

import bisect

from ...errors import KUBECTL_CRASH, KubeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAP_TYPE = "map[string]interface {}"
SLICE_TYPE = "[]interface {}"


def go_type(value: Any) -> str | None:
    """The Go dynamic type name of a decoded JSON value (None for ``nil``)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return MAP_TYPE
    if isinstance(value, list):
        return SLICE_TYPE
    return type(value).__name__


def crash(reason: str) -> KubeError:
    """The error for a Go runtime panic (kubectl exits with code 2)."""
    return KubeError(
        f"panic: runtime error: {reason}", code=KUBECTL_CRASH,
        hint="kubectl itself crashes on this patch (Go runtime panic, exit code 2); "
             "there is no result to predict")


def go_equal(left: Any, right: Any) -> bool:
    """Go's ``==`` on two ``interface{}`` values (panics on maps and slices)."""
    kind = go_type(left)
    if kind != go_type(right):
        return False
    if kind in (MAP_TYPE, SLICE_TYPE):
        raise crash(f"comparing uncomparable type {kind}")
    return left == right


def hash_key(value: Any) -> tuple[str | None, Any]:
    """A Python key that behaves like the Go value as a map key (panics like Go)."""
    kind = go_type(value)
    if kind in (MAP_TYPE, SLICE_TYPE):
        raise crash(f"hash of unhashable type {kind}")
    return kind, value


def go_format(value: Any, verb: str = "v") -> str:
    """``fmt.Sprintf("%v", value)`` (or ``%s``) for a decoded JSON value."""
    if isinstance(value, dict):
        inner = " ".join(f"{key}:{go_format(value[key], verb)}" for key in sorted(value))
        return f"map[{inner}]"
    if isinstance(value, list):
        return "[" + " ".join(go_format(item, verb) for item in value) + "]"
    if isinstance(value, str):
        return value
    text = _scalar_v(value)
    if verb == "s":
        return "%!s(<nil>)" if value is None else f"%!s({go_type(value)}={text})"
    return text


def _scalar_v(value: Any) -> str:
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        from .json import go_float_g  # %v of a float64 is %g

        return go_float_g(value)
    return str(value)


def stable_sort(items: list, less: Callable[[Any, Any], bool]) -> None:
    """Go's ``sort.SliceStable`` in place, step for step.

    The order matters even for a ``less`` that is not a strict weak order (as
    kubectl's is when an item is missing from the reference list): insertion sort
    on blocks of 20, then symmetric merges of doubling size.
    """
    n = len(items)
    block = 20
    start, end = 0, block
    while end <= n:
        _insertion_sort(items, less, start, end)
        start, end = end, end + block
    _insertion_sort(items, less, start, n)
    while block < n:
        start, end = 0, 2 * block
        while end <= n:
            _sym_merge(items, less, start, start + block, end)
            start, end = end, end + 2 * block
        middle = start + block
        if middle < n:
            _sym_merge(items, less, start, middle, n)
        block *= 2


def _insertion_sort(items: list, less: Callable, a: int, b: int) -> None:
    for i in range(a + 1, b):
        j = i
        while j > a and less(items[j], items[j - 1]):
            items[j], items[j - 1] = items[j - 1], items[j]
            j -= 1


def _sym_merge(items: list, less: Callable, a: int, m: int, b: int) -> None:
    if m - a == 1:
        i, j = m, b
        while i < j:
            h = (i + j) // 2
            if less(items[h], items[a]):
                i = h + 1
            else:
                j = h
        for k in range(a, i - 1):
            items[k], items[k + 1] = items[k + 1], items[k]
        return
    if b - m == 1:
        i, j = a, m
        while i < j:
            h = (i + j) // 2
            if not less(items[m], items[h]):
                i = h + 1
            else:
                j = h
        for k in range(m, i, -1):
            items[k], items[k - 1] = items[k - 1], items[k]
        return
    mid = (a + b) // 2
    n = mid + m
    if m > mid:
        start, r = n - b, mid
    else:
        start, r = a, m
    p = n - 1
    while start < r:
        c = (start + r) // 2
        if not less(items[p - c], items[c]):
            start = c + 1
        else:
            r = c
    end = n - start
    if start < m < end:
        _rotate(items, start, m, end)
    if a < start < mid:
        _sym_merge(items, less, a, start, mid)
    if mid < end < b:
        _sym_merge(items, less, mid, end, b)


def _rotate(items: list, a: int, m: int, b: int) -> None:
    i, j = m - a, b - m
    while i != j:
        if i > j:
            _swap_range(items, m - i, m, j)
            i -= j
        else:
            _swap_range(items, m - i, m + j - i, i)
            j -= i
    _swap_range(items, m - i, m, i)


def _swap_range(items: list, a: int, b: int, n: int) -> None:
    for i in range(n):
        items[a + i], items[b + i] = items[b + i], items[a + i]


def append_capacity(length: int) -> int:
    """The capacity Go's JSON decoder leaves on a decoded array of ``length`` items.

    The decoder grows the slice with ``append`` one item at a time; for 16-byte
    elements the capacity doubles (1, 2, 4, 8, ...) up to 256 and then grows by
    about a quarter, rounded to the allocator's size classes.
    """
    cap = 0
    while cap < length:
        cap = grow_capacity(cap, cap + 1)
    return cap


def grow_capacity(old_cap: int, needed: int) -> int:
    """``runtime.growslice`` for 16-byte elements: the new capacity for ``needed``."""
    new_cap = old_cap
    double = old_cap * 2
    if needed > double:
        new_cap = needed
    elif old_cap < 256:
        new_cap = double
    else:
        while new_cap < needed:
            new_cap += (new_cap + 3 * 256) >> 2
    return _round_to_size_class(new_cap * 16) // 16


_SIZE_CLASSES = (
    16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320,
    352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536,
    1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912,
    8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480,
    21760, 24576, 27264, 28672, 32768,
)


def _round_to_size_class(size: int) -> int:
    for klass in _SIZE_CLASSES:
        if size <= klass:
            return klass
    page = 8192
    return (size + page - 1) // page * page


class GoSlice:
    """A Go slice over the caller's list, for kubectl's in-place list edits.

    Deleting an element shifts the rest left inside the same array and ``append``
    writes into spare capacity, so the caller's view of the original list (used
    later for ordering by ``$setElementOrder``) sees those writes, as in Go.
    """

    def __init__(self, view: list, capacity: int | None = None) -> None:
        self.view = view
        self.array = list(view)
        self.cap = append_capacity(len(view)) if capacity is None else capacity
        self.length = len(view)
        self.shared = True

    def items(self) -> list:
        return self.array[:self.length]

    def set(self, index: int, value: Any) -> None:
        self.array[index] = value
        if self.shared and index < len(self.view):
            self.view[index] = value

    def delete_at(self, index: int) -> None:
        for k in range(index, self.length - 1):
            self.set(k, self.array[k + 1])
        self.length -= 1

    def append(self, value: Any) -> None:
        if self.length >= self.cap:
            self.array = self.array[:self.length]
            self.cap = grow_capacity(self.cap, self.length + 1)
            self.shared = False
        if self.length < len(self.array):
            self.set(self.length, value)
        else:
            self.array.append(value)
        self.length += 1


def append_unique(current: list, given: list, capacity: int | None = None) -> list:
    """``deduplicateScalars(append(current, given...))`` with Go's aliasing.

    When ``current`` has spare capacity, ``append`` writes into its array and the
    de-duplication's swaps then overwrite the original list in place, which later
    decides the order of the result (kubectl's duplicates quirk).  ``capacity`` is
    the Go capacity of ``current``; by default that of a list kubectl decoded from
    JSON (:func:`append_capacity`).
    """
    if capacity is None:
        capacity = append_capacity(len(current))
    shared = capacity >= len(current) + len(given)
    array = current + given
    last = dedupe_in_place(array)
    if shared:
        current[:] = array[:len(current)]
    return array[:last + 1]


def dedupe_in_place(array: list) -> int:
    """Go's ``deduplicateScalars`` on ``array`` (a list of scalars); returns the last index.

    Go scans ``j`` upward from ``i + 1`` and overwrites each later copy of
    ``array[i]`` with the current last element.  This does the same moves in
    O(n log n): per value, the sorted positions where it still sits.
    """
    positions: dict[Any, list[int]] = {}
    for index, item in enumerate(array):
        positions.setdefault(hash_key(item), []).append(index)
    last = len(array) - 1
    i = 0
    while i < last:
        spots = positions[hash_key(array[i])]
        while True:
            at = bisect.bisect_right(spots, i)
            if at >= len(spots) or spots[at] > last:
                break
            j = spots.pop(at)
            moved = array[last]
            moved_spots = positions[hash_key(moved)]
            if j != last:
                moved_spots.pop()  # ``last`` is the highest live position of its value
                bisect.insort(moved_spots, j)
            array[j] = moved
            last -= 1
        i += 1
    return last


def dedupe_in_place_slow(array: list) -> int:
    """The same, step for step as Go writes it (O(n^2); the reference in tests)."""
    last = len(array) - 1
    i = 0
    while i < last:
        j = i + 1
        while j <= last:
            if go_equal(array[i], array[j]):
                array[j] = array[last]
                last -= 1
                j -= 1
            j += 1
        i += 1
    return last
