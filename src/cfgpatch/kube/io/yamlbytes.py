"""The bytes of a YAML text as go-yaml's reader decodes them (kubectl's ``-p`` text,
kustomize's files).

A UTF-16 or UTF-8 byte order mark picks the encoding; bytes that are not UTF-8 (or
UTF-16 units that do not pair) and control characters stop the text, reported as a
:class:`~cfgpatch.kube.problems.BadBytes` record (``invalid-leading-utf8``,
``control-character``, ...; go-yaml's words for them are
:mod:`cfgpatch.kube.compat.goyaml`'s).  go-yaml reads :data:`CHUNK` bytes at a time
and fails only when its scanner needs a character of the chunk that holds the bad
bytes: :class:`Unread` says from which character on.
"""

from __future__ import annotations

from ...lazy_pattern import lazily
from ...records import namedtuple
from ..problems import BadBytes, line_column
from .filebytes import UTF16_MARKS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

__all__ = ["CHUNK", "Unread", "decode_bytes"]

#: Characters go-yaml's reader refuses ("control characters are not allowed"): all but
#: tab, line feed, carriage return, 0x20-0x7e, 0x85, 0xa0-0xd7ff, 0xe000-0xfffd and
#: 0x10000-0x10ffff, spelled as the complement (the negated class of the accepted ranges
#: compiles in about 1 ms, the negated class in about 20: measured on a loaded machine).
_PRINTABLE = lazily("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
#: What go-yaml's reader says of bytes that end the input in the middle of a character.
#: It waits for more input there rather than fail, so the error comes only when the
#: scanner needs a character beyond the ones before (a syntax error before that wins).
_AT_THE_END = frozenset({"incomplete-utf8", "incomplete-utf16",
                         "incomplete-utf16-pair"})
#: go-yaml's reader decodes its input this many bytes at a time.
CHUNK = 512


class Unread(namedtuple("Unread", "char problem")):
    """Bytes go-yaml's reader refuses: ``problem`` (a :class:`BadBytes`) once the scanner
    needs any character from ``char`` on (where the chunk holding the bad bytes starts).
    An immutable record (a named tuple: ``dataclasses`` is left out of the start-up)."""

    __slots__ = ()
    char: int
    problem: BadBytes


def decode_bytes(data: bytes) -> tuple[str, Unread | None]:
    """The text go-yaml's reader makes of ``data``, without a leading byte order mark,
    up to the first character it refuses; and what it refuses, if anything.

    >>> decode_bytes(b"a: b\\n")
    ('a: b\\n', None)
    >>> decode_bytes(b"a: \\xff")[1].problem
    BadBytes(code='invalid-leading-utf8', offset=3, line=1, column=4)
    """
    for mark, codec in UTF16_MARKS:
        if data.startswith(mark):
            return _decode_utf16(data, codec)
    start = 3 if data[:3] == b"\xef\xbb\xbf" else 0
    try:
        text = data[start:].decode("utf-8")
        at, message = len(data), ""
    except UnicodeDecodeError as err:
        text = data[start:start + err.start].decode("utf-8")
        at, message = start + err.start, _utf8_problem(data, start + err.start)
    ctrl = _PRINTABLE.search(text)
    if ctrl is not None:
        text = text[:ctrl.start()]
        at, message = start + len(text.encode("utf-8")), "control-character"
    if not message:
        return text, None
    problem = BadBytes(message, at, *line_column(text, len(text)))
    if message in _AT_THE_END:  # met once the scanner needs what follows the text
        return text, Unread(len(text), problem)
    chunk = max(_chunk_of(data, at), start)
    return text, Unread(len(data[start:chunk].decode("utf-8")), problem)


def _chunk_of(data: bytes, at: int) -> int:
    """Where the chunk starts in which go-yaml's reader meets the bad bytes at ``at``: a
    chunk is up to :data:`CHUNK` bytes, and the next one starts at the first character
    the last did not hold whole."""
    start = 0
    while start + CHUNK < len(data):
        lead = start + CHUNK
        while lead > start and data[lead] >> 6 == 2:  # back to a character's first byte
            lead -= 1
        if at < lead:
            return start
        start = lead
    return start


def _utf8_problem(data: bytes, at: int) -> str:
    """What go-yaml's reader finds wrong in the sequence starting at ``at`` (a
    :class:`BadBytes` code)."""
    lead = data[at]
    width = 1 if lead < 0x80 else 2 if lead >> 5 == 6 else 3 if lead >> 4 == 14 else (
        4 if lead >> 3 == 30 else 0)
    if width == 0:
        return "invalid-leading-utf8"
    if at + width > len(data):
        return "incomplete-utf8"
    value = lead & (0x7F >> width)
    for octet in data[at + 1:at + width]:
        if octet >> 6 != 2:
            return "invalid-trailing-utf8"
        value = (value << 6) | (octet & 0x3F)
    if value < (0, 0, 0x80, 0x800, 0x10000)[width]:
        return "invalid-utf8-length"
    return "invalid-unicode"


def _decode_utf16(data: bytes, codec: str) -> tuple[str, Unread | None]:
    """:func:`decode_bytes` of a file starting with a UTF-16 byte order mark.

    go-yaml decodes code units in order and checks each character as it goes, so the
    first problem in the file wins: a control character, or a unit that does not decode
    (``incomplete-utf16``, ``unexpected-low-surrogate``, ``expected-low-surrogate``,
    ``incomplete-utf16-pair``).  Chunks are
    :data:`CHUNK` bytes of the file (its mark included); a surrogate pair cut by a chunk's
    end starts the next one."""
    order: Literal["little", "big"] = "little" if codec == "utf-16-le" else "big"
    at, message = _utf16_problem(data, order)
    text = data[2:at].decode(codec)
    ctrl = _PRINTABLE.search(text)
    if ctrl is not None:
        text = text[:ctrl.start()]
        at, message = 2 + len(text.encode(codec)), "control-character"
    if not message:
        return text, None
    problem = BadBytes(message, at, *line_column(text, len(text)))
    if message in _AT_THE_END:
        return text, Unread(len(text), problem)
    start = 0
    while start + CHUNK < len(data):
        lead = start + CHUNK
        if 0xD800 <= int.from_bytes(data[lead - 2:lead], order) <= 0xDBFF:  # a pair cut
            lead -= 2
        if at < lead:
            break
        start = lead
    return text, Unread(len(data[2:max(start, 2)].decode(codec)), problem)


def _utf16_problem(data: bytes, order: Literal["little", "big"]) -> tuple[int, str]:
    """The offset of the first UTF-16 code unit after the mark that does not decode, and
    its :class:`BadBytes` code (``len(data)`` and ``""`` when all do)."""
    at = 2
    while at < len(data):
        if at + 2 > len(data):
            return at, "incomplete-utf16"
        unit = int.from_bytes(data[at:at + 2], order)
        if 0xDC00 <= unit <= 0xDFFF:
            return at, "unexpected-low-surrogate"
        if 0xD800 <= unit <= 0xDBFF:
            if at + 4 > len(data):
                return at, "incomplete-utf16-pair"
            if not 0xDC00 <= int.from_bytes(data[at + 2:at + 4], order) <= 0xDFFF:
                return at, "expected-low-surrogate"
            at += 2
        at += 2
    return len(data), ""
