"""The line scanner of the block-style YAML most Kubernetes and kustomize files use.

PyYAML's pure-Python parser costs about 100 µs a line, and importing it costs a small
``cfgpatch kube build`` about a fifth of its process time.  Most files use a small part
of YAML: block mappings and sequences (the compact ``- name: x`` form and sequences at
their key's indentation included), plain scalars, single-quoted and simple double-quoted
scalars on one line, literal block scalars (``|``, ``|-``, ``|+``), ``{}`` and ``[]``,
whole-line comments and ``---`` between documents.  :class:`BlockScanner` reads exactly
that, line by line, and hands what it finds to a builder, a subclass that makes the
output:

* :mod:`.blockyaml` builds values and go-yaml's type notes (``kube patch``'s reader);
* :mod:`.kyaml_block` builds kyaml nodes, with their lines, columns and styles
  (``kube build``'s reader; it also takes comments after a plain scalar or a bare
  ``key:``/``-``, :attr:`BlockScanner.comments`).

Anything else (flow collections, anchors, aliases, tags, folded or multi-line scalars,
escapes, tabs, unusual characters or indentation, and anything YAML would refuse) raises
:class:`Decline`, and the caller reads the text the full way: so the errors, and every
case not listed here, come from the full reader.  Tests hold each builder's answers to
PyYAML's on generated and recorded documents.

Standard library only.
"""

from __future__ import annotations

import re

