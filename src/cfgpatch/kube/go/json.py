"""JSON the way kubectl's Go code writes it (Go ``encoding/json``), and kubectl's numbers.

kubectl never sees the JSON text a user typed: it decodes it, works on the values and
encodes them again.  To print byte-identical output and the same error messages, this
module reproduces the parts of Go's ``encoding/json`` that show (reading is in
:mod:`.jsondecode`):

* :func:`go_float` / :func:`go_float_g`: Go's float formatting (``1e+21``, ``1.5e-7``,
  ``1e+06`` in ``%g``);
* :func:`encode`: ``json.Marshal`` (sorted keys, HTML-safe escapes ``\\u003c``, U+2028/9
  escaped, ``\\b``/``\\f`` short escapes) and ``json.MarshalIndent`` with any indent;
* :func:`kube_number`: kubectl's number model (an integer within int64 stays an
  integer, any other number is a 64-bit float).

Standard library only.
"""

from __future__ import annotations

import json
import math
import re
from json.encoder import encode_basestring

from ...lazy_pattern import lazily
from ..problems import JsonSyntax, Refusal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class GoJSONError(Refusal, ValueError):
    """Malformed JSON: ``problem`` is where Go's scanner stopped (a
    :class:`~cfgpatch.kube.problems.JsonSyntax`), ``offset`` the offset Go reports,
    ``message`` Go's words (the installed wording's; see :mod:`cfgpatch.kube.problems`)."""

    def __init__(self, problem: JsonSyntax) -> None:
        super().__init__(problem)
        self.offset = problem.offset


# --- numbers -------------------------------------------------------------------


def _digits(value: float) -> tuple[str, int]:
    """Shortest decimal digits of ``abs(value)`` and the decimal point position:
    ``value == 0.<digits> * 10**point``."""
    text = repr(abs(value))
    mantissa, _, exp = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    point = len(whole) + (int(exp) if exp else 0)
    if whole == "0":
        stripped = frac.lstrip("0")
        point = -(len(frac) - len(stripped)) + (int(exp) if exp else 0)
        digits = stripped
    digits = digits.rstrip("0") or "0"
    return digits, point


def _fmt_f(digits: str, point: int) -> str:
    if point <= 0:
        return "0." + "0" * (-point) + digits
    if point >= len(digits):
        return digits + "0" * (point - len(digits))
    return digits[:point] + "." + digits[point:]


def _fmt_e(digits: str, point: int) -> str:
    exp = point - 1
    head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    sign = "-" if exp < 0 else "+"
    return f"{head}e{sign}{abs(exp):02d}"


def go_float(value: float) -> str:
    """A float64 as Go's ``encoding/json`` writes it.

    >>> go_float(1.0), go_float(1e21), go_float(1.5e-7), go_float(0.5)
    ('1', '1e+21', '1.5e-7', '0.5')
    """
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"json: unsupported value: {go_float_g(value)}")
    neg = math.copysign(1.0, value) < 0
    if value == 0:
        return "-0" if neg else "0"
    digits, point = _digits(value)
    if abs(value) < 1e-6 or abs(value) >= 1e21:
        text = _fmt_e(digits, point)
        if text[-4:-1] == "e-0":
            text = text[:-2] + text[-1]
    else:
        text = _fmt_f(digits, point)
    return "-" + text if neg else text


def go_float_g(value: float) -> str:
    """A float64 as Go's ``strconv.FormatFloat(v, 'g', -1, 64)`` writes it.

    >>> go_float_g(1e6), go_float_g(123456.5), go_float_g(1.5e-7)
    ('1e+06', '123456.5', '1.5e-07')
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    neg = math.copysign(1.0, value) < 0
    if value == 0:
        return "-0" if neg else "0"
    digits, point = _digits(value)
    exp = point - 1
    text = _fmt_e(digits, point) if exp < -4 or exp >= 6 else _fmt_f(digits, point)
    return "-" + text if neg else text


def kube_number(value: int | float) -> int | float:
    """kubectl's number model: an int within int64 stays, anything else is float64.

    >>> kube_number(2**63), kube_number(5), kube_number(1.0)
    (9.223372036854776e+18, 5, 1.0)
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        return float(value)
    return value


def number_text(value: int | float) -> str:
    """The JSON text Go writes for a number held as int or float64."""
    if isinstance(value, int):
        return str(value)
    return go_float(value)


# --- encoding --------------------------------------------------------------------

_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
          "\b": "\\b", "\f": "\\f"}


def _escape_char(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    code = ord(ch)
    if code < 0x20 or ch in "<>&" or code in (0x2028, 0x2029):
        return f"\\u{code:04x}"
    if 0xD800 <= code <= 0xDFFF:
        return "\\ufffd"
    return ch


def encode_string(text: str) -> str:
    """A string as Go's ``json.Marshal`` writes it (HTML-safe).

    >>> encode_string("<a&b>")
    '"\\\\u003ca\\\\u0026b\\\\u003e"'
    """
    return '"' + "".join(_escape_char(ch) for ch in text) + '"'


def encode(value: Any, indent: str | None = None) -> str:
    """``json.Marshal`` (``indent=None``) or ``json.MarshalIndent(v, "", indent)``.

    A value without floats (whose text Go writes its own way) is written by Python's C
    encoder, whose escapes are Go's but for the HTML-safe ones, added after; other values
    by :func:`_encode` (the two agree: tests hold them to each other).
    """
    if indent is not None:  # Python's own indenting encoder is its slow pure-Python one
        try:
            text = _indented(value, indent, "\n")
        except _NotPlain:  # a float (or a key or value Python's encoder writes its way)
            pass
        else:
            return _html_safe(text)
    elif _without_floats(value):
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, check_circular=False,
                          separators=(",", ":"))
        return _html_safe(text)
    parts: list[str] = []
    _encode(value, indent, 0, parts)
    return "".join(parts)


