"""Reading a kustomization file as kustomize v5.5 reads it.

:func:`load` finds the kustomization file of a directory, decodes it (unknown fields
are kustomize's ``invalid Kustomization: json: unknown field "..."``, values of the
wrong type Go's ``json: cannot unmarshal ...``), collects kustomize's deprecation
warnings (printed on standard error, in kustomize's order), checks ``kind`` and
``apiVersion``, and moves the deprecated fields where kustomize moves them
(``bases`` after ``resources``, ``imageTags`` after ``images``).

Fields that ``kube build`` does not model are refused with ``KUSTOMIZE_UNMODELLED``,
naming the field and the file: a build without them would silently differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from ...go import yaml as goyaml
from ...io.kyaml import (
    BOOL,
    FLOAT,
    INT,
    MAPPING,
    NULL,
    PLAIN,
    SEQUENCE,
    STR,
    TIMESTAMP,
    KyamlError,
    Node,
)
from ...io.kyaml_read import read_document
from ...io.kyaml_scalars import node_value
from .loader import Loader
from .positions import node_positions

KUSTOMIZATION = "Kustomization"
COMPONENT = "Component"
VERSIONS = {KUSTOMIZATION: "kustomize.config.k8s.io/v1beta1",
            COMPONENT: "kustomize.config.k8s.io/v1alpha1"}

_STR, _MAP, _LIST, _OBJ, _BOOL, _INT = "string", "map[string]string", "[]", "object", "bool", "int"

#: Every field of kustomize's Kustomization type, with its Go type.
FIELDS: dict[str, str] = {
    "apiVersion": _STR, "kind": _STR, "metadata": _OBJ, "openapi": _MAP,
    "namePrefix": _STR, "nameSuffix": _STR, "namespace": _STR,
    "commonLabels": _MAP, "labels": _LIST, "commonAnnotations": _MAP,
    "patchesStrategicMerge": _LIST, "patchesJson6902": _LIST, "patches": _LIST,
    "images": _LIST, "imageTags": _LIST, "replacements": _LIST, "replicas": _LIST,
    "vars": _LIST, "sortOptions": _OBJ, "resources": _LIST, "components": _LIST,
    "crds": _LIST, "bases": _LIST, "configMapGenerator": _LIST, "secretGenerator": _LIST,
    "helmGlobals": _OBJ, "helmCharts": _LIST, "helmChartInflationGenerator": _LIST,
    "generatorOptions": _OBJ, "configurations": _LIST, "generators": _LIST,
    "transformers": _LIST, "validators": _LIST, "inventory": _OBJ, "buildMetadata": _LIST,
}

#: Fields ``kube build`` refuses, with what they are.
UNMODELLED: dict[str, str] = {
    "vars": "vars",
    "helmGlobals": "Helm charts", "helmCharts": "Helm charts",
    "helmChartInflationGenerator": "Helm charts",
    "configurations": "custom transformer configurations",
    "generators": "generator plugins (KRM functions)",
    "transformers": "transformer plugins (KRM functions)",
    "validators": "validator plugins (KRM functions)",
    "inventory": "an inventory object", "buildMetadata": "build metadata annotations",
}

FIELDS_SELECTOR = ("group", "version", "kind", "name", "namespace", "labelSelector",
                   "annotationSelector")

#: Fields of the list elements and nested objects (Go's DisallowUnknownFields applies).
ITEM_FIELDS: dict[str, tuple[str, ...]] = {
    "patches": ("path", "patch", "target", "options"),
    "patchesJson6902": ("path", "patch", "target", "options"),
    "target": FIELDS_SELECTOR,
    "labels": ("pairs", "includeSelectors", "includeTemplates", "fields"),
    "images": ("name", "newName", "newTag", "digest", "tagSuffix"),
    "imageTags": ("name", "newName", "newTag", "digest", "tagSuffix"),
    "replicas": ("name", "count"),
    "configMapGenerator": ("name", "namespace", "behavior", "literals", "files", "envs",
                           "env", "options"),
    "secretGenerator": ("name", "namespace", "behavior", "literals", "files", "envs",
                        "env", "options", "type"),
    "generatorOptions": ("labels", "annotations", "disableNameSuffixHash", "immutable"),
    "sortOptions": ("order", "legacySortOptions"),
}

#: The Go types of a replacement (``*T``: an object, ``[]T``: a list), for Go's errors.
_S = "string"
GO_STRUCTS: dict[str, dict[str, str]] = {
    "ReplacementField": {"path": _S, "source": "*SourceSelector",
                         "targets": "[]*TargetSelector"},
    "SourceSelector": {**dict.fromkeys(("group", "version", "kind", "name", "namespace",
                                        "fieldPath"), _S), "options": "*FieldOptions"},
    "TargetSelector": {"select": "*Selector", "reject": "[]*Selector", "fieldPaths": "[]string",
                       "options": "*FieldOptions"},
    "Selector": dict.fromkeys(FIELDS_SELECTOR, _S),
    "FieldOptions": {"delimiter": _S, "index": "int", "create": "bool"},
}

_WARNINGS = (
    ("bases", "'bases' is deprecated. Please use 'resources' instead."),
    ("commonLabels", "'commonLabels' is deprecated. Please use 'labels' instead."),
    ("imageTags", "'imageTags' is deprecated. Please use 'images' instead."),
    ("patchesJson6902", "'patchesJson6902' is deprecated. Please use 'patches' instead."),
    ("patchesStrategicMerge",
     "'patchesStrategicMerge' is deprecated. Please use 'patches' instead."),
)
_EDIT_FIX = " Run 'kustomize edit fix' to update your Kustomization automatically."


@dataclass
class Kustomization:
    """One kustomization (or component) file, decoded."""

    loader: Loader
    file: str
    value: dict
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    node: Any = None
    warnings: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.value.get("kind") or KUSTOMIZATION

    @property
    def is_component(self) -> bool:
        return self.kind == COMPONENT

    def get(self, name: str, default: Any = None) -> Any:
        found = self.value.get(name)
        return default if found is None else found

    def line(self, pointer: str) -> int:
        """The line of ``pointer`` in the file (0 when unknown)."""
        return self.positions.get(pointer, (0, 0))[0]

    def where(self, pointer: str) -> str:
        """``file:line`` of ``pointer``, for messages."""
        line = self.line(pointer)
        return f"{self.file}:{line}" if line else self.file


def load(loader: Loader, top: bool = False) -> Kustomization:
    """The kustomization of ``loader``'s directory (see the module docstring)."""
    path = loader.kustomization_file()
    text, path = loader.read(path)
    try:
        node = read_document(text, path)
    except KyamlError as err:
        raise KubeError(err.message, code=KUSTOMIZE_ERROR) from None
    value = v2_value(node) if node is not None else {}
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise KubeError("invalid Kustomization: json: cannot unmarshal "
                        f"{_json_kind(value)} into Go value of type types.Kustomization",
                        code=KUSTOMIZE_ERROR)
    _check_fields(value)
    found = Kustomization(loader, path, value, node_positions(node) if node else {}, node)
    found.warnings = [f"# Warning: {text}{_EDIT_FIX}" for name, text in _WARNINGS
                      if name in value and value[name] is not None]
    _enforce(found, loader)
    if all(_zero(item) for key, item in value.items() if key not in ("apiVersion", "kind")):
        raise KubeError("kustomization.yaml is empty", code=KUSTOMIZE_ERROR)
    _refuse_unmodelled(found, top)
    _fix(found)
    return found


