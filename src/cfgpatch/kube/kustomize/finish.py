"""The end of a build, after the name references and vars: what ``buildMetadata``
leaves of the tracking annotations, the managed-by label, kustomize's refusal of a
resource it cannot print, and the output order (``sortOptions``)."""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR
from ..problems import ProblemError, YamlValue
from .kustomization import (
    MANAGED_BY,
    MANAGED_BY_LABEL,
    ORIGIN,
    ORIGIN_ANNOTATIONS,
    TRANSFORMER_ANNOTATIONS,
    Kustomization,
    sort_options_error,
)
from .plainkeys import check_keys
from .resmap import ResMap
from .resources import TRANSFORMATIONS, Resource, legacy_sort

__all__ = ["MANAGED_BY_LABEL", "check_printable", "label_managed_by", "order", "untracked"]


def untracked(resource: Resource, metadata: list) -> None:
    """With a ``buildMetadata`` option at the top, kustomize annotates every resource
    with its origin and the transformers that ran while it builds (a JSON patch sees
    them), then removes what the options do not ask for (measured: tree
    ``build-metadata-tracking``)."""
    if not metadata:
        return
    unwanted = [key for key, option in ((ORIGIN, ORIGIN_ANNOTATIONS),
                                        (TRANSFORMATIONS, TRANSFORMER_ANNOTATIONS))
                if option not in metadata]
    meta = resource.value.get("metadata")
    if not isinstance(meta, dict):
        return
    annotations = meta.get("annotations")
    if not unwanted or not isinstance(annotations, dict):
        return
    for key in unwanted:
        annotations.pop(key, None)
    if not annotations:
        del meta["annotations"]


def label_managed_by(resmap: ResMap) -> None:
    """``buildMetadata: [managedByLabel]`` of the top kustomization (a base's has no
    effect, measured): every resource gets kustomize's managed-by label, after the
    hashes (tree ``build-metadata``)."""
    key, value = MANAGED_BY
    for resource in resmap.resources:
        meta = resource.value.setdefault("metadata", {})
        if isinstance(meta, dict):
            labels = meta.get("labels")
            meta["labels"] = {**labels, key: value} if isinstance(labels, dict) else {key: value}


def check_printable(resources: list[Resource]) -> None:
    """kustomize's error for the first resource (in output order) it cannot print: one
    whose file wrote a key twice, or whose plain keys read as no string.  It meets
    both when it turns each resource into a Go map for printing, the repeated keys
    first (measured: tree duplicate-keys, written-key-types, and one resource with
    both)."""
    for resource in resources:
        repeated = resource.duplicate_keys()
        if repeated:
            raise ProblemError(YamlValue("duplicate-keys", repeated,
                                         value="map[string]interface {}(nil)"),
                               code=KUSTOMIZE_ERROR)
        check_keys(resource.value, walk=resource.typed_keys)


def order(kust: Kustomization, resources: list[Resource]) -> list[Resource]:
    """The output order of the top kustomization's ``sortOptions`` (a base's has no
    effect, measured: tree ``sort-options``).

    ``legacySortOptions``, when given, replaces both default lists: a list it leaves
    out is empty (the resources then follow their ids), not the default.
    """
    options = kust.get("sortOptions")
    if not isinstance(options, dict):
        return legacy_sort(resources)
    refused = sort_options_error(options)
    if refused is not None:
        raise ProblemError(refused, code=KUSTOMIZE_ERROR)
    if options["order"] == "fifo":
        return resources
    legacy = options.get("legacySortOptions")
    if not isinstance(legacy, dict):
        return legacy_sort(resources)
    return legacy_sort(resources, tuple(legacy.get("orderFirst") or ()),
                       tuple(legacy.get("orderLast") or ()))
