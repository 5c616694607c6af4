"""The object file's ``apiVersion`` and ``metadata`` as kubectl's typed structs read them.

Before patching, kubectl decodes the object file's ``apiVersion`` and ``metadata`` into
Go structs (``metadataOnlyObject`` holding a ``v1.ObjectMeta``), so a field of the wrong
JSON type is refused there even though the rest of the object is schemaless: a label
value that is a number, ``generation`` given as a string, an ``ownerReferences``
element that is not a mapping.  :func:`check_metadata` finds the first such field in
the order Go's decoder meets it and raises it (a
:class:`~cfgpatch.kube.problems.Unmarshal` record: JSON type, Go field and Go type).
The items of a list skip this check (:mod:`cfgpatch.kube.io.unstructured` checks only
their kind and apiVersion).

Standard library only.
"""

from __future__ import annotations

from ..problems import Decoding, ProblemError, Unmarshal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def go_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    return "string" if isinstance(value, str) else "number"


#: Go's name of a JSON container's type in decoding errors.
_CONTAINERS: dict[type, str] = {dict: "object", list: "array"}

_META_STRINGS = ("name", "namespace", "generateName", "resourceVersion",
                 "selfLink", "creationTimestamp", "deletionTimestamp")
#: The other typed fields of ObjectMeta: Go type of the field, of an element of a list.
_META_TYPED = {"uid": ("types.UID", None), "generation": ("int64", None),
               "deletionGracePeriodSeconds": ("int64", None),
               "ownerReferences": ("[]v1.OwnerReference", "v1.OwnerReference"),
               "managedFields": ("[]v1.ManagedFieldsEntry", "v1.ManagedFieldsEntry")}
#: The scalar fields of those list elements: Go struct name, field -> Go type.
_ELEMENT_FIELDS = {
    "ownerReferences": ("OwnerReference", {
        "apiVersion": "string", "kind": "string", "name": "string", "uid": "types.UID",
        "controller": "bool", "blockOwnerDeletion": "bool"}),
    "managedFields": ("ManagedFieldsEntry", {
        "manager": "string", "operation": "v1.ManagedFieldsOperationType",
        "apiVersion": "string", "fieldsType": "string", "subresource": "string"}),
}


def _element_problems(field: str, items: list, ordered: bool) -> list[tuple[str, Any, str]]:
    """Wrong JSON types in the ``ownerReferences``/``managedFields`` elements and their
    scalar fields, in document order (Go reports the first; ``time`` is not parsed)."""
    struct, types = _ELEMENT_FIELDS[field]
    out: list[tuple[str, Any, str]] = []
    for item in items:
        if item is not None and not isinstance(item, dict):
            out.append((f"ObjectMeta.metadata.{field}", item, f"v1.{struct}"))
        for name in (item if ordered else sorted(item)) if isinstance(item, dict) else ():
            want, value = types.get(name), item[name]
            if want is None or value is None:
                continue
            ok = isinstance(value, bool) if want == "bool" else isinstance(value, str)
            if not ok:
                out.append((f"{struct}.metadata.{field}.{name}", value, want))
    return out


def _typed_problem(value: Any, want: str, element: str | None) -> tuple[Any, str] | None:
    """The value Go's decoder refuses in a field of type ``want`` (numbers that are not
    integers are not checked), as (value, the type named in the error)."""
    if value is None:
        return None
    if element is not None:
        return None if isinstance(value, list) else (value, want)
    if want == "int64":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if ok else (value, want)
    return None if isinstance(value, str) else (value, want)


def check_metadata(obj: dict, source: str, ordered: bool = False) -> None:
    """kubectl reads ``apiVersion`` and ``metadata`` into a typed struct (a list's own
    too, not its items'): wrong types are refused, the first in the order of the JSON
    text (``ordered``: as written; else the sorted order of the JSON kubectl makes of
    YAML)."""
    for key in (obj if ordered else sorted(obj)):
        value = obj[key]
        if key == "apiVersion" and value is not None and not isinstance(value, str):
            kind = _CONTAINERS.get(type(value)) or go_kind(value)
            raise ProblemError(Decoding(source, Unmarshal(
                kind, "string", "metadataOnlyObject.apiVersion")),
                hint="apiVersion must be a string such as apps/v1")
        if key == "metadata":
            _check_object_meta(value, source, ordered)


def _check_object_meta(meta: Any, source: str, ordered: bool) -> None:
    if meta is None:
        return
    if not isinstance(meta, dict):
        kind = "array" if isinstance(meta, list) else go_kind(meta)
        raise ProblemError(Decoding(source, Unmarshal(
            kind, "v1.ObjectMeta", "metadataOnlyObject.metadata")),
            hint="metadata must be a mapping")
    problems: list[tuple[str, Any, str]] = []
    for field in (meta if ordered else sorted(meta)):
        value = meta[field]
        where = f"ObjectMeta.metadata.{field}"
        if field in ("labels", "annotations"):
            if isinstance(value, dict):
                problems.extend((where, value[key], "string")
                                for key in (value if ordered else sorted(value))
                                if value[key] is not None and not isinstance(value[key], str))
            elif value is not None:
                problems.append((where, value, "map[string]string"))
        elif field == "finalizers":
            if isinstance(value, list):
                problems.extend((where, item, "string") for item in value
                                if item is not None and not isinstance(item, str))
            elif value is not None:
                problems.append((where, value, "[]string"))
        elif field in _META_STRINGS and value is not None and not isinstance(value, str):
            problems.append((where, value, "string"))
        elif field in _META_TYPED:
            found = _typed_problem(value, *_META_TYPED[field])
            if found is not None:
                problems.append((where, *found))
            elif isinstance(value, list):
                problems.extend(_element_problems(field, value, ordered))
    if problems:
        where, value, want = problems[0]
        kind = _CONTAINERS.get(type(value)) or go_kind(value)
        field = where.split(".", 2)[-1]
        hint = ("label and annotation values must be strings: quote them in YAML "
                "(\"true\", \"8080\")" if field in ("labels", "annotations") else
                f"kubectl reads metadata into its typed ObjectMeta, where {field} is "
                f"{want.replace('[]', 'a list of ')}")
        raise ProblemError(Decoding(source, Unmarshal(kind, want, where)), hint=hint)
