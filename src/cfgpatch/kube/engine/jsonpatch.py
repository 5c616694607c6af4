"""``kubectl patch --type json``: JSON Patch as kubectl's library applies it.

kubectl 1.27-1.33 apply JSON Patch with evanphx/json-patch v4.12.0, which departs from
RFC 6902 in ways users meet.  This module reproduces that behaviour and its error
texts exactly (the strict RFC 6902 engine of cfgpatch lives in ``cfgpatch.jsonpatch``
and is not touched).  What kubectl does differently from the RFC:

* array indices are read with Go's ``strconv.Atoi``: ``01``, ``+1`` and ``-1`` are
  accepted; a negative index counts from the end (``add`` at ``-1`` appends);
* ``replace`` of a missing object member adds it; ``copy`` from a missing member
  adds ``null``;
* a path is split on ``/`` and its first segment ignored: ``data/k2`` adds ``k2`` at
  the top level, a path with no ``/`` fails, and an invalid escape such as ``~2`` is
  kept literally (``~01`` decodes to ``~1``);
* ``test`` compares scalars by their JSON text after kubectl re-encoded them, so
  ``1`` equals ``1.0``; a missing member equals ``null``;
* ``add`` without ``value`` stores ``null``; ``replace`` of the root (``""``) by a
  scalar silently does nothing;
* nulls met while walking a path count as missing members;
* some inputs crash kubectl (exit code 2): a ``test`` comparing arrays that hold
  ``null``, a ``test`` without ``value`` on a missing or null member, a root ``replace``
  or ``test`` without ``value``, a path through a ``null`` the patch itself stored.

:func:`apply` returns the patched object, or raises ``KubeError`` whose ``message``
is kubectl's text without ``error: `` (``code="kubectl crash"`` for a crash).
Standard library only.
"""

from __future__ import annotations

from ...errors import KUBECTL_CRASH, KubeError
from ..go import json as gojson
from ..io.unstructured import decode_result, too_deep
from .jsonpatch_doc import (
    RAW_NULL,
    GoError,
    Panic,
    add_in,
    find_container,
    get_in,
    remove_in,
    set_in,
)
from .treecopy import deep_copy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_NIL_PANIC = "panic: runtime error: invalid memory address or nil pointer dereference"
_ABSENT = object()


_GO_TYPE = {dict: "object", list: "array", str: "string", bool: "bool", int: "number",
            float: "number"}


@too_deep
def apply(obj: dict, ops: Any, owned: bool = False) -> Any:
    """Apply ``ops`` (the decoded ``-p`` value) to ``obj`` as ``kubectl patch --type json``;
    ``owned``: ``obj`` is the caller's to give away (changed in place, not copied first:
    after an error it may be half changed).

    >>> apply({"kind": "K", "list": ["a", "b"]}, [{"op": "add", "path": "/list/-1",
    ...        "value": "X"}])["list"]
    ['a', 'b', 'X']
    """
    return decode_result(apply_document(obj, ops, owned), owned=True)  # a fresh tree


@too_deep
def apply_document(obj: Any, ops: Any, owned: bool = False) -> Any:
    """:func:`apply` without kubectl's decoding of the result (kustomize's JSON 6902
    patches go through the same library but not through kubectl's decoder).

    >>> apply_document({"items": [1]}, [{"op": "add", "path": "/items/-", "value": 2}])
    {'items': [1, 2]}
    """
    patch = _decode_patch(ops)
    root = [obj if owned else deep_copy(obj)]
    try:
        for op in patch:
            _apply_op(root, op)
    except GoError as err:
        raise _kube_error(str(err)) from None
    except Panic:
        raise KubeError(
            _NIL_PANIC,
            code=KUBECTL_CRASH,
            hint="kubectl itself crashes on this patch (exit code 2); "
            "there is no result to show",
        ) from None
    return _plain(root[0])


def _plain(value: Any) -> Any:
    """The value as JSON: stored nulls become ordinary ``None``."""
    if value is RAW_NULL:
        return None
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _stored(value: Any) -> Any:
    """What ``add``/``replace`` store for the operation's ``value``."""
    if value is _ABSENT:
        return None
    if value is None:
        return RAW_NULL
    return deep_copy(value)


