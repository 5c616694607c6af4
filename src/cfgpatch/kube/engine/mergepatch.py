"""``kubectl patch --type merge``: JSON Merge Patch as kubectl's library applies it.

kubectl applies RFC 7386 merge patches with evanphx/json-patch v4.12.0.  The result
matches the RFC except for where ``null`` is dropped:

* RFC 7386 copies a patch value that is not merged (a new member, an array, a value
  replacing a non-object) as it is, nulls included;
* kubectl removes ``null`` members of objects anywhere inside such a value, also
  inside arrays (``[{"a": {"b": null}}]`` becomes ``[{"a": {}}]``), while ``null``
  elements of arrays stay (``[null, {"a": null}]`` becomes ``[null, {}]``);
* except when an existing *object* is replaced by a non-object patch value: that value
  is stored untouched, nulls and all.

A patch that is not an object: an array becomes the whole document (and kubectl then
fails to decode it), ``null`` and scalars fail with ``Invalid JSON Patch``.

:func:`apply` returns the patched object or raises ``KubeError`` with kubectl's text.
The strict RFC engine of cfgpatch is ``cfgpatch.mergepatch``.  Standard library only.
"""

from __future__ import annotations

from ...errors import KubeError
from ..io.unstructured import decode_result, too_deep
from .treecopy import deep_copy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@too_deep
def apply(obj: dict, patch: Any, owned: bool = False) -> dict:
    """Apply ``patch`` (the decoded ``-p`` value) as ``kubectl patch --type merge``;
    ``owned``: ``obj`` is the caller's to give away (changed in place, not copied first).

    >>> apply({"kind": "K", "spec": {"a": 1, "b": 2}}, {"spec": {"a": None, "c": [{"x": None}]}})
    {'kind': 'K', 'spec': {'b': 2, 'c': [{}]}}
    """
    if isinstance(patch, dict):
        doc = obj if owned else deep_copy(obj)
        _merge_docs(doc, deep_copy(patch))
        return decode_result(doc, literal=True, owned=True)
    if isinstance(patch, list):
        return decode_result(prune_nulls(deep_copy(patch)), literal=True, owned=True)
    raise KubeError(
        "Invalid JSON Patch",
        hint="a merge patch must be a JSON object such as {\"spec\":{\"replicas\":3}}",
    )


def _merge_docs(doc: dict, patch: dict) -> None:
    for key, value in patch.items():
        if value is None:
            doc.pop(key, None)
            continue
        current = doc.get(key)
        if current is None:
            doc[key] = prune_nulls(value)
        else:
            doc[key] = _merge(current, value)


def _merge(current: Any, patch: Any) -> Any:
    if not isinstance(current, dict):
        return prune_nulls(patch)
    if not isinstance(patch, dict):
        return patch
    _merge_docs(current, patch)
    return current


def prune_nulls(value: Any) -> Any:
    """Drop ``null`` object members at any depth; ``null`` array elements stay.

    >>> prune_nulls([None, {"a": None, "b": [None, {"c": None}]}])
    [None, {'b': [None, {}]}]
    """
    if isinstance(value, dict):
        return {key: prune_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [prune_nulls(item) for item in value]
    return value


def departures(obj: dict, patch: Any) -> list[str]:
    """Pointers where kubectl's result differs from RFC 7386.

    Each pointer names a patch value with an array holding objects with ``null``
    members: the RFC keeps arrays verbatim, kubectl removes those members.

    >>> departures({"kind": "K"}, {"list": [None, {"a": None}], "m": {"b": None}})
    ['/list']
    """
    found: list[str] = []
    if isinstance(patch, dict) and isinstance(obj, dict):
        _departures(obj, patch, "", found)
    return found


def _departures(doc: dict, patch: dict, base: str, found: list[str]) -> None:
    for key, value in patch.items():
        if value is None:
            continue
        pointer = f"{base}/{key.replace('~', '~0').replace('/', '~1')}"
        current = doc.get(key)
        if isinstance(current, dict) and isinstance(value, dict):
            _departures(current, value, pointer, found)
        elif not isinstance(current, dict) and _null_member_in_array(value, False):
            found.append(pointer)


def _null_member_in_array(value: Any, in_array: bool) -> bool:
    """RFC 7386 keeps arrays verbatim; kubectl prunes null members of objects in them."""
    if isinstance(value, dict):
        return any((item is None and in_array) or _null_member_in_array(item, in_array)
                   for item in value.values())
    if isinstance(value, list):
        return any(_null_member_in_array(item, True) for item in value)
    return False
