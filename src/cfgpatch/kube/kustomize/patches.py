"""kustomize's patch transformers: ``patches``, ``patchesStrategicMerge``, ``patchesJson6902``.

A patch is loaded (:mod:`.patch_loading`) and applied here:

* a strategic patch with a ``target`` is merged into every selected resource; its own
  ``apiVersion`` is replaced by the resource's, and afterwards the resource gets back
  its kind and name (unless ``options.allowKindChange`` / ``allowNameChange``) and
  always its namespace; without a target it goes to the one resource whose current
  or earlier id is the patch's own (kustomize's "no matches for Id ..." otherwise);
  a result that is empty (``$patch: delete``) removes the resource;
* a JSON patch needs a target and is applied to every selected resource with the
  JSON Patch library kubectl also uses (its error texts).

Every application is recorded on the build's :class:`.trace.Trace` when one is given.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..engine import jsonpatch
from ..problems import Kustomize, ProblemError, Unmarshal, YamlValue, cause
from . import aliases, replacements, strategic
from .openapi import SchemaState
from .patch_loading import load_legacy_json, load_legacy_strategic, load_patches, read_json_ops
from .patch_model import JSON, STRATEGIC, Document, Patch
from .patchtexts import spelled, with_sources, without_sources
from .resmap import ResMap
from .resources import Resource
from .styles import json_annotations, reencoded
from .trace import PATCH, Step, Touch, Trace, snapshot

__all__ = ["JSON", "STRATEGIC", "Document", "Patch", "apply_patch", "load_legacy_json",
           "load_legacy_strategic", "load_patches", "read_json_ops"]


def apply_patch(resmap: ResMap, patch: Patch, trace: Trace | None,
                state: SchemaState | None = None) -> None:
    """Apply one loaded patch to the build's resources (see the module docstring)."""
    state = state or SchemaState()
    if patch.target is not None:
        target = patch.target_raw or {}
        group, version = str(target.get("group") or ""), str(target.get("version") or "")
        state.uses_type(f"{group}/{version}" if group else version,
                        str(target.get("kind") or ""))
    if patch.type == JSON:
        _apply_json(resmap, patch, trace)
        return
    for document in patch.documents:
        state.uses_type(document.value.get("apiVersion"), document.value.get("kind"))
    for document in patch.documents:
        step = _step(patch, trace, document)
        if patch.target is None:
            try:
                selected = [resmap.get_by_id(document.org_id())]
            except KubeError as err:
                if patch.field == "patches":
                    raise ProblemError(Kustomize("no-match-for-patch", id=str(document.org_id()),
                                                 cause=cause(err)),
                                       code=KUSTOMIZE_ERROR) from None
                raise
            _merge_into(resmap, selected, document, patch, step, True, state)
        else:
            selected = resmap.select(patch.target)
            _merge_into(resmap, selected, document, patch, step, False, state)


def _step(patch: Patch, trace: Trace | None, document: Document | None) -> Step | None:
    if trace is None:
        return None
    return trace.begin(Step(
        PATCH, patch.field, patch.index, patch.kustomization.file, patch.line,
        patch_type=patch.type, patch=document.value if document else patch.ops,
        patch_file=patch.file, patch_line=patch.offset + 1,
        patch_positions=document.positions if document else patch.op_positions,
        selector=patch.target_raw, patch_kinds=patch.kinds()))