def _zero(value: Any) -> bool:
    """Go's zero value of a kustomization field (measured: a field that is null, "" or
    absent leaves the kustomization empty; an empty list or map does not)."""
    return value is None or value == "" or value is False or (type(value) is int and value == 0)


def v2_value(node: Node) -> Any:
    """The value of a kustomization node as kustomize decodes it: through
    sigs.k8s.io/yaml, so with go-yaml v2's scalars (``n``, ``on``, ``yes`` are booleans).

    >>> from cfgpatch.kube.io.kyaml_read import read_document
    >>> v2_value(read_document("{namespace: n, namePrefix: 'on'}"))
    {'namespace': False, 'namePrefix': 'on'}
    """
    if node.kind == MAPPING:
        return {str(v2_value(k)): v2_value(v) for k, v in node.pairs()}
    if node.kind == SEQUENCE:
        return [v2_value(item) for item in node.content]
    if node.style == PLAIN and node.tag in _IMPLICIT:
        resolved = goyaml.resolve_plain(node.value)
        return node.value if resolved is goyaml.STR else resolved
    return node_value(node)


_IMPLICIT = (STR, INT, FLOAT, BOOL, NULL, TIMESTAMP)


def _check_fields(value: dict) -> None:
    for name, item in value.items():
        if name not in FIELDS:
            raise KubeError(f'invalid Kustomization: json: unknown field "{name}"',
                            code=KUSTOMIZE_ERROR)
        _check_type(name, FIELDS[name], item)
        if name == "replacements" and isinstance(item, list):
            for element in item:
                check_go(element, "*ReplacementField", "Kustomization", name)
        if FIELDS[name] == _LIST and name in ITEM_FIELDS and isinstance(item, list):
            for element in item:
                _check_item(name, element)
        if FIELDS[name] == _OBJ and name in ITEM_FIELDS and isinstance(item, dict):
            _check_item(name, item)


