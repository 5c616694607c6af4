"""A deliberately literal, slow second reading of the diff rules (the test oracle).

This module restates the contract's Part 2 and Part 3a rules as directly as
possible, without any of the real implementation's shortcuts: equality is
:func:`cfgpatch.jsonvalue.equal`, the longest common subsequence uses the full
quadratic table of suffix lengths, and the move pass re-scans the whole
operation list from the start after every pairing.  It is only for tests: the
property tests demand byte-identical output from :mod:`cfgpatch.diffing`.

Nothing here is imported by the package.
"""

from __future__ import annotations

import json
from typing import Any

from cfgpatch.jsonvalue import equal


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


# -- Part 2, rule 2: alignment ---------------------------------------------------


def classify(values: list) -> list[int]:
    """Class numbers such that two values share a number exactly when they are ``equal``.

    Only a speed-up for big inputs: values are bucketed by their sorted-key JSON
    dump, and every bucket is split again with :func:`equal` against one
    representative per class, so the classes never rely on the dump alone.
    """
    buckets: dict[str, list[tuple[Any, int]]] = {}
    out = []
    count = 0
    for value in values:
        reps = buckets.setdefault(json.dumps(value, sort_keys=True), [])
        for rep, number in reps:
            if equal(rep, value):
                out.append(number)
                break
        else:
            reps.append((value, count))
            out.append(count)
            count += 1
    return out


def align(a: list, b: list) -> list[tuple[int, int]]:
    """Matched index pairs (i in a, j in b), in increasing order."""
    if len(a) + len(b) > 200:  # compare class numbers instead of calling equal() n*m times
        numbers = classify(list(a) + list(b))
        return _align(numbers[: len(a)], numbers[len(a) :], int.__eq__)
    return _align(a, b, equal)


def _align(a: list, b: list, equal: Any) -> list[tuple[int, int]]:
    prefix = 0
    while prefix < len(a) and prefix < len(b) and equal(a[prefix], b[prefix]):
        prefix += 1
    suffix = 0
    while (
        suffix < len(a) - prefix
        and suffix < len(b) - prefix
        and equal(a[len(a) - 1 - suffix], b[len(b) - 1 - suffix])
    ):
        suffix += 1
    mid_a = a[prefix : len(a) - suffix]
    mid_b = b[prefix : len(b) - suffix]
    n, m = len(mid_a), len(mid_b)
    # table[i][j] = length of the LCS of mid_a[i:] and mid_b[j:]
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if equal(mid_a[i], mid_b[j]):
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    matches = [(k, k) for k in range(prefix)]
    i = j = 0
    while i < n and j < m:
        if equal(mid_a[i], mid_b[j]):
            matches.append((prefix + i, prefix + j))
            i += 1
            j += 1
        elif table[i + 1][j] == table[i][j]:
            i += 1
        else:
            j += 1
    for k in range(suffix):
        matches.append((len(a) - suffix + k, len(b) - suffix + k))
    return matches


# -- Part 2, rules 1, 3, 4, 5: the two-phase patch -------------------------------


def _diff_value(x: Any, y: Any, p1: str, p2: str, removes: list, later: list) -> None:
    """Append phase-1 removals to ``removes`` and phase-2 adds/replaces to ``later``.

    ``p1`` is the location as seen during phase 1 (survivor indices), ``p2`` as
    seen during phase 2 (final positions in b).  A removal is kept as a pair
    (operation, removed value).
    """
    if equal(x, y):
        return
    if type(x) is dict and type(y) is dict:
        for key in sorted(set(x) | set(y)):
            t = "/" + _escape(key)
            if key not in y:
                removes.append(({"op": "remove", "path": p1 + t}, x[key]))
            elif key not in x:
                later.append({"op": "add", "path": p2 + t, "value": y[key]})
            else:
                _diff_value(x[key], y[key], p1 + t, p2 + t, removes, later)
        return
    if type(x) is list and type(y) is list:
        _diff_array(x, y, p1, p2, removes, later)
        return
    later.append({"op": "replace", "path": p2, "value": y})


