"""A strategic merge patch's scalars keep their source text over a quoted string.

kyaml's merge gives a patch value the style of the value it replaces (see
:mod:`.styles`): over a quoted (or block) string the patch's scalar becomes a string, and
that string is the scalar's *source text*, not the value it decodes to (measured with
kubectl kustomize 1.32, tree ``strategic-source-texts``): ``1e3`` stays ``"1e3"`` (not
``"1000"``), ``0x1F``, ``1.50``, ``+12``, ``1_000``, ``True`` and ``2024-01-01`` as
written.  Over a plain value or where nothing was, the decoded value goes on.

A patch document is held decoded (:func:`.styles.styled_value`); :func:`source_texts`
notes where a plain scalar in a mapping is written otherwise than its decoded value
prints.  For one merge, :func:`with_sources` puts :class:`Sourced` values there (the
decoded value's type, so the merge compares them as before, with the source text at
hand for :func:`.styles.restyled`), and :func:`without_sources` takes off the ones the
merge carried into the result unchanged.
"""

from __future__ import annotations

from ..io.kyaml import BOOL, FLOAT, INT, MAPPING, PLAIN, SCALAR, SEQUENCE, TIMESTAMP, Node
from .nodes import text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Path = tuple[Any, ...]

_TAGS = (INT, FLOAT, BOOL, TIMESTAMP)


class Sourced:
    """A patch scalar with its source text (``source``) and decoded value (``base``)."""

    source: str
    base: Any


class _SourcedInt(int, Sourced):
    pass


class _SourcedFloat(float, Sourced):
    pass


class _SourcedStr(str, Sourced):
    pass


def source_texts(node: Node, value: Any, in_lists: bool = False) -> dict[Path, str]:
    """Where ``value`` (``node`` decoded) holds a plain scalar in a mapping whose source
    text is not the text of its value (``1e3`` is ``1000.0``), with that text;
    ``in_lists``: a list's scalar items too.

    >>> from cfgpatch.kube.io.kyaml_read import read_document
    >>> from cfgpatch.kube.io.kyaml_scalars import node_value
    >>> node = read_document("a: 1e3\\nb: 5\\nc: [{d: 0x1F}]\\n")
    >>> source_texts(node, node_value(node))
    {('a',): '1e3', ('c', 0, 'd'): '0x1F'}
    """
    out: dict[Path, str] = {}
    _collect(node, value, (), out, in_lists)
    return out


def _collect(node: Node, value: Any, path: Path, out: dict[Path, str], in_lists: bool) -> None:
    if len(path) > 10000:
        return
    if node.kind == MAPPING and isinstance(value, dict):
        for key, child in node.pairs():
            if key.value not in value or key.value == "<<":
                continue
            _child(child, value[key.value], (*path, key.value), out, in_lists)
    elif node.kind == SEQUENCE and isinstance(value, list) and len(value) == len(node.content):
        for index, (child, item) in enumerate(zip(node.content, value)):
            if in_lists or child.kind != SCALAR:
                _child(child, item, (*path, index), out, in_lists)


def _child(node: Node, found: Any, path: Path, out: dict[Path, str], in_lists: bool) -> None:
    if node.kind != SCALAR:
        _collect(node, found, path, out, in_lists)
    elif node.style == PLAIN and node.tag in _TAGS and text(found) != node.value:
        out[path] = node.value


def spelled(value: Any, texts: dict[Path, str], in_lists: bool = True) -> dict[Path, tuple]:
    """``texts`` as ``path -> (source text, the value decoded there)``; ``in_lists=False``
    leaves out the paths through a list (a strategic merge moves list items)."""
    out = {}
    for path, source in texts.items():
        if not in_lists and any(type(step) is int for step in path):
            continue
        parent = _parent(value, path) if path else None
        if parent is not None:
            out[path] = (source, parent[path[-1]])
    return out


def with_sources(value: Any, texts: dict[Path, str]) -> Any:
    """``value`` (a copy the caller owns) with :class:`Sourced` scalars at ``texts``
    (where it still holds the decoded value: not a string kustomize set in its place)."""
    for path, source in texts.items():
        parent = _parent(value, path)
        if parent is None:
            continue
        found = parent[path[-1]]
        marked = _sourced(found, source)
        if marked is not None:
            parent[path[-1]] = marked
    return value


def _parent(value: Any, path: Path) -> Any:
    for step in path[:-1]:
        if not _has(value, step):
            return None
        value = value[step]
    return value if _has(value, path[-1]) else None


def _has(value: Any, step: Any) -> bool:
    if isinstance(value, dict):
        return isinstance(step, str) and step in value
    return isinstance(value, list) and isinstance(step, int) and step < len(value)


def _sourced(found: Any, source: str) -> Sourced | None:
    if isinstance(found, bool) or type(found) is int:
        marked: Sourced = _SourcedInt(found)
    elif type(found) is float:
        marked = _SourcedFloat(found)
    elif type(found) is str:
        marked = _SourcedStr(found)
    else:
        return None
    marked.source, marked.base = source, found
    return marked


def without_sources(value: Any, depth: int = 0) -> Any:
    """``value`` with every :class:`Sourced` scalar its decoded value again (in place)."""
    if depth > 10000:
        return value
    if isinstance(value, Sourced):
        return value.base
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list, Sourced)):
                value[key] = without_sources(item, depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list, Sourced)):
                value[index] = without_sources(item, depth + 1)
    return value
