"""A CustomResourceDefinition's schema as the API server's field manager reads it.

Each served version's ``openAPIV3Schema`` becomes a type the way kube-apiserver 1.32
converts it for server-side apply:

* ``metadata`` is always ``ObjectMeta``, ``apiVersion`` and ``kind`` are strings, and every
  ``x-kubernetes-embedded-resource`` object gets the same three fields;
* ``type: object`` is a struct of its ``properties``; other keys are allowed only with
  ``additionalProperties`` (their type), without properties, or under
  ``x-kubernetes-preserve-unknown-fields`` (then they are deduced: maps granular, lists
  atomic), else a key the schema does not declare is refused (``field not declared in
  schema``); ``x-kubernetes-map-type: atomic`` makes the map one field;
* ``type: array`` is ``atomic`` unless ``x-kubernetes-list-type`` says ``set`` or ``map``
  (with ``x-kubernetes-list-map-keys``; a key field's ``default`` names items that omit it);
* ``integer`` and ``number`` are numeric, ``boolean`` boolean, ``string`` a string (untyped
  with a ``format`` such as ``int-or-string`` or ``date-time``); a schema without ``type``
  (``x-kubernetes-int-or-string``, ``x-kubernetes-preserve-unknown-fields`` alone) takes any
  value.

Not modelled: the server's structural-schema validation of the CRD itself (give valid
schemas), pruning and defaulting of custom resources (give objects as stored).
"""

from __future__ import annotations

import builtins

