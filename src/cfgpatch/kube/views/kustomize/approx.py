"""kustomize's strategic merge (``--as kustomize``): where it differs from ``kubectl patch``.

kustomize does not use kubectl's merge code; its YAML walker merges a patch onto a
resource with rules of its own.  The differences modelled here were observed with
``kubectl kustomize`` (kustomize v5.5, identical in kubectl 1.27, 1.32 and 1.33):

* a keyed list is keyed on **all** of its list-map keys where the schema gives them
  (Service ports on ``port`` + ``protocol``, container ports on ``containerPort`` +
  ``protocol``), and key values are compared as text (``"9153"`` matches ``9153``);
* a patch element is merged into an element with the same key fields and values; it
  is ignored when an element agrees on the key fields both have but one of them has
  a key the other lacks (``{port: 53}`` against ``53/TCP``), and added otherwise;
* a patch element that carries none of the keys empties the list (the other patch
  elements stay);
* order: with one merge key (``containers``, ``env``) and in primitive lists
  (``finalizers``) the patch's elements come first, in patch order, matched ones
  included, then the untouched ones; with several keys new elements go first and
  matched ones stay where they are;
* ``$retainKeys``, ``$setElementOrder/...`` and ``$deleteFromPrimitiveList/...`` are
  not interpreted: they are stored in the result as data; an element carrying
  ``$patch: replace`` next to other keys is ignored;
* without a schema (a custom resource) every list is replaced, ``finalizers`` too.

Not modelled: kustomize's own openapi overrides, its 3-way merges, anchors and
comments.  :func:`differences` lists where this result and kubectl's part ways.
"""

from __future__ import annotations

from typing import Any

from ....errors import KUSTOMIZE_DELETES, KubeError
from ....jsonvalue import canonical_unchecked, deep_copy
from ...schema.rules import KEYED, SET, ListRule, Shapes

#: The keyed lists whose OpenAPI ``x-kubernetes-list-map-keys`` name more keys than
#: their ``patchMergeKey`` (from the fact table ``list-fields.tsv``): kustomize keys
#: them on all of these.  ``(Go struct, JSON field) -> keys``.
LIST_MAP_KEYS: dict[tuple[str, str], tuple[str, ...]] = {
    ("Container", "ports"): ("containerPort", "protocol"),
    ("EphemeralContainer", "ports"): ("containerPort", "protocol"),
    ("EphemeralContainerCommon", "ports"): ("containerPort", "protocol"),
    ("PodSpec", "topologySpreadConstraints"): ("topologyKey", "whenUnsatisfiable"),
    ("ServiceSpec", "ports"): ("port", "protocol"),
}


class KustomizeShapes(Shapes):
    """kubectl's list shapes of a kind, with kustomize's multi-key lists."""

    def __init__(self, root: Any, base: Shapes) -> None:
        self.root = root
        self.base = base

    def list_rule(self, shape: tuple[str, ...]) -> ListRule | None:
        rule = self.base.list_rule(shape)
        if rule is None or rule.kind != KEYED or not shape:
            return rule
        parent = _struct_name(self.root, shape[:-1])
        return ListRule(KEYED, LIST_MAP_KEYS.get((parent, shape[-1]), rule.keys))

    def retains_keys(self, shape: tuple[str, ...]) -> bool:
        return self.base.retains_keys(shape)

    def field_known(self, shape: tuple[str, ...]) -> bool | None:
        return self.base.field_known(shape)


def _struct_name(node: Any, shape: tuple[str, ...]) -> str:
    for step in shape:
        if step == "[]":
            node = node.elem if node.kind == "slice" else node
            continue
        found = node.field(step)
        if found is None:
            return ""
        node = found[0]
    return node.name if node.kind == "struct" else ""


def strategic_merge(obj: Any, patch: Any, shapes: Shapes | None) -> Any:
    """The resource after kustomize applies ``patch`` as a strategic-merge patch.

    ``shapes`` describes the kind's lists (``None``: no schema, e.g. a custom resource).

    >>> strategic_merge({"a": [1], "b": {"c": 1}}, {"a": [2], "b": {"d": 2}}, None)
    {'a': [2], 'b': {'c': 1, 'd': 2}}
    """
    if not isinstance(patch, dict):
        return deep_copy(patch)
    base = obj if isinstance(obj, dict) else {}
    merged = _merge_map(base, patch, (), shapes)
    if merged is None:
        raise KubeError("the patch deletes the whole resource ($patch: delete at the top)",
                        code=KUSTOMIZE_DELETES,
                        hint="kustomize leaves such a resource out of its output")
    _keep_identity(base, merged)
    return _normalize(merged, (), shapes) if shapes is not None else merged


def _keep_identity(obj: dict, merged: dict) -> None:
    """A patch cannot rename or drop the resource it targets: its name stays."""
    name = obj.get("metadata", {}).get("name") if isinstance(obj.get("metadata"), dict) else None
    if name is None:
        return
    meta = merged.get("metadata")
    merged["metadata"] = {**(meta if isinstance(meta, dict) else {}), "name": name}