def check_go(value: Any, go_type: str, struct: str, path: str) -> None:
    """Go's decoding errors for ``value`` of ``go_type`` (a field of ``struct`` at the JSON
    ``path``): unknown fields and values of the wrong type, the first in document order."""
    if value is None:
        return
    if go_type.startswith("[]"):
        inner = go_type[2:]
        if not isinstance(value, list):
            _go_type_error(value, struct, path, go_type.replace("*", "*types."))
        for item in value:
            check_go(item, inner.lstrip("*") if inner.startswith("*") else inner, struct, path)
        return
    if go_type.lstrip("*") in GO_STRUCTS:
        name = go_type.lstrip("*")
        if not isinstance(value, dict):
            _go_type_error(value, struct, path, f"types.{name}")
        for key, item in value.items():
            if key not in GO_STRUCTS[name]:
                raise KubeError(f'invalid Kustomization: json: unknown field "{key}"',
                                code=KUSTOMIZE_ERROR)
            check_go(item, GO_STRUCTS[name][key], name, f"{path}.{key}")
        return
    want = {"string": str, "int": int, "bool": bool}[go_type]
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        _go_type_error(value, struct, path, go_type)


def _go_type_error(value: Any, struct: str, path: str, go_type: str) -> None:
    kind = _json_kind(value)
    if go_type == "int" and isinstance(value, float):
        kind = f"number {value:g}"
    raise KubeError(f"invalid Kustomization: json: cannot unmarshal {kind} into Go struct "
                    f"field {struct}.{path} of type {go_type}", code=KUSTOMIZE_ERROR)


def _check_item(name: str, element: Any) -> None:
    if not isinstance(element, dict):
        return
    for key, inner in element.items():
        if key not in ITEM_FIELDS[name]:
            raise KubeError(f'invalid Kustomization: json: unknown field "{key}"',
                            code=KUSTOMIZE_ERROR)
        if key == "target" and isinstance(inner, dict):
            _check_item("target", inner)


def _check_type(name: str, kind: str, value: Any) -> None:
    if value is None:
        return
    expected = {_STR: str, _MAP: dict, _LIST: list, _OBJ: dict}[kind]
    ok = isinstance(value, expected)
    if ok and kind == _MAP:
        bad = [v for v in value.values() if not isinstance(v, str) and v is not None]
        if bad:
            raise KubeError(f"invalid Kustomization: json: cannot unmarshal {_json_kind(bad[0])} "
                            f"into Go struct field Kustomization.{name} of type string",
                            code=KUSTOMIZE_ERROR)
    if not ok:
        go_type = {_STR: "string", _MAP: "map[string]string", _LIST: "[]",
                   _OBJ: "struct"}[kind]
        raise KubeError(f"invalid Kustomization: json: cannot unmarshal {_json_kind(value)} "
                        f"into Go struct field Kustomization.{name} of type {go_type}",
                        code=KUSTOMIZE_ERROR)


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), "null")


def _enforce(found: Kustomization, loader: Loader) -> None:
    kind = found.value.get("kind") or ""
    api = found.value.get("apiVersion") or ""
    errors = []
    if kind and kind not in (KUSTOMIZATION, COMPONENT):
        errors.append(f"kind should be {KUSTOMIZATION} or {COMPONENT}")
    required = VERSIONS[COMPONENT] if kind == COMPONENT else VERSIONS[KUSTOMIZATION]
    if api and api != required:
        errors.append(f"apiVersion for {kind} should be {required}")
    if errors:
        raise KubeError(f"Failed to read kustomization file under {loader.root}:\n"
                        + "\n".join(errors), code=KUSTOMIZE_ERROR)


def _refuse_unmodelled(found: Kustomization, top: bool) -> None:
    for name, what in UNMODELLED.items():
        if found.value.get(name):
            raise KubeError(f"{found.where('/' + name)}: '{name}' ({what}) is not modelled "
                            f"by cfgpatch kube build", code=KUSTOMIZE_UNMODELLED,
                            hint="build this tree with kubectl kustomize")
    if found.value.get("sortOptions") and not top:
        raise KubeError(f"{found.where('/sortOptions')}: 'sortOptions' below the top "
                        f"kustomization is not modelled by cfgpatch kube build",
                        code=KUSTOMIZE_UNMODELLED)


def _fix(found: Kustomization) -> None:
    value = found.value
    value["resources"] = [*(value.get("resources") or []), *(value.get("bases") or [])]
    value["images"] = [*(value.get("images") or []), *(value.get("imageTags") or [])]
