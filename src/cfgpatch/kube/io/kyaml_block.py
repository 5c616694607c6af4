"""kyaml nodes read without PyYAML, for the block-style YAML most kustomize files use.

:func:`read` gives the :class:`~.kyaml.Node` trees :mod:`.kyaml_read` gives through
PyYAML's composer (same kinds, tags, values, styles, lines and columns) for a small part
of YAML, read line by line as :mod:`.blockyaml` reads values: block mappings and
sequences (``- key: value`` and sequences at their key's indentation included), plain
scalars, single-quoted and simple double-quoted scalars on one line, literal block
scalars (``|``, ``|-``, ``|+``), ``{}`` and ``[]``, whole-line comments and comments
after a plain scalar or a bare ``key:``/``-``, and ``---`` between documents.

Anything else (flow collections, anchors, aliases, tags, folded or multi-line
scalars, escapes, tabs, carriage returns, unusual characters or indentation, merge keys,
anything YAML refuses) makes it answer ``None``: the caller then reads the text with
PyYAML, so every error and every case not listed here comes from there.  Importing
PyYAML costs a small ``cfgpatch kube build`` about a fifth of its process time.
Tests hold the two readers to the same nodes on generated and recorded documents.

Standard library only.
"""

from __future__ import annotations

from ...lazy_pattern import lazily
from .blockyaml import _KEY, _PLAIN_START, _UNUSUAL, _UNUSUAL_ASCII, _is_item
from .kyaml import FLOW, MAP, MAPPING, NULL, SCALAR, SEQ, SEQUENCE, STR, Node
from .kyaml_scalars import resolve

_MAX_DEPTH = 200
_MAX_KEY = 1000  # PyYAML: a simple key is at most 1024 characters


class _Decline(Exception):
    """The text is outside what this reader handles: read it the full way."""


def read(text: str, file: str = "", first: bool = False,
         lines_before: int = 0) -> list[Node] | None:
    """The non-null documents of ``text`` (with ``first``: of its first document only) as
    :func:`.kyaml_read._read_documents` gives them, or ``None`` to decline.  The whole
    text is read either way, so an accepted text is one PyYAML reads without error."""
    unusual = _UNUSUAL_ASCII if text.isascii() else None
    if unusual is None:
        import re

        unusual = re.compile(_UNUSUAL)
    if unusual.search(text) or text.startswith(("%", "\ufeff")):
        return None
    try:
        documents = _Reader(text.split("\n"), file, lines_before).documents()
    except (_Decline, RecursionError):
        return None
    if first:
        documents = documents[:1]
    return [node for node in documents if node is not None]


def _scalar(value: str, tag: str, style: str, line: int, column: int, file: str) -> Node:
    return Node(SCALAR, tag, value, [], style, line, column, file)


def _plain_tag(text: str) -> str:
    if text == "<<":
        raise _Decline  # a merge key: left to PyYAML
    return resolve(text)[0]


