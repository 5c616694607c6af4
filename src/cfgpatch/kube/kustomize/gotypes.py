"""The Go types kustomize v5.5 decodes a kustomization into, and Go's decoding of them.

kustomize turns the kustomization's YAML into JSON (sigs.k8s.io/yaml: go-yaml v2's
scalars, map keys written in sorted order) and decodes that with Go's ``encoding/json``
into its ``types.Kustomization`` struct, unknown fields disallowed.  So (measured with
kubectl kustomize 1.32, trees ``error-nested-types`` and ``nested-field-names``):

* the fields are visited in sorted order, at every depth, and the first error wins:
  ``json: unknown field "x"`` or ``json: cannot unmarshal <kind> into Go struct field
  <Struct>.<path> of type <type>``, where ``<Struct>`` is the innermost struct holding
  the field, ``<path>`` the JSON field names from the top (no list indexes, no map
  keys) and ``<kind>`` the JSON kind of the value (``number 1.5`` for a number an
  ``int64`` cannot hold);
* ``null`` decodes into anything (it leaves the field alone);
* a field name matches case-insensitively when no field has it exactly (``NameSpace``
  is ``namespace``; of two spellings of one field the later in sorted order wins);
* a float JSON cannot hold (``.inf``, ``.nan``) fails before any decoding:
  ``json: unsupported value: +Inf``.

:func:`decode` checks a value decoded as :func:`~.kustomization.v2_value` does and
returns it with the field names spelled as kustomize's struct spells them.
"""

from __future__ import annotations

import math

from ..go import json as gojson
from ..problems import Refusal, UnknownField, Unmarshal, YamlValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The Go types are plain classes (not dataclasses): they are built at import, which a
# small build pays for at every start.


class Scalar:
    """A Go scalar type: ``string`` (or a named string type), ``bool`` or ``int64``."""

    __slots__ = ("go", "kind")

    def __init__(self, go: str, kind: str = "string") -> None:
        self.go, self.kind = go, kind


class Slice:
    """A slice of ``item``; ``name``: a named slice type (``types.FsSlice``)."""

    __slots__ = ("item", "name")

    def __init__(self, item: Any, name: str = "") -> None:
        self.item, self.name = item, name

    @property
    def go(self) -> str:
        return self.name or "[]" + self.item.go


class Map:
    __slots__ = ("item",)

    def __init__(self, item: Any) -> None:
        self.item = item

    @property
    def go(self) -> str:
        return "map[string]" + self.item.go


class Pointer:
    """A pointer to ``item``: decoded as ``item`` (Go names the element type in an
    error about the pointer itself, and ``[]*T`` for a slice of them)."""

    __slots__ = ("item",)

    def __init__(self, item: Any) -> None:
        self.item = item

    @property
    def go(self) -> str:
        return "*" + self.item.go


class Struct:
    """A struct (embedded structs flattened); ``fields`` None: fields not modelled here
    (a field kube build refuses anyway), any object is accepted."""

    __slots__ = ("name", "fields")

    def __init__(self, name: str, fields: dict[str, Any] | None = None) -> None:
        self.name, self.fields = name, fields

    @property
    def go(self) -> str:
        return "types." + self.name


class GoDecodeError(Refusal):
    """What Go's ``encoding/json`` refuses (``problem``: an :class:`Unmarshal`,
    :class:`UnknownField` or :class:`YamlValue` record; ``message``: Go's words,
    without kustomize's prefix), at the field ``path``."""

    def __init__(self, problem: Any, path: tuple[str, ...] = (), unknown: bool = False
                 ) -> None:
        super().__init__(problem)
        self.path = path
        self.unknown = unknown  # a field the struct does not have


STRING, BOOL, INT64 = Scalar("string"), Scalar("bool", "bool"), Scalar("int64", "int64")
STRINGS, STRING_MAP = Slice(STRING), Map(STRING)

GENERATOR_OPTIONS = Struct("GeneratorOptions", {
    "labels": STRING_MAP, "annotations": STRING_MAP, "disableNameSuffixHash": BOOL,
    "immutable": BOOL})
_GENERATOR_ARGS = {
    "namespace": STRING, "name": STRING, "behavior": STRING, "literals": STRINGS,
    "files": STRINGS, "envs": STRINGS, "env": STRING, "options": GENERATOR_OPTIONS}
SELECTOR = Struct("Selector", {
    "group": STRING, "version": STRING, "kind": STRING, "name": STRING, "namespace": STRING,
    "labelSelector": STRING, "annotationSelector": STRING})
