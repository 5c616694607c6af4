"""kustomize's YAML document model: go-yaml v3 nodes as kyaml holds them (standard library).

A :class:`Node` is a scalar, a mapping or a sequence with the facts kyaml keeps about
it: its ``tag`` (resolved when read: ``!!str``, ``!!int``, ... or a custom tag as
written; ``""`` for a node made up by code, which go-yaml resolves when it is read back),
the scalar text as written (``value``), its ``style`` and where it was read
(``file``, ``line``, ``column``, 1-based).  A mapping's ``content`` is flat,
``[key, value, key, value, ...]``, in the order written, as in go-yaml.

:func:`.kyaml_scalars.node_value` gives what kustomize prints for the node: kyaml turns a resource
into Go values through go-yaml v3 (timestamps become ``time.Time``, ``!!binary`` the
decoded bytes, ``.inf`` a float that JSON refuses) and then into JSON; the printed text
is that JSON through sigs.k8s.io/yaml (``io.writer``).
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR
from ...records import dataclass, field
from ..problems import ProblemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

SCALAR = "scalar"
MAPPING = "mapping"
SEQUENCE = "sequence"

STR = "!!str"
INT = "!!int"
FLOAT = "!!float"
BOOL = "!!bool"
NULL = "!!null"
MAP = "!!map"
SEQ = "!!seq"
TIMESTAMP = "!!timestamp"
BINARY = "!!binary"

#: Scalar styles (``""``: plain).
PLAIN, SINGLE, DOUBLE, LITERAL, FOLDED = "", "'", '"', "|", ">"
FLOW = "flow"  # a mapping or sequence written in {} or []


class KyamlError(ProblemError):
    """kustomize refused a document; ``message`` is kustomize's text (after ``error: ``),
    ``problem`` what the reader found (a record of :mod:`cfgpatch.kube.problems`, or
    the words already made: a ``str``)."""

    default_code = KUSTOMIZE_ERROR

    def __init__(self, problem: Any, *, file: str = "", line: int = 0, column: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(problem, **kwargs)
        self.file, self.line, self.column = file, line, column


@dataclass(eq=False)
class Node:
    """One YAML node (see the module docstring)."""

    kind: str
    tag: str = ""
    value: str = ""
    content: list[Node] = field(default_factory=list)
    style: str = PLAIN
    line: int = 0
    column: int = 0
    file: str = ""

    def __repr__(self) -> str:
        if self.kind == SCALAR:
            return f"Node({self.tag or '?'} {self.value!r})"
        return f"Node({self.kind} {self.content!r})"

    # --- mappings ---------------------------------------------------------------------

    def pairs(self) -> Iterator[tuple[Node, Node]]:
        """The (key, value) nodes of a mapping, in order."""
        items = self.content if self.kind == MAPPING else []
        return zip(items[0::2], items[1::2], strict=True)

    def keys(self) -> list[str]:
        return [key.value for key, _ in self.pairs()]

    def field(self, key: str) -> tuple[Node, Node] | None:
        """The (key, value) of ``key`` in a mapping (go-yaml: the first one written)."""
        for name, value in self.pairs():
            if name.value == key:
                return name, value
        return None

    def get(self, key: str) -> Node | None:
        found = self.field(key)
        return found[1] if found else None

    def set(self, key: str, value: Node) -> None:
        """Replace the value of ``key``, or append the member at the end."""
        for index in range(0, len(self.content), 2):
            if self.content[index].value == key:
                self.content[index + 1] = value
                return
        self.content += [scalar(key), value]

    def remove(self, key: str) -> Node | None:
        for index in range(0, len(self.content), 2):
            if self.content[index].value == key:
                value = self.content[index + 1]
                del self.content[index:index + 2]
                return value
        return None

    # --- tests ------------------------------------------------------------------------

    def is_null(self) -> bool:
        """A ``null`` scalar (``null``, ``~``, nothing, ``!!null ...``)."""
        if self.kind != SCALAR:
            return False
        if self.tag:
            return self.tag == NULL
        return self.value in ("", "~", "null", "Null", "NULL")

    def is_empty_map(self) -> bool:
        return self.kind == MAPPING and not self.content

    def copy(self) -> Node:
        import copy

        return copy.deepcopy(self)


def scalar(text: str, tag: str = STR, style: str = PLAIN) -> Node:
    """A made-up scalar (no position)."""
    return Node(SCALAR, tag, text, style=style)


def mapping(pairs: list[tuple[str, Node]] = ()) -> Node:  # type: ignore[assignment]
    node = Node(MAPPING, MAP)
    for key, value in pairs:
        node.content += [scalar(key), value]
    return node


def sequence(items: list[Node] = ()) -> Node:  # type: ignore[assignment]
    return Node(SEQUENCE, SEQ, content=list(items))


def from_value(value: Any) -> Node:
    """A plain JSON-like value as nodes (made up: no positions).

    >>> from cfgpatch.kube.io.kyaml_scalars import node_value
    >>> node_value(from_value({"a": [1, "x", None, True]}))
    {'a': [1, 'x', None, True]}
    """
    if isinstance(value, dict):
        return mapping([(str(k), from_value(v)) for k, v in value.items()])
    if isinstance(value, list):
        return sequence([from_value(v) for v in value])
    if value is None:
        return scalar("null", NULL)
    if isinstance(value, bool):
        return scalar("true" if value else "false", BOOL)
    if isinstance(value, int):
        return scalar(str(value), INT)
    if isinstance(value, float):
        from ..go.json import go_float_g
        return scalar(go_float_g(value), FLOAT)
    return scalar(str(value), STR)


def walk(node: Node) -> Iterator[Node]:
    """Every node under ``node`` (itself first), depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.content))
