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


class _Decline(Exception):
    """The text is outside what this reader handles: read it the full way."""


def read_documents(text: str) -> tuple[list, list[TypeNote]] | None:
    """The non-empty documents of ``text`` and the type notes, or ``None`` to decline."""
    unusual = _UNUSUAL_ASCII if text.isascii() else re.compile(_UNUSUAL)
    if unusual.search(text) or text.startswith(("%", "\ufeff")):
        return None
    try:
        return _Reader(text.split("\n")).documents()
    except (_Decline, RecursionError):
        return None


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0
        self.notes: list[TypeNote] = []
        #: Per line: its indentation, and whether it is blank or a whole-line comment.
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        self.filler = [len(line) == n or line[n] == "#" for line, n in zip(lines, self.indents)]

    # ---------------------------------------------------------------- documents

    def documents(self) -> tuple[list, list[TypeNote]]:
        docs: list = []
        while True:
            self._skip_filler()
            if self.i >= len(self.lines):
                return docs, self.notes
            line = self.lines[self.i]
            if line.rstrip(" ") == "---":
                self.i += 1
                continue
            if line.startswith(("---", "...")) or self.indents[self.i] != 0:
                raise _Decline
            docs.append(self.node(0, "", 0))
            self._skip_filler()
            if self.i < len(self.lines) and self.lines[self.i].rstrip(" ") != "---":
                raise _Decline  # something after the document's root that is not "---"

    def _skip_filler(self) -> None:
        filler, end = self.filler, len(self.lines)
        while self.i < end and filler[self.i]:
            self.i += 1

    # ---------------------------------------------------------------- collections

    def node(self, column: int, pointer: str, depth: int) -> Any:
        """The collection starting at line ``self.i``, whose entries sit at ``column``."""
        if depth > _MAX_DEPTH:
            raise _Decline
        body = self.lines[self.i][column:]
        if body == "-" or body.startswith("- "):
            return self.sequence(column, pointer, depth)
        if _KEY.match(body):
            return self.mapping(column, pointer, depth)
        raise _Decline  # a scalar or flow root, or a line YAML reads another way

    def mapping(self, column: int, pointer: str, depth: int) -> dict:
        result: dict = {}
        while self.i < len(self.lines):
            if self.indents[self.i] != column:
                break
            line = self.lines[self.i]
            match = _KEY.match(line, column)
            if match is None:
                if line[column:].startswith("-"):
                    break  # a sequence at the parent's column ends this mapping
                raise _Decline
            key = self.key(match)
            self.i += 1
            result[key] = self.value(match.group(4), column, f"{pointer}/{_escape(key)}",
                                     depth, in_mapping=True)
            self._skip_filler()
        return result

    def sequence(self, column: int, pointer: str, depth: int) -> list:
        items: list = []
        while self.i < len(self.lines):
            if self.indents[self.i] != column:
                break
            body = self.lines[self.i][column:]
            if not (body == "-" or body.startswith("- ")):
                break
            rest = body[1:].lstrip(" ")
            here = f"{pointer}/{len(items)}"
            if rest and _KEY.match(rest):  # "- key: value": a mapping at the key's column
                inner = column + len(body) - len(rest)
                # read the line as if the key began it: the mapping's entries sit there
                self.lines[self.i] = " " * inner + rest
                self.indents[self.i] = inner
                items.append(self.mapping(inner, here, depth + 1))
            elif rest.startswith("-"):
                raise _Decline  # "- - x": a sequence in a sequence on one line
            else:
                self.i += 1
                items.append(self.value(rest or None, column, here, depth, in_mapping=False))
            self._skip_filler()
        return items

    def key(self, match: re.Match) -> str:
        single, double, plain = match.group(1), match.group(2), match.group(3)
        if single is not None:
            return single.replace("''", "'")
        if double is not None:
            return double
        plain = plain.rstrip(" ")
        if plain == "<<" or goyaml.resolve_plain(plain) is not goyaml.STR:
            raise _Decline  # merge keys and keys that are not strings
        return plain

    # ---------------------------------------------------------------- values

    def value(self, rest: str | None, column: int, pointer: str, depth: int,
              in_mapping: bool) -> Any:
        """The value written after ``key:`` or ``-`` (``rest``), or on the next lines."""
        rest = None if rest is None else rest.rstrip(" ")
        if not rest:
            return self.nested(column, pointer, depth, in_mapping)
        if rest in ("{}", "[]"):
            self._no_continuation(column)
            return {} if rest == "{}" else []
        if rest[0] == "|":
            return self.literal(rest, column)
        self._no_continuation(column)
        if rest[0] == "'":
            return self.single_quoted(rest)
        if rest[0] == '"':
            return self.double_quoted(rest)
        return self.plain(rest, pointer)

    def nested(self, column: int, pointer: str, depth: int, in_mapping: bool) -> Any:
        self._skip_filler()
        if self.i < len(self.lines):
            inner = self.indents[self.i]
            body = self.lines[self.i][inner:]
            if inner > column:
                return self.node(inner, pointer, depth + 1)
            if in_mapping and inner == column and (body == "-" or body.startswith("- ")):
                return self.sequence(column, pointer, depth + 1)
        self.notes.append(TypeNote(pointer, "", None))  # an empty plain scalar is null
        return None

    def _no_continuation(self, column: int) -> None:
        """A line more indented than the entry would continue its scalar: decline."""
        j = self.i
        while j < len(self.lines) and self.filler[j]:
            if self.indents[j] < len(self.lines[j]):
                return  # a comment ends a plain scalar
            j += 1
        if j < len(self.lines) and self.indents[j] > column:
            raise _Decline

    def plain(self, text: str, pointer: str) -> Any:
        if not _PLAIN_START.match(text) or ": " in text or " #" in text or text.endswith(":"):
            raise _Decline
        value = goyaml.resolve_plain(text)
        if value is goyaml.STR:
            return text
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
            raise _Decline  # the full reader names the error
        if is_noted(text, value):
            self.notes.append(TypeNote(pointer, text, value))
        return value

    @staticmethod
    def single_quoted(text: str) -> str:
        match = re.fullmatch(r"'((?:[^']|'')*)'", text)
        if match is None:
            raise _Decline
        return match.group(1).replace("''", "'")

    @staticmethod
    def double_quoted(text: str) -> str:
        match = re.fullmatch(r'"([^"\\]*)"', text)
        if match is None:
            raise _Decline  # escapes, or a scalar that goes on
        return match.group(1)

    def literal(self, header: str, column: int) -> str:
        """A ``|`` block scalar whose lines follow (clip, ``-`` strip or ``+`` keep)."""
        chomp = header[1:]
        if chomp not in ("", "-", "+"):
            raise _Decline  # indentation indicators, comments after the header
        if self.i >= len(self.lines) or not self.lines[self.i].strip(" "):
            raise _Decline  # leading empty lines, or no content: leave them to PyYAML
        indent = _indent(self.lines[self.i])
        if indent <= column:
            raise _Decline
        content: list[str] = []
        end = self.i
        while end < len(self.lines):
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
        if end == len(self.lines):
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
