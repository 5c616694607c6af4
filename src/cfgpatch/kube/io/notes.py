"""Type notes: an unquoted YAML scalar that kubectl reads as something other than its text.

``on`` is read as ``true``, ``010`` as ``8``, an empty value as ``null``: each such scalar
gets a :class:`TypeNote`, reported as a ``yaml-type-change`` finding.  Both YAML readers
(:mod:`.reader` and :mod:`.blockyaml`) decide with :func:`is_noted`.
"""

from __future__ import annotations

from ...lazy_pattern import lazily
from ...records import namedtuple
from ..go import json as gojson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_PLAIN_NUMBER = lazily(r"-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")


class TypeNote(namedtuple("TypeNote", "pointer written value where", defaults=("value",))):
    """``pointer`` of the value (for a key: of the member it names, after conversion),
    ``written`` the text as written, ``value`` what kubectl made of it (for a key, the key
    string it became) and ``where``: ``"value"`` or ``"key"``.

    An immutable record (a named tuple: ``dataclasses`` is left out of the start-up)."""

    __slots__ = ()
    pointer: str
    written: str
    value: Any
    where: str


def is_noted(text: str, value: Any) -> bool:
    """Whether the plain scalar ``text``, read as ``value``, deserves a note: not for
    ``null``, ``true``, ``false`` or a number written as JSON would write it."""
    if value is None and text == "null" or value is True and text == "true":
        return False
    if value is False and text == "false":
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        plain = _PLAIN_NUMBER.fullmatch(text)
        if plain and (plain.group(2) or plain.group(3) or
                      gojson.INT64_MIN <= int(text) <= gojson.INT64_MAX):
            return False
    return True