PATCH = Struct("Patch", {"path": STRING, "patch": STRING, "target": SELECTOR,
                         "options": Map(BOOL)})
FIELD_SPEC = Struct("FieldSpec", {"group": STRING, "version": STRING, "kind": STRING,
                                  "path": STRING, "create": BOOL})
LABEL = Struct("Label", {"pairs": STRING_MAP, "includeSelectors": BOOL,
                         "includeTemplates": BOOL, "fields": Slice(FIELD_SPEC)})
IMAGE = Struct("Image", {"name": STRING, "newName": STRING, "newTag": STRING,
                         "digest": STRING, "tagSuffix": STRING})
REPLICA = Struct("Replica", {"name": STRING, "count": INT64})
SORT_OPTIONS = Struct("SortOptions", {
    "order": Scalar("types.SortOrder"),
    "legacySortOptions": Struct("LegacySortOptions", {"orderFirst": STRINGS,
                                                      "orderLast": STRINGS})})
FIELD_OPTIONS = Struct("FieldOptions", {"delimiter": STRING, "index": Scalar("int", "int64"),
                                         "create": BOOL})
SOURCE_SELECTOR = Struct("SourceSelector", {
    "group": STRING, "version": STRING, "kind": STRING, "name": STRING, "namespace": STRING,
    "fieldPath": STRING, "options": Pointer(FIELD_OPTIONS)})
TARGET_SELECTOR = Struct("TargetSelector", {
    "select": Pointer(SELECTOR), "reject": Slice(Pointer(SELECTOR)), "fieldPaths": STRINGS,
    "options": Pointer(FIELD_OPTIONS)})
#: One replacement of a replacement file.
REPLACEMENT = Struct("Replacement", {
    "source": Pointer(SOURCE_SELECTOR), "targets": Slice(Pointer(TARGET_SELECTOR))})
#: A ``replacements`` entry: a ``path`` to a file, or the replacement itself.
REPLACEMENT_FIELD = Struct("ReplacementField", {
    "path": STRING, "source": Pointer(SOURCE_SELECTOR),
    "targets": Slice(Pointer(TARGET_SELECTOR))})
OBJECT_META = Struct("ObjectMeta", {"name": STRING, "namespace": STRING,
                                    "labels": STRING_MAP, "annotations": STRING_MAP})

#: A ``vars`` entry (``Target`` embeds a ``Gvk``: its fields are the target's own).
VAR = Struct("Var", {
    "name": STRING,
    "objref": Struct("Target", {"apiVersion": STRING, "group": STRING, "version": STRING,
                                "kind": STRING, "name": STRING, "namespace": STRING}),
    "fieldref": Struct("FieldSelector", {"fieldPath": STRING})})

#: kustomize's ``types.Kustomization`` (v5.5.0; ``inventory`` is no longer a field).
KUSTOMIZATION = Struct("Kustomization", {
    "apiVersion": STRING, "kind": STRING, "metadata": OBJECT_META, "openapi": STRING_MAP,
    "namePrefix": STRING, "nameSuffix": STRING, "namespace": STRING,
    "commonLabels": STRING_MAP, "labels": Slice(LABEL), "commonAnnotations": STRING_MAP,
    "patchesStrategicMerge": Slice(Scalar("types.PatchStrategicMerge")),
    "patchesJson6902": Slice(PATCH), "patches": Slice(PATCH),
    "images": Slice(IMAGE), "imageTags": Slice(IMAGE),
    "replacements": Slice(REPLACEMENT_FIELD), "replicas": Slice(REPLICA),
    "vars": Slice(VAR), "sortOptions": SORT_OPTIONS, "resources": STRINGS,
    "components": STRINGS, "crds": STRINGS, "bases": STRINGS,
    "configMapGenerator": Slice(Struct("ConfigMapArgs", _GENERATOR_ARGS)),
    "secretGenerator": Slice(Struct("SecretArgs", {**_GENERATOR_ARGS, "type": STRING})),
    "helmGlobals": Struct("HelmGlobals"), "helmCharts": Slice(Struct("HelmChart")),
    "helmChartInflationGenerator": Slice(Struct("HelmChartArgs")),
    "generatorOptions": GENERATOR_OPTIONS, "configurations": STRINGS,
    "generators": STRINGS, "transformers": STRINGS, "validators": STRINGS,
    "buildMetadata": STRINGS,
})


