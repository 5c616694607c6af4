"""Resources as kustomize holds them during a build: identity, history, output order.

A :class:`Resource` is one object of the build: its current value (plain JSON values),
where it was read (:class:`Source`: file, document, the position of every field), the
ids it had before a transformer renamed it (kustomize keeps them to match patch targets
and name references against the *original* names), and, for generated ConfigMaps and
Secrets, whether a content hash still has to be appended to its name.

Identity follows kustomize's ``ResId``: group, version, kind, name and namespace, printed
as ``Deployment.v1.apps/web.[noNs]``.  The model is in :mod:`.resource_model`; here:
reading resources from YAML (:func:`read_resources`), their origin and transformation
annotations, and :func:`legacy_sort`, the order ``kubectl kustomize`` prints resources in
(measured; tests/data/kustomize/trees).
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR
from ..io.kyaml import KyamlError, Node
from ..io.kyaml_duplicates import drop_duplicates, scan_keys
from ..io.kyaml_merge import expand_merge_keys
from ..io.kyaml_read import copy_node, shared_resource_documents
from ..problems import Kustomize, ProblemError, cause
from .kustomization import ORIGIN
from .nodes import text
from .patchtexts import source_texts, spelled
from .positions import node_positions
from .resource_model import (
    ORDER_FIRST,
    ORDER_LAST,
    Generated,
    Gvk,
    ResId,
    Resource,
    Source,
    metadata_map,
    scalar_text,
)
from .styles import metadata_texts, styled_with_typed_keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ORDER_FIRST", "ORDER_LAST", "TRANSFORMATIONS", "Generated", "Gvk", "ResId", "Resource",
           "Source", "annotate_origin", "legacy_sort", "read_node", "read_resources",
           "record_transformation"]


def legacy_sort(resources: list[Resource], first: tuple[str, ...] = ORDER_FIRST,
                last: tuple[str, ...] = ORDER_LAST) -> list[Resource]:
    """``kubectl kustomize``'s output order: kinds of ``first`` in that order, then the
    other kinds by ``group_version_kind`` (``~G`` for the core group), then ``last``;
    resources of one type by namespace (``~X`` for none), then name.

    The ranks are kustomize's table: ``first``'s, then ``last``'s written over them, so
    a kind named twice takes its last place, in ``last`` if it is there (measured).
    """
    ranks = {kind: index - len(first) for index, kind in enumerate(first)}
    ranks.update({kind: index + 1 for index, kind in enumerate(last)})

    def key(resource: Resource) -> tuple:
        cur = resource.cur_id()
        gvk = cur.gvk
        rank = ranks.get(gvk.kind, 0)
        gvk_text = "_".join((gvk.group or "~G", gvk.version or "~V", gvk.kind or "~K"))
        return rank, gvk_text, f"{cur.namespace or '~X'}|{cur.name or '~N'}"

    return sorted(resources, key=key)


def read_resources(text: str, file: str) -> list[Resource]:
    """The resources of a YAML file, as kustomize's resource factory reads them.

    Empty documents are dropped; a ``kind: ...List`` with ``items`` is replaced by its
    items; a document without ``kind`` or ``metadata.name`` is kustomize's error.
    """
    try:
        documents = shared_resource_documents(text, file)  # read here, never changed
    except KyamlError as err:
        raise _unreadable(err) from None
    try:
        scanned = [(node, scan_keys(node)) for node in documents]
        # expanding merge keys copies the document; dropping repeated keys changes it:
        # a copy, so the read cache's nodes stay as read
        nodes = [(expand_merge_keys(node) if merge else copy_node(node) if twice else node,
                  twice) for node, (merge, twice) in scanned]
    except KyamlError as err:
        failed = ProblemError(cause(err), code=KUSTOMIZE_ERROR)
        failed.malformed = getattr(err, "malformed", True)  # type: ignore[attr-defined]
        raise failed from None
    out: list[Resource] = []
    for index, (node, twice) in enumerate(nodes):
        repeated = None
        if twice:
            from .repeated import RepeatedKeys  # (only documents with a key twice)

            repeated = RepeatedKeys.of(text, node)
        if repeated:  # kustomize reads what it can and refuses the resource at the end
            drop_duplicates(node)
        value, typed = styled_with_typed_keys(node, check=not repeated, resource=True)
        metadata_texts(node, value)
        texts = spelled(value, source_texts(node, value, in_lists=True))
        positions = node_positions(node)
        if repeated:
            repeated.remember(value)
        for pointer, item in _inline_lists(value, ""):
            out.append(Resource(item, Source(file, index, _rebase(positions, pointer)),
                                repeated=repeated, typed_keys=typed,
                                texts=_texts_below(texts, pointer)))
    return out


def _texts_below(texts: dict[tuple, tuple], pointer: str) -> dict[tuple, tuple]:
    """The entries of ``texts`` inside the item at ``pointer`` (``/items/2``), from it."""
    if not pointer:
        return texts
    steps = tuple(int(t) if t.isdigit() else t for t in pointer.split("/")[1:])
    return {path[len(steps):]: entry for path, entry in texts.items()
            if path[:len(steps)] == steps}


def _unreadable(err: KyamlError) -> ProblemError:
    """kustomize's error for a resource file go-yaml cannot read: ``malformed-yaml``
    around go-yaml's problem (the caller adds ``in File:`` and the path as written,
    ``in_file``); a bad separator line is a plain error (kustomize then tries the path
    as a folder)."""
    malformed = getattr(err, "malformed", True)
    failed = ProblemError(Kustomize("malformed-yaml", cause=cause(err)) if malformed
                          else cause(err), code=KUSTOMIZE_ERROR)
    failed.malformed = malformed  # type: ignore[attr-defined]
    failed.in_file = malformed  # type: ignore[attr-defined]
    return failed


def read_node(node: Node) -> Node:
    """A document as kustomize holds it once read: merge keys expanded (aliases copied)."""
    return expand_merge_keys(node) if scan_keys(node)[0] else node


def _inline_lists(value: Any, pointer: str) -> list[tuple[str, Any]]:
    if not isinstance(value, dict):
        raise _unusable(Kustomize("missing-metadata"))
    kind = scalar_text(value.get("kind"))
    if kind.endswith("List") and isinstance(value.get("items"), list):
        out = []
        for index, item in enumerate(value["items"]):
            out += _inline_lists(item, f"{pointer}/items/{index}")
        return out
    if not kind:
        raise _unusable(Kustomize("missing-kind", detail=_go_meta(value)))
    if not scalar_text(metadata_map(value).get("name")) and not kind.endswith("List"):
        raise _unusable(Kustomize("missing-name", detail=_go_meta(value)))
    return [(pointer, value)]


def _unusable(problem: Kustomize) -> ProblemError:
    """A document kustomize reads but cannot take as a resource: not a YAML error, so
    kustomize then tries the path as a folder."""
    failed = ProblemError(problem, code=KUSTOMIZE_ERROR)
    failed.malformed = False  # type: ignore[attr-defined]
    return failed


def _go_meta(value: dict) -> str:
    """Go's ``%v`` of the document read as kyaml's ``ResourceMeta`` (type and name fields,
    labels and annotations, maps with their keys sorted), as kustomize's errors print it.

    >>> _go_meta({"apiVersion": "v1", "metadata": {"name": "a", "labels": {"x": 1}}})
    '{{v1 } {{a } map[x:1] map[]}}'
    """
    meta = metadata_map(value)

    def scalar(item: Any) -> str:  # a null is "" (an annotation written ``~`` too)
        if item is None or getattr(item, "decoded", "") is None:
            return ""
        return text(item)

    def go_map(found: Any) -> str:
        pairs = found.items() if isinstance(found, dict) else ()
        return "map[" + " ".join(f"{k}:{scalar(v)}" for k, v in sorted(pairs)) + "]"

    return (f"{{{{{scalar(value.get('apiVersion'))} {scalar(value.get('kind'))}}} "
            f"{{{{{scalar(meta.get('name'))} {scalar(meta.get('namespace'))}}} "
            f"{go_map(meta.get('labels'))} {go_map(meta.get('annotations'))}}}}}")


def _rebase(positions: dict[str, tuple[int, int]], prefix: str) -> dict[str, tuple[int, int]]:
    if not prefix:
        return positions
    return {p[len(prefix):]: at for p, at in positions.items()
            if p == prefix or p.startswith(prefix + "/")}


def annotate_origin(resource: Resource, origin: dict) -> None:
    """``buildMetadata: [originAnnotations]``: where the resource came from, as
    kustomize's ``Origin.String()`` writes it (a YAML map of ``origin``'s fields, in
    the order given), set when it is read or generated, so every patch and
    transformer after sees it."""
    meta = resource.value.setdefault("metadata", {})
    if isinstance(meta, dict):
        annotations = meta.get("annotations")
        from ..io.kyaml_write import write_value  # (only builds that annotate origins)

        # the fields in the order of kustomize's Origin struct, not sorted
        text = "".join(write_value({key: value}) for key, value in origin.items())
        meta["annotations"] = {**annotations, ORIGIN: text} if isinstance(annotations, dict) \
            else {ORIGIN: text}


#: ``buildMetadata: [transformerAnnotations]``: the built-in transformers that ran.
TRANSFORMATIONS = "alpha.config.kubernetes.io/transformations"


def record_transformation(resource: Resource, configured_in: str, kind: str,
                          name: str = "", namespace: str = "") -> None:
    """Add one entry to the resource's transformations annotation, as kustomize does
    after each built-in transformer of a kustomization ran (on every resource there,
    changed or not), so later patches see it."""
    meta = resource.value.setdefault("metadata", {})
    if not isinstance(meta, dict):
        return
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        annotations = {}
    entry = (f"- configuredIn: {configured_in}\n  configuredBy:\n    apiVersion: builtin\n"
             f"    kind: {kind}\n")
    if name:  # a plugin given as configuration: its name and namespace too
        entry += f"    name: {name}\n"
    if namespace:
        entry += f"    namespace: {namespace}\n"
    previous = annotations.get(TRANSFORMATIONS)
    text = (previous if isinstance(previous, str) else "") + entry
    meta["annotations"] = {**annotations, TRANSFORMATIONS: text}
