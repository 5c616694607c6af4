"""Where in a JSON text the strict reading refuses it: line, column and pointer.

The strict reading (:mod:`cfgpatch.jsonvalue`) runs on the C decoder with hooks
that refuse what documents may not hold: a key written twice in one object,
``NaN`` and the infinities, a number too large for a 64-bit float, an integer
with too many digits, a string with a lone UTF-16 surrogate.  The hooks see
values, not positions.  When one refuses, :func:`first_rejection` reads the
text again, token by token, to find the first such place: its offset, line and
column (counted as the standard decoder counts them) and the JSON Pointer of
the value (for a repeated key, of the object that holds it).

Only the error path runs this (it is Python work per token); texts longer than
:data:`MAX_LOCATED` characters are not read again.  Syntax errors are the C
decoder's to report (it names their line and column already): on one, this
stops and finds nothing.
"""

from __future__ import annotations

import json.decoder
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

#: The longest text read again to locate a refusal (about a second of reading).
MAX_LOCATED = 16_000_000

_SPACE = re.compile(r"[ \t\n\r]*")
#: The standard library's JSON string reader (public in ``json.decoder``, not in its stubs).
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONSTANTS = ("NaN", "Infinity", "-Infinity")
_LITERALS = ("true", "false", "null")


@dataclass(frozen=True)
class Rejection:
    """The first place the strict reading refuses: what, where (offset, line,
    column) and the pointer of the value (of the object, for a repeated key)."""

    message: str
    offset: int
    line: int
    column: int
    pointer: str

    def describe(self) -> str:
        """``message (at POINTER, line L column C)``; the root is ``the root``."""
        where = self.pointer if self.pointer else "the root"
        return f"{self.message} (at {where}, line {self.line} column {self.column})"


class _Frame:
    """An open object or array: the token it sits under in its parent (``None`` at
    the root), and its keys or element count so far."""

    __slots__ = ("keys", "count", "token", "key")

    def __init__(self, token: str | None, is_object: bool) -> None:
        self.token = token
        self.keys: set[str] | None = set() if is_object else None
        self.count = 0
        self.key = ""

    def child(self) -> str:
        """The token of the member being read."""
        if self.keys is not None:
            return self.key.replace("~", "~0").replace("/", "~1")
        return str(self.count)


def float_is_exact(number: str) -> bool:
    """True when the JSON number text ``number`` (with a fraction or an exponent)
    names the very value its 64-bit float is written back as: ``0.1`` and ``1e2``
    are, ``0.1000000000000000000001``, ``1e-400`` and 21 digits of pi are not.

    >>> float_is_exact("2.50"), float_is_exact("3.14159265358979323846")
    (True, False)
    """
    value = float(number)
    return math.isinf(value) or Decimal(number) == Decimal(repr(value))


def first_rejection(text: str, max_int_digits: int, *, exact_floats: bool = False
                    ) -> Rejection | None:
    """The first place in ``text`` the strict reading refuses (integers of more than
    ``max_int_digits`` digits included; with ``exact_floats``, numbers a 64-bit float
    cannot hold as written too), or ``None`` (a valid text, a syntax error, or a text
    longer than :data:`MAX_LOCATED`)."""
    if len(text) > MAX_LOCATED:
        return None
    try:
        found = _Reader(text, max_int_digits, exact_floats).run()
    except (ValueError, IndexError):  # a syntax error: the C decoder names it
        return None
    if found is None:
        return None
    message, offset, pointer = found
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)
    return Rejection(message, offset, line, column, pointer)


