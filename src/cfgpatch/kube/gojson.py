"""JSON the way kubectl's Go code reads and writes it (Go ``encoding/json``).

kubectl never sees the JSON text a user typed: it decodes it, works on the values and
encodes them again.  To print byte-identical output and the same error messages, this
module reproduces the parts of Go's ``encoding/json`` that show:

* :func:`go_float` / :func:`go_float_g`: Go's float formatting (``1e+21``, ``1.5e-7``,
  ``1e+06`` in ``%g``);
* :func:`encode`: ``json.Marshal`` (sorted keys, HTML-safe escapes ``\\u003c``, U+2028/9
  escaped, ``\\b``/``\\f`` short escapes) and ``json.MarshalIndent`` with any indent;
* :func:`syntax_error`: the message and offset of Go's scanner for malformed JSON
  (``invalid character '}' looking for beginning of object key string``);
* :func:`decode`: Go's lenient reading (duplicate keys: the last wins; a lone
  surrogate escape becomes U+FFFD);
* :func:`kube_number`: kubectl's number model (an integer within int64 stays an
  integer, any other number is a 64-bit float).

Standard library only.
"""

from __future__ import annotations

import json
import math
from typing import Any

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class GoJSONError(ValueError):
    """Malformed JSON, with Go's message and the 1-based byte offset Go reports."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


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
    """``json.Marshal`` (``indent=None``) or ``json.MarshalIndent(v, "", indent)``."""
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


# --- decoding ----------------------------------------------------------------------

_SPACE = b" \t\r\n"
_HEX = b"0123456789abcdefABCDEF"
_DIGITS = b"0123456789"


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


def syntax_error(data: bytes) -> GoJSONError | None:
    """The error Go's ``json.Unmarshal`` reports for malformed ``data``, or ``None``."""
    return _Scanner(data).run()


