"""The built-in transformers of one kustomization, in kustomize's order: legacy
strategic patches, patches, namespace, prefix/suffix, labels, annotations, legacy JSON
6902 patches, replicas, images, replacements, then the ``transformers:`` plugins; with
a ``buildMetadata`` option at the top each run is recorded on the resources."""

from __future__ import annotations

import posixpath

from . import transformers
from .resources import record_transformation

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is kept out of a small build's start-up
    from collections.abc import Callable
    from typing import Any

    from .kustomization import Kustomization
    from .resmap import ResMap


def transform(target: Any, kust: Kustomization, resmap: ResMap) -> None:
    """Run ``kust``'s built-in transformers, then its ``transformers:`` plugins, on
    ``resmap`` in kustomize's order (``target`` is the kustomization's build target)."""
    trace = target.trace
    done = _recorder(target, kust, resmap)
    loaded: list = []
    if _given(kust, "replacements"):
        from . import replacements

        loaded = replacements.load(kust)  # configured before any transformer runs
    patched = any(_given(kust, f) for f in ("patchesStrategicMerge", "patches",
                                             "patchesJson6902"))
    if patched:
        from . import patches
    legacy = patches.load_legacy_strategic(kust) if patched else []
    configured = target._plugins(kust, "transformers")
    for patch in legacy:
        patches.apply_patch(resmap, patch, trace, target.state)
    done("PatchStrategicMergeTransformer", bool(legacy))
    for patch in patches.load_patches(kust) if patched else []:
        patches.apply_patch(resmap, patch, trace, target.state)
        done("PatchTransformer")
    transformers.namespace(resmap, trace, kust)
    done("NamespaceTransformer", bool(kust.get("namespace")))
    transformers.name_prefix_suffix(resmap, trace, kust)
    done("PrefixTransformer", bool(kust.get("namePrefix")))
    done("SuffixTransformer", bool(kust.get("nameSuffix")))
    transformers.labels(resmap, trace, kust)
    entries = kust.get("labels", []) or []
    for _entry in entries:
        done("LabelTransformer")
    # kustomize configures the commonLabels transformer with any labels (measured)
    done("LabelTransformer", bool(entries or kust.get("commonLabels")))
    transformers.common_annotations(resmap, trace, kust)
    done("AnnotationsTransformer", bool(kust.get("commonAnnotations")))
    for patch in patches.load_legacy_json(kust) if patched else []:
        patches.apply_patch(resmap, patch, trace, target.state)
        done("PatchJson6902Transformer")
    transformers.replicas(resmap, trace, kust)
    for _entry in kust.get("replicas", []) or []:
        done("ReplicaCountTransformer")
    if _given(kust, "images"):
        from . import images

        images.images(resmap, trace, kust)
    for _entry in kust.get("images", []) or []:
        done("ImageTagTransformer")
    if loaded:
        replacements.run(resmap, trace, kust, loaded)
    done("ReplacementTransformer", bool(loaded))
    for plugin in configured:
        plugin(resmap)

def _recorder(target: Any, kust: Kustomization, resmap: ResMap) -> Callable[..., None]:
    """``done(kind, ran=True)``: with a ``buildMetadata`` option at the top, record
    on every resource there that the built-in transformer ``kind`` of this
    kustomization ran (see :func:`~.resources.record_transformation`)."""
    where = target.origin_of(posixpath.basename(kust.file))
    if where is None:
        return lambda kind, ran=True: None

    def done(kind: str, ran: bool = True) -> None:
        if ran:
            for resource in resmap.resources:
                record_transformation(resource, where, kind)
    return done


def _given(kust: Kustomization, name: str) -> bool:
    """Whether ``kust`` gives the list field ``name`` anything (any other value goes to
    the field's own reading, which names what is wrong)."""
    value = kust.get(name, [])
    return not isinstance(value, list) or bool(value)
