"""JSON Merge Patch (RFC 7386).

A merge patch is a JSON value.  An object merges into an object key by key: a
``null`` member deletes the key, any other member is merged recursively.  Anything
that is not an object (an array included) replaces the target wholesale.  Applying
never fails and never modifies its inputs; :func:`create_merge_patch` computes a
patch that turns one document into another (it cannot express a ``null`` value
inside an object, which RFC 7386 has no way to say).
"""

from __future__ import annotations

from .jsonvalue import JSON, deep_copy, equal

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is left out of the start-up (annotations are not evaluated)
    from typing import Any


def apply_merge_patch(target: JSON, patch: JSON, *, share_unchanged: bool = False) -> JSON:
    """Apply ``patch`` to ``target`` (RFC 7386 section 2); inputs are not modified.

    With ``share_unchanged=False`` (the default) the result shares nothing with
    either input.  With ``True`` only the objects on the patch's paths are copied
    (one level each): every subtree the patch does not reach is ``target``'s own,
    and every value it sets is ``patch``'s own, which is fast and safe as long as
    nobody mutates the three afterwards (the service's stored versions are
    immutable), as for :func:`cfgpatch.jsonpatch.apply_patch`.

    >>> apply_merge_patch({"a": 1, "b": [1, 2]}, {"a": None, "b": [3], "c": {"d": 1}})
    {'b': [3], 'c': {'d': 1}}
    """
    copy = _shared if share_unchanged else deep_copy
    if type(patch) is not dict:
        return copy(patch)
    if type(target) is not dict:
        result: dict[str, Any] = {}
    else:
        result = target.copy() if share_unchanged else deep_copy(target)
    stack = [(result, patch)]
    while stack:
        into, changes = stack.pop()
        for key, value in changes.items():
            if value is None:
                into.pop(key, None)
            elif type(value) is dict:
                child = into.get(key)
                if type(child) is not dict:
                    child = {}
                elif share_unchanged:
                    child = child.copy()  # target's own: copied before it changes
                into[key] = child
                stack.append((child, value))
            else:
                into[key] = copy(value)
    return result


def _shared(value: JSON) -> JSON:
    return value


def create_merge_patch(source: JSON, target: JSON) -> JSON:
    """A merge patch that turns ``source`` into ``target``.

    >>> create_merge_patch({"a": 1, "b": {"c": 2}}, {"b": {"c": 3}})
    {'a': None, 'b': {'c': 3}}
    """
    if type(source) is not dict or type(target) is not dict:
        return deep_copy(target)
    patch: dict[str, Any] = {}
    for key in sorted(set(source) | set(target)):
        if key not in target:
            patch[key] = None
        elif key not in source:
            patch[key] = deep_copy(target[key])
        elif not equal(source[key], target[key]):
            patch[key] = create_merge_patch(source[key], target[key])
    return patch
