"""An OpenAPI v3 document written the way Kubernetes publishes one, from a merge table.

``openapi_document(table, kinds)`` describes the types reachable from ``kinds`` as
``/openapi/v3`` does: struct fields as ``allOf: [{$ref}]``, with ``"default": {}`` on
a struct field that is a Go value and none on a pointer, lists as ``type: array`` with
``items``, maps with ``additionalProperties``, scalars with their ``format``, the
``x-kubernetes-patch-strategy`` / ``-merge-key`` extensions and
``x-kubernetes-group-version-kind``.  ``prefix`` renames the API types (for example to
a namespace no compiled type has, as a newer cluster's or an aggregated API's types)
so that a reader cannot lean on the built-in table for them.
"""

from __future__ import annotations

SCALARS = {"string": {"type": "string"}, "bool": {"type": "boolean"},
           "int32": {"type": "integer", "format": "int32"},
           "int64": {"type": "integer", "format": "int64"},
           "int": {"type": "integer", "format": "int64"},
           "float64": {"type": "number", "format": "double"},
           "float32": {"type": "number", "format": "double"},
           "interface": {}, "[]uint8": {"type": "string", "format": "byte"}}
#: Structs whose JSON form is a scalar or free-form (their published definitions).
OPAQUE = {"resource.Quantity": {"type": "string"},
          "meta/v1.Time": {"type": "string", "format": "date-time"},
          "meta/v1.MicroTime": {"type": "string", "format": "date-time"},
          "intstr.IntOrString": {"type": "string", "format": "int-or-string"},
          "meta/v1.Duration": {"type": "string"},
          "meta/v1.FieldsV1": {"type": "object"},
          "runtime.RawExtension": {"type": "object"}}
_PACKAGES = (("meta/v1.", "io.k8s.apimachinery.pkg.apis.meta.v1."),
             ("resource.", "io.k8s.apimachinery.pkg.api.resource."),
             ("intstr.", "io.k8s.apimachinery.pkg.util.intstr."),
             ("runtime.", "io.k8s.apimachinery.pkg.runtime."))


def definition_name(key: str, prefix: str = "io.k8s.api.") -> str:
    """``apps/v1.DeploymentSpec`` -> ``io.k8s.api.apps.v1.DeploymentSpec`` (``prefix``
    stands for ``io.k8s.api.``; apimachinery's types keep their names)."""
    for short, full in _PACKAGES:
        if key.startswith(short):
            return full + key[len(short):]
    return prefix + key.replace("/", ".")


class _Writer:
    def __init__(self, table: dict, prefix: str) -> None:
        self.types = table["types"]
        self.prefix = prefix
        self.out: dict[str, dict] = {}
        self.pending: list[str] = []

    def ref(self, key: str) -> str:
        name = definition_name(key, self.prefix)
        if name not in self.out and key not in self.pending:
            self.pending.append(key)
        return f"#/components/schemas/{name}"

    def schema(self, expr: str) -> tuple[dict, bool]:
        """(the schema of a type expression, whether it is a Go value struct)."""
        if expr.startswith("*"):
            return self.schema(expr[1:])[0], False
        if expr in SCALARS:
            return dict(SCALARS[expr]), False
        if expr.startswith("[]"):
            return {"type": "array", "items": self.item(expr[2:])}, False
        if expr.startswith("map[string]"):
            return {"type": "object",
                    "additionalProperties": self.item(expr[len("map[string]"):])}, False
        if expr in OPAQUE or expr in self.types:
            return {"allOf": [{"$ref": self.ref(expr)}]}, expr not in OPAQUE
        return {}, False

    def item(self, expr: str) -> dict:
        spec, value_struct = self.schema(expr)
        if value_struct:
            spec["default"] = {}
        return spec

    def define(self, key: str) -> None:
        name = definition_name(key, self.prefix)
        if key in OPAQUE:
            self.out[name] = dict(OPAQUE[key])
            return
        props: dict[str, dict] = {}
        self.out[name] = {"type": "object", "properties": props}
        for field, value in self.types[key]["fields"].items():
            expr, strategy, merge_key = (value, "", "") if isinstance(value, str) else (
                value[0], value[1], (value + [""])[2])
            spec, value_struct = self.schema(expr)
            if value_struct:
                spec["default"] = {}
            if strategy:
                spec["x-kubernetes-patch-strategy"] = strategy
            if merge_key:
                spec["x-kubernetes-patch-merge-key"] = merge_key
            props[field] = spec

    def run(self) -> dict:
        while self.pending:
            key = self.pending.pop()
            if definition_name(key, self.prefix) not in self.out:
                self.define(key)
        return self.out


def openapi_document(table: dict, kinds: list[tuple[str, str, str]],
                     prefix: str = "io.k8s.api.") -> dict:
    """The document of ``kinds`` (``(apiVersion, kind, type key)``) from ``table``."""
    writer = _Writer(table, prefix)
    for _, _, key in kinds:
        writer.ref(key)
    schemas = writer.run()
    for api_version, kind, key in kinds:
        group, _, version = api_version.rpartition("/")
        schemas[definition_name(key, prefix)]["x-kubernetes-group-version-kind"] = [
            {"group": group, "version": version, "kind": kind}]
    return {"openapi": "3.0.0", "components": {"schemas": schemas}}
