"""Strict JSON values (RFC 8259 text, with the rules of the ``run()`` contract).

A JSON value here is ``None``, ``bool``, ``int``, ``float``, ``str``, ``list`` or
``dict`` with ``str`` keys.  Parsing is strict:

* ``NaN``, ``Infinity`` and numbers that overflow to infinity are rejected;
* integers and floats stay apart (``1.0`` is a float and prints as ``1.0``);
* ``-0.0`` becomes ``0.0`` (documents never hold a negative zero);
* an object with the same key twice is rejected (the last-wins habit of many
  parsers hides a typo in a config, so we refuse to guess);
* strings holding a lone surrogate (``"\\ud800"``) are rejected: they cannot be
  written as UTF-8;
* nesting deeper than :data:`MAX_DEPTH` is rejected, so no later step can run
  into Python's recursion limit;
* integers longer than :data:`MAX_INT_DIGITS` digits are rejected.

Equality (:func:`equal`) is exact on type and number kind: ``1 != 1.0`` and
``true != 1``.  Canonical text (:func:`canonical`) sorts keys, has no whitespace
and writes non-ASCII characters as themselves.
"""

from __future__ import annotations

import json
import math
from itertools import repeat
from json.encoder import encode_basestring

from .errors import INVALID_JSON, InvalidInput
from .lazy_pattern import lazily

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is left out of the start-up (annotations are not evaluated)
    from collections.abc import Callable, Iterable
    from typing import Any

    JSON = Any  # None | bool | int | float | str | list | dict
else:
    JSON = object  # other modules import the name; only type checkers read its meaning

#: Deepest nesting of arrays and objects accepted anywhere.
MAX_DEPTH = 256
#: Longest integer accepted (CPython refuses to convert longer ones by default).
MAX_INT_DIGITS = 4300

_SURROGATE = lazily("[\ud800-\udfff]")
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
)


class _Reject(ValueError):
    """Internal: a hook found something the strict rules refuse."""


def _reject_constant(name: str) -> Any:
    raise _Reject(f"{name} is not a JSON number")


def _parse_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Reject(f"number {text[:40]} is too large for a 64-bit float")
    if value == 0.0:
        return 0.0
    return value


def _parse_int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_INT_DIGITS:
        raise _Reject(f"integer with {digits} digits (at most {MAX_INT_DIGITS} are accepted)")
    return int(text)


def _pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Reject(f"duplicate key {json.dumps(key, ensure_ascii=False)} in an object")
            seen.add(key)
    return obj


_STRICT_DECODER = json.JSONDecoder(
    parse_float=_parse_float,
    parse_int=_parse_int,
    parse_constant=_reject_constant,
    object_pairs_hook=_pairs_to_dict,
)
_FAST_DECODER = json.JSONDecoder(parse_constant=_reject_constant)

#: ``scan_value(text, index) -> (value, end)``: read the one JSON value that starts
#: exactly at ``index`` with the C decoder and say where it ends.  It is loose:
#: only ``NaN``/``Infinity`` are refused (``ValueError``); a caller must screen
#: the value's text with :func:`needs_strict_reading` and check depth, infinities
#: and surrogates itself.  ``StopIteration`` means no value starts at ``index``.
scan_value: Callable[[str, int], tuple[Any, int]] = _FAST_DECODER.scan_once  # type: ignore[attr-defined]  # set in JSONDecoder.__init__, absent from its stubs


def parse(text: str | bytes) -> JSON:
    """Parse JSON text strictly; raise :class:`InvalidInput` (``invalid json``).

    >>> parse('{"b": 1.0, "a": [true, null]}')
    {'b': 1.0, 'a': [True, None]}
    """
    return parse_with_text(text)[0]