def _merge_into(resmap: ResMap, selected: list[Resource], document: Document, patch: Patch,
                step: Step | None, keep_version: bool, state: SchemaState) -> None:
    allow_name = bool(patch.options.get("allowNameChange"))
    allow_kind = bool(patch.options.get("allowKindChange"))
    for resource in selected:
        replacements.refuse_retyped(resource, patch.kustomization.where(
            f"/{patch.field}/{patch.index}"))
        body = snapshot(document.value if keep_version or document.targeted is None
                        else document.targeted)
        if not keep_version:
            body["apiVersion"] = resource.value.get("apiVersion")
        if document.texts:
            body = with_sources(body, document.texts)
        # the merge gives the resource a new value (strategic.apply copies it, and reads
        # the old one only): the old one, no longer the resource's, is the step's value
        # before as it is, not copied
        original = resource.value
        label = resource.describe()
        name, namespace, kind = resource.name, resource.namespace, resource.value.get("kind")
        if allow_name or allow_kind:
            resource.store_previous_id()
        merged_value = strategic.apply(resource.value, body, state.schema())
        if document.texts and merged_value:
            merged_value = without_sources(merged_value)
            # the fields the patch set now hold its nodes, with its texts (a list merge
            # moves items, so only paths through maps are known)
            resource.texts.update(spelled(document.value, document.texts, in_lists=False))
        if merged_value is None or not merged_value:
            resmap.remove(resource)
            before, after = snapshot(original) if step is not None else None, None
        else:
            previous, resource.value = resource.value, merged_value
            resource.typed_keys = resource.typed_keys or document.typed_keys
            aliases.merged(resource, previous)
            # the merge keeps the target's kind and name, as kustomize's does; the options
            # let the patch's own take their place
            patch_kind = document.value.get("kind")
            resource.value["kind"] = patch_kind if allow_kind and patch_kind else kind
            if not allow_name:
                resource.set_name(name)
            elif document.org_id().name:  # the merge takes the patch's name
                resource.set_name(document.org_id().name)
            resource.set_namespace(namespace)
            before = original
            after = snapshot(resource.value) if step is not None else None
        if step is not None:
            step.targets.append(label)
            step.touches.append(Touch(resource, before, after, label))


def _apply_json(resmap: ResMap, patch: Patch, trace: Trace | None) -> None:
    step = _step(patch, trace, None)
    assert patch.target is not None
    for resource in resmap.select(patch.target):
        before = snapshot(resource.value) if step is not None else None
        if patch.field != "patchesJson6902":  # kustomize: the legacy transformer does not
            resource.store_previous_id()
        internal = resource.internal_annotations()
        source = _annotated(resource.value, internal)
        repeated = resource.duplicate_keys(source)
        if repeated:  # kustomize decodes the resource, its annotations added, strictly here
            raise ProblemError(YamlValue("duplicate-keys", repeated), code=KUSTOMIZE_ERROR)
        json_annotations(source, decoded=True)
        try:
            result = jsonpatch.apply_document(source, patch.ops)
        except KubeError as err:
            if step is not None:
                step.failed = Touch(resource, before, None, resource.describe())
            raise ProblemError(cause(err), code=KUSTOMIZE_ERROR) from None  # kustomize: no hint
        if not isinstance(result, dict):
            raise ProblemError(Unmarshal(type(result).__name__, "map[string]interface {}"),
                               code=KUSTOMIZE_ERROR)
        _strip_internal(result, internal)
        json_annotations(result, decoded=False)
        resource.value = reencoded(result)
        resource.texts = {}  # every scalar was written again from its value
        aliases.forget(resource)
        if step is not None:
            step.targets.append(resource.describe())
            step.touches.append(Touch(resource, before, snapshot(result), resource.describe()))


def _annotated(value: dict, internal: dict[str, str]) -> dict:
    """``value`` with ``internal`` added to its annotations (a shallow copy where changed)."""
    meta = value.get("metadata")
    if not isinstance(meta, dict):
        return value
    found = meta.get("annotations")
    if found is not None and not isinstance(found, dict):
        return value
    if found is None and not internal:  # measured: a JSON patch then sees a null
        return {**value, "metadata": {**meta, "annotations": None}}
    return {**value, "metadata": {**meta, "annotations": {**(found or {}), **internal}}}


def _strip_internal(result: dict, internal: dict[str, str]) -> None:
    """Take the internal annotations off a patch's result again (kustomize restores and
    later strips them, whatever the patch did to them); an empty map goes too."""
    meta = result.get("metadata")
    if not isinstance(meta, dict):
        return
    found = meta.get("annotations")
    if found is None and "annotations" in meta:
        del meta["annotations"]  # the null a resource without annotations showed
        return
    if not isinstance(found, dict):
        return
    for key in internal:
        found.pop(key, None)
    if not found:
        del meta["annotations"]
