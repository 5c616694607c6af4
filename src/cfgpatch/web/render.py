"""Display helpers for the patch tester page: indented JSON lines that know their
JSON Pointer, and the places where two results disagree.

:func:`render_lines` prints a JSON value the way ``json.dumps(indent=2)`` would,
one list entry per line, each carrying the pointer of the value the line belongs
to, so the page can mark a line that changed or that another patch type does
differently.  :func:`differing_paths` walks two values together and returns the
topmost pointers at which they differ (objects key by key, lists of equal length
index by index; anything else that is not exactly equal differs as a whole).
"""

from __future__ import annotations

from json.encoder import encode_basestring

from ..jsonvalue import JSON, equal, escape

INDENT = "  "
_MISSING = object()


def _scalar(value: JSON) -> str:
    """JSON text of a scalar, as ``json.dumps(value, ensure_ascii=False)`` writes it."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    return float.__repr__(value)


def render_lines(value: JSON) -> list[list[str]]:
    """``[text, pointer]`` for every line of the indented JSON text of ``value``.

    >>> render_lines({"a": [1]})
    [['{', ''], ['  "a": [', '/a'], ['    1', '/a/0'], ['  ]', '/a'], ['}', '']]
    """
    lines: list[list[str]] = []
    _emit(value, "", "", "", "", lines)
    return lines


def _emit(value: JSON, pointer: str, indent: str, label: str, tail: str, out: list) -> None:
    """Append the lines of ``value`` (``label`` is ``"key": `` or empty, ``tail`` a comma)."""
    # An explicit stack would be needed beyond MAX_DEPTH; parsed input never goes that deep.
    if isinstance(value, dict) and value:
        out.append([f"{indent}{label}{{", pointer])
        items = list(value.items())
        for i, (key, child) in enumerate(items):
            comma = "," if i < len(items) - 1 else ""
            label_text = f"{_scalar(key)}: "
            _emit(child, f"{pointer}/{escape(key)}", indent + INDENT, label_text, comma, out)
        out.append([f"{indent}}}{tail}", pointer])
    elif isinstance(value, list) and value:
        out.append([f"{indent}{label}[", pointer])
        for i, child in enumerate(value):
            comma = "," if i < len(value) - 1 else ""
            _emit(child, f"{pointer}/{i}", indent + INDENT, "", comma, out)
        out.append([f"{indent}]{tail}", pointer])
    else:
        if isinstance(value, (dict, list)):
            text = "{}" if isinstance(value, dict) else "[]"
        else:
            text = _scalar(value)
        out.append([f"{indent}{label}{text}{tail}", pointer])


def differing_paths(a: JSON, b: JSON) -> list[str]:
    """The topmost pointers where ``a`` and ``b`` differ, in document order.

    >>> differing_paths({"x": [1, 2], "y": 1}, {"x": [1, 3], "z": 1})
    ['/x/1', '/y', '/z']
    """
    out: list[str] = []
    stack: list[tuple[JSON, JSON, str]] = [(a, b, "")]
    while stack:
        left, right, pointer = stack.pop()
        if isinstance(left, dict) and isinstance(right, dict):
            keys = list(left) + [key for key in right if key not in left]
            for key in reversed(keys):
                child = f"{pointer}/{escape(key)}"
                stack.append((left.get(key, _MISSING), right.get(key, _MISSING), child))
        elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
            for i in reversed(range(len(left))):
                stack.append((left[i], right[i], f"{pointer}/{i}"))
        elif left is _MISSING or right is _MISSING or not equal(left, right):
            out.append(pointer)
    return out
