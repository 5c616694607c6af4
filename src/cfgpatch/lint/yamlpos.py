"""Where things are in a YAML (or JSON) text: lines and columns of every node.

:func:`documents` reads a text with the kube reader ``io.kyaml_read`` (kustomize's node
model: every :class:`~cfgpatch.kube.io.kyaml.Node` carries its line and column) and
returns one :class:`Tree` per document.  :meth:`Tree.find` walks a path of map keys and
list indices and returns the :class:`Span` of the deepest node it reached (a map
member's span starts at its key).  :func:`embedded` maps positions inside a string
scalar (an inline patch written as ``patch: |-``) back to the file that holds it.

Lines and columns are 1-based; an end column is exclusive.

>>> tree = documents("a:\\n  b: [1, 2]\\n  c: hello\\n")[0]
>>> tree.find(["a", "c"])
(Span(line=3, column=3, end_line=3, end_column=11), 2)
>>> tree.find(["a", "b", 1])
(Span(line=2, column=10, end_line=2, end_column=11), 3)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..errors import KubeError
from ..kube.compat import word
from ..kube.io.kyaml import MAPPING, SCALAR, SEQUENCE, Node
from ..kube.io.kyaml_duplicates import (
    drop_duplicates,
    duplicate_keys,
    duplicate_pairs,
    encoded_lines,
    scan_keys,
)
from ..kube.io.kyaml_merge import expand_merge_keys
from ..kube.io.kyaml_read import read_documents, read_first_document, read_resource_documents
from ..kube.io.kyaml_scalars import node_value
from ..kube.problems import YamlValue
from ..records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Span:
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass
class Tree:
    """One document's node tree and the lines of its text."""

    node: Node
    lines: list[str]

    def span(self, node: Node, key: Node | None = None) -> Span:
        """The span of ``node`` (from ``key``'s start when it is a map member's value);
        a collection's or a multi-line scalar's span is cut at the end of its first line."""
        start = key or node
        if node.kind == SCALAR and key is None:
            end = _scalar_end(self, node)
            if end is not None:
                return Span(node.line, node.column, node.line, end)
        if key is not None and node.kind == SCALAR and node.line == key.line:
            end = _scalar_end(self, node)
            if end is not None:
                return Span(key.line, key.column, key.line, end)
        text = _without_comment(_line(self, start.line - 1), start.column - 1)
        return Span(start.line, start.column, start.line,
                    max(len(text.rstrip()) + 1, start.column + 1))

    def find(self, path: list[Any]) -> tuple[Span, int]:
        """The span of the deepest node along ``path`` and how many steps matched."""
        node, key, depth = self.node, None, 0
        for step in path:
            child = _child(node, step)
            if child is None:
                break
            key, node = child
            depth += 1
        return self.span(node, key), depth

    def node_at(self, path: list[Any]) -> Node | None:
        node = self.node
        for step in path:
            child = _child(node, step)
            if child is None:
                return None
            node = child[1]
        return node

    def root_span(self) -> Span:
        return self.span(self.node)


def _without_comment(text: str, start: int) -> str:
    """``text`` without a trailing `` # comment`` after column ``start`` (0-based); a
    ``#`` inside quotes is left alone."""
    quote = ""
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"" and (index == start or text[index - 1] in " [{,:"):
            quote = char
        elif char == "#" and index > start and text[index - 1] in " \t":
            return text[:index]
    return text


def _scalar_end(tree: Tree, node: Node) -> int | None:
    """The exclusive end column of a scalar written on one line (None: not on one line)."""
    if "\n" in node.value or node.style in ("|", ">"):
        return None
    text = _line(tree, node.line - 1)
    start = node.column - 1
    if node.style in ("'", '"'):
        quote = node.style
        index = start + 1
        while index < len(text):
            if text[index] == quote:
                if quote == "'" and text[index + 1:index + 2] == "'":
                    index += 2
                    continue
                return index + 2
            if quote == '"' and text[index] == "\\":
                index += 1
            index += 1
        return None
    if text[start:start + len(node.value)] == node.value:
        return start + len(node.value) + 1
    return None


def _child(node: Node, step: Any) -> tuple[Node | None, Node] | None:
    if node.kind == MAPPING and isinstance(step, str):
        found = None
        for key, value in node.pairs():  # the last duplicate wins, as the readers do
            if key.kind == SCALAR and key.value == step:
                found = (key, value)
        return found
    if node.kind == SEQUENCE and isinstance(step, int) and 0 <= step < len(node.content):
        return None, node.content[step]
    return None


@lru_cache(maxsize=4096)
def _parsed(text: str) -> tuple[tuple[Tree, Any, str | None], ...] | str:
    """Each document's tree, value and value error, or the text's YAML error (a base used
    by many overlays is read once per run).  Shared: callers copy before changing."""
    try:
        nodes = read_documents(text)
    except KubeError as exc:
        line = getattr(exc, "line", 0)
        return f"line {line}: {exc.message}" if line else exc.message
    lines = text.splitlines()
    out: list[tuple[Tree, Any, str | None]] = []
    for node in nodes:
        try:
            out.append((Tree(node, lines), node_value(_expanded(node)), None))
        except KubeError as exc:
            out.append((Tree(node, lines), None, exc.message))
    return tuple(out)


@lru_cache(maxsize=1024)
def _parsed_first(text: str) -> tuple[Tree, Any, str | None] | None | str:
    """:func:`_parsed` of the first document only (``None`` when it is empty)."""
    try:
        node = read_first_document(text)
    except KubeError as exc:
        line = getattr(exc, "line", 0)
        return f"line {line}: {exc.message}" if line else exc.message
    if node is None:
        return None
    tree = Tree(node, text.splitlines())
    try:
        return tree, node_value(_expanded(node)), None
    except KubeError as exc:
        return tree, None, exc.message