def parse_with_text(text: str | bytes, encode: Any = None) -> tuple[JSON, str]:
    """Parse strictly and return the value together with its canonical text.

    ``encode`` (optional) replaces the canonical encoder in the common case; it
    must give the same text, raise ``ValueError`` for infinities and enforce
    :data:`MAX_DEPTH` itself (the whole-value depth walk is then skipped; the
    service passes :meth:`cfgpatch.text_cache.TextCache.document_text`).

    The common case runs at C speed: the standard decoder, then the canonical
    encoder (which refuses infinities).  A key that occurs twice in one object
    disappears from the parsed value, so the canonical text then holds fewer
    ``:`` separators than the input; only when that count differs (or the input
    spells a colon as ``\\u003a``, or holds ``-0.0``) is the slower decoder with
    per-object hooks run, which finds the duplicate and names it.
    """
    text = as_text(text)
    value = _decode(_FAST_DECODER, text)
    depth_checked = False
    try:
        canon = (encode or canonical_unchecked)(value)  # a parsed value: valid, not circular
        depth_checked = encode is not None
    except ValueError:  # an infinity: let the strict decoder say which number
        canon = ""
    if not canon or needs_strict_reading(text, canon):
        value = _decode(_STRICT_DECODER, text)
        canon = _ENCODER.encode(value)
    if not depth_checked and text.count("[") + text.count("{") > MAX_DEPTH:
        check_depth(value)
    if has_lone_surrogate(canon):
        raise _located(text,
                       "a string holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not "
                       "valid Unicode")
    return value, canon


def _located(text: str, message: str) -> InvalidInput:
    """``invalid json`` for a text the strict reading refuses, naming the first place
    it does (line, column, pointer) where that can be found, else ``message``."""
    from .jsonlocate import first_rejection

    found = first_rejection(text, MAX_INT_DIGITS)
    if found is None:
        return InvalidInput(message, code=INVALID_JSON)
    return InvalidInput(found.describe(), code=INVALID_JSON, pointer=found.pointer)


def needs_strict_reading(text: str, canon: str) -> bool:
    """Whether the loose reading of ``text`` (canonical text ``canon``) may be wrong.

    It is wrong when ``text`` repeats a key in an object (the loose reader keeps
    the last one silently, so ``canon`` has fewer ``:`` separators than ``text``,
    unless a colon in ``text`` hides as ``\\u003a``) or holds a negative zero
    (which documents never hold).  Identical texts only need the zero check.
    """
    if "-0.0" in canon:
        return True
    if text == canon:
        return False
    return text.count(":") != canon.count(":") or "\\u003a" in text or "\\u003A" in text


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone UTF-16 surrogate (``isascii`` is O(1) on ``str``)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def as_text(text: str | bytes) -> str:
    """``text`` as ``str``: bytes are decoded as UTF-8 (``invalid json`` if they are not)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(
                f"input is not UTF-8: byte 0x{exc.object[exc.start]:02x} at offset {exc.start}",
                code=INVALID_JSON,
            ) from None
    if not isinstance(text, str):
        raise InvalidInput("JSON text must be a string", code=INVALID_JSON)
    return text


def _decode(decoder: json.JSONDecoder, text: str) -> JSON:
    try:
        return decoder.decode(text)
    except _Reject as exc:
        raise _located(text, str(exc)) from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{exc.msg} at line {exc.lineno} column {exc.colno}", code=INVALID_JSON
        ) from None
    except RecursionError:
        raise InvalidInput(
            f"nested too deeply (at most {MAX_DEPTH} levels are accepted)", code=INVALID_JSON
        ) from None
    except ValueError as exc:  # CPython's limit on digits in an integer
        if decoder is _FAST_DECODER:
            return _decode(_STRICT_DECODER, text)  # names the digit count
        if "digits" in str(exc):
            raise InvalidInput(
                f"an integer has more than {MAX_INT_DIGITS} digits", code=INVALID_JSON
            ) from None
        raise InvalidInput(str(exc), code=INVALID_JSON) from None


def check_depth(value: JSON, limit: int = MAX_DEPTH) -> None:
    """Raise ``invalid json`` if arrays/objects nest deeper than ``limit`` (iterative)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            raise InvalidInput(
                f"nested too deeply (more than {limit} levels of arrays and objects)",
                code=INVALID_JSON,
            )
        for child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))


