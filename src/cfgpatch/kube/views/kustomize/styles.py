"""Which strings kustomize holds quoted: the one scalar style its merge lets through.

When a patch sets a field the resource already has, kyaml gives the patch's value the
*resource's* node style.  So a resource's ``targetPort: "x"`` (quoted) patched with
``targetPort: 2`` prints ``targetPort: "2"``: the number is now a quoted scalar and reads
back as a string; a plain resource value lets it stay a number.  Plain JSON values lose
the style, so :func:`styled_value` marks the strings that were quoted (or written as
``|``/``>`` blocks) as :class:`Quoted`, a ``str`` like any other everywhere else.
"""

from __future__ import annotations

from typing import Any

from ...io.kyaml import DOUBLE, FOLDED, LITERAL, MAPPING, SCALAR, SEQUENCE, SINGLE, Node
from ...io.kyaml_scalars import node_value

QUOTED_STYLES = (SINGLE, DOUBLE, LITERAL, FOLDED)


class Quoted(str):
    """A string kustomize holds in a quoted or block style."""

    __slots__ = ()


def styled_value(node: Node) -> Any:
    """:func:`~cfgpatch.kube.io.kyaml_scalars.node_value`, with quoted strings marked.

    >>> from cfgpatch.kube.io.kyaml_read import read_document
    >>> value = styled_value(read_document('a: "x"\\nb: y\\n'))
    >>> [type(value[k]).__name__ for k in "ab"]
    ['Quoted', 'str']
    """
    return _mark(node, node_value(node), 0)


def _mark(node: Node, value: Any, depth: int) -> Any:
    if depth > 10000:
        return value
    if node.kind == SCALAR:
        if type(value) is str and node.style in QUOTED_STYLES:
            return Quoted(value)
        return value
    if node.kind == MAPPING and isinstance(value, dict):
        for key, child in node.pairs():
            if key.value in value and key.value != "<<":
                value[key.value] = _mark(child, value[key.value], depth + 1)
        return value
    if node.kind == SEQUENCE and isinstance(value, list) and len(value) == len(node.content):
        return [_mark(child, item, depth + 1) for child, item in zip(node.content, value)]
    return value


def restyled(old: Any, new: Any) -> Any:
    """``new`` set where the resource held ``old``: it takes ``old``'s style."""
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)) or new is None:
        return new
    if isinstance(old, Quoted):
        if isinstance(new, Quoted):
            return new
        from .nodes import text
        return Quoted(text(new))
    if isinstance(new, Quoted):
        return str(new)
    return new
