"""The checks the API server runs when it turns an object into a typed value.

:func:`validate` gives its errors with its words and paths:
``.spec.template.spec.containers: duplicate entries for key [name="app"]``,
``element 0: associative list with keys has an element that omits key field "name" (and
doesn't have default value)``, ``field not declared in schema``, ``expected string, got
&value.valueUnstructured{Value:1}`` (a value of the wrong kind printed as Go's ``%v`` or
``%#v`` prints it: :func:`go_value`, :func:`go_value_sharp`; its type as ``%T``:
:func:`cfgpatch.kube.go.runtime.go_type`).
"""

from __future__ import annotations

from typing import Any

from ..go.json import go_quote
from ..go.runtime import go_format, go_type
from . import fieldpath as fp
from .schema import (
    ASSOCIATIVE,
    BOOLEAN,
    NUMERIC,
    STRING,
    UNTYPED,
    UNTYPED_ATOMIC,
    UNTYPED_DEDUCED,
    ListType,
    MapType,
    Schema,
    TypeRef,
)
from .typed import Errors, ItemError, item_element, resolve, with_prefix
from .value import ABSENT, go_scalar, is_number

ANYTHING = (UNTYPED_ATOMIC, UNTYPED_DEDUCED)


#: The types of a scalar: whether a scalar fits a type depends on its type alone.
SCALARS = (str, int, float, bool)


def scalar_fits(schema: Schema, ref: TypeRef, tv: type) -> bool:
    """True when every scalar of Python type ``tv`` fits the type ``ref`` (cached)."""
    key = (ref, tv)
    hit = schema.deduced.get(key)
    if hit is None:
        sample = {str: "", int: 0, float: 0.5, bool: False}[tv]
        hit = schema.deduced[key] = not validate(schema, ref, sample)
    return bool(hit)


def validate(schema: Schema, ref: TypeRef, v: Any, allow_duplicates: bool = False) -> Errors:
    """The validation errors of a value (empty when it fits its type)."""
    if ref.named in ANYTHING and ref.named in schema.types:
        return []  # (untyped, all the way down: every JSON value fits)
    atom, errs = resolve(schema, ref, v)
    if atom is None:
        return list(errs)
    if atom.map is not None:
        return validate_map(schema, atom.map, v, allow_duplicates)
    if atom.scalar is not None:
        return scalar_errors(atom.scalar, v, "")
    assert atom.list is not None
    return validate_list(schema, atom.list, v, allow_duplicates)


def scalar_errors(kind: str, v: Any, prefix: str) -> Errors:
    """Go's ``validateScalar``."""
    if v is ABSENT or v is None:
        return []
    if kind == NUMERIC:
        if not is_number(v):
            return [("", f"{prefix}expected numeric (int or float), got {go_type(v)}")]
    elif kind == STRING:
        if not isinstance(v, str):
            return [("", f"{prefix}expected string, got {go_value_sharp(v)}")]
    elif kind == BOOLEAN:
        if not isinstance(v, bool):
            return [("", f"{prefix}expected boolean, got {go_value(v)}")]
    elif kind == UNTYPED:
        if isinstance(v, (list, dict)):
            return [("", f"{prefix}expected any scalar, got {go_value(v)}")]
    else:
        return [("", f"{prefix}unexpected scalar type in schema: {kind}")]
    return []


def validate_list(schema: Schema, lt: ListType, v: Any,
                  allow_duplicates: bool = False) -> Errors:
    """The errors of a value of a list type."""
    if v is None or v is ABSENT:
        return []
    if not isinstance(v, list):
        return [("", f"expected list, got {go_value(v)}")]
    errs: Errors = []
    seen: set = set()
    for i, child in enumerate(v):
        if lt.relationship != ASSOCIATIVE:
            pe = fp.index(i)
        else:
            try:
                pe = item_element(schema, lt, child)
            except ItemError as exc:
                errs.append(("", f"element {i}: {exc}"))
                return errs
            if pe in seen and not allow_duplicates:
                errs.append(("", f"duplicate entries for key {pe}"))
            seen.add(pe)
        tc = type(child)
        if tc in SCALARS and scalar_fits(schema, lt.element_type, tc):
            continue
        inner = validate(schema, lt.element_type, child, allow_duplicates)
        if inner:
            errs.extend(with_prefix(inner, str(pe)))
    return errs


def validate_map(schema: Schema, mt: MapType, v: Any,
                 allow_duplicates: bool = False) -> Errors:
    """The errors of a value of a map type."""
    if v is None:
        return []
    if v is ABSENT:
        return [("", "expected map, got nil")]
    if not isinstance(v, dict):
        return [("", f"expected map, got {go_value(v)}")]
    errs: Errors = []
    for k, child in v.items():
        sf = mt.fields.get(k)
        if sf is not None:
            ref = sf.type
        elif mt.element_type.is_empty():
            errs.append(("." + k, "field not declared in schema"))
            return errs
        else:
            ref = mt.element_type
        tc = type(child)
        if tc in SCALARS and scalar_fits(schema, ref, tc):
            continue
        inner = validate(schema, ref, child, allow_duplicates)
        if inner:
            errs.extend(with_prefix(inner, "." + k))
    return errs


def go_value(v: Any) -> str:
    """Go's ``%v`` of a ``value.Value`` holding ``v``: ``&{...}``."""
    return "&{" + go_format(v) + "}"


def go_value_sharp(v: Any) -> str:
    """Go's ``%#v`` of a ``value.Value`` holding ``v``."""
    return "&value.valueUnstructured{Value:" + _sharp_v(v) + "}"


def _sharp_v(v: Any) -> str:
    scalar = go_scalar(v, "interface {}(nil)")
    if scalar is not None:
        return scalar
    if isinstance(v, list):
        return "[]interface {}{" + ", ".join(_sharp_v(x) for x in v) + "}"
    return "map[string]interface {}{" + ", ".join(
        f"{go_quote(k)}:{_sharp_v(v[k])}" for k in sorted(v)) + "}"