class _Scanner:
    """Go's JSON scanner, reduced to finding the first syntax error."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0
        self.stack: list[str] = []

    def fail(self, context: str) -> GoJSONError:
        byte = self.data[self.pos]
        return GoJSONError(f"invalid character {quote_char(byte)} {context}", self.pos + 1)

    def eof(self) -> GoJSONError:
        return GoJSONError("unexpected end of JSON input", len(self.data))

    def peek(self) -> int | None:
        return self.data[self.pos] if self.pos < len(self.data) else None

    def skip_space(self) -> None:
        while self.pos < len(self.data) and self.data[self.pos] in _SPACE:
            self.pos += 1

    def run(self) -> GoJSONError | None:
        try:
            self.value()
            self.skip_space()
            if self.pos < len(self.data):
                return self.fail("after top-level value")
        except GoJSONError as err:
            return err
        return None

    def value(self) -> None:
        self.skip_space()
        c = self.peek()
        if c is None:
            raise self.eof()
        if c == ord("{"):
            self.pos += 1
            self.obj()
        elif c == ord("["):
            self.pos += 1
            self.arr()
        elif c == ord('"'):
            self.pos += 1
            self.string()
        elif c == ord("-") or c in _DIGITS:
            self.number()
        elif c in b"tfn":
            word = {ord("t"): "true", ord("f"): "false", ord("n"): "null"}[c]
            self.literal(word)
        else:
            raise self.fail("looking for beginning of value")

    def obj(self) -> None:
        self.skip_space()
        if self.peek() == ord("}"):
            self.pos += 1
            return
        while True:
            self.skip_space()
            c = self.peek()
            if c is None:
                raise self.eof()
            if c != ord('"'):
                raise self.fail("looking for beginning of object key string")
            self.pos += 1
            self.string()
            self.skip_space()
            c = self.peek()
            if c is None:
                raise self.eof()
            if c != ord(":"):
                raise self.fail("after object key")
            self.pos += 1
            self.value()
            self.skip_space()
            c = self.peek()
            if c is None:
                raise self.eof()
            self.pos += 1
            if c == ord("}"):
                return
            if c != ord(","):
                self.pos -= 1
                raise self.fail("after object key:value pair")

    def arr(self) -> None:
        self.skip_space()
        if self.peek() == ord("]"):
            self.pos += 1
            return
        while True:
            self.value()
            self.skip_space()
            c = self.peek()
            if c is None:
                raise self.eof()
            self.pos += 1
            if c == ord("]"):
                return
            if c != ord(","):
                self.pos -= 1
                raise self.fail("after array element")

    def string(self) -> None:
        while True:
            c = self.peek()
            if c is None:
                raise self.eof()
            if c == ord('"'):
                self.pos += 1
                return
            if c < 0x20:
                raise self.fail("in string literal")
            self.pos += 1
            if c == ord("\\"):
                self.escape()

    def escape(self) -> None:
        c = self.peek()
        if c is None:
            raise self.eof()
        if c in b'bfnrt\\/"':
            self.pos += 1
            return
        if c != ord("u"):
            raise self.fail("in string escape code")
        self.pos += 1
        for _ in range(4):
            c = self.peek()
            if c is None:
                raise self.eof()
            if c not in _HEX:
                raise self.fail("in \\u hexadecimal character escape")
            self.pos += 1

    def digits(self) -> int:
        start = self.pos
        while self.peek() is not None and self.peek() in _DIGITS:
            self.pos += 1
        return self.pos - start

    def need_digit(self, context: str) -> None:
        c = self.peek()
        if c is None:
            raise self.eof()
        if c not in _DIGITS:
            raise self.fail(context)

    def number(self) -> None:
        if self.peek() == ord("-"):
            self.pos += 1
            self.need_digit("in numeric literal")
        if self.peek() == ord("0"):
            self.pos += 1
        else:
            self.digits()
        if self.peek() == ord("."):
            self.pos += 1
            self.need_digit("after decimal point in numeric literal")
            self.digits()
        if self.peek() is not None and self.peek() in b"eE":
            self.pos += 1
            if self.peek() is not None and self.peek() in b"+-":
                self.pos += 1
            self.need_digit("in exponent of numeric literal")
            self.digits()

    def literal(self, word: str) -> None:
        self.pos += 1
        for expected in word[1:]:
            c = self.peek()
            if c is None:
                raise self.eof()
            if c != ord(expected):
                raise self.fail(f"in literal {word} (expecting {quote_char(ord(expected))})")
            self.pos += 1


def _fix_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
            return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in value)
        return value
    if isinstance(value, list):
        return [_fix_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_fix_surrogates(k): _fix_surrogates(v) for k, v in value.items()}
    return value


class OutOfRange(float):
    """A JSON number too large for a float64 (``1e400``), kept with its text.

    Go fails only when it decodes such a number into a value; kubectl's merge patch keeps
    the text untouched, so the error comes when the patched object is decoded."""

    text: str

    def __new__(cls, text: str) -> OutOfRange:
        number = super().__new__(cls, float(text))
        number.text = text
        return number

    def error(self) -> str:
        return f"json: cannot unmarshal number {self.text} into Go value of type float64"


def _parse_float(text: str) -> float:
    value = float(text)
    return OutOfRange(text) if math.isinf(value) else value


def has_out_of_range(value: Any) -> OutOfRange | None:
    """The first :class:`OutOfRange` number inside ``value`` (document order), if any."""
    if isinstance(value, OutOfRange):
        return value
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) \
        else ()
    for item in items:
        found = has_out_of_range(item)
        if found is not None:
            return found
    return None


def decode(data: bytes | str) -> Any:
    """Go's ``json.Unmarshal`` into ``interface{}``, numbers kept exact (ints stay ints).

    Raises :class:`GoJSONError` with Go's message for malformed input.  A number beyond
    float64 comes back as :class:`OutOfRange` (the caller decides whether Go would decode
    it at all).
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    err = syntax_error(raw)
    if err is not None:
        raise err
    text = raw.decode("utf-8", "replace")
    value = json.loads(text, parse_float=_parse_float, parse_constant=_reject_constant)
    return _fix_surrogates(value)


def _reject_constant(name: str) -> Any:  # pragma: no cover - the scanner refuses these first
    raise GoJSONError(f"invalid character {quote_char(ord(name[0]))} looking for beginning of "
                      "value", 0)


def first_non_space(data: str) -> str:
    """The first character that is not white space (Go's ``unicode.IsSpace``), or ``""``."""
    stripped = data.lstrip()
    return stripped[:1]


def decode_result(value: Any, literal: bool = False) -> dict:
    """Kept for callers of this module: see :func:`cfgpatch.kube.unstructured.decode_result`."""
    from .unstructured import decode_result as _decode_result

    return _decode_result(value, literal)