def _normalize(value: Any, shape: tuple[str, ...], shapes: Shapes) -> Any:
    """kustomize walks the whole resource: every merge list loses its duplicates."""
    if isinstance(value, dict):
        return {k: _normalize(v, (*shape, k), shapes) for k, v in value.items()}
    if not isinstance(value, list):
        return value
    rule = shapes.list_rule(shape)
    items = [_normalize(v, (*shape, "[]"), shapes) for v in value]
    if rule is None or rule.kind not in (KEYED, SET):
        return items
    seen: set[str] = set()
    out = []
    for item in items:
        ident = (_text(item) if rule.kind == SET else
                 "|".join(_text(item.get(k, "")) for k in rule.keys)
                 if isinstance(item, dict) else _text(item))
        if ident not in seen:
            seen.add(ident)
            out.append(item)
    return out


def _merge_map(base: dict, patch: dict, shape: tuple[str, ...], shapes: Shapes | None) -> Any:
    directive = patch.get("$patch")
    if directive == "delete":
        return None
    body = {k: v for k, v in patch.items() if k != "$patch"}
    out = {} if directive == "replace" else {k: v for k, v in base.items()}
    for key, value in body.items():
        merged = _merge_value(out.get(key), value, (*shape, key), shapes, key in out)
        if merged is None:
            out.pop(key, None)
        else:
            out[key] = merged
    return out


def _merge_value(old: Any, value: Any, shape: tuple[str, ...], shapes: Shapes | None,
                 present: bool) -> Any:
    if value is None:
        return None
    if isinstance(value, dict):
        return _merge_map(old if isinstance(old, dict) and present else {}, value, shape, shapes)
    if isinstance(value, list) and shapes is not None:
        old = old if isinstance(old, list) and present else []
        rule = shapes.list_rule(shape)
        if rule is not None and rule.kind == KEYED:
            return _merge_keyed(old, value, shape, shapes, rule.keys)
        if rule is not None and rule.kind == SET:
            return _merge_set(old, value)
    return deep_copy(value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else canonical_unchecked(value)


def _relation(element: Any, item: dict, keys: tuple[str, ...]) -> str:
    """``exact``: same key fields, same values; ``partial``: the shared key fields agree
    but one side has a key the other lacks; ``none`` otherwise."""
    if not isinstance(element, dict):
        return "none"
    common = [key for key in keys if key in item and key in element]
    if not common or any(_text(element[key]) != _text(item[key]) for key in common):
        return "none"
    same = all((key in item) == (key in element) for key in keys)
    return "exact" if same else "partial"


def _merge_keyed(old: list, items: list, shape: tuple[str, ...], shapes: Shapes,
                 keys: tuple[str, ...]) -> list:
    if any(isinstance(i, dict) and i == {"$patch": "replace"} for i in items):
        return [deep_copy(i) for i in items if not (isinstance(i, dict) and "$patch" in i)]
    items = [i for i in items if isinstance(i, dict) and i.get("$patch") != "replace"]
    if len(keys) == 1:
        return _merge_single_key(old, items, shape, shapes, keys[0])
    result: list = [deep_copy(e) for e in old]
    added: list = []
    for item in items:
        if not any(key in item for key in keys):
            result = []
            continue
        relations = [_relation(e, item, keys) for e in result]
        if "exact" in relations:
            if item.get("$patch") == "delete":
                result = [e for e, r in zip(result, relations) if r != "exact"]
            elif sum(key in item for key in keys) == 1:
                # keyed on one field only, it behaves like a one-key list: it moves first
                element = result.pop(relations.index("exact"))
                added.append(_merge_map(element, item, (*shape, "[]"), shapes))
            else:
                index = relations.index("exact")
                result[index] = _merge_map(result[index], item, (*shape, "[]"), shapes)
        elif "partial" not in relations:
            added.append(_new_element(item, shape, shapes))
    return [e for e in added if e is not None] + result


def _merge_single_key(old: list, items: list, shape: tuple[str, ...], shapes: Shapes,
                      key: str) -> list:
    """One merge key: the patch's elements first, in patch order, then the others."""
    rest: list = [deep_copy(e) for e in old]
    front: list = []
    for item in items:
        if key not in item:
            rest, front = [], []
            continue
        index = next((i for i, e in enumerate(rest) if _relation(e, item, (key,)) == "exact"),
                     None)
        base = rest.pop(index) if index is not None else None
        if item.get("$patch") == "delete":
            rest = [e for e in rest if _relation(e, item, (key,)) != "exact"]
            continue
        front.append(_merge_map(base if isinstance(base, dict) else {}, item, (*shape, "[]"),
                                shapes))
    return front + rest


def _new_element(item: dict, shape: tuple[str, ...], shapes: Shapes) -> Any:
    if item.get("$patch") == "delete":
        return None
    return _merge_map({}, item, (*shape, "[]"), shapes)


def _merge_set(old: list, items: list) -> list:
    """A primitive merge list: the patch's values first, then the others (no duplicates)."""
    out: list = []
    seen: set[str] = set()
    for value in [*items, *old]:
        if _text(value) not in seen:
            seen.add(_text(value))
            out.append(deep_copy(value))
    return out