class _Reader:
    def __init__(self, lines: list[str], file: str, lines_before: int) -> None:
        self.lines = lines
        self.end = len(lines)
        self.i = 0
        self.file = file
        self.base = lines_before + 1  # a node's line is its index plus this
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        self.filler = [len(line) == n or line[n] == "#" for line, n in zip(lines, self.indents)]

    def documents(self) -> list[Node | None]:
        """Every document in order (``None`` for an empty one)."""
        docs: list[Node | None] = []
        open_document = False  # a "---" was read and its document has no content yet
        while True:
            self._skip_filler()
            if self.i >= self.end:
                if open_document:
                    docs.append(None)
                return docs
            line = self.lines[self.i]
            if line.rstrip(" ") == "---":
                if open_document:
                    docs.append(None)
                open_document = True
                self.i += 1
                continue
            if line.startswith(("---", "...")) or self.indents[self.i] != 0:
                raise _Decline
            docs.append(self.node(0, 0))
            open_document = False
            self._skip_filler()
            if self.i < self.end and self.lines[self.i].rstrip(" ") != "---":
                raise _Decline  # something after the document's root that is not "---"

    def _skip_filler(self) -> None:
        filler, end, i = self.filler, self.end, self.i
        while i < end and filler[i]:
            i += 1
        self.i = i

    # ---------------------------------------------------------------- collections

    def node(self, column: int, depth: int) -> Node:
        """The collection starting at line ``self.i``, whose entries sit at ``column``."""
        if depth > _MAX_DEPTH:
            raise _Decline
        line = self.lines[self.i]
        if _is_item(line[column:]):
            return self.sequence(column, depth)
        if _KEY.match(line, column):
            return self.mapping(column, depth)
        raise _Decline  # a scalar or flow root, or a line YAML reads another way

    def mapping(self, column: int, depth: int) -> Node:
        out = Node(MAPPING, MAP, "", [], "", self.i + self.base, column + 1, self.file)
        content = out.content
        lines, indents, filler, end = self.lines, self.indents, self.filler, self.end
        file = self.file
        while self.i < end and indents[self.i] == column:
            i = self.i
            line = lines[i]
            if column == 0 and line.startswith(("---", "...")):
                break  # a document marker (or a key spelled like one): not for this reader
            match = _KEY.match(line, column)
            if match is None:
                if line.startswith("-", column):
                    break  # a sequence at the parent's column ends this mapping
                raise _Decline
            single, double, plain, rest = match.groups()
            number = i + self.base
            if plain is not None:
                text = plain.rstrip(" ")
                key = _scalar(text, _plain_tag(text), "", number, column + 1, file)
            elif single is not None:
                key = _scalar(single.replace("''", "'"), STR, "'", number, column + 1, file)
            else:
                key = _scalar(double, STR, '"', number, column + 1, file)
            colon = line.rindex(":", column, len(line) if rest is None else match.start(4))
            if colon - column > _MAX_KEY:
                raise _Decline
            self.i = i + 1
            content += [key, self.value(rest, match.start(4), colon + 1, column, depth, True)]
            i = self.i
            while i < end and filler[i]:
                i += 1
            self.i = i
        return out

    def sequence(self, column: int, depth: int) -> Node:
        out = Node(SEQUENCE, SEQ, "", [], "", self.i + self.base, column + 1, self.file)
        items = out.content
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
            start = len(line) - len(rest)
            if rest and rest[0] != "#" and _KEY.match(line, start):
                # "- key: value": a mapping whose entries sit at the key's column
                indents[i] = start
                items.append(self.mapping(start, depth + 1))
            elif _is_item(rest):
                raise _Decline  # "- - x": a sequence in a sequence on one line
            else:
                self.i = i + 1
                items.append(self.value(rest or None, start, column + 1, column, depth, False))
            i = self.i
            while i < end and filler[i]:
                i += 1
            self.i = i
        return out

    # ---------------------------------------------------------------- values

    def value(self, rest: str | None, start: int, after: int, column: int, depth: int,
              in_mapping: bool) -> Node:
        """The value written at ``start`` after ``key:`` or ``-`` (``rest``), or on the
        next lines; ``after`` is the column just after the indicator (where PyYAML puts
        an empty value)."""
        number = self.i - 1 + self.base
        if rest is not None:
            rest = rest.rstrip(" ")
        if not rest or rest[0] == "#":
            return self.nested(column, depth, in_mapping, number, after + 1)
        first, file = rest[0], self.file
        if rest in ("{}", "[]") or first in "{[" and rest[1:].strip(" ") in ("}", "]") \
                and (first == "{") == (rest[-1] == "}"):  # also "{ }"
            kind, tag = (MAPPING, MAP) if first == "{" else (SEQUENCE, SEQ)
            return Node(kind, tag, "", [], FLOW, number, start + 1, file)
        if first == "[":
            return _flow_sequence(rest, start, number, file)
        if first == "|":
            return _scalar(self.literal(rest, column), STR, "|", number, start + 1, file)
        if first == "'":
            return _scalar(_single_quoted(rest), STR, "'", number, start + 1, file)
        if first == '"':
            return _scalar(_double_quoted(rest), STR, '"', number, start + 1, file)
        text = _plain(rest)
        return _scalar(text, _plain_tag(text), "", number, start + 1, file)

    def nested(self, column: int, depth: int, in_mapping: bool, number: int,
               empty_column: int) -> Node:
        self._skip_filler()
        if self.i < self.end:
            inner = self.indents[self.i]
            if inner > column:
                return self.node(inner, depth + 1)
            if in_mapping and inner == column and _is_item(self.lines[self.i][inner:]):
                return self.sequence(column, depth + 1)
        return _scalar("", NULL, "", number, empty_column, self.file)

    def literal(self, header: str, column: int) -> str:
        """A ``|`` block scalar whose lines follow (clip, ``-`` strip or ``+`` keep)."""
        chomp = header[1:]
        if chomp not in ("", "-", "+"):
            raise _Decline  # indentation indicators, comments after the header
        if self.i >= self.end or not self.lines[self.i].strip(" "):
            raise _Decline  # leading empty lines, or no content: leave them to PyYAML
        indent = self.indents[self.i]
        if indent <= column:
            raise _Decline
        content: list[str] = []
        end = self.i
        while end < self.end:
            line = self.lines[end]
            if line.strip(" "):
                if self.indents[end] < indent:
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


def _flow_sequence(rest: str, start: int, number: int, file: str) -> Node:
    """``[a, 'b', "c"]`` on one line: plain items without ``:``, ``#`` or a flow
    indicator, quoted items without escapes; anything else (nesting, empty or trailing
    items, a comment, more lines) declines."""
    out = Node(SEQUENCE, SEQ, "", [], FLOW, number, start + 1, file)
    at = 1
    while True:
        match = _FLOW_ITEM.match(rest, at)
        if match is None:
            raise _Decline
        single, double, plain = match.group(1, 2, 3)
        column = start + match.start() + len(match.group()) - len(match.group().lstrip(" ")) + 1
        if plain is not None:
            if plain == "-" or not _PLAIN_START.match(plain):
                raise _Decline
            out.content.append(_scalar(plain, _plain_tag(plain), "", number, column, file))
        elif single is not None:
            out.content.append(_scalar(single.replace("''", "'"), STR, "'", number, column,
                                       file))
        else:
            out.content.append(_scalar(double, STR, '"', number, column, file))
        at = match.end()
        if match.group(4) == "]":
            if at != len(rest):
                raise _Decline  # something after the sequence (a comment, another value)
            return out


#: One item of a one-line flow sequence and what follows it (``,`` or the closing ``]``).
_FLOW_ITEM = lazily(r""" *(?:'((?:[^']|'')*)'|"([^"\\]*)"|([^\s,\[\]{}#:'"]"""
                    r"""(?:[^,\[\]{}#:]*[^\s,\[\]{}#:])?)) *([,\]])""")


def _plain(rest: str) -> str:
    """A plain scalar's text (a comment after it taken off)."""
    comment = rest.find(" #")
    text = rest if comment < 0 else rest[:comment].rstrip(" ")
    if not _PLAIN_START.match(text) or ": " in text or text.endswith(":"):
        raise _Decline
    return text


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