def _kube_error(text: str) -> KubeError:
    if "doc is missing key" in text:
        key = text[text.index("key:") + 5:]
        text = f"Object to be patched is missing field ({key})"
    return KubeError(text, hint=_hint_for(text))


def _hint_for(text: str) -> str | None:
    if "doc is missing path" in text:
        return ("a member on the way does not exist (or is null); kubectl's JSON Patch "
                "creates no parents, and a '/' inside a key must be written '~1'")
    if "test failed" in text:
        return "the value at that path differs from the test value, so nothing was applied"
    if "invalid index" in text or "strconv.Atoi" in text:
        return "the array index is outside the list or not an integer"
    return None


def _decode_patch(ops: Any) -> list:
    """``jsonpatch.DecodePatch``: a JSON array of objects (or nulls)."""
    if ops is None:
        return []
    if not isinstance(ops, list):
        raise KubeError(
            f"json: cannot unmarshal {_go_type(ops)} into Go value of type jsonpatch.Patch",
            hint="a JSON Patch is an array of operations, e.g. "
            '[{"op":"replace","path":"/spec/replicas","value":3}]',
        )
    for item in ops:
        if item is not None and not isinstance(item, dict):
            raise KubeError(
                f"json: cannot unmarshal {_go_type(item)} into Go value of type "
                "jsonpatch.Operation",
                hint="each element of a JSON Patch must be an object with op and path",
            )
    return ops


def _go_type(value: Any) -> str:
    return _GO_TYPE.get(type(value), "object")


# --- reading an operation -------------------------------------------------------------


def _kind(op: dict | None) -> str:
    value = op.get("op") if op is not None else None
    return value if isinstance(value, str) else "unknown"


def _field(op: dict, name: str, missing: str) -> str:
    value = op.get(name)
    if value is None:
        raise GoError(f"{missing}: missing value")
    if not isinstance(value, str):
        raise GoError(f"json: cannot unmarshal {_go_type(value)} into Go value of type string")
    return value


def _path(op: dict) -> str:
    return _field(op, "path", "operation missing path field")


def _from(op: dict) -> str:
    return _field(op, "from", "operation, missing from field")


def _value(op: dict) -> Any:
    return op.get("value", _ABSENT)


# --- operations ----------------------------------------------------------------------------


def _apply_op(root: list, op: dict | None) -> None:
    kind = _kind(op)
    handler = _OPS.get(kind)
    if handler is None or op is None:  # no op: kind "unknown"
        raise GoError(f"Unexpected kind: {kind}")
    handler(root, op)


def _op_add(root: list, op: dict) -> None:
    try:
        path = _path(op)
    except GoError:
        raise GoError("add operation failed to decode path: missing value") from None
    found = find_container(root, path)
    if found is None:
        raise GoError(f'add operation does not apply: doc is missing path: "{path}": '
                       "missing value")
    value = _value(op)
    try:
        add_in(*found, _stored(value))
    except GoError as err:
        raise GoError(f"error in add for path: '{path}': {err}") from None


def _op_remove(root: list, op: dict) -> None:
    try:
        path = _path(op)
    except GoError:
        raise GoError("remove operation failed to decode path: missing value") from None
    found = find_container(root, path)
    if found is None:
        raise GoError(f'remove operation does not apply: doc is missing path: "{path}": '
                       "missing value")
    try:
        remove_in(*found)
    except GoError as err:
        raise GoError(f"error in remove for path: '{path}': {err}") from None


def _op_replace(root: list, op: dict) -> None:
    try:
        path = _path(op)
    except GoError as err:
        raise GoError(f"replace operation failed to decode path: {err}") from None
    value = _value(op)
    if path == "":
        if value is _ABSENT:
            raise Panic()
        if isinstance(value, (dict, list)):
            root[0] = deep_copy(value)
        return  # a scalar root: the library's error wraps nil, so nothing happens
    found = find_container(root, path)
    if found is None:
        raise GoError(f"replace operation does not apply: doc is missing path: {path}: "
                       "missing value")
    try:
        get_in(*found)
    except GoError:
        raise GoError(f"replace operation does not apply: doc is missing key: {path}: "
                       "missing value") from None
    set_in(*found, _stored(value))