class _NotPlain(Exception):
    """:func:`_indented` met what :func:`_without_floats` refuses."""


#: Characters Go escapes that Python's encoder writes as they are (they occur only inside
#: strings of the encoded text); a lone surrogate is invalid UTF-8, which Go replaces.
_HTML_UNSAFE = lazily("[<>&\u2028\u2029\ud800-\udfff]")


def _html_safe(text: str) -> str:
    """``text`` with Go's escapes for the characters of :data:`_HTML_UNSAFE`."""
    if text.isascii() and "<" not in text and ">" not in text and "&" not in text:
        return text  # (str.isascii is a flag; "in" a fast search: both far quicker than re)
    return _HTML_UNSAFE.sub(_html_escape, text)


def _html_escape(match: re.Match) -> str:
    return _escape_char(match.group())


def _indented(value: Any, indent: str, pad: str) -> str:
    """``MarshalIndent`` of a value without floats, before the HTML-safe escapes; raises
    ``_NotPlain`` on any value :func:`_without_floats` refuses (one walk, not two)."""
    kind = type(value)
    if kind is dict:
        return _indented_members(value, indent, pad + indent, pad) if value else "{}"
    if kind is list:
        return _indented_items(value, indent, pad + indent, pad) if value else "[]"
    return _leaf_text(value)


def _indented_members(value: dict, indent: str, inner: str, pad: str) -> str:
    try:
        keys = sorted(value)
    except TypeError:  # keys of several types
        raise _NotPlain from None
    parts = []
    for key in keys:
        if type(key) is not str:
            raise _NotPlain
        item = value[key]
        kind = type(item)
        if kind is str:
            parts.append(f"{inner}{encode_basestring(key)}: {encode_basestring(item)}")
        elif kind is dict or kind is list:
            parts.append(f"{inner}{encode_basestring(key)}: {_indented(item, indent, inner)}")
        else:
            parts.append(f"{inner}{encode_basestring(key)}: {_leaf_text(item)}")
    return "{" + ",".join(parts) + pad + "}"


def _indented_items(value: list, indent: str, inner: str, pad: str) -> str:
    parts = []
    for item in value:
        kind = type(item)
        if kind is str:
            parts.append(inner + encode_basestring(item))
        elif kind is dict or kind is list:
            parts.append(inner + _indented(item, indent, inner))
        else:
            parts.append(inner + _leaf_text(item))
    return "[" + ",".join(parts) + pad + "]"


def _leaf_text(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    raise _NotPlain


def _without_floats(value: Any) -> bool:
    """Whether ``value`` holds only strings, ints, bools, None, lists and str-keyed dicts."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind not in (str, int, bool) and item is not None:
            return False
    return True


def encode_reference(value: Any, indent: str | None = None) -> str:
    """:func:`encode` written value by value (the path for floats; tests compare)."""
    parts: list[str] = []
    _encode(value, indent, 0, parts)
    return "".join(parts)


def _encode(value: Any, indent: str | None, level: int, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, (int, float)):
        out.append(number_text(value))
    elif isinstance(value, str):
        out.append(encode_string(value))
    elif isinstance(value, dict):
        _encode_items(sorted(value.items()), indent, level, out, "{", "}", True)
    elif isinstance(value, list):
        _encode_items(list(enumerate(value)), indent, level, out, "[", "]", False)
    else:
        raise TypeError(f"json: unsupported type: {type(value).__name__}")


def _encode_items(items: list, indent: str | None, level: int, out: list[str],
                  open_: str, close: str, keyed: bool) -> None:
    if not items:
        out.append(open_ + close)
        return
    out.append(open_)
    inner = None if indent is None else "\n" + indent * (level + 1)
    for n, (key, item) in enumerate(items):
        if n:
            out.append(",")
        if inner is not None:
            out.append(inner)
        if keyed:
            out.append(encode_string(key) + (":" if indent is None else ": "))
        _encode(item, indent, level + 1, out)
    if indent is not None:
        out.append("\n" + indent * level)
    out.append(close)


# --- quoting (Go's %q and the scanner's character quotes) --------------------------


def quote_char(byte: int) -> str:
    """Go's ``quoteChar``: how the scanner names an unexpected byte."""
    if byte == 0x27:
        return "'\\''"
    if byte == 0x22:
        return "'\"'"
    return "'" + go_quote(chr(byte))[1:-1] + "'"


def go_quote(text: str) -> str:
    """Go's ``strconv.Quote`` (printable characters kept, others escaped)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch in "\a\b\f\n\r\t\v":
            out.append("\\" + "abfnrtv"["\a\b\f\n\r\t\v".index(ch)])
        elif ch.isprintable() or ch == " ":
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