from ...lazy_pattern import lazily

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Characters outside these sets send the text to the full reader (the second one, costly
#: to compile, only for texts that are not ASCII).
_UNUSUAL_ASCII = lazily("[^\n\x20-\x7e]")
_UNUSUAL = ("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
            "\U00010000-\U0010ffff]")
#: A mapping key (plain or quoted) and what follows its colon.
KEY = lazily(r"""(?:'((?:[^']|'')*)'|"([^"\\]*)"|([^\s'"#&*!|>%@`?:,\[\]{}\-][^#]*?"""
             r"""|-[^\s#][^#]*?))[ ]*:(?: +(.*))?$""")
#: How a plain scalar may start.
PLAIN_START = lazily(r"[^\s'\"#&*!|>%@`?:,\[\]{}\-]|-[^\s]")
_MAX_DEPTH = 200
_MAX_KEY = 1000  # PyYAML: a simple key is at most 1024 characters
_MARKERS = ("---", "...")


class Decline(Exception):
    """The text is outside what the scanner handles: read it the full way."""


def lines_of(text: str) -> list[str] | None:
    """The lines of ``text``, or ``None`` when a character or a directive or byte order
    mark at its start sends it to the full reader."""
    unusual = _UNUSUAL_ASCII if text.isascii() else re.compile(_UNUSUAL)
    if unusual.search(text) or text.startswith(("%", "\ufeff")):
        return None
    return text.split("\n")


def is_item(body: str) -> bool:
    """Whether a line's text (from its indentation on) starts a sequence entry."""
    return body == "-" or body.startswith("- ")


def single_quoted(text: str) -> str:
    inner = text[1:-1]
    if len(text) < 2 or text[-1] != "'" or "'" in inner.replace("''", ""):
        raise Decline  # a quote that ends early, or a scalar that goes on
    return inner.replace("''", "'")


def double_quoted(text: str) -> str:
    inner = text[1:-1]
    if len(text) < 2 or text[-1] != '"' or '"' in inner or "\\" in inner:
        raise Decline  # escapes, or a scalar that goes on
    return inner


class BlockScanner:
    """Reads collections line by line and calls the builder's methods (below, after
    ``# builder``) for what it finds.  ``path`` is the builder's: ``(parent path, key or
    index)`` pairs, made into pointers only by a builder that needs them.  ``index`` is
    a line's index in the text, ``column`` counts from 0."""

    #: Whether a comment may follow a plain scalar, ``key:`` or ``-``.
    comments = False

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.end = len(lines)
        self.i = 0
        #: Per line: its indentation, and whether it is blank or a whole-line comment.
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        self.filler = [len(line) == n or line[n] == "#" for line, n in zip(lines, self.indents)]
        #: plain key text, as written -> the builder's key (checked once per spelling)
        self.keys: dict[str, Any] = {}

    def read(self) -> list | None:
        """Every document in order (``None`` for an empty one), or ``None`` to decline."""
        try:
            return self.documents()
        except (Decline, RecursionError):
            return None

    # ---------------------------------------------------------------- documents

    def documents(self) -> list:
        docs: list = []
        open_document = False  # a "---" was read and its document has no content yet
        while True:
            self.skip_filler()
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
            if line.startswith(_MARKERS) or self.indents[self.i] != 0:
                raise Decline
            docs.append(self.node(0, None, 0))
            open_document = False
            self.skip_filler()
            if self.i < self.end and self.lines[self.i].rstrip(" ") != "---":
                raise Decline  # something after the document's root that is not "---"

    def skip_filler(self) -> None:
        filler, end, i = self.filler, self.end, self.i
        while i < end and filler[i]:
            i += 1
        self.i = i

    # ---------------------------------------------------------------- collections

    def node(self, column: int, path: tuple | None, depth: int) -> Any:
        """The collection starting at line ``self.i``, whose entries sit at ``column``."""
        if depth > _MAX_DEPTH:
            raise Decline
        line = self.lines[self.i]
        if is_item(line[column:]):
            return self.sequence(column, path, depth)
        if KEY.match(line, column):
            return self.mapping(column, path, depth)
        raise Decline  # a scalar or flow root, or a line YAML reads another way

    def mapping(self, column: int, path: tuple | None, depth: int) -> Any:
        # A line more indented than an entry after a scalar would continue the scalar; no
        # collection takes such a line (each takes only lines at its own column, and the
        # enclosing ones sit further left), so the document's end declines the text.
        out = self.new_mapping(self.i, column)
        lines, indents, filler, end = self.lines, self.indents, self.filler, self.end
        keys, key_match, entry = self.keys, KEY.match, self.entry
        i = self.i
        while i < end and indents[i] == column:
            line = lines[i]
            if column == 0 and line.startswith(_MARKERS):
                break  # a document marker (or a key spelled like one): the full reader's
            # a plain key seen before, then ": " or the line's end: what KEY would find
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
                    raise Decline
                single, double, plain, rest = match.groups()
                colon = line.rindex(":", column, len(line) if rest is None else match.start(4))
                if colon - column > _MAX_KEY:
                    raise Decline  # PyYAML and go-yaml refuse a longer simple key
                if plain is not None:
                    key = keys.get(plain)
                    if key is None:
                        key = keys[plain] = self.plain_key(plain.rstrip(" "))
                elif single is not None:
                    key = self.quoted_key(single.replace("''", "'"), "'")
                else:
                    key = self.quoted_key(double, '"')
                if rest is not None:
                    rest = rest.rstrip(" ")
            self.i = i + 1
            entry(out, key, rest, line, colon, column, path, depth)
            i = self.i
            while i < end and filler[i]:
                i += 1
        self.i = i
        return out

    def sequence(self, column: int, path: tuple | None, depth: int) -> Any:
        out, items = self.new_sequence(self.i, column)
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
            here = (path, len(items))
            if rest and self._starts_entry(line, start):
                # "- key: value": a mapping whose entries sit at the key's column
                indents[i] = start
                items.append(self.mapping(start, here, depth + 1))
            elif is_item(rest):
                raise Decline  # "- - x": a sequence in a sequence on one line
            else:
                self.i = i + 1
                items.append(self.value(rest or None, start, column + 1, column, here, depth,
                                        False))
            i = self.i
            while i < end and filler[i]:
                i += 1
            self.i = i
        return out

    def _starts_entry(self, line: str, start: int) -> bool:
        """Whether a mapping entry starts at ``line[start]`` (a known key is quicker)."""
        colon = line.find(":", start)
        if colon > 0 and line[start:colon] in self.keys and (
                colon + 1 == len(line) or line[colon + 1] == " "):
            return True
        return KEY.match(line, start) is not None

    # ---------------------------------------------------------------- values

    def value(self, rest: str | None, start: int, after: int, column: int,
              path: tuple | None, depth: int, in_mapping: bool) -> Any:
        """The value written at ``start`` after ``key:`` or ``-`` (``rest``), or on the
        next lines; ``after`` is the column just after the indicator (where PyYAML puts
        an empty value)."""
        index = self.i - 1
        if rest is not None:
            rest = rest.rstrip(" ")
        if not rest or rest[0] == "#" and self.comments:
            return self.nested(column, path, depth, in_mapping, index, after)
        first = rest[0]
        if rest == "{}" or rest == "[]" or first in "{[" and rest[1:].strip(" ") in ("}", "]") \
                and (first == "{") == (rest[-1] == "}"):  # also "{ }"
            return self.flow_empty(first == "{", index, start)
        if first == "[":
            return self.flow_sequence(rest, index, start)
        if first == "|":
            return self.string(self.literal(rest, column), "|", index, start)
        if first == "'":
            return self.string(single_quoted(rest), "'", index, start)
        if first == '"':
            return self.string(double_quoted(rest), '"', index, start)
        return self.plain(rest, path, index, start)

    def nested(self, column: int, path: tuple | None, depth: int, in_mapping: bool, index: int,
               after: int) -> Any:
        """The collection on the lines after ``key:`` or ``-``, else an empty value."""
        self.skip_filler()
        if self.i < self.end:
            inner = self.indents[self.i]
            if inner > column:
                return self.node(inner, path, depth + 1)
            if in_mapping and inner == column and is_item(self.lines[self.i][inner:]):
                return self.sequence(column, path, depth + 1)
        return self.null(path, index, after)

    def literal(self, header: str, column: int) -> str:
        """A ``|`` block scalar whose lines follow (clip, ``-`` strip or ``+`` keep)."""
        chomp = header[1:]
        if chomp not in ("", "-", "+"):
            raise Decline  # indentation indicators, comments after the header
        if self.i >= self.end or not self.lines[self.i].strip(" "):
            raise Decline  # leading empty lines, or no content: leave them to PyYAML
        indent = self.indents[self.i]
        if indent <= column:
            raise Decline
        content: list[str] = []
        end = self.i
        while end < self.end:
            line = self.lines[end]
            if line.strip(" "):
                if self.indents[end] < indent:
                    break
                content.append(line[indent:])
            elif len(line) > indent:
                raise Decline  # a blank line with more spaces than the indentation
            else:
                content.append("")
            end += 1
        if end == self.end:
            if self.lines[-1] != "":
                raise Decline  # no line break after the last line of the text
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

    # ---------------------------------------------------------------- builder

    def new_mapping(self, index: int, column: int) -> Any:
        """An empty mapping starting at ``index``, ``column`` (filled by :meth:`entry`)."""
        raise NotImplementedError

    def new_sequence(self, index: int, column: int) -> tuple[Any, list]:
        """An empty sequence and the list its items go in."""
        raise NotImplementedError

    def plain_key(self, text: str) -> Any:
        """A plain key, as the builder keeps it for every entry spelled so (in
        :attr:`keys`; it may decline)."""
        raise NotImplementedError

    def quoted_key(self, text: str, style: str) -> Any:
        """A single-quoted (``style`` ``'``) or double-quoted key, without its quotes."""
        raise NotImplementedError

    def entry(self, out: Any, key: Any, rest: str | None, line: str, colon: int, column: int,
              path: tuple | None, depth: int) -> None:
        """Read the value after the colon of ``key`` (from :meth:`plain_key` or
        :meth:`quoted_key`) on line ``self.i - 1`` (``rest``: the rest of the line,
        stripped; mostly through :meth:`value`) and put the entry in the mapping ``out``."""
        raise NotImplementedError

    def flow_empty(self, mapping: bool, index: int, start: int) -> Any:
        """``{}`` (``mapping``) or ``[]``."""
        raise NotImplementedError

    def flow_sequence(self, rest: str, index: int, start: int) -> Any:
        """A one-line flow sequence (``[a, 'b']``); a builder that does not read them
        declines."""
        raise Decline

    def string(self, text: str, style: str, index: int, start: int) -> Any:
        """A quoted or literal scalar (its ``style``: ``'``, ``"`` or ``|``)."""
        raise NotImplementedError

    def plain(self, rest: str, path: tuple | None, index: int, start: int) -> Any:
        """A plain scalar, as written after ``key:`` or ``-``."""
        raise NotImplementedError

    def null(self, path: tuple | None, index: int, after: int) -> Any:
        """The empty value after ``key:`` or ``-`` (``after``: the column after them)."""
        raise NotImplementedError
