"""Printing resources exactly as ``kubectl kustomize`` does.

kustomize does not print its YAML nodes as they are: each resource goes to JSON (Go's
values from go-yaml v3, :meth:`~cfgpatch.kube.io.kyaml.Node.to_value`) and then through
sigs.k8s.io/yaml, the same printer as ``kubectl -o yaml`` (:mod:`.yamlprint`, or the
emitter of :mod:`.writer` for what it does not cover).  So the output has sorted keys
(go-yaml v2's order, ``k9`` before ``k10``), block style only, go-yaml v2's quoting
(``"yes"``, ``"y"``, ``"1"``), no comments, numbers as JSON wrote them (``010`` -> ``8``,
``1e3`` -> ``1000``), 80-column folding; resources are separated by ``---``.
"""

from __future__ import annotations

from .kyaml import Node
from .kyaml_scalars import node_value
from .yamlprint import NotCovered, text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def write_value(value: Any) -> str:
    """One resource's text for an already decoded value (nesting beyond Python's
    recursion limit is :func:`.unstructured.too_deep_error`, as ``too_deep`` gives it,
    without importing that module on a usual build's path)."""
    try:
        return _write_value(value)
    except RecursionError:
        from .unstructured import too_deep_error

        raise too_deep_error() from None


def _write_value(value: Any) -> str:
    if isinstance(value, dict):
        try:
            return text(value)
        except NotCovered:
            pass
    from .writer import emitter_yaml  # (PyYAML's emitter: not on a usual build's path)

    return emitter_yaml(value)


def write_document(node: Node) -> str:
    """One resource as ``kubectl kustomize`` prints it.

    >>> from cfgpatch.kube.io.kyaml_read import read_document
    >>> print(write_document(read_document("b: yes\\na: 010\\nc: {x: 1e3}\\n")), end="")
    a: 8
    b: "yes"
    c:
      x: 1000
    """
    return write_value(node_value(node))


def write_documents(nodes: list[Node]) -> str:
    """Resources in the given order, separated by ``---`` lines."""
    return "---\n".join(write_document(node) for node in nodes)
