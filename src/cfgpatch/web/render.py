"""The lines the page draws: kubectl's text with a mark on each line, the line each
finding is about, the places where two results disagree, and a before/after view.

The printed lines come from :mod:`.printed` (``(text, pointers)``); here each gets
the marks the page shows:

* in the result panel, ``!`` when a finding names one of the line's places, else ``~``
  when the patch changed it (a value added or replaced, an element inserted, a list
  whose elements moved, or an element that moved);
* in the side-by-side columns, ``≠`` when the line lies inside a place where another
  type's result differs (:func:`differing_paths`).

A line is drawn as ``[text, mark, differs]``; the page only styles it.
"""

from __future__ import annotations

import difflib
from typing import Any

from ..jsonvalue import JSON, equal, escape

CHANGED = "~"
FLAGGED = "!"
_MISSING = object()


def _ancestors(pointer: str) -> list[str]:
    """``pointer`` and every pointer above it, the root ``""`` last."""
    out = [pointer]
    while pointer:
        pointer = pointer[: pointer.rfind("/")]
        out.append(pointer)
    return out


def changed_places(changes: list) -> tuple[set[str], set[str]]:
    """(subtrees, exact places) a list of ``Change`` marks as changed."""
    subtrees: set[str] = set()
    exact: set[str] = set()
    for change in changes:
        if change.action in ("add", "replace"):
            subtrees.add(change.path)
        if change.action != "list":
            continue
        exact.add(change.path)
        for landing in change.landings:
            if landing.target is None:
                continue
            at = f"{change.path}/{landing.target}"
            if landing.action == "inserted":
                subtrees.add(at)
            elif landing.source != landing.target:
                exact.add(at)
    return subtrees, exact


def _inside(places: set[str]):
    """A test: is a pointer one of ``places`` or inside one of them."""
    prefixes = tuple(place + "/" for place in places)
    if "" in places:
        return lambda pointer: True
    return lambda pointer: pointer in places or pointer.startswith(prefixes)


def marked_lines(lines: list, changes: list, findings: list, differs: list[str]) -> list:
    """``[text, mark, differs]`` for each printed line (see the module docstring)."""
    subtrees, exact = changed_places(changes)
    flagged = {finding.path for finding in findings}
    in_subtree = _inside(subtrees)
    apart = _inside(set(differs))
    out = []
    for text, pointers in lines:
        mark = ""
        if flagged and any(p in flagged for p in pointers):
            mark = FLAGGED
        elif any(p in exact or in_subtree(p) for p in pointers):
            mark = CHANGED
        out.append([text, mark, 1 if differs and any(apart(p) for p in pointers) else 0])
    return out


def finding_line(lines: list, pointer: str) -> int | None:
    """The index of the line a finding at ``pointer`` is about: the first line showing
    it, else the deepest line holding it (a place that is not in the result)."""
    best, depth = None, -1
    wanted = set(_ancestors(pointer))
    for index, (_, pointers) in enumerate(lines):
        for p in pointers:
            if p == pointer:
                return index
            if p in wanted and p.count("/") > depth:
                best, depth = index, p.count("/")
    return best


def before_after(before: list, after: list) -> list[list[str]]:
    """``[sign, text]`` lines of the whole before/after view: ``" "`` kept, ``"-"``
    removed, ``"+"`` added (a diff of kubectl's text of the object and of the result)."""
    old = [text for text, _ in before]
    new = [text for text, _ in after]
    out: list[list[str]] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out += [[" ", text] for text in old[i1:i2]]
            continue
        out += [["-", text] for text in old[i1:i2]]
        out += [["+", text] for text in new[j1:j2]]
    return out


def differing_paths(a: JSON, b: JSON) -> list[str]:
    """The topmost pointers where ``a`` and ``b`` differ, in document order.

    >>> differing_paths({"x": [1, 2], "y": 1}, {"x": [1, 3], "z": 1})
    ['/x/1', '/y', '/z']
    """
    out: list[str] = []
    stack: list[tuple[Any, Any, str]] = [(a, b, "")]
    while stack:
        left, right, pointer = stack.pop()
        if isinstance(left, dict) and isinstance(right, dict):
            keys = list(left) + [key for key in right if key not in left]
            for key in reversed(keys):
                child = f"{pointer}/{escape(key)}"
                stack.append((left.get(key, _MISSING), right.get(key, _MISSING), child))
        elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
            for i in reversed(range(len(left))):
                stack.append((left[i], right[i], f"{pointer}/{i}"))
        elif left is _MISSING or right is _MISSING or not equal(left, right):
            out.append(pointer)
    return out
