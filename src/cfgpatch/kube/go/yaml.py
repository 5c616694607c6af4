"""go-yaml v2's rules, as kubectl's YAML library applies them (standard library only).

kubectl reads YAML and prints ``-o yaml`` through go-yaml v2.  This module holds the
rules that decide what a scalar means and how it is written, apart from any parser:

* :func:`resolve_plain`: what an unquoted scalar becomes (YAML 1.1 booleans such as
  ``on`` and ``y``, ``010`` octal, ``0x1F``, ``1_000``, ``1e3``; dates stay strings);
* :func:`is_plain_string`: whether a string may be printed without quotes;
* :func:`key_less`: go-yaml's "natural" key order (``k9`` before ``k10``);
* :func:`is_simple_key_length`: when a key is written as ``? key`` for its length;
* the escapes of its double-quoted style, and :func:`yaml_number` / :func:`yaml_text`,
  which give what go-yaml reads back from Go's JSON text before printing it.
"""

from __future__ import annotations

import math
import re

from ...lazy_pattern import lazily
from ..problems import BadBytes, ProblemError, line_column
from . import json as gojson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STR = object()  # resolve_plain: "stays a string"


# --- plain scalar resolution -----------------------------------------------

_BOOL_NULL = {
    **{w: True for w in ("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
                         "on", "On", "ON")},
    **{w: False for w in ("n", "N", "no", "No", "NO", "false", "False", "FALSE",
                          "off", "Off", "OFF")},
    **{w: None for w in ("", "~", "null", "Null", "NULL")},
    **{w: math.nan for w in (".nan", ".NaN", ".NAN")},
    **{w: math.inf for w in (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")},
    **{w: -math.inf for w in ("-.inf", "-.Inf", "-.INF")},
}
_YAML_FLOAT = lazily(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_GO_FLOAT = lazily(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|[-+]?(?i:inf|infinity|nan)")
_BASE60 = lazily(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
TIMESTAMP = lazily(
    r"(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))"
    r"| (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?)?"
)
_UINT64_MAX = 2**64 - 1


def _go_parse_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)`` (then ``ParseUint``): base prefixes
    ``0x``, ``0o``, ``0b`` and a leading ``0`` for octal; ``None`` if it fails."""
    sign, body = (text[0], text[1:]) if text[:1] in "+-" and text else ("", text)
    base = 10
    lower = body[:2].lower()
    if lower in ("0x", "0o", "0b"):
        base, body = {"0x": 16, "0o": 8, "0b": 2}[lower], body[2:]
    elif len(body) > 1 and body[0] == "0":
        base, body = 8, body[1:]
    if not body or not all(c in "0123456789abcdefABCDEF"[: base + (6 if base == 16 else 0)]
                           for c in body):
        return None
    value = int(body, base)
    value = -value if sign == "-" else value
    if gojson.INT64_MIN <= value <= gojson.INT64_MAX:
        return value
    if sign != "-" and value <= _UINT64_MAX:
        return value
    return None


def resolve_plain(text: str) -> Any:
    """What go-yaml v2 makes of an unquoted scalar; ``STR`` when it stays a string.

    >>> [resolve_plain(t) for t in ("on", "010", "0x1F", "1e3", "1_000", "08")]
    [True, 8, 31, 1000.0, 1000, 8.0]
    """
    hint = text[:1]
    if text == "" or hint in "yYnNtTfFoO~":
        return _BOOL_NULL.get(text, STR)
    if hint == ".":
        if text in _BOOL_NULL:
            return _BOOL_NULL[text]
        return _go_parse_float(text)
    if hint in "+-0123456789":
        if text in _BOOL_NULL:
            return _BOOL_NULL[text]
        if is_timestamp(text):
            return STR
        plain = text.replace("_", "")
        number = _go_parse_int(plain)
        if number is not None:
            return number
        if _YAML_FLOAT.fullmatch(plain):
            return _go_parse_float(plain)
        return STR
    return STR


def _go_parse_float(text: str) -> Any:
    if not _GO_FLOAT.fullmatch(text):
        return STR
    value = float(text)
    if math.isinf(value) and "inf" not in text.lower():
        return STR  # out of range: Go returns an error, the scalar stays a string
    return value


def timestamp_match(text: str) -> re.Match[str] | None:
    """``TIMESTAMP.fullmatch(text)``; the pattern (costly to compile) is not used for a
    text that cannot be a timestamp (every layout starts with four digits and a dash)."""
    if len(text) < 8 or text[4] != "-" or not text[:4].isdigit():
        return None  # (isdigit holds for every character ``\d`` matches)
    return TIMESTAMP.fullmatch(text)


def is_timestamp(text: str) -> bool:
    """Does go-yaml take ``text`` for a timestamp (one of its four layouts, with Go's
    range checks: a real day of the month, hours below 24, minutes and seconds below 60)?

    >>> is_timestamp("2024-02-29"), is_timestamp("2023-02-29"), is_timestamp("2024-1-2 9:5:7")
    (True, False, True)
    """
    match = timestamp_match(text)
    if not match:
        return False
    year, month, day = (int(g) for g in match.group(1, 2, 3))
    clock = match.group(4, 5, 6) if match.group(4) else match.group(9, 10, 11)
    hour, minute, second = (int(g) if g else 0 for g in clock)
    zone_hour, zone_minute = (int(g) if g else 0 for g in match.group(7, 8))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return (1 <= month <= 12 and 1 <= day <= days[month - 1] and hour < 24 and minute < 60
            and second < 60 and zone_hour <= 24 and zone_minute < 60)


def is_plain_string(text: str) -> bool:
    """Would go-yaml v2 write ``text`` without quotes (it reads back as the same string)?"""
    return (resolve_plain(text) is STR and not (":" in text and _BASE60.fullmatch(text))
            and not is_timestamp(text))  # (a base-60 number has a colon)


#: go-yaml writes a map key in the simple ``key: value`` form up to this many bytes of
#: UTF-8 (measured with kubectl 1.27-1.33: 128 ASCII letters or 64 x ``é`` stay simple,
#: one byte more gives the ``? key`` form), counting the key's text before any quoting.
SIMPLE_KEY_BYTES = 128


def is_simple_key_length(key: str) -> bool:
    """Whether ``key`` is short enough for go-yaml's simple key form.

    >>> is_simple_key_length("k" * 128), is_simple_key_length("\u00e9" * 65)
    (True, False)
    """
    if len(key) <= SIMPLE_KEY_BYTES // 4:  # at most 4 bytes a character: no need to count
        return True
    return len(key.encode("utf-8", "surrogatepass")) <= SIMPLE_KEY_BYTES


NOT_YAML = lazily("[\x7f-\x84\x86-\x9f\ufffe\uffff]")
_NEL_RUN = lazily("[ \t]*\x85(?:[ \t]*\x85)*[ \t]*")


def yaml_text(text: str) -> str:
    """The string go-yaml reads back from Go's JSON text: a raw NEL (U+0085) is a line
    break inside a double-quoted scalar, so it folds to a space (n breaks: n-1 newlines)."""
    at = _not_yaml_at(text)
    if at is not None:
        raise ProblemError(BadBytes("control-character", len(text[:at].encode("utf-8",
                                    "surrogatepass")), *line_column(text, at)),
                           hint="kubectl cannot print this string as YAML; use -o json")
    if "\x85" not in text:
        return text
    return _NEL_RUN.sub(lambda m: " " if m.group().count("\x85") == 1
                        else "\n" * (m.group().count("\x85") - 1), text)


def _not_yaml_at(text: str) -> int | None:
    """Where the first character go-yaml does not print is (None: there is none); of
    :data:`NOT_YAML` (costly to compile) only DEL is ASCII."""
    if text.isascii():
        at = text.find("\x7f")
        return None if at < 0 else at
    bad = NOT_YAML.search(text)
    return bad.start() if bad else None


def yaml_number(value: int | float) -> str:
    text = gojson.number_text(value)
    if re.fullmatch(r"-?\d+", text):
        number = int(text)
        if gojson.INT64_MIN <= number <= _UINT64_MAX:
            return str(number)
    return gojson.go_float_g(float(text))


def _is_digit(ch: str) -> bool:
    if ch.isascii():  # (the ASCII characters of category Nd are 0-9)
        return "0" <= ch <= "9"
    import unicodedata

    return unicodedata.category(ch) == "Nd"


def key_cmp(a: str, b: str) -> int:
    """go-yaml v2's key order: letters by code point, digit runs by numeric value."""
    if a == b:
        return 0
    return -1 if key_less(a, b) else 1


def key_less(a: str, b: str) -> bool:
    for i in range(min(len(a), len(b))):
        if a[i] == b[i]:
            continue
        a_letter, b_letter = a[i].isalpha(), b[i].isalpha()
        if a_letter and b_letter:
            return a[i] < b[i]
        if a_letter or b_letter:
            return b_letter
        an = bn = 0
        if a[i] == "0" or b[i] == "0":
            j = i - 1
            while j >= 0 and _is_digit(a[j]):
                if a[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        ai = i
        while ai < len(a) and _is_digit(a[ai]):
            an = an * 10 + int(a[ai])
            ai += 1
        bi = i
        while bi < len(b) and _is_digit(b[bi]):
            bn = bn * 10 + int(b[bi])
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return a[i] < b[i]
    return len(a) < len(b)


BREAKS = "\r\n\x85\u2028\u2029"
ESCAPES = {"\0": "0", "\a": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f",
            "\r": "r", "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\u2028": "L",
            "\u2029": "P", "\xa0": "_"}


def needs_escape(ch: str) -> bool:
    code = ord(ch)
    printable = (0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF
                 or (0xE000 <= code <= 0xFFFD and code != 0xFEFF))
    return not printable or ch in '"\\\u2028\u2029'


def hex_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02X}"
    if code <= 0xFFFF:
        return f"\\u{code:04X}"
    return f"\\U{code:08X}"


def escape(ch: str) -> str:
    """How go-yaml writes ``ch`` inside a double-quoted scalar when it must escape it."""
    return "\\" + ESCAPES[ch] if ch in ESCAPES else hex_escape(ch)
