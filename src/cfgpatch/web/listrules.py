"""How each patch type treats each list of the object: what the page shows when the
cursor is on (or the pointer over) a list field in the object editor.

The rules are the engine's own (:class:`~cfgpatch.kube.schema.rules.Shapes` over the
built-in table, as :func:`cfgpatch.kube.patch` uses them): a strategic merge patch merges
a keyed list by its merge key, a set by value, and replaces an atomic list whole; a JSON
merge patch replaces every list whole; a JSON Patch picks elements by position.

:func:`list_fields` returns one entry per list field of the object text, with the line of
its key (1-based): ``{"line", "path", "rule", "strategic", "merge", "json", "text"}``.  The answer
is kept for the last text, so typing in the patch does not compute it again.
"""

from __future__ import annotations

from typing import Any

_LAST: list[Any] = [None, []]


def _shapes(obj: Any) -> Any:
    from ..kube.schema.node import builtin_schema, node_shapes

    api_version, kind = (obj.get("apiVersion"), obj.get("kind")) if isinstance(obj, dict) \
        else (None, None)
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    node = builtin_schema().for_kind(api_version, kind)
    return node_shapes(node) if node is not None else None


def describe(rule: Any, known_kind: bool) -> tuple[str, str]:
    """(rule name, the strategic sentence) for a list rule."""
    if not known_kind:
        return ("unknown", "no strategic merge for this kind (kubectl has no Go type for it): "
                           "--type=strategic is refused")
    if rule is None or rule.kind == "atomic":
        return "atomic", "atomic: the patch's list replaces it whole"
    if rule.kind == "set":
        return "set", "a set: the patch's values are added, duplicates dropped, the rest kept"
    keys = ", ".join(f"`{key}`" for key in rule.keys)
    return "keyed", f"merged by {keys}: elements matched by key, the others kept"


def list_fields(text: str, obj: Any) -> list[dict]:
    """Every list field of the object text (YAML or JSON) with how each type treats it."""
    if _LAST[0] == text:
        return _LAST[1]
    import yaml

    try:
        root = yaml.compose(text, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        root = None
    shapes = _shapes(obj)
    out: list[dict] = []
    if isinstance(root, yaml.MappingNode):
        _walk(root, (), "", shapes, out)
    _LAST[:] = [text, out]
    return out


def _walk(node: Any, shape: tuple, path: str, shapes: Any, out: list[dict]) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            here = f"{path}.{key.value}" if path else key.value
            if isinstance(value, yaml.SequenceNode):
                rule_name, strategic = describe(
                    shapes.list_rule((*shape, key.value)) if shapes else None, shapes is not None)
                entry = {"line": key.start_mark.line + 1, "path": here, "rule": rule_name,
                         "strategic": strategic, "merge": "replaced whole by the patch's list",
                         "json": "elements picked by position (an index), never by key"}
                entry["text"] = (f"`{here}` is a list. strategic: {strategic}; merge: "
                                 f"{entry['merge']}; json: {entry['json']}.")
                out.append(entry)
                for item in value.value:
                    _walk(item, (*shape, key.value, "[]"), f"{here}[]", shapes, out)
            else:
                _walk(value, (*shape, key.value), here, shapes, out)
