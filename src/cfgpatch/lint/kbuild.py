"""Outcomes from ``kube build`` (kustomize's exact build) for repositories on disk.

``cfgpatch.kube.kustomize.build`` builds a kustomization directory exactly as
``kubectl kustomize`` does and, given a :class:`~cfgpatch.kube.kustomize.trace.Trace`,
records every patch it applied with the resources it touched (before and after).  This
module turns that trace into lint's :class:`~cfgpatch.lint.model.Outcome`; the rules
(``lint.checks``) do not change:

* the patch sites and their text positions still come from ``lint.sites`` (a trace step
  is matched to its site by kustomization file, field, list position and document);
* each touched resource is an :class:`Application` with the build's before and after;
  the patch engine's findings come from applying the same patch to ``before`` with
  ``cfgpatch.kube.patch`` (``lint.patching.apply_strategic``/``apply_json``);
* a failed build carries kustomize's own text (root-relative paths); where it points
  comes from lint's own resolution when that fails too, else from the patch the build
  was applying, else the kustomization's first line;
* what ``kube build`` does not model (``KUSTOMIZE_UNMODELLED``: remote bases, plugins)
  falls back to lint's own resolution, marked incomplete.
"""

from __future__ import annotations

import os
import posixpath
from contextvars import ContextVar
from typing import Any

from ..errors import KubeError
from .build import Builder, lint_kustomization
from .finding import Location
from .model import Application, Outcome, PatchSite, ResourceId
from .offline import kept_own_error, offline_reason, reason_location
from .options import DEFAULT_OPTIONS, BuildOptions
from .patching import apply_json, apply_strategic, retargeted
from .resolve import find_kustomization, join, read_kustomization
from .sites import kustomization_sites


def _relative(root: str, path: str) -> str:
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    return rel


def _resource_id(value: Any) -> ResourceId:
    from .patching import resource_id
    return resource_id(value)


def _findings(site: PatchSite, before: Any) -> list:
    """The patch engine's findings of ``site`` applied to ``before``."""
    if not isinstance(before, dict):
        return []
    try:
        if site.patch_type == "json6902":
            return apply_json(before, site.patch, True)[1]
        patch = retargeted(site.patch, before) if site.target is not None else site.patch
        return apply_strategic(before, patch, True)[1]
    except KubeError as exc:
        return list(exc.findings)


def _sites_by_step(sites: list[PatchSite]) -> dict[tuple, list[PatchSite]]:
    out: dict[tuple, list[PatchSite]] = {}
    for site in sites:
        out.setdefault((site.declared_in, site.field_name, site.index), []).append(site)
    return out


def _applications(root: str, steps: list, sites: list[PatchSite]
                  ) -> tuple[list[Application], PatchSite | None]:
    """The applications of the unit's own patches, and the site of the last step."""
    by_step = _sites_by_step(sites)
    seen: dict[tuple, int] = {}
    out: list[Application] = []
    last = None
    for step in steps:
        if step.kind != "patch":
            continue
        key = (_relative(root, step.kustomization), step.field, step.index)
        candidates = by_step.get(key)
        if not candidates:
            continue  # a base's patch: linted as its own unit
        number = seen.get(key, 0)
        seen[key] = number + 1
        site = candidates[min(number, len(candidates) - 1)]
        last = site
        for touch in step.touches:
            app = Application(site, _resource_id(touch.before), touch.before, touch.after,
                              _findings(site, touch.before), node=_node(touch.before))
            out.append(app)
    return out, last


def _node(value: Any) -> Any:
    from ..kube.schema.node import builtin_schema
    if not isinstance(value, dict):
        return None
    return builtin_schema().for_kind(str(value.get("apiVersion", "")), str(value.get("kind", "")),
                                     unversioned=False)  # kustomize: kyaml has none


def unit_sites(builder: Builder, path: str, seen: frozenset[str] = frozenset()
               ) -> list[PatchSite]:
    """The patch sites of the kustomization ``path`` and of its components (recursively),
    components first, as they run."""
    kustomization = read_kustomization(builder.files, path)
    out: list[PatchSite] = []
    for entry in kustomization.value.get("components") or []:
        if not isinstance(entry, str):
            continue
        found = find_kustomization(builder.files, join(kustomization.directory, entry))
        if found is not None and found not in seen:
            out += unit_sites(builder, found, seen | {path})
    declared = kustomization_sites(path, builder.files[path], builder.files)
    return out + [d.site for d in declared]


