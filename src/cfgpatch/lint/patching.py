"""One patch of a kustomization applied to the resources it selects, as kustomize does.

:func:`apply_site` is the step :class:`~cfgpatch.lint.build.Builder` runs for every
patch: find the resources the patch applies to (:func:`selected`: its target, or the
patch's own kind and name), retarget a strategic patch onto each, merge, honour
``allowNameChange``/``allowKindChange``, and record the application in an
:class:`~cfgpatch.lint.model.Outcome` when the unit is being linted.

Strategic patches go through ``cfgpatch.kube.patch(..., as_="kustomize")`` and JSON
6902 patches through the JSON Patch engine, in one place each (:func:`apply_strategic`,
:func:`apply_json`).
"""

from __future__ import annotations

from typing import Any

from ..errors import KUSTOMIZE_DELETES, KubeError
from ..kube.kustomize.openapi import SchemaState
from .model import Application, Outcome, PatchSite, ResourceId
from .resolve import ResolveError, Resource
from .selectors import SelectorError, group_version, matches


def resource_id(obj: Any) -> ResourceId:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict):
        meta = {}
    return ResourceId(str(obj.get("apiVersion", "")), str(obj.get("kind", "")),
                      str(meta.get("name", "")), str(meta.get("namespace") or ""))


def apply_strategic(obj: dict, patch: Any, explain: bool,
                    state: SchemaState | None = None) -> tuple[Any, list]:
    """kustomize's strategic merge of ``patch`` onto ``obj``: (result or None if the patch
    deletes the resource, the engine's findings).  ``state``: the build's schema (an
    ``openapi:`` document's merge keys); the findings are the engine's, with kyaml's
    built-in schema, as for a build on disk (``lint.kbuild``)."""
    from ..kube.patcher import patch as kube_patch
    schema = state.schema() if state is not None else None
    try:
        result = kube_patch(obj, patch, "strategic", as_="kustomize", explain=explain)
    except KubeError as exc:
        if exc.code == KUSTOMIZE_DELETES:
            return None, []
        raise
    if schema is not None and state is not None and state.custom:
        return _custom_merge(obj, patch, schema), list(result.findings)
    return result.object, list(result.findings)


def _custom_merge(obj: dict, patch: Any, schema: Any) -> Any:
    """kube build's merge with the schema of an ``openapi:`` document (None: deleted)."""
    from ..kube.io.unstructured import decode_result
    from ..kube.kustomize import apply_strategic as kustomize_merge
    merged = kustomize_merge(obj, patch if isinstance(patch, dict) else {}, schema)
    return decode_result(merged) if merged else None


def apply_json(obj: dict, ops: Any, explain: bool) -> tuple[Any, list]:
    """A JSON 6902 patch on ``obj``: (result, findings).  As in a build, the patch sees
    ``metadata.annotations`` even when ``obj`` has none (kustomize keeps its internal
    annotations there meanwhile), and an annotations map left empty is dropped."""
    from ..kube.patcher import patch as kube_patch
    meta = obj.get("metadata")
    if isinstance(meta, dict) and meta.get("annotations") is None:
        obj = {**obj, "metadata": {**meta, "annotations": {}}}
    result = kube_patch(obj, ops, "json", explain=explain)
    after = result.object
    after_meta = after.get("metadata") if isinstance(after, dict) else None
    if isinstance(after_meta, dict) and after_meta.get("annotations") in ({}, None) \
            and "annotations" in after_meta:
        after = {**after, "metadata": {k: v for k, v in after_meta.items()
                                       if k != "annotations"}}
    return after, list(result.findings)



def selected(site: PatchSite, resources: list[Resource]) -> list[Resource]:
    """The resources ``site`` applies to (raises :class:`ResolveError` as kustomize does)."""
    where = site.target_location or site.location()
    if site.target is not None:
        try:
            return [r for r in resources if matches(site.target, r.obj, r.previous)]
        except SelectorError as exc:
            raise ResolveError(str(exc), where) from None
    if site.patch_type == "json6902":
        raise ResolveError("must specify a target for JSON patch", site.location())
    patch = site.patch if isinstance(site.patch, dict) else {}
    own = _own_selector(patch)
    found = [r for r in resources if matches(own, r.obj, r.previous)]
    if len(found) != 1:
        ident = _patch_ident(patch)
        what = "no resource matches" if not found else "multiple resources match"
        raise ResolveError(f"{what} strategic merge patch \"{ident}\": failed to find unique "
                           f"target for patch {ident}", site.location())
    return found


