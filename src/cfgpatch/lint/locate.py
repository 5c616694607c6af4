"""Where in the patch text a finding is: the line of the field or of the JSON Patch op.

The patch engine's findings carry a JSON pointer into the object the patch was applied
to (``/spec/template/spec/containers/0/image``).  For a strategic or merge patch,
:func:`pointer_location` walks the patch text along that pointer: map keys by name,
list positions through the merge key (the object's element ``0`` is the patch element
with the same ``name``), and stops at the deepest field the patch writes.  For a JSON
6902 patch, :func:`op_location` is the line of operation ``i``.
"""

from __future__ import annotations

from ..kube.schema.rules import KEYED, Shapes
from ..lazy_pattern import lazily
from .finding import Location
from .model import PatchSite
from .yamlpos import Tree, documents

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_OP = lazily(r"^op (\d+)\b")


def tree_of(site: PatchSite) -> Tree | None:
    """The position tree of the site's patch document (None if the text is not YAML)."""
    if site.tree is None:
        try:
            trees = documents(site.text)
        except ValueError:
            return None
        if site.document >= len(trees):
            return None
        site.tree = trees[site.document]
    return site.tree


def _tokens(pointer: str) -> list[str]:
    if not pointer or not pointer.startswith("/"):
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def patch_path(pointer: str, patch: Any, before: Any, shapes: Shapes | None) -> list[Any]:
    """The path (keys and patch-list positions) in ``patch`` that object ``pointer`` names,
    as deep as the patch goes."""
    path: list[Any] = []
    shape: tuple[str, ...] = ()
    for token in _tokens(pointer):
        if isinstance(patch, dict):
            if token not in patch:
                break
            path.append(token)
            patch = patch[token]
            before = before.get(token) if isinstance(before, dict) else None
            shape = (*shape, token)
        elif isinstance(patch, list):
            index = _patch_index(token, patch, before, shapes, shape)
            if index is None:
                break
            path.append(index)
            before = before[int(token)] if _valid_index(token, before) else None
            patch = patch[index]
            shape = (*shape, "[]")
        else:
            break
    return path


def _valid_index(token: str, items: Any) -> bool:
    return isinstance(items, list) and token.isdigit() and int(token) < len(items)


def _patch_index(token: str, patch: list, before: Any, shapes: Shapes | None,
                 shape: tuple[str, ...]) -> int | None:
    rule = shapes.list_rule(shape) if shapes is not None else None
    if rule is not None and rule.kind == KEYED and _valid_index(token, before):
        element = before[int(token)]
        if isinstance(element, dict):
            for index, item in enumerate(patch):
                if isinstance(item, dict) and all(
                        k in element and item.get(k) == element[k] for k in rule.keys
                        if k in item) and any(k in item for k in rule.keys):
                    return index
            return None
    if token.isdigit() and int(token) < len(patch):
        return int(token)
    return None


def pointer_location(site: PatchSite, pointer: str, before: Any = None,
                     shapes: Shapes | None = None) -> Location:
    """The location of the field that ``pointer`` (into the object) names in the patch."""
    tree = tree_of(site)
    if tree is None:
        return site.location()
    path = patch_path(pointer, site.patch, before, shapes)
    span, _ = tree.find(path)
    return site.location(span)


def op_location(site: PatchSite, index: int) -> Location:
    """The location of JSON Patch operation ``index``: its ``path`` member (what the
    findings are about), else the operation's first line."""
    tree = tree_of(site)
    if tree is None:
        return site.location()
    span, depth = tree.find([index, "path"])
    if depth == 2:
        return site.location(span)
    span, depth = tree.find([index])
    return site.location(span) if depth else site.location(tree.root_span())


def op_index(finding: Any, ops: Any) -> int | None:
    """Which operation a JSON Patch finding is about: ``op N`` in its message, else the
    first operation whose ``path`` or ``from`` is the finding's pointer."""
    match = _OP.match(getattr(finding, "message", "") or "")
    if match:
        return int(match.group(1))
    if isinstance(ops, list):
        for i, op in enumerate(ops):
            if isinstance(op, dict) and finding.path in (op.get("path"), op.get("from")):
                return i
    return None


def finding_location(site: PatchSite, finding: Any, before: Any = None,
                     shapes: Shapes | None = None) -> Location:
    """Where an engine finding is, in the patch text of ``site``."""
    if site.patch_type in ("json6902", "json"):
        index = op_index(finding, site.patch)
        return op_location(site, index) if index is not None else site.location()
    if (finding.detail or {}).get("source") == "patch":
        return pointer_location(site, finding.path, None, None)
    return pointer_location(site, finding.path, before, shapes)
