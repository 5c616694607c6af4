"""Read a merge schema from an OpenAPI v2 or v3 document (``--schema``).

A cluster publishes its schema at ``/openapi/v2`` (``definitions``) and
``/openapi/v3/apis/<group>/<version>`` (``components.schemas``); bundles of
JSON Schema with ``$defs`` are read too.  Every definition becomes a struct of the
table format of :mod:`cfgpatch.kube.schema.node`; a property's
``x-kubernetes-patch-strategy`` and ``x-kubernetes-patch-merge-key`` become its
tags, and ``x-kubernetes-group-version-kind`` maps kinds to definitions.

Definition names are shortened the way the Go packages are named
(``io.k8s.api.apps.v1.DeploymentSpec`` -> ``apps/v1.DeploymentSpec``,
``io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`` -> ``meta/v1.ObjectMeta``);
others keep their name.  Objects declared inline (as in custom resource
schemas) become structs named after their path.

Whether a field is a Go pointer matters to strategic merge (a pointer accepts a list
on both sides and replaces it; a struct or scalar value refuses it with "expected slice
or array type"), and an OpenAPI document does not say it outright.  The rule, so that
``--schema`` answers as kubectl's compiled types do:

* a field of a type kubectl 1.32 compiles in (same definition, same property: the
  built-in table) is a pointer exactly when the built-in table says so;
* otherwise an object field (a ``$ref`` to a definition with properties, or an inline
  object) is a pointer unless it carries a ``default``: Kubernetes publishes
  ``"default": {}`` on every struct field that is a Go value (``metadata``, ``spec``,
  ``template``, ``strategy``) and none on pointers (``selector``, ``securityContext``);
* other fields (scalars, lists, maps) of such types are values.

>>> doc = {"definitions": {"io.k8s.api.core.v1.PodSpec": {"properties": {
...     "containers": {"type": "array", "items": {"type": "object"},
...                    "x-kubernetes-patch-strategy": "merge",
...                    "x-kubernetes-patch-merge-key": "name"}}}}}
>>> table_from_openapi(doc)["types"]["core/v1.PodSpec"]["fields"]["containers"]
['[]map[string]interface', 'merge', 'name']
"""

from __future__ import annotations

import json
from typing import Any

from ...errors import INVALID_ARGUMENTS, KubeError
from .node import Schema, builtin_schema

#: Go structs whose JSON form is a scalar (their OpenAPI definitions have no properties).
OPAQUE_STRUCTS = {
    "resource.Quantity": ("Quantity", {}),
    "intstr.IntOrString": ("IntOrString", {"Type": "int64", "IntVal": "int32",
                                           "StrVal": "string"}),
    "meta/v1.Time": ("Time", {}),
    "meta/v1.MicroTime": ("MicroTime", {}),
    "meta/v1.FieldsV1": ("FieldsV1", {}),
    "meta/v1.Duration": ("Duration", {}),
    "runtime.RawExtension": ("RawExtension", {}),
}

_PREFIXES = (
    ("io.k8s.apimachinery.pkg.apis.meta.v1.", "meta/v1."),
    ("io.k8s.apimachinery.pkg.api.resource.", "resource."),
    ("io.k8s.apimachinery.pkg.util.intstr.", "intstr."),
    ("io.k8s.apimachinery.pkg.runtime.", "runtime."),
)


def type_key(definition: str) -> str:
    """The table key of an OpenAPI definition name.

    >>> type_key("io.k8s.api.apps.v1.DeploymentSpec")
    'apps/v1.DeploymentSpec'
    """
    for prefix, short in _PREFIXES:
        if definition.startswith(prefix):
            return short + definition[len(prefix):]
    if definition.startswith("io.k8s.api."):
        parts = definition[len("io.k8s.api."):].split(".")
        if len(parts) == 3:
            return f"{parts[0]}/{parts[1]}.{parts[2]}"
    return definition


def definitions(doc: dict) -> dict[str, dict]:
    """The named schemas of an OpenAPI v2/v3 document or a ``$defs`` bundle."""
    if isinstance(doc.get("definitions"), dict):
        return doc["definitions"]
    components = doc.get("components")
    if isinstance(components, dict) and isinstance(components.get("schemas"), dict):
        return components["schemas"]
    if isinstance(doc.get("$defs"), dict):
        return doc["$defs"]
    raise KubeError("the schema document has no definitions (OpenAPI v2), "
                    "components.schemas (OpenAPI v3) or $defs", code=INVALID_ARGUMENTS,
                    hint="fetch it with: kubectl get --raw /openapi/v2 > openapi.json")


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")


def _first_type(schema: dict) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return kinds[0] if kinds else None
    return kind if isinstance(kind, str) else None


def _ref_of(schema: dict) -> str | None:
    if isinstance(schema.get("$ref"), str):
        return schema["$ref"]
    for combo in ("allOf", "oneOf", "anyOf"):
        parts = schema.get(combo)
        if isinstance(parts, list) and len(parts) == 1 and isinstance(parts[0], dict):
            ref = parts[0].get("$ref")
            if isinstance(ref, str):
                return ref
    return None