def _own_selector(patch: dict) -> dict:
    import re
    group, version = group_version(patch)
    meta = patch.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    out = {"group": re.escape(group) if group else "^$", "version": re.escape(version),
           "kind": re.escape(str(patch.get("kind", ""))),
           "name": re.escape(str(meta.get("name", "")))}
    if meta.get("namespace"):
        out["namespace"] = re.escape(str(meta["namespace"]))
    return out


def _patch_ident(patch: dict) -> str:
    group, version = group_version(patch)
    meta = patch.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    namespace = meta.get("namespace") or "[noNs]"
    gv = f"{version}.{group}" if group else version
    return f"{patch.get('kind', '')}.{gv}/{meta.get('name', '')}.{namespace}"


def apply_site(site: PatchSite, resources: list[Resource], outcome: Outcome | None,
               state: SchemaState | None = None) -> None:
    """Apply one patch to the resources it selects, in place (``state``: the build's
    schema, told of the types the patch names as kube build tells it)."""
    if site.patch is None:
        raise ResolveError(f"{site.label}: the patch cannot be read"
                           + ("" if site.text else f" ({site.file} does not exist)"),
                           site.location())
    if site.patch_type == "json6902" and not isinstance(site.patch, list):
        raise ResolveError(f"{site.label}: a JSON 6902 patch must be a list of operations",
                           site.location())
    if state is not None:
        _uses_types(site, state)
    for resource in selected(site, resources):
        before = resource.obj
        try:
            if site.patch_type == "json6902":
                after, found = apply_json(before, site.patch, outcome is not None)
            else:
                patch = retargeted(site.patch, before) if site.target is not None \
                    else site.patch
                after, found = apply_strategic(before, patch, outcome is not None, state)
        except KubeError as exc:
            if outcome is not None:  # the engine's findings explain the failure
                failed = _application(site, before, None, list(exc.findings))
                failed.error = exc
                outcome.applications.append(failed)
            raise ResolveError(f"{site.label} on {resource_id(before).describe()}: "
                               f"{exc.message}", site.location()) from None
        if after is not None and site.target is not None:
            after = _renamed(site, resource, after)
        if outcome is not None:
            outcome.applications.append(_application(site, before, after, found))
        if after is None:
            resources.remove(resource)
        else:
            resource.obj = after


def _uses_types(site: PatchSite, state: SchemaState) -> None:
    """kube build's ``uses_type`` for a patch: its target's type, a strategic patch's own."""
    try:
        if site.target is not None:
            group = str(site.target.get("group") or "")
            version = str(site.target.get("version") or "")
            state.uses_type(f"{group}/{version}" if group else version,
                            str(site.target.get("kind") or ""))
        if site.patch_type != "json6902" and isinstance(site.patch, dict):
            state.uses_type(site.patch.get("apiVersion"), site.patch.get("kind"))
    except KubeError as exc:  # a custom schema that does not parse
        raise ResolveError(exc.message, site.location()) from None


def retargeted(patch: Any, obj: dict) -> Any:
    """A strategic patch with a target takes the kind, apiVersion, name and namespace of
    each resource it is applied to (kustomize copies them onto the patch)."""
    if not isinstance(patch, dict):
        return patch
    out = dict(patch)
    for key in ("apiVersion", "kind"):
        if key in obj:
            out[key] = obj[key]
    meta = patch.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    have = obj.get("metadata")
    if not isinstance(have, dict):
        have = {}
    meta = {**meta, **{k: have[k] for k in ("name", "namespace") if k in have}}
    if "namespace" not in have:
        meta.pop("namespace", None)
    out["metadata"] = meta
    return out


def _renamed(site: PatchSite, resource: Resource, after: dict) -> dict:
    """``options.allowNameChange``/``allowKindChange``: the patch's own name or kind wins
    (kustomize keeps the resource's apiVersion even when the kind changes: measured)."""
    patch = site.patch if isinstance(site.patch, dict) else {}
    meta = patch.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    if site.options.get("allowNameChange") and isinstance(meta.get("name"), str):
        old = after.get("metadata", {}).get("name") if isinstance(
            after.get("metadata"), dict) else None
        if old != meta["name"]:
            after = {**after, "metadata": {**after.get("metadata", {}), "name": meta["name"]}}
            resource.previous = (*resource.previous, str(old or ""))
    if site.options.get("allowKindChange") and isinstance(patch.get("kind"), str):
        after = {**after, "kind": patch["kind"]}
    return after



def _application(site: PatchSite, before: dict, after: Any, found: list) -> Application:
    from ..kube.schema.node import builtin_schema
    node = builtin_schema().for_kind(str(before.get("apiVersion", "")),
                                     str(before.get("kind", "")),
                                     unversioned=False)  # kustomize: kyaml has none
    return Application(site, resource_id(before), before, after, found, node=node)