class _Reader:
    """One pass over a JSON text: ``run`` gives ``(message, offset, pointer)`` of the
    first refusal, or ``None``; a syntax error raises ``ValueError``/``IndexError``."""

    def __init__(self, text: str, max_int_digits: int, exact_floats: bool = False) -> None:
        self.text = text
        self.max_int_digits = max_int_digits
        self.exact_floats = exact_floats
        self.frames: list[_Frame] = []

    def skip(self, index: int) -> int:
        return _SPACE.match(self.text, index).end()  # type: ignore[union-attr]  # '*' always matches

    def run(self) -> tuple[str, int, str] | None:
        index = self.skip(0)
        while True:
            found, index, opened = self.value(index)
            if found is not None:
                return found
            if opened:  # index is where its first member's value starts
                continue
            found, index = self.next_value(index)
            if found is not None or index < 0:
                return found

    def value(self, index: int) -> tuple[tuple[str, int, str] | None, int, bool]:
        """Read the value at ``index``: a refusal, where it ends (or, for a container
        with members, where the first one's value starts), and whether one opened."""
        text, frames = self.text, self.frames
        char = text[index]
        if char == "{" or char == "[":
            frames.append(_Frame(frames[-1].child() if frames else None, char == "{"))
            index = self.skip(index + 1)
            if text[index] == ("}" if char == "{" else "]"):
                frames.pop()
                return None, index + 1, False
            if char == "{":
                found, index = self.key(index)
                return found, index, True
            return None, index, True
        if char == '"':
            string, end = _scanstring(text, index + 1)
            if _SURROGATE.search(string):
                return ("a string holds a lone UTF-16 surrogate (\\ud800-\\udfff), "
                        "which is not valid Unicode", index, self.here()), end, False
            return None, end, False
        for constant in _CONSTANTS:
            if text.startswith(constant, index):
                return (f"{constant} is not a JSON number", index, self.here()), index, False
        match = _NUMBER.match(text, index)
        if match is not None:
            return self.number(match), match.end(), False
        for literal in _LITERALS:
            if text.startswith(literal, index):
                return None, index + len(literal), False
        raise ValueError("no value")

    def key(self, index: int) -> tuple[tuple[str, int, str] | None, int]:
        """Read an object's key at ``index`` and its colon: a repeated key, or where
        the member's value starts."""
        text, frame = self.text, self.frames[-1]
        if text[index] != '"' or frame.keys is None:
            raise ValueError("no key")
        key, end = _scanstring(text, index + 1)
        if key in frame.keys:
            quoted = json.dumps(key, ensure_ascii=False)
            return (f"duplicate key {quoted} in an object", index, self.container()), end
        frame.keys.add(key)
        frame.key = key
        end = self.skip(end)
        if text[end] != ":":
            raise ValueError("no colon")
        return None, self.skip(end + 1)

    def container(self) -> str:
        """The pointer of the innermost open container (made only for a report)."""
        return "".join("/" + frame.token for frame in self.frames if frame.token is not None)

    def here(self) -> str:
        """The pointer of the value being read."""
        return self.container() + "/" + self.frames[-1].child() if self.frames else ""

    def number(self, match: re.Match[str]) -> tuple[str, int, str] | None:
        whole, fraction, exponent = match.groups()
        if fraction is None and exponent is None:
            digits = len(whole) - whole.startswith("-")
            if digits > self.max_int_digits:
                return (f"integer with {digits} digits (at most {self.max_int_digits} are "
                        "accepted)", match.start(), self.here())
            return None
        if math.isinf(float(match.group())):
            return (f"number {match.group()[:40]} is too large for a 64-bit float",
                    match.start(), self.here())
        if self.exact_floats and not float_is_exact(match.group()):
            written = match.group()
            shown = written if len(written) <= 40 else written[:37] + "..."
            return (f"the number {shown} cannot be kept as written: a 64-bit float holds "
                    f"{float(written)!r}", match.start(), self.here())
        return None

    def next_value(self, index: int) -> tuple[tuple[str, int, str] | None, int]:
        """After a value: close the containers that end here; a repeated key, or
        where the next value starts (-1 at the end of the text)."""
        text, frames = self.text, self.frames
        while True:
            index = self.skip(index)
            if not frames:
                return None, -1
            frame = frames[-1]
            char = text[index]
            if char == ",":
                index = self.skip(index + 1)
                if frame.keys is None:
                    frame.count += 1
                    return None, index
                return self.key(index)
            if char != ("}" if frame.keys is not None else "]"):
                raise ValueError("no separator")
            frames.pop()
            index += 1
