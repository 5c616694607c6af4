"""A fast reader for the block-style YAML most Kubernetes files are written in.

PyYAML's pure-Python parser costs about 100 µs a line, which dominates ``kube patch`` on
big objects.  :func:`read_documents` reads the part of YAML :mod:`.blockscan` scans
(whole-line comments only) and gives the values and type notes the full reader
(:mod:`.reader`) gives for the same text; for anything else it answers ``None``, and the
caller reads the text the full way: so the errors, and every case not listed there,
come from the full reader.  Tests hold the two to the same answers on generated and
hand-written documents.

Standard library only.
"""

from __future__ import annotations

import math

from ..go import yaml as goyaml
from .blockscan import PLAIN_START, BlockScanner, Decline, lines_of
from .notes import TypeNote, is_noted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def read_documents(text: str) -> tuple[list, list[TypeNote], bool] | None:
    """The non-empty documents of ``text``, the type notes and whether every number in
    them is an integer within int64 (then the documents are in the form kubectl's
    decoder gives, :func:`.unstructured.already_normal`); or ``None`` to decline."""
    lines = lines_of(text)
    if lines is None:
        return None
    reader = _ValueBuilder(lines)
    documents = reader.read()
    if documents is None:
        return None
    return [doc for doc in documents if doc is not None], reader.notes, reader.normal()


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _pointer(path: tuple | None) -> str:
    """The JSON Pointer of a path kept as ``(parent path, key or index)`` pairs."""
    tokens: list[str] = []
    while path is not None:
        path, token = path
        tokens.append(_escape(token) if type(token) is str else str(token))
    return "".join("/" + token for token in reversed(tokens))


class _ValueBuilder(BlockScanner):
    """Values (dicts, lists, scalars as go-yaml resolves them) and type notes.  Paths
    are made pointers only for a type note: most values never need theirs."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)
        self.notes: list[TypeNote] = []
        #: plain scalar text -> its value and whether it gets a note (resolved once)
        self.plains: dict[str, tuple[Any, bool]] = {}

    def normal(self) -> bool:
        """Whether no plain scalar read is a float or an integer outside int64 (the
        other scalars are strings, booleans and nulls)."""
        for value, _ in self.plains.values():
            kind = type(value)
            if kind is float or kind is int and not _INT64_MIN <= value <= _INT64_MAX:
                return False
        return True

    def new_mapping(self, index: int, column: int) -> dict:
        return {}

    def new_sequence(self, index: int, column: int) -> tuple[list, list]:
        items: list = []
        return items, items

    def plain_key(self, text: str) -> str:
        if text == "<<" or goyaml.resolve_plain(text) is not goyaml.STR:
            raise Decline  # merge keys and keys that are not strings
        return text

    def quoted_key(self, text: str, style: str) -> str:
        return text

    def entry(self, out: dict, key: str, rest: str | None, line: str, colon: int,
              column: int, path: tuple | None, depth: int) -> None:
        if rest and rest[0] in _WORD_START and ": " not in rest and " #" not in rest \
                and rest[-1] != ":":
            out[key] = rest  # a plain scalar no rule of go-yaml reads as other than text
        elif rest and rest[0] not in _SPECIAL_START:
            out[key] = self.plain(rest, (path, key), 0, 0)
        else:
            out[key] = self.value(rest, 0, 0, column, (path, key), depth, True)

    def flow_empty(self, mapping: bool, index: int, start: int) -> dict | list:
        return {} if mapping else []

    def string(self, text: str, style: str, index: int, start: int) -> str:
        return text

    def plain(self, rest: str, path: tuple | None, index: int, start: int) -> Any:
        known = self.plains.get(rest)
        if known is None:
            known = self.plains[rest] = _plain(rest)
        value, noted = known
        if noted:
            self.notes.append(TypeNote(_pointer(path), rest, value))
        return value

    def null(self, path: tuple | None, index: int, after: int) -> None:
        self.notes.append(TypeNote(_pointer(path), "", None))  # an empty plain scalar is null


#: First characters of a plain scalar that is a string whatever follows (go-yaml's other
#: types start with a digit, a sign, ".", "~" or one of these letters missing here).
_WORD_START = frozenset("abcdeghijklmpqrsuvwxzABCDEGHIJKLMPQRSUVWXZ")
#: First characters of a value that is not a plain scalar (or that a plain scalar may
#: not start with: those decline in :func:`_plain`).
_SPECIAL_START = "|'\"{["


def _plain(text: str) -> tuple[Any, bool]:
    """A plain scalar's value and whether it gets a type note."""
    if not PLAIN_START.match(text) or ": " in text or " #" in text or text.endswith(":"):
        raise Decline
    value = goyaml.resolve_plain(text)
    if value is goyaml.STR:
        return text, False
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise Decline  # the full reader names the error
    return value, is_noted(text, value)
