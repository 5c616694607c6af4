"""A ``[...]`` patch in plain JSON, read without PyYAML.

kubectl reads a patch that does not start with ``{`` as YAML (a JSON patch ``[...]``
included), so :mod:`.reader` composes it with PyYAML, whose import alone (its reader
compiles a large character class) costs more than the rest of a small ``kube patch``.
For the JSON most such patches are, YAML's reading is JSON's: :func:`read` accepts only
that and answers ``None`` for anything else, which the caller reads the full way.

Accepted: printable ASCII text and newlines (no tab, carriage return or backslash
escape), a JSON array at the top, without duplicate keys, floats, integers beyond int64,
``NaN``/``Infinity``, a key whose colon is on a later line, a key over 900 characters
or nesting deeper than 100.  Tests hold the answers to the full reader's.
"""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Any character outside printable ASCII and newline, or a backslash.
_UNUSUAL = re.compile(r"[^\n\x20-\x5b\x5d-\x7e]")
#: A key whose colon is on a later line (no string holds a newline or an escaped quote).
#: A key whose colon is on a later line (no string holds a newline or an escaped quote), or
#: far after it.
_COLON_AWAY = re.compile('"[ \n]*\n[ \n]*:|" {32,}:')
_INT64 = (-(2**63), 2**63 - 1)
_MAX_KEY = 900
_MAX_DEPTH = 100


class _NotPlain(Exception):
    pass


def read(text: str) -> Any:
    """The value of ``text`` as kubectl's YAML reading gives it, or ``None`` when
    ``text`` is not plain JSON as described above.

    >>> read('[{"op": "add", "path": "/a", "value": 1}]')
    [{'op': 'add', 'path': '/a', 'value': 1}]
    >>> read('[1.5]') is None, read('[on]') is None
    (True, True)
    """
    if not text.lstrip(" \n").startswith("[") or _UNUSUAL.search(text):
        return None
    if _COLON_AWAY.search(text):
        return None
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_float=_refuse,
                           parse_int=_int, parse_constant=_refuse)
    except (ValueError, _NotPlain, RecursionError):
        return None
    return value if _depth_ok(value, 0) else None


def _object(pairs: list) -> dict:
    value = dict(pairs)
    if len(value) != len(pairs) or any(len(key) > _MAX_KEY for key in value):
        raise _NotPlain
    return value


def _int(text: str) -> int:
    number = int(text)
    if not _INT64[0] <= number <= _INT64[1]:
        raise _NotPlain
    return number


def _refuse(text: str) -> Any:
    raise _NotPlain


def _depth_ok(value: Any, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, dict):
        return all(_depth_ok(item, depth + 1) for item in value.values())
    if isinstance(value, list):
        return all(_depth_ok(item, depth + 1) for item in value)
    return True
