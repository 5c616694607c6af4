"""Three-way merge and rebase of a patch written against an older version.

:func:`rebase` carries a client's intent onto the current head:

1. replay: apply the patch to the version the client saw (``base``) with the
   normal all-or-nothing rules, giving ``mine`` (a failure is reported with its
   operation index; the head plays no part);
2. merge: :func:`merge` combines ``base``, ``mine`` and ``head`` value by value;
3. diff: the rebased patch is ``diff(head, merged)``, with moves, so it is
   empty when the head already holds everything.

:func:`merge` treats a missing member as a value of its own and decides, at
each location: unchanged on my side -> the head's value; unchanged on the
head's side -> mine; both made the same change -> that value; all three are
objects -> merge key by key (sorted) and drop keys that end up missing;
anything else -> :class:`~cfgpatch.errors.MergeConflict` naming the first
conflicting location (the root is reported as ``(root)``).  Arrays are atomic.
"""

from __future__ import annotations

from typing import Any

from .diffing import diff_ops
from .errors import CONFLICT, MergeConflict
from .jsonpatch import apply_patch
from .jsonvalue import JSON, deep_copy, escape
from .text_cache import TextCache


class _Missing:
    """The value of a member that is not there."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def _show(value: Any) -> str:
    if value is MISSING:
        return "(missing)"
    from .jsonvalue import canonical_unchecked

    text = canonical_unchecked(value)
    return text if len(text) <= 80 else text[:77] + "..."


class _Merger:
    def __init__(self, cache: TextCache) -> None:
        self.cache = cache

    def equal(self, x: Any, y: Any) -> bool:
        if x is y:
            return True
        if x is MISSING or y is MISSING:
            return False
        kind = type(x)
        if kind is not type(y) or x != y:
            return False
        return kind not in (dict, list) or self.cache.text(x) == self.cache.text(y)

    def merge(self, base: Any, mine: Any, head: Any, pointer: str) -> Any:
        if self.equal(mine, base):
            return head
        if self.equal(head, base):
            return mine
        if self.equal(mine, head):
            return mine
        if type(base) is dict and type(mine) is dict and type(head) is dict:
            merged = {}
            for key in sorted(base.keys() | mine.keys() | head.keys()):
                value = self.merge(
                    base.get(key, MISSING),
                    mine.get(key, MISSING),
                    head.get(key, MISSING),
                    pointer + "/" + escape(key),
                )
                if value is not MISSING:
                    merged[key] = value
            return merged
        raise MergeConflict(
            f"both sides changed {pointer or '(root)'} differently: base {_show(base)},"
            f" mine {_show(mine)}, head {_show(head)}",
            code=CONFLICT,
            pointer=pointer,
        )


def merge(base: JSON, mine: JSON, head: JSON) -> JSON:
    """Three-way merge of JSON values; raises :class:`MergeConflict` with ``pointer``.

    The result may share subtrees with ``mine`` and ``head``.  Recursion goes one
    Python frame per object level (documents are at most 256 deep).

    >>> merge({"a": 1, "b": 1}, {"a": 2, "b": 1}, {"a": 1, "b": 3})
    {'a': 2, 'b': 3}
    """
    return _Merger(TextCache()).merge(base, mine, head, "")


def rebase(
    base: JSON, head: JSON, patch: list[Any], *, trusted: bool = False,
    cache: TextCache | None = None, work_limit: int | None = None,
) -> list[dict[str, Any]]:
    """The patch to run on ``head`` that carries ``patch`` (written against ``base``).

    ``trusted=True`` skips validating ``base`` (it came from our own parser);
    ``cache`` may hold canonical texts of ``base`` and ``head`` already.
    ``work_limit`` bounds the array alignment of the final diff
    (:func:`cfgpatch.diffing.diff_ops`; the merge itself aligns nothing, arrays being
    atomic): past it, :class:`~cfgpatch.errors.LimitExceeded`.

    >>> rebase({"a": 1, "b": 1}, {"a": 1, "b": 2}, [{"op": "replace", "path": "/a", "value": 5}])
    [{'op': 'replace', 'path': '/a', 'value': 5}]
    """
    mine = apply_patch(base, patch, share_unchanged=True, trusted=trusted)
    cache = cache if cache is not None else TextCache()
    merged = _Merger(cache).merge(base, mine, head, "")
    ops = diff_ops(head, merged, cache, work_limit=work_limit)
    for op in ops:
        if "value" in op:
            op["value"] = deep_copy(op["value"])
    return ops


def conflict_values(base: JSON, mine: JSON, head: JSON, pointer: str) -> dict[str, str]:
    """The three values at a conflicting pointer, as short text, for messages."""
    from .pointer import parse_pointer

    out = {}
    for name, doc in (("base", base), ("mine", mine), ("head", head)):
        node: Any = doc
        for token in parse_pointer(pointer):
            if type(node) is dict and token in node:
                node = node[token]
            else:
                node = MISSING
                break
        out[name] = _show(node)
    return out