def _op_move(root: list, op: dict) -> None:
    try:
        src = _from(op)
    except GoError as err:
        raise GoError(f"move operation failed to decode from: {err}") from None
    found = find_container(root, src)
    if found is None:
        raise GoError(f"move operation does not apply: doc is missing from path: {src}: "
                       "missing value")
    con, key = found
    try:
        value = get_in(con, key)
        remove_in(con, key)
    except GoError as err:
        raise GoError(f"error in move for path: '{key}': {err}") from None
    try:
        path = _path(op)
    except GoError as err:
        raise GoError(f"move operation failed to decode path: {err}") from None
    found = find_container(root, path)
    if found is None:
        raise GoError(f"move operation does not apply: doc is missing destination path: "
                       f"{path}: missing value")
    try:
        add_in(*found, value)
    except GoError as err:
        raise GoError(f"error in move for path: '{path}': {err}") from None


def _op_copy(root: list, op: dict) -> None:
    try:
        src = _from(op)
    except GoError as err:
        raise GoError(f"copy operation failed to decode from: {err}") from None
    found = find_container(root, src)
    if found is None:
        raise GoError(f"copy operation does not apply: doc is missing from path: {src}: "
                       "missing value")
    try:
        value = get_in(*found)
    except GoError as err:
        raise GoError(f"error in copy for from: '{src}': {err}") from None
    try:
        path = _path(op)
    except GoError:
        raise GoError("copy operation failed to decode path: missing value") from None
    found = find_container(root, path)
    if found is None:
        raise GoError(f"copy operation does not apply: doc is missing destination path: "
                       f"{path}: missing value")
    try:
        add_in(*found, _plain(value))
    except GoError as err:
        raise GoError(f"error while adding value during copy: {err}") from None


def _op_test(root: list, op: dict) -> None:
    try:
        path = _path(op)
    except GoError as err:
        raise GoError(f"test operation failed to decode path: {err}") from None
    value = _value(op)
    failed = GoError(f"testing value {path} failed: test failed")
    if path == "":
        if value is _ABSENT:
            raise Panic()
        if not go_equal(root[0], value):
            raise failed
        return
    found = find_container(root, path)
    if found is None:
        raise GoError(f"test operation does not apply: is missing path: {path}: missing value")
    try:
        current = get_in(*found)
    except GoError as err:
        raise GoError(f"error in test for path: '{path}': {err}") from None
    if current is None:
        if value is _ABSENT:
            raise Panic()  # the library reads the missing value's text: nil pointer
        if value is None:
            return
        raise failed
    if value is _ABSENT or not go_equal(current, value):
        raise failed


def go_equal(current: Any, wanted: Any) -> bool:
    """The library's ``lazyNode.equal``: containers by structure, scalars by their JSON text.

    ``current`` is never ``None`` (the caller handles a missing or null member).  A
    ``null`` inside arrays being compared is a nil pointer in Go: kubectl panics.
    """
    if current is RAW_NULL:
        return wanted is None
    if isinstance(current, dict):
        if not isinstance(wanted, dict) or len(current) != len(wanted):
            return False
        for key, item in current.items():
            if key not in wanted:
                return False
            other = wanted[key]
            if (item is None) != (other is None):
                return False
            if item is not None and not go_equal(item, other):
                return False
        return True
    if isinstance(current, list):
        if not isinstance(wanted, list) or len(current) != len(wanted):
            return False
        for item, other in zip(current, wanted):
            if item is None or other is None:
                raise Panic()
            if not go_equal(item, other):
                return False
        return True
    if wanted is None:
        return False
    return _scalar_text(current) == _scalar_text(wanted)


def _scalar_text(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return gojson.encode(value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return gojson.encode(value)
    return gojson.number_text(value)


_OPS = {
    "add": _op_add,
    "remove": _op_remove,
    "replace": _op_replace,
    "move": _op_move,
    "copy": _op_copy,
    "test": _op_test,
}
