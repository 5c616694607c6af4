"""Values as structured-merge-diff sees them: JSON values with a total order.

An object is plain JSON data (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``,
``None`` for JSON ``null``).  :data:`ABSENT` stands for "no value at all" (a field that is
not there), which the walkers keep apart from ``null``.

* :func:`order_key`: structured-merge-diff's total order (numbers, then strings, booleans,
  lists, maps, null; an integer and a float compare by value);
* :func:`equals`: its equality (``1`` equals ``1.0``; ``True`` never equals ``1``);
* :func:`identical`: the same JSON text (types, key order and the sign of zero too);
* :func:`to_string`: how a value is printed inside a path (``"x"``, ``80``, ``1e+06``);
* :func:`json_text`: how it is written inside a ``FieldsV1`` key (``k:{...}``, ``v:...``).
"""

from __future__ import annotations

from typing import Any

from ..go.json import encode, encode_string, go_float, go_float_g, go_quote


class _Absent:
    """The marker of a value that is not there (Go's nil ``value.Value``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


_EXACT = 2**53


def is_number(v: Any) -> bool:
    """An int or a float, never a bool."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def order_key(v: Any) -> tuple:
    """A key that sorts values as structured-merge-diff's ``value.Compare`` does."""
    if isinstance(v, bool):
        return (2, v)
    if isinstance(v, float):
        return (0, v)
    if isinstance(v, int):  # beyond 2**53 an int meets floats as a float64, as in Go
        return (0, v if -_EXACT <= v <= _EXACT else float(v))
    if isinstance(v, str):
        return (1, v)
    if isinstance(v, list):
        return (3, tuple(order_key(x) for x in v))
    if isinstance(v, dict):
        return (4, tuple((k, order_key(v[k])) for k in sorted(v)))
    return (5,)


def equals(a: Any, b: Any) -> bool:
    """structured-merge-diff's ``value.Equals``."""
    ta = type(a)
    if ta is type(b):
        if ta is str or ta is int or ta is float or ta is bool or a is None:
            return a == b
        if ta is dict:
            return len(a) == len(b) and all(k in b and equals(x, b[k]) for k, x in a.items())
        if ta is list:
            return len(a) == len(b) and all(equals(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) or is_number(b):
        if not (is_number(a) and is_number(b)):
            return False
        if isinstance(a, float) or isinstance(b, float):
            return float(a) == float(b)
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return False
        return all(equals(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)) or len(a) != len(b):
            return False
        return all(k in b and equals(a[k], b[k]) for k in a)
    return a is None and b is None


def identical(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` are the same JSON value down to their text: the same types
    (``1`` is not ``1.0``), the same key order, the same sign of zero.

    >>> identical({"a": [1, "x"]}, {"a": [1, "x"]}), identical(1, 1.0), identical(0.0, -0.0)
    (True, False, False)
    """
    if a is b:
        return True
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is dict:
        return len(a) == len(b) and all(
            ka == kb and identical(a[ka], b[kb]) for ka, kb in zip(a, b))
    if ta is list:
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    if ta is float:
        return a == b and str(a) == str(b)
    return bool(a == b)


def go_scalar(v: Any, null: str) -> str | None:
    """A scalar as Go prints it inside a value (``null``: how nil is spelt): true or
    false, a float as ``%g``, an integer, a string quoted; None for anything else.

    >>> go_scalar("a", "null"), go_scalar(1e21, "null"), go_scalar(None, "<nil>")
    ('"a"', '1e+21', '<nil>')
    """
    if v is None:
        return null
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return go_float_g(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return go_quote(v)
    return None


def to_string(v: Any) -> str:
    """``value.ToString``: the text of a value inside a printed path.

    >>> to_string("TCP"), to_string(80), to_string(1e6), to_string(None)
    ('"TCP"', '80', '1e+06', 'null')
    """
    scalar = go_scalar(v, "null")
    if scalar is not None:
        return scalar
    if isinstance(v, list):
        return "[" + ",".join(to_string(x) for x in v) + "]"
    if isinstance(v, dict):
        return "".join(f"{k}={to_string(x)}" for k, x in v.items())
    return "{{undefined}}"


def json_text(v: Any) -> str:
    """The JSON text of a value as the field-set serializer writes it.

    >>> json_text("a<b"), json_text(80), json_text(2.0), json_text(1e-7)
    ('"a\\\\u003cb"', '80', '2', '1e-07')
    """
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):  # json-iterator keeps Go's two-digit exponent (1e-07)
        text = go_float(v)
        if "e" in text and len(text.rsplit("e", 1)[1]) == 2:
            text = text[:-1] + "0" + text[-1]
        return text
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return encode_string(v)
    if v is None:
        return "null"
    return encode(v)


def deep_copy(v: Any) -> Any:
    """A copy of a JSON value (dicts and lists copied, leaves shared)."""
    if isinstance(v, dict):
        return {k: deep_copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [deep_copy(x) for x in v]
    return v