def first_document(text: str) -> Tree | None:
    """The first document of ``text`` as go-yaml v2's ``Unmarshal`` reads a kustomization
    (what follows is never read, errors included); ``None`` when it is empty.  Raises
    ``ValueError`` with the line when it is not YAML."""
    parsed = _parsed_first(text)
    if isinstance(parsed, str):
        raise ValueError(parsed)
    return None if parsed is None else parsed[0]


def first_tree_value(text: str) -> tuple[Tree, Any] | None:
    """:func:`first_document` with its plain value (shared, as :func:`values`)."""
    parsed = _parsed_first(text)
    if isinstance(parsed, str):
        raise ValueError(parsed)
    if parsed is None:
        return None
    tree, value, error = parsed
    if error is not None:
        raise ValueError(error)
    return tree, value


def _read(text: str) -> tuple[tuple[Tree, Any, str | None], ...]:
    parsed = _parsed(text)
    if isinstance(parsed, str):
        raise ValueError(parsed)
    return parsed


def documents(text: str) -> list[Tree]:
    """Every document of ``text`` (an empty document is left out).

    Raises ``ValueError`` with the line when the text is not YAML."""
    return [tree for tree, _, _ in _read(text)]


def values(text: str) -> list[Any]:
    """The plain values of every document (only for files lint reads itself: kustomization
    and config files, Flux objects); the patches and objects go through the kube readers.
    The values are shared between calls on the same text: copy one before changing it.

    >>> values("resources: [a.yaml]\\n---\\nkind: X\\n")
    [{'resources': ['a.yaml']}, {'kind': 'X'}]
    """
    return [value for _, value in tree_values(text)]


def tree_values(text: str) -> list[tuple[Tree, Any]]:
    """Each document's tree with its plain value (shared, as :func:`values`)."""
    out = []
    for tree, value, error in _read(text):
        if error is not None:
            raise ValueError(error)
        out.append((tree, value))
    return out


@lru_cache(maxsize=1024)
def _resource_documents(text: str) -> tuple[tuple[Any, str], ...] | str:
    try:
        scanned = [(node, scan_keys(node)) for node in read_resource_documents(text)]
        nodes = [(expand_merge_keys(node) if merge else node, twice)
                 for node, (merge, twice) in scanned]
    except KubeError as exc:
        return exc.message
    out = []
    for node, twice in nodes:
        repeated = ""
        if twice and duplicate_pairs(node):
            repeated = word(YamlValue("duplicate-keys", duplicate_keys(
                node, encoded_lines(text, node)), value="map[string]interface {}(nil)"))
            drop_duplicates(node)
        try:
            out.append((node_value(node, check=not repeated), repeated))
        except KubeError as exc:
            return exc.message
    return tuple(out)


def _expanded(node: Node) -> Node:
    return expand_merge_keys(node) if scan_keys(node)[0] else node


def resource_documents(text: str) -> list[tuple[Any, str]]:
    """The documents of a resource file as kustomize reads them, each with kustomize's
    error for its keys written twice ("" if none; the first one is read, and kustomize
    refuses the resource at the end of the build): merge keys expanded.  Shared values:
    callers copy before changing; raises ValueError with kustomize's text."""
    found = _resource_documents(text)
    if isinstance(found, str):
        raise ValueError(found)
    return list(found)


Mapper = Callable[[Span], Span]


def identity(span: Span) -> Span:
    return span


def embedded(tree: Tree, scalar: Node) -> Mapper:
    """A mapper from spans inside the string value of ``scalar`` to spans in the file.

    Exact for literal block scalars (``|``, ``|-``, ``|+``, with or without an indentation
    indicator) and for one-line scalars without escapes; anything else (folded blocks,
    escapes, multi-line quoted strings) maps every span to the scalar's first line."""
    line0, col0 = scalar.line - 1, scalar.column - 1  # 0-based
    fallback = Span(scalar.line, scalar.column, scalar.line,
                    max(scalar.column + 1, len(_line(tree, line0).rstrip()) + 1))
    if scalar.style == "|":
        indent = _block_indent(tree, line0, col0)
        first = scalar.line  # content starts on the line after the header

        def literal(span: Span) -> Span:
            return Span(first + span.line, span.column + indent,
                        first + span.end_line, span.end_column + indent)
        return literal
    if "\n" not in scalar.value and scalar.style != ">":
        quote = 1 if scalar.style in ("'", '"') else 0
        raw = _line(tree, line0)[col0 + quote:col0 + quote + len(scalar.value)]
        if raw == scalar.value:
            column = col0 + quote
            end = column + len(scalar.value) + 1

            def inline(span: Span) -> Span:
                if span.line != 1:
                    return fallback
                return Span(scalar.line, span.column + column, scalar.line,
                            span.end_column + column if span.end_line == 1 else end)
            return inline
    return lambda span: fallback


def _line(tree: Tree, index: int) -> str:
    return tree.lines[index] if 0 <= index < len(tree.lines) else ""


def _block_indent(tree: Tree, header: int, column: int) -> int:
    """The indentation (in columns) of a literal block whose header is on line ``header``."""
    head = _line(tree, header)[column:]
    digits = [c for c in head[1:3] if c.isdigit()]
    if digits:
        parent = len(_line(tree, header)) - len(_line(tree, header).lstrip(" "))
        return parent + int(digits[0])
    for index in range(header + 1, len(tree.lines)):
        text = tree.lines[index]
        if text.strip():
            return len(text) - len(text.lstrip(" "))
    return 0
