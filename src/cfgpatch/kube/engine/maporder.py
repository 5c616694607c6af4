"""Where kubectl's strategic merge depends on Go's random map order.

kubectl handles the keys of a patch map in Go's random map order.  The order matters
when a map holds both ``f`` and ``$deleteFromPrimitiveList/f`` (and no
``$setElementOrder/f``, which is always handled first): deleting first and then merging
can give another list than merging first and then deleting (a value in both,
duplicates, or the spare capacity the deletion leaves behind).  :func:`strategic_merge`
follows the patch's key order, as kubectl does most of the time; :func:`order_alternatives`
runs the same merge with a map visitor that tries both orders of every such pair.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

from ...errors import KUBECTL_CRASH, KubeError
from ...jsonvalue import canonical_unchecked
from ...pointer import format_pointer
from ..schema.node import Node
from .directives import DELETE_FROM_PRIMITIVE_LIST
from .strategic import StrategicMerge


def order_alternatives(original: Any, patch: Any, node: Node) -> list[tuple[str, str]]:
    """``(pointer, explanation)`` for each field whose two Go map orders give different
    answers; empty when the patch has no such pair or fails before reaching one."""
    found: list[tuple[str, str]] = []
    if not _has_pair(patch):
        return found

    def visit(original_map: dict, patch_map: dict, map_node: Node, path: list) -> None:
        found.extend(_differing_orders(original_map, patch_map, map_node, path))

    with contextlib.suppress(KubeError):  # a failing patch: the pairs found before it
        StrategicMerge(visit_map=visit).run(original, patch, node)
    return found


def _has_pair(value: Any) -> bool:
    """Whether some map of the patch holds both ``f`` and ``$deleteFromPrimitiveList/f``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                if (key.startswith(DELETE_FROM_PRIMITIVE_LIST + "/")
                        and key.partition("/")[2] in item):
                    return True
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _differing_orders(original: dict, patch: dict, node: Node,
                      path: list) -> list[tuple[str, str]]:
    out = []
    for key in list(patch):
        if not key.startswith(DELETE_FROM_PRIMITIVE_LIST + "/"):
            continue
        field = key.partition("/")[2]
        if field not in patch:
            continue
        merge_first = _trial(original, field, patch, (field, key), node, path)
        delete_first = _trial(original, field, patch, (key, field), node, path)
        if merge_first == delete_first:
            continue
        keys = list(patch)
        ours_merge_first = keys.index(field) < keys.index(key)
        other, first = (delete_first, key) if ours_merge_first else (merge_first, field)
        out.append((format_pointer([*map(str, path), field]),
                    f"kubectl handles {field} and {key} in Go's random map order; "
                    f"the result shown takes them in the order kubectl reads the patch's "
                    f"keys (what it does most of the time), but when it takes {first} first, "
                    f"{field} {other}"))
    return out


def _trial(original: dict, field: str, patch: dict, keys: tuple[str, str], node: Node,
           path: list) -> str:
    """What ``field`` becomes when ``keys`` are handled in this order."""
    scratch = {field: copy.deepcopy(original[field])} if field in original else {}
    capacities: dict[str, tuple[list, int]] = {}
    merge = StrategicMerge()
    try:
        for key in keys:
            merge.merge_key(scratch, key, copy.deepcopy(patch[key]), node, path, capacities)
    except KubeError as exc:
        return f"{'crashes' if exc.code == KUBECTL_CRASH else 'fails'}: {exc.message}"
    if field not in scratch:
        return "is left out"
    return f"is {canonical_unchecked(scratch[field])}"
