"""``field-set-twice``: two patches of one kustomization that set the same field.

A patch *sets* a field when it writes a value there: a scalar (or a whole list without a
merge key, or an empty map) in a strategic or merge patch, or the ``path`` of a JSON
Patch ``add``/``replace``.  Elements of keyed lists are followed by their key
(``containers[name=app].image``), so the two patches need not list elements in the same
order.  The identity fields of a strategic patch (``apiVersion``, ``kind``,
``metadata.name``, ``metadata.namespace``) and directives (``$patch``...) are not
settings.  Across layers (a base's patch and an overlay's) an override is the point of
the overlay and is not reported.
"""

from __future__ import annotations

from ..jsonvalue import canonical_unchecked
from ..kube.schema.rules import KEYED, Shapes
from .finding import LintFinding, make
from .locate import op_location, tree_of
from .model import Application, app_shapes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

_IDENTITY = {("apiVersion",), ("kind",), ("metadata", "name"), ("metadata", "namespace")}


def field_set_twice(applications: list[Application]) -> Iterator[LintFinding]:
    """For each (resource, field) set by two patches of the same kustomization."""
    seen: dict[tuple, tuple[Application, list, Any]] = {}
    for app in applications:
        if app.error is not None:
            continue
        shapes = app_shapes(app)
        for field, where, value in settings(app, shapes):
            key = (app.site.declared_in, app.resource, field)
            earlier = seen.get(key)
            seen[key] = (app, where, value)
            if earlier is None or earlier[0].site is app.site:
                continue
            first, first_where, first_value = earlier
            loc = _location(app, where)
            first_loc = _location(first, first_where).with_message(
                f"set first by {first.site.label}")
            same = canonical_unchecked(first_value) == canonical_unchecked(value)
            what = ("to the same value (one of the two is redundant)" if same else
                    f"to {_brief(value)} and wins over {_brief(first_value)} set by "
                    f"{first.site.label} (applied earlier)")
            yield make("field-set-twice",
                       f"{app.resource.describe()}: {_label(field)} is set by both "
                       f"{first.site.label} and {app.site.label}; {app.site.label} sets it "
                       f"{what}", loc, (first_loc,), field=_label(field),
                       resource=app.resource.describe(), same=same or None)


def _brief(value: Any) -> str:
    text = canonical_unchecked(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _label(field: tuple) -> str:
    """``spec.template.spec.containers[name=web].image``."""
    out = ""
    for part in map(str, field):
        out += part if not out or part.startswith("[") else "." + part
    return out


def _location(app: Application, where: Any):
    if isinstance(where, int):
        return op_location(app.site, where)
    tree = tree_of(app.site)
    if tree is None:
        return app.site.location()
    span, _ = tree.find(where)
    return app.site.location(span)


def settings(app: Application, shapes: Shapes | None) -> Iterator[tuple[tuple, Any, Any]]:
    """(field in key form, where in the patch, value) for every field ``app`` sets."""
    patch = app.site.patch
    if app.site.patch_type in ("json6902", "json"):
        if isinstance(patch, list):
            yield from _op_settings(patch, app.before, shapes)
        return
    if isinstance(patch, dict):
        yield from _leaves(patch, app.before, shapes, (), (), [])


def _leaves(value: Any, before: Any, shapes: Shapes | None, field: tuple, shape: tuple,
            where: list) -> Iterator[tuple[tuple, Any, Any]]:
    if isinstance(value, dict) and value:
        for key, child in value.items():
            if not isinstance(key, str) or key.startswith("$"):
                continue
            sub = before.get(key) if isinstance(before, dict) else None
            yield from _leaves(child, sub, shapes, (*field, key), (*shape, key), [*where, key])
        return
    if isinstance(value, list):
        rule = shapes.list_rule(shape) if shapes is not None else None
        if rule is not None and rule.kind == KEYED and all(
                isinstance(i, dict) and any(k in i for k in rule.keys) for i in value):
            for index, item in enumerate(value):
                ident = ",".join(f"{k}={item[k]}" for k in rule.keys if k in item)
                element = _element(before, item, rule.keys)
                for key, child in item.items():
                    # the merge key names the element: it is not a setting
                    if not isinstance(key, str) or key.startswith("$") or key in rule.keys:
                        continue
                    sub = element.get(key) if isinstance(element, dict) else None
                    yield from _leaves(child, sub, shapes, (*field, f"[{ident}]", key),
                                       (*shape, "[]", key), [*where, index, key])
            return
    if field not in _IDENTITY:
        yield field, where, value


def _element(before: Any, item: dict, keys: tuple) -> Any:
    if isinstance(before, list):
        for element in before:
            if isinstance(element, dict) and all(element.get(k) == item[k] for k in keys
                                                 if k in item):
                return element
    return None


def _op_settings(ops: list, before: Any, shapes: Shapes | None
                 ) -> Iterator[tuple[tuple, Any, Any]]:
    for index, op in enumerate(ops):
        if not isinstance(op, dict) or op.get("op") not in ("add", "replace"):
            continue
        path = op.get("path")
        if not isinstance(path, str) or not path.startswith("/"):
            continue
        field = _op_field(path, before, shapes)
        if field is not None:
            yield field, index, op.get("value")


def _op_field(path: str, before: Any, shapes: Shapes | None) -> tuple | None:
    """The key form of a JSON Patch path, or None where it inserts into a list."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]]
    field: list[str] = []
    shape: tuple = ()
    node = before
    for depth, token in enumerate(tokens):
        if isinstance(node, list):
            if token == "-" or not token.isdigit() or int(token) >= len(node):
                return None
            rule = shapes.list_rule(shape) if shapes is not None else None
            element = node[int(token)]
            if depth == len(tokens) - 1:
                return None  # add/replace of a whole element: an insertion or a swap
            if rule is not None and rule.kind == KEYED and isinstance(element, dict):
                field.append("[" + ",".join(f"{k}={element.get(k)}" for k in rule.keys
                                            if k in element) + "]")
            else:
                field.append(f"[{token}]")
            node, shape = element, (*shape, "[]")
        else:
            field.append(token)
            node = node.get(token) if isinstance(node, dict) else None
            shape = (*shape, token)
    return tuple(field)