def decode(value: Any, into: Struct = KUSTOMIZATION, strict: bool = True) -> Any:
    """``value`` decoded into ``into`` (see the module docstring): the value with its
    field names as the struct spells them, or :class:`GoDecodeError`.  Unknown fields
    are an error when ``strict`` (kustomize's kustomization), else left out (Go's plain
    ``json.Unmarshal``, as for a replacement file).

    >>> decode({"NameSpace": "x"})
    {'namespace': 'x'}
    >>> decode({"replicas": [{"name": "x", "count": "2"}]})
    Traceback (most recent call last):
    ...
    cfgpatch.kube.kustomize.gotypes.GoDecodeError: json: cannot unmarshal string \
into Go struct field Replica.replicas.count of type int64
    """
    _check_floats(value, 0)
    errors: list[GoDecodeError] = []
    decoded = _decode(value, into, _Where(into.name, ()), errors)
    errors = [error for error in errors if strict or not error.unknown]
    if errors:
        raise errors[0]
    return decoded


class _Where:
    __slots__ = ("struct", "path")

    def __init__(self, struct: str, path: tuple[str, ...]) -> None:
        self.struct, self.path = struct, path


def _decode(value: Any, into: Any, where: _Where, errors: list[GoDecodeError]) -> Any:
    if value is None:
        return None
    if isinstance(into, Pointer):
        return _decode(value, into.item, where, errors)
    kind = json_kind(value)
    if isinstance(into, Scalar):
        return _scalar(value, into, where, errors)
    expected = "object" if isinstance(into, (Struct, Map)) else "array"
    if kind != expected:
        _mismatch(kind, into, where, errors)
        return None
    if isinstance(into, Slice):
        if isinstance(into.item, Scalar) and into.item.kind == "string":
            # Go leaves a null element of a []string at its zero value, ""
            return ["" if item is None else _decode(item, into.item, where, errors)
                    for item in value]
        return [_decode(item, into.item, where, errors) for item in value]
    if isinstance(into, Map):
        return {key: _decode(item, into.item, where, errors) for key, item in value.items()}
    return _struct(value, into, where, errors)


def _struct(value: dict, into: Struct, where: _Where, errors: list[GoDecodeError]) -> dict:
    if into.fields is None:
        return value
    out: dict[str, Any] = {}
    for key in sorted(value):
        name = _field_name(key, into.fields)
        if name is None:
            errors.append(GoDecodeError(UnknownField(key), (*where.path, key), unknown=True))
            continue
        inner = _Where(into.name, (*where.path, name))
        out[name] = _decode(value[key], into.fields[name], inner, errors)
    return {key: out[key] for key in sorted(out, key=_order(value, into.fields))}


def _order(value: dict, fields: dict[str, Any]):
    """Keep the source order of the fields (the kustomization's own order matters to
    nothing Go does, but to our messages and to ``bases``/``resources``)."""
    first: dict[str | None, int] = {}
    for index, key in enumerate(value):
        first.setdefault(_field_name(key, fields), index)
    return lambda name: first.get(name, len(first))


def _field_name(key: str, fields: dict[str, Any]) -> str | None:
    if key in fields:
        return key
    folded = key.lower()
    return next((name for name in fields if name.lower() == folded), None)


def _scalar(value: Any, into: Scalar, where: _Where, errors: list[GoDecodeError]) -> Any:
    kind = json_kind(value)
    if into.kind == "bool" and kind == "bool" or into.kind == "string" and kind == "string":
        return value
    if into.kind == "int64" and kind == "number":
        text = gojson.number_text(value)
        if text.lstrip("-").isdigit() and gojson.INT64_MIN <= int(text) <= gojson.INT64_MAX:
            return int(text)
        _mismatch(kind, into, where, errors, text)
        return None
    _mismatch(kind, into, where, errors)
    return None


def _mismatch(kind: str, into: Any, where: _Where, errors: list[GoDecodeError],
              number: str | None = None) -> None:
    field = f"{where.struct}.{'.'.join(where.path)}"
    errors.append(GoDecodeError(Unmarshal(kind, into.go, field, number), where.path))


def go_string(value: Any) -> str:
    """A decoded ``string`` field: its text, "" when it is absent (or not text)."""
    return value if isinstance(value, str) else ""


def json_kind(value: Any) -> str:
    """The JSON kind Go names in its errors (``number``, ``object``, ...)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    for kind, name in ((str, "string"), (list, "array"), (dict, "object")):
        if isinstance(value, kind):
            return name
    return "null"


def _check_floats(value: Any, depth: int) -> None:
    if depth > 10000:
        return
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        raise GoDecodeError(YamlValue("unsupported-value", gojson.go_float_g(value)))
    if isinstance(value, dict):
        for key in sorted(value):
            _check_floats(value[key], depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_floats(item, depth + 1)
