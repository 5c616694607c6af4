"""kyaml nodes read without PyYAML, for the block-style YAML most kustomize files use.

:func:`read` gives the :class:`~.kyaml.Node` trees :mod:`.kyaml_read` gives through
PyYAML's composer (same kinds, tags, values, styles, lines and columns) for the part of
YAML :mod:`.blockscan` scans, comments after a plain scalar or a bare ``key:``/``-``
included.  Anything else (merge keys, and what the scanner declines) makes it answer
``None``: the caller then reads the text with PyYAML, so every error and every case not
listed here comes from there.  Importing PyYAML costs a small ``cfgpatch kube build``
about a fifth of its process time.  Tests hold the two readers to the same nodes on
generated and recorded documents.

Standard library only.
"""

from __future__ import annotations

from ...lazy_pattern import lazily
from .blockscan import PLAIN_START, BlockScanner, Decline, lines_of
from .kyaml import FLOW, MAP, MAPPING, NULL, SCALAR, SEQ, SEQUENCE, STR, Node
from .kyaml_scalars import resolve


def read(text: str, file: str = "", first: bool = False,
         lines_before: int = 0) -> list[Node] | None:
    """The non-null documents of ``text`` (with ``first``: of its first document only) as
    :func:`.kyaml_read._read_documents` gives them, or ``None`` to decline.  The whole
    text is read either way, so an accepted text is one PyYAML reads without error."""
    lines = lines_of(text)
    documents = None if lines is None else _NodeBuilder(lines, file, lines_before).read()
    if documents is None:
        return None
    if first:
        documents = documents[:1]
    return [node for node in documents if node is not None]


def _plain_tag(text: str) -> str:
    if text == "<<":
        raise Decline  # a merge key: left to PyYAML
    return resolve(text)[0]


class _NodeBuilder(BlockScanner):
    """Nodes with their line (counted from 1, plus the lines before the text), column
    (from 1), style and file."""

    comments = True

    def __init__(self, lines: list[str], file: str, lines_before: int) -> None:
        super().__init__(lines)
        self.file = file
        self.base = lines_before + 1  # a node's line is its index plus this

    def _scalar(self, value: str, tag: str, style: str, index: int, column: int) -> Node:
        return Node(SCALAR, tag, value, [], style, index + self.base, column, self.file)

    def new_mapping(self, index: int, column: int) -> Node:
        return Node(MAPPING, MAP, "", [], "", index + self.base, column + 1, self.file)

    def new_sequence(self, index: int, column: int) -> tuple[Node, list]:
        out = Node(SEQUENCE, SEQ, "", [], "", index + self.base, column + 1, self.file)
        return out, out.content

    def plain_key(self, text: str) -> tuple[str, str, str]:
        return text, _plain_tag(text), ""

    def quoted_key(self, text: str, style: str) -> tuple[str, str, str]:
        return text, STR, style

    def entry(self, out: Node, key: tuple[str, str, str], rest: str | None, line: str,
              colon: int, column: int, path: tuple | None, depth: int) -> None:
        index = self.i - 1
        start = colon + 1  # where the value starts, after the spaces
        if rest:
            while line[start] == " ":
                start += 1
        out.content += [self._scalar(*key, index, column + 1),
                        self.value(rest, start, colon + 1, column, path, depth, True)]

    def flow_empty(self, mapping: bool, index: int, start: int) -> Node:
        kind, tag = (MAPPING, MAP) if mapping else (SEQUENCE, SEQ)
        return Node(kind, tag, "", [], FLOW, index + self.base, start + 1, self.file)

    def flow_sequence(self, rest: str, index: int, start: int) -> Node:
        """``[a, 'b', "c"]`` on one line: plain items without ``:``, ``#`` or a flow
        indicator, quoted items without escapes; anything else (nesting, empty or trailing
        items, a comment, more lines) declines."""
        number = index + self.base
        out = Node(SEQUENCE, SEQ, "", [], FLOW, number, start + 1, self.file)
        at = 1
        while True:
            match = _FLOW_ITEM.match(rest, at)
            if match is None:
                raise Decline
            single, double, plain = match.group(1, 2, 3)
            column = start + match.start() + len(match.group()) \
                - len(match.group().lstrip(" ")) + 1
            if plain is not None:
                if plain == "-" or not PLAIN_START.match(plain):
                    raise Decline
                out.content.append(self._scalar(plain, _plain_tag(plain), "", index, column))
            elif single is not None:
                out.content.append(self._scalar(single.replace("''", "'"), STR, "'", index,
                                                column))
            else:
                out.content.append(self._scalar(double, STR, '"', index, column))
            at = match.end()
            if match.group(4) == "]":
                if at != len(rest):
                    raise Decline  # something after the sequence (a comment, another value)
                return out

    def string(self, text: str, style: str, index: int, start: int) -> Node:
        return self._scalar(text, STR, style, index, start + 1)

    def plain(self, rest: str, path: tuple | None, index: int, start: int) -> Node:
        comment = rest.find(" #")  # a comment after the scalar is taken off
        text = rest if comment < 0 else rest[:comment].rstrip(" ")
        if not PLAIN_START.match(text) or ": " in text or text.endswith(":"):
            raise Decline
        return self._scalar(text, _plain_tag(text), "", index, start + 1)

    def null(self, path: tuple | None, index: int, after: int) -> Node:
        return self._scalar("", NULL, "", index, after + 1)


#: One item of a one-line flow sequence and what follows it (``,`` or the closing ``]``).
_FLOW_ITEM = lazily(r""" *(?:'((?:[^']|'')*)'|"([^"\\]*)"|([^\s,\[\]{}#:'"]"""
                    r"""(?:[^,\[\]{}#:]*[^\s,\[\]{}#:])?)) *([,\]])""")
