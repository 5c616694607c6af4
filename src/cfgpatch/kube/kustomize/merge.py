"""kustomize's strategic merge patch (kyaml's ``merge2`` walker), exactly.

``kubectl kustomize`` does not use kubectl's merge: kyaml walks the resource and the
patch together, field by field in sorted order, and decides at every node:

* a mapping: a patch ``null`` removes it; ``$patch: delete`` removes it,
  ``$patch: replace`` takes the patch's mapping, ``merge`` (or none) merges; a mapping
  only in the patch is taken as it is (its nested directives are still applied as the
  walk goes on, against itself).  A ``null`` the resource holds stays unless the patch
  names that field (a patch ``null`` against it removes it); a patch ``null`` where the
  resource has nothing is not added;
* a scalar: the patch's value if the patch has the field, else the resource's;
* a list: merged (:mod:`.merge_lists`) only when the schema says
  ``x-kubernetes-patch-strategy: merge``; otherwise the patch's list replaces it.
  Without a schema (a kind kyaml does not know, a custom resource without ``openapi:``)
  every list is replaced.  ``$retainKeys``, ``$setElementOrder/...`` and
  ``$deleteFromPrimitiveList/...`` mean nothing to kyaml: they are fields like any
  other;
* a kind mismatch between the two (a mapping against a list) is kyaml's
  ``wrong node kind`` error.

Then kustomize restores the resource's ``kind``, ``metadata.name`` and
``metadata.namespace`` (the patch cannot change its target), and a patch that removes
the whole resource (``$patch: delete`` at the top) removes it from the build.
``$patch: replace`` at the top changes nothing: kyaml returns the patch as a new node
and kustomize keeps the resource's own node.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ...jsonvalue import deep_copy
from ..problems import Kustomize, ProblemError
from .merge_lists import walk_associative
from .nodes import (
    KEEP_NULL,
    MAPPING,
    MISSING,
    SCALAR,
    SEQUENCE,
    check_kind,
    is_missing_or_null,
    kind_of,
    text,
)
from .schema import KustomizeSchema, SchemaNode
from .styles import EmptyNullKey, drop_empty, restyled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DELETE, REPLACE, MERGE, UNKNOWN = "delete", "replace", "merge", "unknown"
DIRECTIVE = "$patch"
MAX_DEPTH = 10000


def apply_strategic(resource: dict, patch: dict, schema: KustomizeSchema) -> dict | None:
    """``resource`` after kustomize applies ``patch`` as a strategic merge patch.

    Plain JSON values in and out (as :func:`..io.kyaml_scalars.node_value` gives them;
    :func:`.styles.styled_value` also marks the strings that were quoted, which matters
    where a patch sets a number over a quoted string);
    ``None`` when the patch deletes the resource.  Raises :class:`KubeError` with code
    ``KUSTOMIZE_ERROR`` and kustomize's message where ``kubectl kustomize`` fails.

    >>> r = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
    ...      "data": {"a": "1", "b": None}}
    >>> apply_strategic(r, {"data": {"a": None, "c": "3"}}, KustomizeSchema.builtin())["data"]
    {'b': None, 'c': '3'}
    """
    if not isinstance(resource, dict) or not isinstance(patch, dict):
        raise KubeError("a strategic merge patch and its target must be mappings",
                        code=KUSTOMIZE_ERROR)
    dest, origin = deep_copy(resource), deep_copy(patch)
    walker = Walker(schema)
    result = walker.walk([dest, origin], None, 0)
    if result is MISSING:
        return None
    # With ``$patch: replace`` at the top the walk returns the patch as a new node;
    # kustomize keeps the resource's own node, which the walk did not touch.
    if dest:
        _restore_identity(dest, resource)
    return dest


def _restore_identity(dest: dict, resource: dict) -> None:
    """kustomize sets the target's kind, name and namespace back after the merge."""
    meta = resource.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    dest["kind"] = resource.get("kind", "")
    metadata = dest.get("metadata")
    if not isinstance(metadata, dict):
        metadata = dest["metadata"] = {}
    metadata["name"] = meta.get("name", "")
    namespace = meta.get("namespace")
    if namespace not in (None, ""):
        metadata["namespace"] = namespace
    else:
        metadata.pop("namespace", None)