class _Converter:
    """Turns definitions into table types, naming inline objects after their path."""

    def __init__(self, defs: dict[str, dict], compiled: dict[str, dict] | None = None) -> None:
        self.defs = defs
        self.types: dict[str, dict] = {}
        self.compiled = compiled or {}

    def run(self) -> dict[str, dict]:
        for name in sorted(self.defs):
            self.define(type_key(name), self.defs[name])
        return self.types

    def define(self, key: str, schema: dict) -> None:
        if key in OPAQUE_STRUCTS:
            go_name, opaque = OPAQUE_STRUCTS[key]
            self.types[key] = {"name": go_name, "fields": dict(opaque)}
            return
        fields: dict[str, Any] = {}
        self.types[key] = {"name": key.rsplit(".", 1)[-1].rsplit("/", 1)[-1],
                           "fields": fields}
        props = schema.get("properties")
        if not isinstance(props, dict):
            props = {}
        for prop in sorted(props):
            spec = props[prop] if isinstance(props[prop], dict) else {}
            fields[prop] = self.field(spec, f"{key}/{prop}", key, prop)

    def pointer(self, spec: dict, expr: str, owner: str, prop: str) -> bool:
        """Whether the property is a Go pointer (the rule in the module's docstring)."""
        known = self.compiled.get(owner, {}).get("fields", {}).get(prop)
        if known is not None:
            return (known if isinstance(known, str) else known[0]).startswith("*")
        ref = _ref_of(spec)
        is_struct = (type_key(_ref_name(ref)) == expr and expr not in OPAQUE_STRUCTS
                     if ref is not None else expr == f"{owner}/{prop}")
        return is_struct and "default" not in spec

    def field(self, spec: dict, path: str, owner: str = "", prop: str = "") -> Any:
        expr = self.expr(spec, path)
        if owner and self.pointer(spec, expr, owner, prop):
            expr = "*" + expr
        strategy = spec.get("x-kubernetes-patch-strategy")
        merge_key = spec.get("x-kubernetes-patch-merge-key")
        if not strategy and not merge_key:
            return expr
        out = [expr, strategy if isinstance(strategy, str) else ""]
        if isinstance(merge_key, str) and merge_key:
            out.append(merge_key)
        return out

    def expr(self, spec: dict, path: str) -> str:
        ref = _ref_of(spec)
        if ref is not None:
            return self.ref_expr(_ref_name(ref))
        kind = _first_type(spec)
        if kind == "array":
            items = spec.get("items")
            return "[]" + (self.expr(items, path + "[]") if isinstance(items, dict)
                           else "interface")
        if kind == "object" or (kind is None and "properties" in spec):
            return self.object_expr(spec, path)
        return _scalar(kind, spec.get("format"))

    def ref_expr(self, name: str) -> str:
        key = type_key(name)
        target = self.defs.get(name)
        if key in OPAQUE_STRUCTS or target is None:
            return key
        if "properties" in target or _first_type(target) in ("object", None):
            return key
        return self.expr(target, key)

    def object_expr(self, spec: dict, path: str) -> str:
        if isinstance(spec.get("properties"), dict):
            self.define(path, spec)
            return path
        extra = spec.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            return "map[string]" + self.expr(extra, path + "{}")
        return "map[string]interface"


def _scalar(kind: str | None, fmt: Any) -> str:
    if kind == "string":
        return "[]uint8" if fmt == "byte" else "string"
    if kind == "integer":
        return "int32" if fmt == "int32" else "int64"
    if kind == "number":
        return "float64"
    if kind == "boolean":
        return "bool"
    return "interface"


def _kinds(defs: dict[str, dict]) -> dict[str, dict[str, str]]:
    kinds: dict[str, dict[str, str]] = {}
    for name in sorted(defs):
        gvks = defs[name].get("x-kubernetes-group-version-kind")
        for gvk in gvks if isinstance(gvks, list) else ():
            if not isinstance(gvk, dict) or not gvk.get("kind") or not gvk.get("version"):
                continue
            group = gvk.get("group") or ""
            api_version = f"{group}/{gvk['version']}" if group else gvk["version"]
            kinds.setdefault(api_version, {})[gvk["kind"]] = type_key(name)
    return kinds


def table_from_openapi(doc: dict) -> dict:
    """A schema table (see :mod:`cfgpatch.kube.schema.node`) from an OpenAPI document."""
    if not isinstance(doc, dict):
        raise KubeError("the schema document is not a JSON object", code=INVALID_ARGUMENTS)
    defs = definitions(doc)
    compiled = builtin_schema().table["types"]
    return {"kinds": _kinds(defs), "types": _Converter(defs, compiled).run()}


def load_openapi(text: str) -> Schema:
    """A :class:`Schema` from the text of an OpenAPI v2/v3 document (JSON)."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise KubeError(f"the schema document is not valid JSON: {exc}",
                        code=INVALID_ARGUMENTS) from None
    return Schema(table_from_openapi(doc))