#: Where files given in memory are mounted for ``kube build`` (no folder is written).
MEMORY_ROOT = "/cfgpatch-lint-memory"
#: The in-memory file system of the run, when the files are in memory.
memory_fs: ContextVar[Any] = ContextVar("memory_fs", default=None)


def _build(directory: str, trace: Any, options: BuildOptions) -> None:
    """``kube build`` of ``directory`` with the options it takes (those it does not take
    yet are left at kustomize's defaults)."""
    from ..kube.kustomize.build import build
    extra: dict[str, Any] = {name: value for name, value in (
        ("load_restrictor", options.load_restrictor), ("enable_helm", options.enable_helm),
        ("helm_command", options.helm_command)) if name in _build_parameters()}
    fs = memory_fs.get() if directory.startswith(MEMORY_ROOT) else None
    build(directory, trace, fs, **extra)


def _build_parameters() -> frozenset[str]:
    import inspect

    from ..kube.kustomize.build import build
    return frozenset(inspect.signature(build).parameters)


def _offline(builder: Builder, path: str, reason: str, message: str) -> Outcome:
    """A unit whose build needs what cannot be followed offline: lint's own resolution
    of what is at hand, with a ``build-incomplete`` note instead of a failure."""
    own = lint_kustomization(builder, path)
    own.incomplete = [*own.incomplete, reason]
    own.offline = reason
    own.offline_location = reason_location(message, path)
    if own.error is not None and not kept_own_error(own.error):
        own.error = None
        own.error_location = None
    return own


def lint_kustomization_built(builder: Builder, root: str, path: str,
                             options: BuildOptions = DEFAULT_OPTIONS) -> Outcome:
    """The outcome of the kustomization file ``path`` (relative to ``root``) from
    ``kube build``; lint's own resolution when the build needs what cannot be followed
    offline (``lint.offline``), and to find where a failed build points."""
    from ..kube.kustomize.build import BuildError
    from ..kube.kustomize.trace import Trace

    trace = Trace()
    error: str | None = None
    try:
        _build(os.path.join(root, *posixpath.dirname(path).split("/")), trace, options)
    except BuildError as exc:
        message = exc.message.replace(os.path.abspath(root) + os.sep, "")
        reason = offline_reason(exc.code, message)
        if reason is not None:
            return _offline(builder, path, reason, message)
        error = message
    if error is None:
        outcome = Outcome("kustomization", path, sites=unit_sites(builder, path),
                          builder="kube build")
        outcome.applications = _applications(root, trace.steps, outcome.sites)[0]
        outcome.incomplete = placeholders(builder, path)
        return outcome
    own = lint_kustomization(builder, path)
    outcome = Outcome("kustomization", path, sites=own.sites, builder="kube build")
    outcome.applications, last = _applications(root, trace.steps, own.sites)
    # the patch the build stopped at: lint's own resolution kept its findings
    outcome.applications += [a for a in own.applications if a.error is not None]
    outcome.error = error
    outcome.error_location = own.error_location or (
        last.location() if last is not None and _failed_in_patch(trace) else Location(path))
    return outcome


def placeholders(builder: Builder, path: str) -> list[str]:
    """Resource files of the kustomization that hold no document: placeholders another
    tool fills in (``flux bootstrap`` writes ``gotk-components.yaml`` so), so the build
    here is not the whole of what its patches will meet."""
    try:
        kustomization = read_kustomization(builder.files, path)
    except Exception:  # noqa: BLE001 - it built; a reading lint cannot make is no placeholder
        return []
    out = []
    for entry in kustomization.value.get("resources") or []:
        name = join(kustomization.directory, entry) if isinstance(entry, str) else None
        if name is None or not name.endswith((".yaml", ".yml", ".json")):
            continue
        try:
            text = builder.files[name]
        except (KeyError, OSError, UnicodeDecodeError):
            continue
        if not any(line.strip() and not line.lstrip().startswith("#") and
                   line.strip() != "---" for line in text.splitlines()):
            out.append(f"{name} holds no document (a placeholder)")
    return out


def _failed_in_patch(trace: Any) -> bool:
    """Whether the build stopped inside its last step, a patch (one touch short)."""
    if not trace.steps or trace.steps[-1].kind != "patch":
        return False
    step = trace.steps[-1]
    return len(step.touches) < len(step.targets) or not step.targets


__all__ = ["lint_kustomization_built"]