def _diff_array(a: list, b: list, p1: str, p2: str, removes: list, later: list) -> None:
    matches = align(a, b) + [(len(a), len(b))]  # a sentinel closes the last gap
    survivors = 0  # elements of a to the left that are not removed
    prev_i = prev_j = 0
    for mi, mj in matches:
        gap_d = list(range(prev_i, mi))
        gap_i = list(range(prev_j, mj))
        t = min(len(gap_d), len(gap_i))
        for k in range(t):
            _diff_value(
                a[gap_d[k]], b[gap_i[k]], f"{p1}/{survivors}", f"{p2}/{gap_i[k]}", removes, later
            )
            survivors += 1
        for k in range(t, len(gap_d)):
            removes.append(({"op": "remove", "path": f"{p1}/{survivors}"}, a[gap_d[k]]))
        for k in range(t, len(gap_i)):
            later.append({"op": "add", "path": f"{p2}/{gap_i[k]}", "value": b[gap_i[k]]})
        if mi < len(a):
            survivors += 1  # the matched element itself
        prev_i, prev_j = mi + 1, mj + 1


def diff_without_moves(a: Any, b: Any) -> tuple[list[dict], list[Any]]:
    """Part 2's patch, and for each operation the removed value (None if not a remove)."""
    removes: list = []
    later: list = []
    _diff_value(a, b, "", "", removes, later)
    ops = [op for op, _ in removes] + later
    removed = [value for _, value in removes] + [None] * len(later)
    return ops, removed


# -- Part 3a: moves ---------------------------------------------------------------


def _outermost_array(doc: Any, pointer: str) -> list[str] | None:
    """Tokens of the outermost array of ``doc`` that ``pointer`` indexes into."""
    node = doc
    walked: list[str] = []
    for token in _tokens(pointer):
        if type(node) is list:
            return walked
        if type(node) is not dict or token not in node:
            return None
        node = node[token]
        walked.append(token)
    return None


def _inside(pointer: str, array: list[str]) -> bool:
    """The contract's words: the pointer "starts with its pointer and is longer".

    This is a comparison of pointer text, not of tokens: ``/lx`` lies "inside"
    the array ``/l`` here (unlike the token-wise proper-prefix rule of ``move``,
    which the contract spells out as token by token).
    """
    array_pointer = "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in array)
    return pointer.startswith(array_pointer) and len(pointer) > len(array_pointer)


def _movable(value: Any) -> bool:
    return type(value) in (dict, list) and len(value) > 0


def _blocked(ops: list[dict], r: int, a: int, array: list[str] | None) -> bool:
    if array is None:
        return False
    for op in ops[r + 1 : a]:
        if _inside(op["path"], array):
            return True
        if op["op"] == "move" and _inside(op["from"], array):
            return True
    return False


def _find_pair(doc: Any, ops: list[dict], removed: list[Any]) -> tuple[int, int] | None:
    for r, op in enumerate(ops):
        if op["op"] != "remove" or not _movable(removed[r]):
            continue
        array = _outermost_array(doc, op["path"])
        for a in range(r + 1, len(ops)):
            other = ops[a]
            if other["op"] != "add" or not equal(other["value"], removed[r]):
                continue
            if not _blocked(ops, r, a, array):
                return r, a
    return None


def detect_moves(doc: Any, ops: list[dict], removed: list[Any]) -> list[dict]:
    """Part 3a's post-pass, re-scanning from the start after every pairing."""
    ops = list(ops)
    removed = list(removed)
    while True:
        pair = _find_pair(doc, ops, removed)
        if pair is None:
            return ops
        r, a = pair
        ops[a] = {"op": "move", "from": ops[r]["path"], "path": ops[a]["path"]}
        removed[a] = None
        del ops[r]
        del removed[r]


def reference_diff(a: Any, b: Any) -> list[dict]:
    """The full diff of Parts 2 and 3a."""
    ops, removed = diff_without_moves(a, b)
    return detect_moves(a, ops, removed)
