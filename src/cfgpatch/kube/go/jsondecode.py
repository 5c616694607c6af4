"""Reading JSON as Go's ``encoding/json`` does: its scanner's errors and its lenient decode.

* :func:`syntax_error`: where Go's scanner stops on malformed JSON, as a
  :class:`~cfgpatch.kube.problems.JsonSyntax` record (Go's words for it are
  :mod:`cfgpatch.kube.compat.gojson`'s);
* :func:`decode`: Go's lenient reading (duplicate keys: the last wins; a lone
  surrogate escape becomes U+FFFD); numbers beyond float64 are kept as
  :class:`OutOfRange` for the caller to judge.

Standard library only.
"""

from __future__ import annotations

import json
import math

from ..problems import JsonSyntax, Unmarshal, line_column
from .json import GoJSONError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SPACE = b" \t\r\n"
_HEX = b"0123456789abcdefABCDEF"
_DIGITS = b"0123456789"


def syntax_error(data: bytes) -> GoJSONError | None:
    """The error Go's ``json.Unmarshal`` reports for malformed ``data``, or ``None``
    (its ``problem``: a :class:`~cfgpatch.kube.problems.JsonSyntax`)."""
    return _Scanner(data).run()


class _Scanner:
    """Go's JSON scanner, reduced to finding the first syntax error."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0
        self.stack: list[str] = []

    def fail(self, code: str, literal: str | None = None, expected: str | None = None
             ) -> GoJSONError:
        line, column = line_column(self.data, self.pos)
        return GoJSONError(JsonSyntax(code, self.data[self.pos], self.pos + 1, line, column,
                                      literal, expected))

    def eof(self) -> GoJSONError:
        line, column = line_column(self.data, len(self.data))
        return GoJSONError(JsonSyntax("end", None, len(self.data), line, column))

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
                return self.fail("after-top-level")
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
            raise self.fail("value")

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
                raise self.fail("object-key")
            self.pos += 1
            self.string()
            self.skip_space()
            c = self.peek()
            if c is None:
                raise self.eof()
            if c != ord(":"):
                raise self.fail("after-key")
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
                raise self.fail("after-pair")

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
                raise self.fail("after-element")

    def string(self) -> None:
        while True:
            c = self.peek()
            if c is None:
                raise self.eof()
            if c == ord('"'):
                self.pos += 1
                return
            if c < 0x20:
                raise self.fail("string")
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
            raise self.fail("escape")
        self.pos += 1
        for _ in range(4):
            c = self.peek()
            if c is None:
                raise self.eof()
            if c not in _HEX:
                raise self.fail("hex-escape")
            self.pos += 1

    def digits(self) -> int:
        start = self.pos
        while (c := self.peek()) is not None and c in _DIGITS:
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
            self.need_digit("number")
        if self.peek() == ord("0"):
            self.pos += 1
        else:
            self.digits()
        if self.peek() == ord("."):
            self.pos += 1
            self.need_digit("decimal")
            self.digits()
        if (c := self.peek()) is not None and c in b"eE":
            self.pos += 1
            if (c := self.peek()) is not None and c in b"+-":
                self.pos += 1
            self.need_digit("exponent")
            self.digits()

    def literal(self, word: str) -> None:
        self.pos += 1
        for expected in word[1:]:
            c = self.peek()
            if c is None:
                raise self.eof()
            if c != ord(expected):
                raise self.fail("literal", word, expected)
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

    def problem(self) -> Unmarshal:
        """Go's refusal to decode the number into a float64, as a record."""
        return Unmarshal("number", "float64", None, self.text)


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


def go_utf8(raw: bytes) -> str:
    """``raw`` as Go reads bytes into a string: each byte that does not start a valid
    UTF-8 sequence is one U+FFFD (Python's ``replace`` makes one of ``e2 82``).

    >>> go_utf8(b'a\\xe2\\x82b\\xff')
    'a\\ufffd\\ufffdb\\ufffd'
    """
    parts, at = [], 0
    while True:
        try:
            parts.append(raw[at:].decode("utf-8"))
            return "".join(parts)
        except UnicodeDecodeError as err:
            parts.append(raw[at:at + err.start].decode("utf-8") + "\ufffd")
            at += err.start + 1


def decode(data: bytes | str) -> Any:
    """Go's ``json.Unmarshal`` into ``interface{}``, numbers kept exact (ints stay ints).

    Raises :class:`GoJSONError` (a :class:`~cfgpatch.kube.problems.JsonSyntax`) for
    malformed input.  A number beyond float64 comes back as :class:`OutOfRange` (the
    caller decides whether Go would decode it at all).
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    text = go_utf8(raw)
    try:  # Python's decoder accepts no text Go's scanner refuses: scan only on failure
        value = json.loads(text, parse_float=_parse_float, parse_constant=_reject_constant)
    except (json.JSONDecodeError, GoJSONError):
        err = syntax_error(raw)
        if err is not None:
            raise err from None
        raise
    return _fix_surrogates(value)


def _reject_constant(name: str) -> Any:  # the scanner then finds Go's error
    raise GoJSONError(JsonSyntax("value", ord(name[0]), 0, 1, 1))


def first_non_space(data: str) -> str:
    """The first character that is not white space (Go's ``unicode.IsSpace``), or ``""``."""
    stripped = data.lstrip()
    return stripped[:1]
