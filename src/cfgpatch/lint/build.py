"""Applying a kustomization's patches to its resources, as kustomize orders them.

The adapter between lint's rules and a build: :class:`Builder` runs a kustomization
(``patchesStrategicMerge``, then ``patches``, then the namespace and name
prefix/suffix, then ``patchesJson6902``, after the components' own pipelines, as
``kubectl kustomize`` orders them) and, for the unit being linted, records every
patch application in an :class:`~cfgpatch.lint.model.Outcome`.  Bases are built once
per run (memoised) and copied where they are used.

The resources come from lint's own resolution (``lint.resolve``); strategic patches go
through ``cfgpatch.kube.patch(..., as_="kustomize")`` and JSON 6902 patches through the
JSON Patch engine, in one place each (:func:`apply_strategic`, :func:`apply_json`), so
that kustomize's exact merge (issue 11) replaces them with one line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import KUSTOMIZE_DELETES, KubeError
from ..kube.views.kustomize.openapi import SchemaState
from .finding import Location
from .model import Application, Outcome, PatchSite, ResourceId
from .resolve import (
    Kustomization,
    ResolveError,
    Resolver,
    Resource,
    find_kustomization,
    join,
    read_kustomization,
    set_schema,
    transform_names,
)
from .selectors import SelectorError, describe, group_version, matches
from .sites import DeclaredSite, kustomization_sites

_BEFORE_NAMES = ("patchesStrategicMerge", "patches")


def resource_id(obj: Any) -> ResourceId:
    meta = obj.get("metadata") if isinstance(obj, dict) and isinstance(
        obj.get("metadata"), dict) else {}
    return ResourceId(str(obj.get("apiVersion", "")), str(obj.get("kind", "")),
                      str(meta.get("name", "")), str(meta.get("namespace") or ""))


def apply_strategic(obj: dict, patch: Any, explain: bool,
                    state: SchemaState | None = None) -> tuple[Any, list]:
    """kustomize's strategic merge of ``patch`` onto ``obj``: (result or None if the patch
    deletes the resource, the engine's findings).  ``state``: the build's schema (an
    ``openapi:`` document's merge keys); the findings are the engine's, with kyaml's
    built-in schema, as for a build on disk (``lint.kbuild``)."""
    from ..kube import patch as kube_patch
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
    from ..kube.views.kustomize import apply_strategic as kustomize_merge
    merged = kustomize_merge(obj, patch if isinstance(patch, dict) else {}, schema)
    return decode_result(merged) if merged else None


def apply_json(obj: dict, ops: Any, explain: bool) -> tuple[Any, list]:
    """A JSON 6902 patch on ``obj``: (result, findings)."""
    from ..kube import patch as kube_patch
    result = kube_patch(obj, ops, "json", explain=explain)
    return result.object, list(result.findings)


class Builder:
    """Builds kustomizations over ``files`` (repository-relative POSIX paths)."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files = files
        self.resolver = Resolver(files, self.base)
        #: by (directory, schema state on entry): resources, incomplete, state after
        self._built: dict[tuple, tuple[list[Resource], list[str], SchemaState]] = {}
        self._incomplete: dict[str, list[str]] = {}
        self._read: dict[str, Kustomization] = {}

    @property
    def state(self) -> SchemaState | None:
        """The schema of the build in progress (None between builds)."""
        return self.resolver.state

    @state.setter
    def state(self, value: SchemaState | None) -> None:
        self.resolver.state = value

    # --- bases ------------------------------------------------------------------------

    def base(self, directory: str, stack: tuple[str, ...] = ()) -> list[Resource]:
        """The resources of the kustomization in ``directory``, fully built (copies).
        A build of its own when no build is in progress (``stack`` empty)."""
        path = find_kustomization(self.files, directory)
        if path is None:
            raise ResolveError(f"unable to find one of 'kustomization.yaml', "
                               f"'kustomization.yml' or 'Kustomization' in directory "
                               f"'{directory}'", Location(directory or "."))
        if path not in self._read:
            self._read[path] = read_kustomization(self.files, path)
        kustomization = self._read[path]
        if self.state is None or not stack:
            return [r.copy() for r in self._top(kustomization, (*stack, directory))]
        set_schema(self.state, kustomization, self.files, reset=False)
        key = (directory, self.state.key())
        if key not in self._built:
            incomplete: list[str] = []
            built = self.run(kustomization, (*stack, directory), None, incomplete)
            self._built[key] = (built, incomplete, self.state.copy())
        built, incomplete, after = self._built[key]
        self._incomplete[directory] = incomplete
        self.state = after.copy()
        return [resource.copy() for resource in built]

    def _top(self, kustomization: Kustomization, stack: tuple[str, ...],
             outcome: Outcome | None = None, incomplete: list[str] | None = None,
             extra: tuple[list[PatchSite], Outcome] | None = None) -> list[Resource]:
        """A whole build of ``kustomization``, with its own schema (kyaml's: the top
        kustomization's ``openapi:`` first)."""
        outer = self.state
        self.state = SchemaState()
        try:
            set_schema(self.state, kustomization, self.files, reset=True)
            return self.run(kustomization, stack, outcome,
                            [] if incomplete is None else incomplete, extra)
        finally:
            self.state = outer

    def build_top(self, kustomization: Kustomization, stack: tuple[str, ...],
                  outcome: Outcome | None, incomplete: list[str],
                  extra: tuple[list[PatchSite], Outcome] | None = None) -> list[Resource]:
        """:meth:`run` as a build of its own (the unit being linted)."""
        return self._top(kustomization, stack, outcome, incomplete, extra)

    def incomplete_of(self, directory: str) -> list[str]:
        return self._incomplete.get(directory, [])

    # --- a kustomization --------------------------------------------------------------

    def run(self, kustomization: Kustomization, stack: tuple[str, ...],
            outcome: Outcome | None, incomplete: list[str],
            extra: tuple[list[PatchSite], Outcome] | None = None) -> list[Resource]:
        """The resources of ``kustomization`` after its pipeline; applications of its
        patches (and its components') go to ``outcome`` when one is given.  ``extra``:
        patches appended to its ``patches`` (a Flux Kustomization's ``spec.patches``) and
        the outcome their applications go to."""
        layer = self.resolver.layer(kustomization, stack)
        incomplete += layer.incomplete
        for key in ("resources", "bases"):
            for entry in kustomization.value.get(key) or []:
                if isinstance(entry, str):
                    incomplete += self.incomplete_of(join(kustomization.directory, entry))
        resources = layer.resources
        for index, entry in enumerate(kustomization.value.get("components") or []):
            self._component(kustomization, index, entry, resources, stack, outcome,
                            incomplete)
        self.pipeline(kustomization, resources, outcome, extra)
        return resources

    def _component(self, parent: Kustomization, index: int, entry: Any,
                   resources: list[Resource], stack: tuple[str, ...],
                   outcome: Outcome | None, incomplete: list[str]) -> None:
        where = parent.location(["components", index])
        if not isinstance(entry, str):
            raise ResolveError(f"components[{index}] is not a string", where)
        directory = join(parent.directory, entry)
        path = find_kustomization(self.files, directory)
        if path is None:
            raise ResolveError(f"accumulating components: accumulation err='accumulating "
                               f"components from '{entry}': unable to find one of "
                               f"'kustomization.yaml', 'kustomization.yml' or "
                               f"'Kustomization' in directory '{directory}'", where)
        component = read_kustomization(self.files, path)
        if self.state is not None:
            set_schema(self.state, component, self.files, reset=False)
        if not component.is_component:
            raise ResolveError(f"accumulating components: expected kind 'Component' for path "
                               f"'{directory}' but got "
                               f"'{component.value.get('kind', 'Kustomization')}'", where)
        layer = self.resolver.layer(component, (*stack, directory))
        incomplete += layer.incomplete
        resources += layer.resources
        self.pipeline(component, resources, outcome)

    def pipeline(self, kustomization: Kustomization, resources: list[Resource],
                 outcome: Outcome | None,
                 extra: tuple[list[PatchSite], Outcome] | None = None) -> None:
        """The kustomization's patches and name transformers over ``resources``."""
        declared = kustomization_sites(kustomization.path,
                                       self.files[kustomization.path], self.files)
        if outcome is not None:
            outcome.sites += [d.site for d in declared]
        for field in _BEFORE_NAMES:
            self._apply_all([d for d in declared if d.field == field], resources, outcome)
        if extra is not None:
            for site in extra[0]:
                apply_site(site, resources, extra[1], self.state)
        transform_names(kustomization, resources)
        self._apply_all([d for d in declared if d.field == "patchesJson6902"], resources,
                        outcome)
        check_replicas(kustomization, resources)

    def _apply_all(self, declared: list[DeclaredSite], resources: list[Resource],
                   outcome: Outcome | None) -> None:
        for item in declared:
            apply_site(item.site, resources, outcome, self.state)


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
    meta = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
    out = {"group": re.escape(group) if group else "^$", "version": re.escape(version),
           "kind": re.escape(str(patch.get("kind", ""))),
           "name": re.escape(str(meta.get("name", "")))}
    if meta.get("namespace"):
        out["namespace"] = re.escape(str(meta["namespace"]))
    return out


def _patch_ident(patch: dict) -> str:
    group, version = group_version(patch)
    meta = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
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
    meta = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
    have = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    meta = {**meta, **{k: have[k] for k in ("name", "namespace") if k in have}}
    if "namespace" not in have:
        meta.pop("namespace", None)
    out["metadata"] = meta
    return out


def _renamed(site: PatchSite, resource: Resource, after: dict) -> dict:
    """``options.allowNameChange``/``allowKindChange``: the patch's own name or kind wins
    (kustomize keeps the resource's apiVersion even when the kind changes: measured)."""
    patch = site.patch if isinstance(site.patch, dict) else {}
    meta = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
    if site.options.get("allowNameChange") and isinstance(meta.get("name"), str):
        old = after.get("metadata", {}).get("name") if isinstance(
            after.get("metadata"), dict) else None
        if old != meta["name"]:
            after = {**after, "metadata": {**after.get("metadata", {}), "name": meta["name"]}}
            resource.previous = (*resource.previous, str(old or ""))
    if site.options.get("allowKindChange") and isinstance(patch.get("kind"), str):
        after = {**after, "kind": patch["kind"]}
    return after


def check_replicas(kustomization: Kustomization, resources: list[Resource]) -> None:
    """kustomize refuses a ``replicas`` entry whose name is only on kinds without replicas."""
    for index, entry in enumerate(kustomization.value.get("replicas") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        named = [r for r in resources if entry["name"] in (
            r.obj.get("metadata", {}).get("name"), *r.previous)]
        if named and not any(r.obj.get("kind") in _SCALABLE for r in named):
            raise ResolveError(
                f"resource with name {entry['name']} does not match a config with the "
                f"following GVK [Deployment.v1.apps ReplicationController.v1.[noGrp] "
                f"ReplicaSet.v1.apps StatefulSet.v1.apps]",
                kustomization.location(["replicas", index]))


_SCALABLE = frozenset({"Deployment", "ReplicationController", "ReplicaSet", "StatefulSet"})


def _application(site: PatchSite, before: dict, after: Any, found: list) -> Application:
    from ..kube.schema.node import builtin_schema
    node = builtin_schema().for_kind(str(before.get("apiVersion", "")),
                                     str(before.get("kind", "")),
                                     unversioned=False)  # kustomize: kyaml has none
    return Application(site, resource_id(before), before, after, found, node=node)


def lint_kustomization(builder: Builder, path: str) -> Outcome:
    """The outcome of the kustomization file at ``path``: its patches' applications, or
    the build failure."""
    outcome = Outcome("kustomization", path)
    incomplete: list[str] = []
    try:
        kustomization = read_kustomization(builder.files, path)
        builder.build_top(kustomization, (kustomization.directory,), outcome, incomplete)
    except ResolveError as exc:
        outcome.error = exc.message
        outcome.error_location = exc.location
    outcome.incomplete = incomplete
    return outcome


__all__ = ["Builder", "apply_site", "describe", "lint_kustomization", "selected"]