class Walker:
    """One merge: walks ``[dest, origin]`` pairs; ``dest`` is changed in place."""

    def __init__(self, schema: KustomizeSchema) -> None:
        self.schema = schema

    def walk(self, sources: list[Any], node: SchemaNode | None, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise KubeError("the patch or the resource is nested too deeply",
                            code=KUSTOMIZE_ERROR)
        node = node if node is not None else self._schema_of(sources)
        kind = next((kind_of(s) for s in sources if not is_missing_or_null(s)), "")
        if kind == "" and sources[0] is None and sources[1] is MISSING:
            return KEEP_NULL
        if kind == MAPPING or kind == "":
            check_kind(MAPPING, sources)
            return self.walk_map(sources, node, depth)
        check_kind(kind, sources)
        if kind == SEQUENCE:
            if node is not None and MERGE in node.strategy().split(","):
                return walk_associative(self, sources, node, depth)
            return sources[1] if sources[1] is not MISSING else sources[0]
        assert kind == SCALAR
        return sources[1] if sources[1] is not MISSING else sources[0]

    def _schema_of(self, sources: list[Any]) -> SchemaNode | None:
        """kyaml looks a schema up for any mapping with an ``apiVersion`` and a ``kind``."""
        for source in sources:
            if not isinstance(source, dict):
                continue
            api_version = _meta_text(source.get("apiVersion"))
            kind = _meta_text(source.get("kind"))
            if api_version and kind:
                found = self.schema.for_type(api_version, kind)
                if found is not None:
                    return found
        return None

    def walk_map(self, sources: list[Any], node: SchemaNode | None, depth: int) -> Any:
        dest = visit_map(sources[0], sources[1])
        if dest is MISSING:
            return MISSING
        sources[0] = dest
        origin = sources[1]
        names = set(dest) if isinstance(dest, dict) else set()
        if isinstance(origin, dict):
            names.update(origin)
        empty = [key for key in dest if isinstance(key, EmptyNullKey)] \
            if isinstance(dest, dict) else []
        for name in sorted(names):
            child = node.field(name) if node is not None else None
            pair = [dest.get(name, MISSING), origin.get(name, MISSING)
                    if isinstance(origin, dict) else MISSING]
            value = self.walk(pair, child, depth + 1)
            if value is KEEP_NULL:
                dest[name] = None
            elif is_missing_or_null(value):
                dest.pop(name, None)
            else:
                dest[name] = restyled(dest[name], value) if name in dest else value
        if empty:
            drop_empty(dest, empty)
        return dest


def _meta_text(value: Any) -> str:
    if value is None or value == {} or value == []:
        return ""
    return text(value)


def visit_map(dest: Any, origin: Any) -> Any:
    """kyaml's ``Merger.VisitMap``: the mapping the walk continues with (MISSING: clear)."""
    if is_missing_or_null(dest):
        if directive(origin, strict=False) == DELETE:
            return MISSING
        return origin
    if origin is None:
        return MISSING
    found = directive(origin)
    if found == DELETE:
        return MISSING
    if found == REPLACE:
        return origin
    return dest


def directive(patch: Any, strict: bool = True) -> str:
    """The ``$patch`` of a mapping (removed from it once read); lists always merge."""
    if patch is MISSING or isinstance(patch, list):
        return MERGE
    if not isinstance(patch, dict):
        if strict:
            raise ProblemError(Kustomize("no-patch-strategy", name=_short_tag(patch),
                                         detail=text(patch)), code=KUSTOMIZE_ERROR)
        return UNKNOWN
    if DIRECTIVE not in patch:
        return MERGE
    value = text(patch[DIRECTIVE])
    if value in (DELETE, REPLACE, MERGE):
        del patch[DIRECTIVE]
        return value
    if strict:
        raise ProblemError(Kustomize("unknown-patch-strategy", name=value), code=KUSTOMIZE_ERROR)
    return UNKNOWN


def _short_tag(value: Any) -> str:
    if value is None:
        return "!!null"
    if isinstance(value, bool):
        return "!!bool"
    if isinstance(value, int):
        return "!!int"
    if isinstance(value, float):
        return "!!float"
    return "!!str"
