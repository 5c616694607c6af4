"""A fast reader for the block-style YAML most Kubernetes files are written in.

PyYAML's pure-Python parser costs about 100 µs a line, which dominates ``kube patch`` on
big objects.  Most files use a small part of YAML: block mappings and sequences (the
compact ``- name: x`` form and sequences at their key's indentation included), plain
scalars, single-quoted and simple double-quoted scalars on one line, literal block
scalars (``|``, ``|-``, ``|+``), ``{}`` and ``[]``, whole-line comments and ``---``
between documents.  :func:`read_documents` reads exactly that, line by line, and gives
the values and type notes the full reader (:mod:`.reader`) gives for the same text.

Anything else (flow collections, anchors, tags, folded or multi-line scalars, escapes,
inline comments, tabs, unusual characters, unusual indentation, and anything YAML would
refuse) makes it answer ``None``, and the caller reads the text the full way: so the
errors, and every case not listed here, come from the full reader.  Tests hold the two
to the same answers on generated and hand-written documents.

Standard library only.
"""

from __future__ import annotations

import math
import re

from ..go import yaml as goyaml
from .notes import TypeNote, is_noted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Characters outside these sets send the text to the full reader (the second one, costly
#: to compile, only for texts that are not ASCII).
_UNUSUAL_ASCII = re.compile("[^\n\x20-\x7e]")
_UNUSUAL = ("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
            "\U00010000-\U0010ffff]")
#: A mapping key (plain or quoted) and what follows its colon.
_KEY = re.compile(r"""(?:'((?:[^']|'')*)'|"([^"\\]*)"|([^\s'"#&*!|>%@`?:,\[\]{}\-][^#]*?"""
                  r"""|-[^\s#][^#]*?))[ ]*:(?: +(.*))?$""")
_PLAIN_START = re.compile(r"[^\s'\"#&*!|>%@`?:,\[\]{}\-]|-[^\s]")
_MAX_DEPTH = 200
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class _Decline(Exception):
    """The text is outside what this reader handles: read it the full way."""


def read_documents(text: str) -> tuple[list, list[TypeNote], bool] | None:
    """The non-empty documents of ``text``, the type notes and whether every number in
    them is an integer within int64 (then the documents are in the form kubectl's
    decoder gives, :func:`.unstructured.already_normal`); or ``None`` to decline."""
    unusual = _UNUSUAL_ASCII if text.isascii() else re.compile(_UNUSUAL)
    if unusual.search(text) or text.startswith(("%", "\ufeff")):
        return None
    try:
        return _Reader(text.split("\n")).documents()
    except (_Decline, RecursionError):
        return None


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _pointer(path: tuple | None) -> str:
    """The JSON Pointer of a path kept as ``(parent path, key or index)`` pairs."""
    tokens: list[str] = []
    while path is not None:
        path, token = path
        tokens.append(_escape(token) if type(token) is str else str(token))
    return "".join("/" + token for token in reversed(tokens))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_item(body: str) -> bool:
    """Whether a line's text (from its indentation on) starts a sequence entry."""
    return body == "-" or body.startswith("- ")


class _Reader:
    """Reads collections line by line.  Paths are kept as ``(parent, key)`` pairs and made
    pointers only for a type note: most values never need theirs."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.end = len(lines)
        self.i = 0
        self.notes: list[TypeNote] = []
        #: Per line: its indentation, and whether it is blank or a whole-line comment.
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        self.filler = [len(line) == n or line[n] == "#" for line, n in zip(lines, self.indents)]
        #: plain key text -> the key (checked once per spelling)
        self.keys: dict[str, str] = {}
        #: plain scalar text -> its value and whether it gets a note (resolved once)
        self.plains: dict[str, tuple[Any, bool]] = {}

    # ---------------------------------------------------------------- documents

    def documents(self) -> tuple[list, list[TypeNote], bool]:
        docs: list = []
        while True:
            self._skip_filler()
            if self.i >= self.end:
                return docs, self.notes, self.normal()
            line = self.lines[self.i]
            if line.rstrip(" ") == "---":
                self.i += 1
                continue
            if line.startswith(("---", "...")) or self.indents[self.i] != 0:
                raise _Decline
            docs.append(self.node(0, None, 0))
            self._skip_filler()
            if self.i < self.end and self.lines[self.i].rstrip(" ") != "---":
                raise _Decline  # something after the document's root that is not "---"

    def normal(self) -> bool:
        """Whether no plain scalar read is a float or an integer outside int64 (the
        other scalars are strings, booleans and nulls)."""
        for value, _ in self.plains.values():
            kind = type(value)
            if kind is float or kind is int and not _INT64_MIN <= value <= _INT64_MAX:
                return False
        return True

    def _skip_filler(self) -> None:
        filler, end, i = self.filler, self.end, self.i
        while i < end and filler[i]:
            i += 1
        self.i = i

    # ---------------------------------------------------------------- collections

    def node(self, column: int, path: tuple | None, depth: int) -> Any:
        """The collection starting at line ``self.i``, whose entries sit at ``column``."""
        if depth > _MAX_DEPTH:
            raise _Decline
        line = self.lines[self.i]
        if _is_item(line[column:]):
            return self.sequence(column, path, depth)
        if _KEY.match(line, column):
            return self.mapping(column, path, depth)
        raise _Decline  # a scalar or flow root, or a line YAML reads another way

    def mapping(self, column: int, path: tuple | None, depth: int) -> dict:
        # A line more indented than an entry after a scalar would continue the scalar; no
        # collection takes such a line (each takes only lines at its own column, and the
        # enclosing ones sit further left), so the document's end declines the text.
        result: dict = {}
        lines, indents, filler, end = self.lines, self.indents, self.filler, self.end
        keys, plains, key_match = self.keys, self.plains, _KEY.match
        i = self.i
        while i < end and indents[i] == column:
            line = lines[i]
            # a plain key seen before, then ": " or the line's end: what _KEY would find
            # (the first colon; such a key has no quote, "#" or trailing space)
            colon = line.find(":", column)
            key = keys.get(line[column:colon]) if colon > 0 else None
            if key is not None and colon + 1 == len(line):
                rest = None
            elif key is not None and line.startswith(" ", colon + 1):
                rest = line[colon + 2:].strip(" ")
            else:
                match = key_match(line, column)
                if match is None:
                    if line.startswith("-", column):
                        break  # a sequence at the parent's column ends this mapping
                    raise _Decline
                single, double, plain, rest = match.groups()
                if plain is not None:
                    key = keys.get(plain) or _plain_key(plain, keys)
                else:
                    key = double if single is None else single.replace("''", "'")
                if rest is not None:
                    rest = rest.rstrip(" ")
            i += 1
            if rest and rest[0] in _WORD_START and ": " not in rest and " #" not in rest \
                    and rest[-1] != ":":
                result[key] = rest  # a plain scalar no rule of go-yaml reads as other than text
            elif rest and rest[0] not in _SPECIAL_START:
                known = plains.get(rest)
                if known is None:
                    known = plains[rest] = _plain(rest)
                result[key] = known[0]
                if known[1]:
                    self.notes.append(TypeNote(_pointer((path, key)), rest, known[0]))
            else:
                self.i = i
                result[key] = self.value(rest, column, (path, key), depth, in_mapping=True)
                i = self.i
            while i < end and filler[i]:
                i += 1
        self.i = i
        return result

    def sequence(self, column: int, path: tuple | None, depth: int) -> list:
        items: list = []
        lines, indents, filler, end = self.lines, self.indents, self.filler, self.end
        while self.i < end:
            i = self.i
            if indents[i] != column:
                break
            line = lines[i]
            if not (len(line) == column + 1 or line.startswith(" ", column + 1)) \
                    or line[column] != "-":
                break
            rest = line[column + 1:].lstrip(" ")
            here = (path, len(items))
            if rest and self._starts_entry(line, len(line) - len(rest)):
                # "- key: value": a mapping whose entries sit at the key's column
                indents[i] = len(line) - len(rest)
                items.append(self.mapping(indents[i], here, depth + 1))
            elif rest.startswith("-"):
                raise _Decline  # "- - x": a sequence in a sequence on one line
            else:
                self.i = i + 1
                items.append(self.value(rest or None, column, here, depth, in_mapping=False))
            i = self.i
            while i < end and filler[i]:
                i += 1
            self.i = i
        return items

    def _starts_entry(self, line: str, start: int) -> bool:
        """Whether a mapping entry starts at ``line[start]`` (a known key is quicker)."""
        colon = line.find(":", start)
        if colon > 0 and line[start:colon] in self.keys and (
                colon + 1 == len(line) or line[colon + 1] == " "):
            return True
        return _KEY.match(line, start) is not None

    # ---------------------------------------------------------------- values

    def value(self, rest: str | None, column: int, path: tuple, depth: int,
              in_mapping: bool) -> Any:
        """The value written after ``key:`` or ``-`` (``rest``), or on the next lines."""
        rest = None if rest is None else rest.rstrip(" ")
        if not rest:
            return self.nested(column, path, depth, in_mapping)
        first = rest[0]
        if rest == "{}":
            return {}
        if rest == "[]":
            return []
        if first == "|":
            return self.literal(rest, column)
        if first == "'":
            return _single_quoted(rest)
        if first == '"':
            return _double_quoted(rest)
        known = self.plains.get(rest)
        if known is None:
            known = self.plains[rest] = _plain(rest)
        value, noted = known
        if noted:
            self.notes.append(TypeNote(_pointer(path), rest, value))
        return value

    def nested(self, column: int, path: tuple, depth: int, in_mapping: bool) -> Any:
        self._skip_filler()
        if self.i < self.end:
            inner = self.indents[self.i]
            if inner > column:
                return self.node(inner, path, depth + 1)
            if in_mapping and inner == column and _is_item(self.lines[self.i][inner:]):
                return self.sequence(column, path, depth + 1)
        self.notes.append(TypeNote(_pointer(path), "", None))  # an empty plain scalar is null
        return None

    def literal(self, header: str, column: int) -> str:
        """A ``|`` block scalar whose lines follow (clip, ``-`` strip or ``+`` keep)."""
        chomp = header[1:]
        if chomp not in ("", "-", "+"):
            raise _Decline  # indentation indicators, comments after the header
        if self.i >= self.end or not self.lines[self.i].strip(" "):
            raise _Decline  # leading empty lines, or no content: leave them to PyYAML
        indent = _indent(self.lines[self.i])
        if indent <= column:
            raise _Decline
        content: list[str] = []
        end = self.i
        while end < self.end:
            line = self.lines[end]
            if line.strip(" "):
                if _indent(line) < indent:
                    break
                content.append(line[indent:])
            elif len(line) > indent:
                raise _Decline  # a blank line with more spaces than the indentation
            else:
                content.append("")
            end += 1
        if end == self.end:
            if self.lines[-1] != "":
                raise _Decline  # no line break after the last line of the text
            content.pop()  # what follows the text's final line break is no line
        self.i = end
        empty_tail = 0
        while content and content[-1] == "":
            content.pop()
            empty_tail += 1
        text = "\n".join(content)
        if chomp == "-":
            return text
        return text + "\n" * (1 + (empty_tail if chomp == "+" else 0))


#: First characters of a plain scalar that is a string whatever follows (go-yaml's other
#: types start with a digit, a sign, ".", "~" or one of these letters missing here).
_WORD_START = frozenset("abcdeghijklmpqrsuvwxzABCDEGHIJKLMPQRSUVWXZ")
#: First characters of a value that is not a plain scalar (or that a plain scalar may
#: not start with: those decline in :func:`_plain`).
_SPECIAL_START = "|'\"{["


def _plain_key(plain: str, keys: dict[str, str]) -> str:
    """A plain key's text checked (and remembered in ``keys``)."""
    key = plain.rstrip(" ")
    if key == "<<" or goyaml.resolve_plain(key) is not goyaml.STR:
        raise _Decline  # merge keys and keys that are not strings
    keys[plain] = key
    return key


def _plain(text: str) -> tuple[Any, bool]:
    """A plain scalar's value and whether it gets a type note."""
    if not _PLAIN_START.match(text) or ": " in text or " #" in text or text.endswith(":"):
        raise _Decline
    value = goyaml.resolve_plain(text)
    if value is goyaml.STR:
        return text, False
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise _Decline  # the full reader names the error
    return value, is_noted(text, value)


def _single_quoted(text: str) -> str:
    inner = text[1:-1]
    if len(text) < 2 or text[-1] != "'" or "'" in inner.replace("''", ""):
        raise _Decline  # a quote that ends early, or a scalar that goes on
    return inner.replace("''", "'")


def _double_quoted(text: str) -> str:
    inner = text[1:-1]
    if len(text) < 2 or text[-1] != '"' or '"' in inner or "\\" in inner:
        raise _Decline  # escapes, or a scalar that goes on
    return inner
