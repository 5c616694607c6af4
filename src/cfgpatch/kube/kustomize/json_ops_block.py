"""A JSON 6902 patch written in block YAML, read without PyYAML when that is sure.

kustomize reads a JSON patch's YAML through sigs.k8s.io/yaml (go-yaml v2's scalars:
``on`` is ``true``, ``010`` is ``8``), which :func:`cfgpatch.kube.io.reader.load_patch`
models with PyYAML.  Most patches are a short block list of ``op``/``path``/``value``
maps; :func:`read` takes those from the block reader's nodes
(:mod:`cfgpatch.kube.io.kyaml_block`, which declines anything but plain block YAML) and
answers ``None`` for whatever it is not sure of, so the caller reads the text the full
way: a flow map, an anchor, a tag, a repeated key, a key that is not a string,
and any plain scalar go-yaml v2 reads as other than a string, a boolean, null or an
integer within int64 (floats, timestamps, ``<<``).  The value has its maps' keys sorted,
as ``load_patch`` gives it.  ``tests/test_kube_kustomize_json_ops_block.py`` holds the
two readers to the same values on generated patches.
"""

from __future__ import annotations

from ..go import yaml as goyaml
from ..io import kyaml_block
from ..io.kyaml import FLOW, LITERAL, MAPPING, PLAIN, SCALAR, SEQUENCE, Node

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_INT64 = 2**63


class _Unsure(Exception):
    """Something the full reader should decide."""


#: :func:`read`'s answer for a text whose first document is a map: no list of operations
#: (a strategic merge patch, which kustomize also asks whether it is a JSON patch).
NOT_A_LIST = "not a list"


def read(text: str) -> Any:
    """The value ``load_patch(text, "json")`` gives, :data:`NOT_A_LIST` when that is
    surely no list, or ``None`` when not sure."""
    documents = kyaml_block.read(text, "", True)  # (its first document, as load_patch)
    if not documents:
        return None  # declined, or a first document that is empty
    if documents[0].kind == MAPPING:
        return NOT_A_LIST
    if documents[0].kind != SEQUENCE:
        return None
    try:
        return _value(documents[0])
    except _Unsure:
        return None


def _value(node: Node) -> Any:
    if node.kind == MAPPING:
        if node.style == FLOW and node.content:
            raise _Unsure
        out: dict = {}
        for key, value in zip(node.content[::2], node.content[1::2]):
            name = _scalar(key)
            if not isinstance(name, str) or name in out:
                raise _Unsure  # a key that is no string, or one written twice
            out[name] = _value(value)
        return {key: out[key] for key in sorted(out)}
    if node.kind == SEQUENCE:  # (a flow one holds scalars only: the block reader's)
        return [_value(item) for item in node.content]
    return _scalar(node)


def _scalar(node: Node) -> Any:
    if node.kind != SCALAR:
        raise _Unsure
    if node.style != PLAIN:
        if node.style not in ("'", '"', LITERAL):
            raise _Unsure
        return node.value
    resolved = goyaml.resolve_plain(node.value)
    if resolved is goyaml.STR:
        return node.value
    if resolved is None or isinstance(resolved, bool):
        return resolved
    if type(resolved) is int and -_INT64 <= resolved < _INT64:
        return resolved
    raise _Unsure  # a float, or an integer beyond int64


__all__ = ["NOT_A_LIST", "read"]
