"""Label and annotation values that kustomize shares between several fields.

kustomize's label (and annotation) transformer makes one YAML node per key and per
resource and puts that same node into every field it adds the key to:
``metadata/labels``, ``spec/selector``, the pod template's labels.  Later writes to
one of those places are made in place (kyaml copies the new value into the existing
node), so they show up in all of them: a plain ``labels`` entry in an overlay that sets
``team: b`` also changes the selectors a base's ``includeSelectors`` (or
``commonLabels``) gave ``team: a``; so does a strategic patch that sets the label.
A JSON 6902 patch rebuilds the resource from JSON and the sharing ends.  Keys that a
resource file itself wrote are never shared.  (Measured with kubectl 1.32; the
``label-aliasing`` tree of the corpus.)

A resource's ``aliases`` are groups of field paths (token tuples) holding one node.
"""

from __future__ import annotations

from .resources import Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_MISSING = object()


def lookup(value: Any, path: tuple) -> Any:
    for token in path:
        if isinstance(value, dict):
            value = value.get(token, _MISSING)
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return _MISSING
        if value is _MISSING:
            return _MISSING
    return value


def _store(value: Any, path: tuple, new: Any) -> None:
    parent = lookup(value, path[:-1])
    if isinstance(parent, dict) and path[-1] in parent:
        parent[path[-1]] = new


def share(resource: Resource, paths: list[tuple]) -> None:
    """``paths`` now hold one node (one pass of a label or annotation transformer)."""
    if len(paths) > 1:
        resource.aliases.append(set(paths))


def written(resource: Resource, path: tuple, new: Any) -> None:
    """``path`` was overwritten in place with ``new``: so is every field sharing its node."""
    for group in resource.aliases:
        if path in group:
            for other in group:
                _store(resource.value, other, new)


def merged(resource: Resource, before: Any) -> None:
    """After a strategic merge: a shared field the patch changed changes in all places."""
    groups = []
    for group in resource.aliases:
        alive = {p for p in group if lookup(resource.value, p) is not _MISSING}
        changed = [p for p in sorted(alive)
                   if not _same(lookup(resource.value, p), lookup(before, p))]
        if changed:
            new = lookup(resource.value, changed[0])
            if isinstance(new, (str, int, float, bool)):
                for other in alive:
                    _store(resource.value, other, new)
        if len(alive) > 1:
            groups.append(alive)
    resource.aliases = groups


def forget(resource: Resource) -> None:
    """The resource was rebuilt (a JSON patch): nothing is shared any more."""
    resource.aliases = []


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