from ..engine.treecopy import deep_copy
from .schema import (
    ASSOCIATIVE,
    ATOMIC,
    BOOLEAN,
    NUMERIC,
    SEPARABLE,
    STRING,
    UNTYPED,
    UNTYPED_ATOMIC,
    UNTYPED_DEDUCED,
    Atom,
    ListType,
    MapType,
    Schema,
    StructField,
    TypeRef,
    common_types,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
_META_REF = {"$ref": "#/components/schemas/" + OBJECT_META}


class CRDError(ValueError):
    """A CRD whose schema cannot be converted (the converter's words)."""


def crd_types(crd: Any, base: Schema) -> dict[tuple[str, str, str], tuple[Schema, TypeRef]]:
    """Every served version's type: ``(group, version, kind) -> (schema, type)``."""
    if not isinstance(crd, dict) or crd.get("kind") != "CustomResourceDefinition" \
            or crd.get("apiVersion") != "apiextensions.k8s.io/v1":
        raise CRDError("not an apiextensions.k8s.io/v1 CustomResourceDefinition")
    spec = crd.get("spec")
    if not isinstance(spec, dict):
        spec = {}
    group = str(spec.get("group", ""))
    kind = str((spec.get("names") or {}).get("kind", ""))
    preserve = spec.get("preserveUnknownFields") is True
    types: dict[str, Atom] = {}
    refs: dict[tuple[str, str, str], str] = {}
    errors: list[str] = []
    for version in spec.get("versions") or ():
        name_v = str(version.get("name", ""))
        raw = ((version.get("schema") or {}).get("openAPIV3Schema"))
        if not isinstance(raw, dict):
            raise CRDError(f"version {name_v} has no openAPIV3Schema")
        model = deep_copy(raw)
        props = model.setdefault("properties", {})
        props["metadata"] = dict(_META_REF)
        props["apiVersion"] = {"type": "string"}
        props["kind"] = {"type": "string"}
        _add_embedded(model)
        name = ".".join(reversed(group.split("."))) + f".{name_v}.{kind}"
        conv = _Converter(name, errors)
        types[name] = conv.atom(model, preserve)
        refs[(group, name_v, kind)] = name
    if errors:
        raise CRDError("\n".join(errors))
    types.update(common_types())
    schema = base.with_types(types)
    return {gvk: (schema, TypeRef(named=n)) for gvk, n in refs.items()}


def _add_embedded(s: Any) -> None:
    if not isinstance(s, dict):
        return
    for v in (s.get("properties") or {}).values():
        _add_embedded(v)
    _add_embedded(s.get("items"))
    if isinstance(s.get("additionalProperties"), dict):
        _add_embedded(s["additionalProperties"])
    if s.get("x-kubernetes-embedded-resource") is True:
        props = s.setdefault("properties", {})
        props["apiVersion"] = {"type": "string"}
        props["kind"] = {"type": "string"}
        props["metadata"] = dict(_META_REF)


class _Converter:
    def __init__(self, name: str, errors: list[str]) -> None:
        self.name = name
        self.errors = errors

    def error(self, text: str) -> None:
        self.errors.append(f"{self.name}: {text}")

    def atom(self, s: dict, preserve: bool) -> Atom:
        if s.get("x-kubernetes-preserve-unknown-fields") is True:
            preserve = True
        t = s.get("type")
        typ = (t[0] if t else "") if isinstance(t, list) else (t or "")
        if typ == "":
            return Atom(scalar=UNTYPED, list=self.list(s, preserve), map=self.map(s, preserve))
        if typ == "object":
            return Atom(map=self.map(s, preserve))
        if typ == "array":
            return Atom(list=self.list(s, preserve))
        if typ in ("integer", "number"):
            return Atom(scalar=NUMERIC)
        if typ == "boolean":
            return Atom(scalar=BOOLEAN)
        if typ == "string":
            return Atom(scalar=STRING if s.get("format", "") in ("", "byte") else UNTYPED)
        self.error(f"unrecognized type: '{typ}'")
        return Atom(scalar=UNTYPED)

    def ref(self, s: Any, preserve: bool) -> TypeRef:
        if not isinstance(s, dict):
            s = {}
        target = s.get("$ref") or ""
        all_of = s.get("allOf")
        if not target and isinstance(all_of, list) and len(all_of) == 1 \
                and isinstance(all_of[0], dict):
            target = all_of[0].get("$ref") or ""
        name = str(target).rsplit("/", 1)[-1]
        if name:
            return TypeRef(named=name, relationship=self.map_relationship(s) or None)
        sub = _Converter("inlined in " + self.name, self.errors)
        return TypeRef(inlined=sub.atom(s, preserve))

    def map_relationship(self, s: dict) -> str:
        if "x-kubernetes-map-type" not in s:
            return ""
        val = s["x-kubernetes-map-type"]
        if val == "atomic":
            return ATOMIC
        if val == "granular":
            return SEPARABLE
        self.error(f"unknown map type {val}")
        return ""

    def map(self, s: dict, preserve: bool) -> MapType:
        props = s.get("properties") or {}
        fields = {}
        for name, member in props.items():
            default = member.get("default") if isinstance(member, dict) else None
            fields[name] = StructField(self.ref(member, preserve), default)
        extra = s.get("additionalProperties")
        if extra is None:
            element = TypeRef(UNTYPED_DEDUCED) if preserve or not props else TypeRef()
        elif isinstance(extra, dict):
            element = self.ref(extra, preserve)
        elif extra is True:
            element = TypeRef(UNTYPED_DEDUCED)
        else:
            element = TypeRef()
        return MapType(fields, element, self.map_relationship(s), bool(fields))

    def list(self, s: dict, preserve: bool) -> ListType:
        relationship, keys = self.list_relationship(s)
        items = s.get("items")
        if items is not None:
            if not isinstance(items, dict):
                self.error("structural schema arrays must have exactly one member subtype")
                element = TypeRef(UNTYPED_DEDUCED)
            else:
                element = self.ref(items, preserve)
        else:
            if s.get("type"):
                self.error("`items` must be specified on arrays")
            element = TypeRef(UNTYPED_ATOMIC)
        return ListType(element, relationship, tuple(keys))

    # (builtins.list: the method ``list`` above shadows the type in this class)
    def list_relationship(self, s: dict) -> tuple[str, builtins.list[str]]:
        if "x-kubernetes-list-type" in s:
            val = s["x-kubernetes-list-type"]
            if val == "atomic":
                return ATOMIC, []
            if val == "set":
                return ASSOCIATIVE, []
            if val == "map":
                keys = s.get("x-kubernetes-list-map-keys")
                if keys is None:
                    self.error("missing map keys")
                    return ASSOCIATIVE, []
                if not isinstance(keys, list):
                    self.error(f"uninterpreted map keys: {keys!r}")
                    return ASSOCIATIVE, []
                return ASSOCIATIVE, [k for k in keys if isinstance(k, str)]
            self.error(f"unknown list type {val}")
            return ATOMIC, []
        if "x-kubernetes-patch-strategy" in s:
            val = s["x-kubernetes-patch-strategy"]
            if val in ("merge", "merge,retainKeys"):
                key = s.get("x-kubernetes-patch-merge-key")
                if key is None:
                    return ASSOCIATIVE, []
                if not isinstance(key, str):
                    self.error(f"uninterpreted merge key: {key!r}")
                    return ASSOCIATIVE, []
                return ASSOCIATIVE, [key]
            if val == "retainKeys":
                return ATOMIC, []
            self.error(f"unknown patch strategy {val}")
        return ATOMIC, []


