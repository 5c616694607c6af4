"""The directives of a strategic merge patch, and the checks kubectl makes on them.

Named constants for every directive (``$patch``, ``$retainKeys``,
``$deleteFromPrimitiveList/<f>``, ``$setElementOrder/<f>``), kubectl's error texts for
malformed ones, and the small steps :mod:`.strategic` takes with them: ``$patch`` on a
map, ``$retainKeys`` pruning, a value new to the object cleaned of nulls and directives,
and the check that a patch list follows its ``$setElementOrder`` list.
"""

from __future__ import annotations

from ...errors import KubeError
from ...pointer import format_pointer
from ..go.runtime import MAP_TYPE, go_equal, go_format, hash_key
from .listorder import bad_arg_type, no_merge_key, split_deletes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DIRECTIVE = "$patch"
REPLACE = "replace"
DELETE = "delete"
MERGE = "merge"
RETAIN_KEYS = "$retainKeys"
DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList"
SET_ELEMENT_ORDER = "$setElementOrder"

BAD_RETAIN_KEYS = "invalid patch format of retainKeys"
BAD_PRIMITIVE_LIST = "invalid patch format of primitive list"
BAD_ORDER_LIST = "invalid patch format of setElementOrder list"


def fail(message: str, hint: str, path: list | None = None) -> KubeError:
    pointer = None if path is None else format_pointer([str(t) for t in path])
    return KubeError(message, hint=hint, pointer=pointer)


def bad_patch_type(directive: Any, item: dict) -> KubeError:
    return KubeError(f"unknown patch type: {go_format(directive, 's')} in map: {go_format(item)}",
                     hint="$patch takes replace or delete (on a map or a list element)")


def with_pointer(exc: KubeError, path: list) -> KubeError:
    if exc.pointer is None:
        exc.pointer = format_pointer([str(t) for t in path])
    return exc


def map_directive(directive: Any, patch: dict) -> dict:
    if directive == REPLACE and isinstance(directive, str):
        del patch[DIRECTIVE]
        return patch
    if directive == DELETE and isinstance(directive, str):
        return {}
    raise bad_patch_type(directive, patch)


def take_patch_value(original: dict, key: str, value: Any) -> None:
    discard_nulls(value)
    cleaned, keep = remove_directives(value)
    if keep:
        original[key] = cleaned
    else:
        original.pop(key, None)


def discard_nulls(value: Any) -> None:
    if isinstance(value, dict):
        for key in list(value):
            if value[key] is None:
                del value[key]
            else:
                discard_nulls(value[key])
    elif isinstance(value, list):
        for item in value:
            discard_nulls(item)


def remove_directives(value: Any) -> tuple[Any, bool]:
    """Drop maps carrying ``$patch`` from a value new to the object."""
    if isinstance(value, dict):
        if DIRECTIVE in value:
            return None, False
        for key in list(value):
            cleaned, keep = remove_directives(value[key])
            if keep:
                value[key] = cleaned
            else:
                del value[key]
        return value, True
    if isinstance(value, list):
        out = []
        for item in value:
            cleaned, keep = remove_directives(item)
            if keep:
                out.append(cleaned)
        return out, True
    return value, True


def extract_key(key: str, prefix: str, path: list | None = None) -> str:
    head, sep, rest = key.partition("/")
    if not sep or head != prefix:
        message = BAD_PRIMITIVE_LIST if prefix == DELETE_FROM_PRIMITIVE_LIST else BAD_ORDER_LIST
        raise fail(message, f"{key!r} is not a well-formed {prefix}/<field> directive", path)
    return rest


def apply_retain_keys(original: dict, patch: dict) -> None:
    if RETAIN_KEYS not in patch:
        return
    keep = patch.pop(RETAIN_KEYS)
    if not isinstance(keep, list):
        raise KubeError(BAD_RETAIN_KEYS, hint="$retainKeys must be a list of field names")
    allowed = {hash_key(item) for item in keep}
    for key, value in patch.items():
        if value is None or key.startswith((DELETE_FROM_PRIMITIVE_LIST, SET_ELEMENT_ORDER)):
            continue
        if hash_key(key) not in allowed:
            raise KubeError(BAD_RETAIN_KEYS,
                            hint=f"the patch sets {key!r}, which its $retainKeys list omits")
    for key in list(original):
        if hash_key(key) not in allowed:
            del original[key]


def check_order(given: list, order: list, merge_key: str) -> None:
    if not order or not given:
        return
    items = split_deletes(given)[0] if merge_key else given
    i = j = 0
    while i < len(items) and j < len(order):
        if isinstance(items[i], dict) and DIRECTIVE in items[i]:
            i += 1
            continue
        if merge_key_equal(items[i], order[j], merge_key):
            i += 1
        j += 1
    if i < len(items) and j >= len(order):
        raise KubeError(
            f"The order in patch list:\n{go_format(given)}\n doesn't match "
            f"{SET_ELEMENT_ORDER} list:\n{go_format(order)}",
            hint="every element of the patch list must appear in $setElementOrder, "
                 "in the same relative order")


def merge_key_equal(left: Any, right: Any, merge_key: str) -> bool:
    if not merge_key:
        return go_equal(left, right)
    for item in (left, right):
        if not isinstance(item, dict):
            raise bad_arg_type(MAP_TYPE, item)
        if merge_key not in item:
            raise no_merge_key(item, merge_key)
    return go_equal(left[merge_key], right[merge_key])
