"""go-yaml v3's scalars as kustomize decodes them (standard library only).

* :func:`resolve`: the tag go-yaml v3 gives a plain scalar.  Unlike kubectl's go-yaml v2
  only ``true``/``false`` (three spellings each) are booleans (``yes``, ``on``, ``y`` stay
  strings), ``0o17`` and ``017`` are octal, ``089`` is the float 89, dates are
  timestamps.
* :func:`node_value`: the Go value kyaml decodes a node into, as the plain value that
  goes through Go's JSON to the printed YAML: a timestamp becomes Go's RFC 3339 text
  (``2001-12-14T21:59:43.1-05:00``), ``!!binary`` its decoded bytes, a mapping with a
  key that is not a string or a float that JSON cannot hold is kustomize's error.
"""

from __future__ import annotations

import math
import re

from ...lazy_pattern import lazily
from ..go import json as gojson
from ..go import yaml as goyaml
from ..problems import YamlValue
from .kyaml import (
    BINARY,
    BOOL,
    FLOAT,
    INT,
    MAPPING,
    NULL,
    SCALAR,
    SEQUENCE,
    STR,
    TIMESTAMP,
    KyamlError,
    Node,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_WORDS = {
    **{w: (BOOL, True) for w in ("true", "True", "TRUE")},
    **{w: (BOOL, False) for w in ("false", "False", "FALSE")},
    **{w: (NULL, None) for w in ("", "~", "null", "Null", "NULL")},
    **{w: (FLOAT, math.nan) for w in (".nan", ".NaN", ".NAN")},
    **{w: (FLOAT, math.inf) for w in (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")},
    **{w: (FLOAT, -math.inf) for w in ("-.inf", "-.Inf", "-.INF")},
}
_YAML_FLOAT = lazily(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_FRACTION = lazily(r"\.(\d+)")
_INT64 = (gojson.INT64_MIN, gojson.INT64_MAX)


def resolve(text: str) -> tuple[str, Any]:
    """The tag and Go value of a plain scalar.

    >>> [resolve(t)[1] for t in ("yes", "010", "0o17", "089", "1_000", "True")]
    ['yes', 8, 15, 89.0, 1000, True]
    """
    if text in _WORDS:
        return _WORDS[text]
    if text[:1] not in "+-.0123456789" or not text:
        return STR, text
    if timestamp_text(text) is not None:
        return TIMESTAMP, timestamp_text(text)
    plain = text.replace("_", "")
    number = _parse_int(plain)
    if number is not None:
        return INT, number
    if _YAML_FLOAT.fullmatch(plain):
        value = float(plain)
        if not math.isinf(value):
            return FLOAT, value
    for prefix, base in (("0b", 2), ("-0b", 2), ("0o", 8), ("-0o", 8)):
        if plain.startswith(prefix) and _digits_ok(plain[len(prefix):], base):
            value = int(plain[len(prefix):], base) * (-1 if plain[0] == "-" else 1)
            if _INT64[0] <= value <= _INT64[1]:
                return INT, value
    return STR, text


def _digits_ok(body: str, base: int) -> bool:
    return bool(body) and all(c in "0123456789abcdef"[:base] for c in body.lower())


def _parse_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)``, then ``ParseUint``."""
    sign, body = (text[0], text[1:]) if text[:1] in "+-" else ("", text)
    base = 10
    if body[:2].lower() in ("0x", "0o", "0b"):
        base, body = {"0x": 16, "0o": 8, "0b": 2}[body[:2].lower()], body[2:]
    elif len(body) > 1 and body[0] == "0":
        base, body = 8, body[1:]
    if not _digits_ok(body, base):
        return None
    value = int(body, base) * (-1 if sign == "-" else 1)
    if _INT64[0] <= value <= _INT64[1] or (sign == "" and value < 2**64):
        return value
    return None


def timestamp_text(text: str) -> str | None:
    """Go's ``time.Time`` JSON text for a YAML timestamp, or None if it is not one.

    >>> timestamp_text("2001-12-14t21:59:43.10-05:00"), timestamp_text("2002-12-14")
    ('2001-12-14T21:59:43.1-05:00', '2002-12-14T00:00:00Z')
    """
    match = goyaml.timestamp_match(text)
    if not match or not goyaml.is_timestamp(text):
        return None
    year, month, day = (int(g) for g in match.group(1, 2, 3))
    clock = match.group(4, 5, 6) if match.group(4) else match.group(9, 10, 11)
    hour, minute, second = (int(g) if g else 0 for g in clock)
    out = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    fraction = _FRACTION.search(text[10:])
    digits = fraction.group(1)[:9].rstrip("0") if fraction else ""
    out += f".{digits}" if digits else ""
    zone_hour, zone_minute = match.group(7, 8)
    if not zone_hour or int(zone_hour) == int(zone_minute) == 0:
        return out + "Z"
    sign = text[match.start(7) - 1]
    return f"{out}{sign}{zone_hour}:{zone_minute}"


def scalar_value(node: Node) -> Any:
    """The Go value of a scalar node (see the module docstring)."""
    tag = node.tag
    if tag == "" and node.style == "":
        return resolve(node.value)[1]
    if tag in ("", STR) or tag[:2] != "!!":
        return node.value
    if tag == BINARY:
        return _binary(node)
    if tag in (INT, FLOAT, BOOL, NULL, TIMESTAMP):
        found, value = resolve(node.value)
        if found == tag or (tag == FLOAT and found == INT):
            return float(value) if tag == FLOAT else value
        raise KyamlError(YamlValue("cannot-decode", (found[2:], node.value, tag), node.line,
                                   node.column),
                         file=node.file, line=node.line, column=node.column)
    return node.value


def _binary(node: Node) -> str:
    import base64
    import binascii

    try:
        data = base64.b64decode("".join(node.value.split()), validate=True)
    except (binascii.Error, ValueError):
        raise KyamlError(YamlValue("bad-base64", None, node.line, node.column),
                         file=node.file, line=node.line, column=node.column) from None
    return data.decode("utf-8", "replace")


def node_value(node: Node, check: bool = True) -> Any:
    """The plain value kustomize prints for ``node`` (raises kustomize's JSON errors,
    unless ``check`` is false)."""
    value = _value(node, set(), None)
    if check:
        _check_json(value, value)
    return value


class TypedKey(str):
    """A plain map key that reads as no string (``1``, ``true``, a date), held as its
    text: kustomize keeps the key and fails when it prints the map (see
    ``kustomize/plainkeys.py``)."""

    __slots__ = ()


def value_with_typed_keys(node: Node, check: bool = True) -> tuple[Any, bool]:
    """:func:`node_value` where a plain scalar key that reads as no string is a
    :class:`TypedKey` (not an error), and whether there is one (``check``: as for
    :func:`node_value`)."""
    found: list[bool] = []
    value = _value(node, set(), found)
    if check:
        _check_json(value, value)
    return value, bool(found)


def _value(node: Node, active: set[int], typed: list[bool] | None) -> Any:
    if id(node) in active:
        raise KyamlError(YamlValue("anchor-refers-to-itself", None, node.line, node.column),
                         file=node.file, line=node.line)
    if node.kind == SCALAR:
        return scalar_value(node)
    active = active | {id(node)}
    if node.kind == SEQUENCE:
        return [_value(item, active, typed) for item in node.content]
    if node.kind != MAPPING:
        return None
    out: dict = {}
    string_keys = True
    for key, value in node.pairs():
        name = _value(key, active, typed)
        plain_typed = not isinstance(name, str) or (key.kind == SCALAR and key.tag not in (
            "", STR) and key.tag[:2] == "!!")
        if plain_typed and typed is not None and key.kind == SCALAR:
            typed.append(True)
            name = TypedKey(key.value)
        elif plain_typed:
            string_keys = False
        out[name if isinstance(name, str) else _Key(name)] = _value(value, active, typed)
    return out if string_keys else _NonStringMap(out)


class _Key:
    """A map key that is not a string (go-yaml then builds map[interface{}]interface{})."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return hash(repr(self.value))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and repr(other.value) == repr(self.value)


class _NonStringMap(dict):
    """A mapping go-yaml decodes to ``map[interface{}]interface{}``: JSON refuses it."""


def _check_json(value: Any, top: Any) -> None:
    if isinstance(value, _NonStringMap):
        raise KyamlError(YamlValue("unsupported-type", "map[interface {}]interface {}",
                                   value=go_syntax(top)))
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise KyamlError(YamlValue("unsupported-value", gojson.go_float_g(value),
                                   value=go_syntax(top)))
    if isinstance(value, dict):
        for item in value.values():
            _check_json(item, top)
    elif isinstance(value, list):
        for item in value:
            _check_json(item, top)


def go_syntax(value: Any) -> str:
    """Go's ``%#v`` of a decoded value (the text kustomize's JSON errors start with)."""
    if isinstance(value, _NonStringMap):
        items = sorted(value.items(), key=lambda kv: _sort_key(kv[0]))
        return "map[interface {}]interface {}{" + ", ".join(
            f"{go_syntax(_plain(k))}:{go_syntax(v)}" for k, v in items) + "}"
    if isinstance(value, dict):
        return "map[string]interface {}{" + ", ".join(
            f"{gojson.go_quote(k)}:{go_syntax(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, list):
        return "[]interface {}{" + ", ".join(go_syntax(v) for v in value) + "}"
    if value is None:
        return "interface {}(nil)"
    if isinstance(value, GoTime):
        return _go_time(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = gojson.go_float_g(value)
        return {"inf": "+Inf", "-inf": "-Inf", "nan": "NaN"}.get(text.lower(), text)
    return gojson.go_quote(str(value))


def _plain(key: Any) -> Any:
    return key.value if isinstance(key, _Key) else key


def _sort_key(key: Any) -> tuple:
    """Go's fmt order of ``map[interface{}]interface{}`` keys: by type (measured with
    kubectl 1.32: nil, string, int, float64, bool, time.Time), then by value."""
    value = _plain(key)
    if value is None:
        return (0, 0)
    if isinstance(value, GoTime):
        return (5, str(value))
    if isinstance(value, str):
        return (1, value)
    if isinstance(value, bool):
        return (4, value)
    if isinstance(value, int):
        return (2, value)
    if isinstance(value, float):
        return (3, value)
    return (6, str(value))


class GoTime(str):
    """A timestamp map key: Go's ``time.Time`` (held as its RFC 3339 text)."""

    __slots__ = ()


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def _go_time(value: str) -> str:
    """Go's ``%#v`` of a time.Time (UTC; another zone is written ``time.Location("")``)."""
    match = re.fullmatch(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?(.*)", value)
    if match is None:
        return gojson.go_quote(value)
    year, month, day, hour, minute, second = (int(match[i]) for i in range(1, 7))
    nanos = int((match[7] or "0").ljust(9, "0")[:9])
    zone = "time.UTC" if match[8] == "Z" else 'time.Location("")'
    return (f"time.Date({year}, time.{_MONTHS[month - 1]}, {day}, {hour}, {minute}, "
            f"{second}, {nanos}, {zone})")


def typed_map(pairs: list[tuple[Any, Any]]) -> dict:
    """A map with keys that are not all strings, as go-yaml builds it
    (``map[interface{}]interface{}``: JSON refuses it, :func:`go_syntax` shows it)."""
    return _NonStringMap({key if type(key) is str else _Key(key): value
                          for key, value in pairs})