def validate(value: Any, limit: int = MAX_DEPTH) -> None:
    """Check that a Python value is a JSON value under our rules (iterative).

    Raises :class:`InvalidInput` naming the offending location.
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        node, where, depth = stack.pop()
        kind = type(node)
        if node is None or kind in (bool, int, str):
            if kind is str and _SURROGATE.search(node):
                raise InvalidInput(f"lone surrogate in string at {where or '(root)'}")
            continue
        if kind is float:
            if not math.isfinite(node):
                raise InvalidInput(f"{node} is not a JSON number (at {where or '(root)'})")
            continue
        if kind not in (list, dict):
            raise InvalidInput(f"{kind.__name__} is not a JSON value (at {where or '(root)'})")
        if depth > limit:
            raise InvalidInput(f"nested too deeply (more than {limit} levels)")
        if kind is list:
            for i, child in enumerate(node):
                stack.append((child, f"{where}/{i}", depth + 1))
        else:
            for key, child in node.items():
                if type(key) is not str:
                    raise InvalidInput(
                        f"object key {key!r} is not a string (at {where or '(root)'})"
                    )
                stack.append((child, f"{where}/{escape(key)}", depth + 1))


def escape(token: str) -> str:
    """Escape one JSON Pointer reference token (``~`` -> ``~0``, ``/`` -> ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


def _make_unchecked_encoders() -> tuple[Callable[[JSON], str], Callable[[list[Any]], list[str]]]:
    """Canonical encoders for one valid value and for many, without per-call set-up.

    ``JSONEncoder.encode`` builds a new C encoder on every call, which costs
    more than encoding a small value; these keep one (no circularity check:
    parsed values cannot be circular).  Both raise ``ValueError`` for infinities.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without the C accelerator
        return _ENCODER.encode, lambda values: list(map(_ENCODER.encode, values))
    encoder = make(None, None, encode_basestring, None, ":", ",", True, False, False)
    join = "".join
    return (lambda value: join(encoder(value, 0)),
            lambda values: list(map(join, map(encoder, values, repeat(0)))))


#: ``canonical_unchecked(value)``: canonical text of a value already known to be
#: valid; ``canonical_many(values)``: the canonical texts of many such values.
canonical_unchecked, canonical_many = _make_unchecked_encoders()


def _float_text(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError("Out of range float values are not JSON compliant")
    return float.__repr__(value)


#: ``SCALAR_TEXT[type(v)](v)``: the canonical text of a scalar ``v``, the same as
#: :func:`canonical_unchecked`'s (the encoder writes numbers with ``repr``), without
#: the encoder's set-up per call.
SCALAR_TEXT: dict[type, Callable[[Any], str]] = {
    str: encode_basestring,
    int: int.__repr__,
    bool: {True: "true", False: "false"}.__getitem__,
    float: _float_text,
    type(None): lambda _: "null",
}


def canonical(value: JSON) -> str:
    """Canonical text: sorted keys, no whitespace, non-ASCII as itself.

    >>> canonical({"b": [1, 1.0], "a": "é"})
    '{"a":"é","b":[1,1.0]}'
    """
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"not a JSON value: {exc}") from None


def equal(a: JSON, b: JSON) -> bool:
    """Exact equality: same JSON type, same number kind, objects ignore key order.

    >>> equal(1, 1.0), equal(True, 1), equal({"a": [1]}, {"a": [1]})
    (False, False, True)
    """
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        if len(a) != len(b):
            return False
        for key, value in a.items():
            if key not in b or not equal(value, b[key]):
                return False
        return True
    if kind is list:
        if len(a) != len(b):
            return False
        return all(equal(x, y) for x, y in zip(a, b))
    return bool(a == b)  # scalars: already a bool (the call keeps the type exact)


def deep_copy(value: JSON) -> JSON:
    """An independent copy of a JSON value (no shared containers)."""
    kind = type(value)
    if kind is dict:
        return {key: deep_copy(child) for key, child in value.items()}
    if kind is list:
        return [deep_copy(child) for child in value]
    return value


def type_name(value: JSON) -> str:
    """The JSON type name of a value, for messages."""
    if value is None:
        return "null"
    kind = type(value)
    return {
        bool: "boolean",
        int: "integer",
        float: "float",
        str: "string",
        list: "array",
        dict: "object",
    }.get(kind, kind.__name__)
