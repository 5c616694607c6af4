"""Outcomes from ``kube build`` (kustomize's exact build): lint's one model of kustomize.

``cfgpatch.kube.kustomize.build`` builds a kustomization directory exactly as
``kubectl kustomize`` does and, given a :class:`~cfgpatch.kube.kustomize.trace.Trace`,
records every patch it applied with the resources it touched (before and after).  This
module turns that trace into lint's :class:`~cfgpatch.lint.model.Outcome`; the rules
(``lint.checks``) do not change:

* every build is a partial build (``kube.kustomize.partial``): what cannot be followed
  offline (a remote base or file, a plugin, a chart helm cannot run here) is skipped
  and becomes a ``build-incomplete`` note at the entry that needs it (``lint.offline``);
* the patch sites and their text positions still come from ``lint.sites`` (a trace step
  is matched to its site by kustomization file, field, list position and document);
* each touched resource is an :class:`Application` with the build's before and after;
  the patch engine's findings come from applying the same patch to ``before`` with
  ``cfgpatch.kube.patch`` (``lint.engine``);
* a failed build carries kustomize's own text (root-relative paths) and its record
  (``Outcome.error_problem``), and points where cfgpatch's text names a ``file:line``,
  else at the entry the records name (``lint.failures``), else at the patch the build
  was applying, else at the kustomization; a failure that what was skipped may explain
  (a patch whose target lies in a remote base) is no failure: the note says the build is
  incomplete.

The build reads through a file system (``kube.kustomize.filesys``): the disk, or the
files given in memory mounted at :data:`MEMORY_ROOT`; a Flux Kustomization adds its
``spec.patches`` over it (``lint.flux``).
"""

from __future__ import annotations

import os
import posixpath
from contextvars import ContextVar

from ..errors import KubeError
from .finding import Location
from .kustomizations import find_kustomization, join, read_kustomization
from .model import Application, Outcome, PatchSite
from .options import DEFAULT_OPTIONS, BuildOptions
from .sites import kustomization_sites

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Where files given in memory are mounted for ``kube build`` (no folder is written).
MEMORY_ROOT = "/cfgpatch-lint-memory"
#: The in-memory file system of the run, when the files are in memory.
memory_fs: ContextVar[Any] = ContextVar("memory_fs", default=None)
#: Whether builds keep the blame of their output (``Outcome.blame``: the base side of
#: ``ssa-stuck-field`` needs the line that set a field; it costs a full trace).
keep_blame: ContextVar[bool] = ContextVar("keep_blame", default=False)
#: ``(declared_in, field, index) -> sites``: how a build's steps find their sites.
StepSites = dict[tuple, list[PatchSite]]


def _relative(root: str, path: str) -> str:
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    return rel


def _findings(site: PatchSite, before: Any) -> list:
    """The patch engine's findings of ``site`` applied to ``before``."""
    if not isinstance(before, dict):
        return []
    from .engine import apply_json, apply_strategic, retargeted  # (patches only)

    try:
        if site.patch_type == "json6902":
            return apply_json(before, site.patch, True)[1]
        patch = retargeted(site.patch, before) if site.target is not None else site.patch
        return apply_strategic(before, patch, True)[1]
    except KubeError as exc:
        return list(exc.findings)


def sites_by_step(sites: list[PatchSite]) -> StepSites:
    out: StepSites = {}
    for site in sites:
        out.setdefault((site.declared_in, site.field_name, site.index), []).append(site)
    return out


def applications(root: str, steps: list, by_step: StepSites
                 ) -> tuple[list[Application], PatchSite | None]:
    """The applications of the unit's own patches, and the site of the last step."""
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
        from .engine import resource_id

        for touch in step.touches:
            app = Application(site, resource_id(touch.before), touch.before, touch.after,
                              _findings(site, touch.before), node=_node(touch.before))
            out.append(app)
    return out, last


def _node(value: Any) -> Any:
    from ..kube.schema.node import builtin_schema
    if not isinstance(value, dict):
        return None
    return builtin_schema().for_kind(str(value.get("apiVersion", "")), str(value.get("kind", "")),
                                     unversioned=False)  # kustomize: kyaml has none


def unit_sites(files: Any, path: str, seen: frozenset[str] = frozenset()) -> list[PatchSite]:
    """The patch sites of the kustomization ``path`` and of its components (recursively),
    components first, as they run (none when it cannot be read: the build says why)."""
    try:
        kustomization = read_kustomization(files, path)
    except Exception:  # noqa: BLE001 - kube build refuses it with kustomize's text
        return []
    out: list[PatchSite] = []
    for entry in kustomization.value.get("components") or []:
        if not isinstance(entry, str):
            continue
        found = find_kustomization(files, join(kustomization.directory, entry))
        if found is not None and found not in seen:
            out += unit_sites(files, found, seen | {path})
    declared = kustomization_sites(path, files[path], files)
    return out + [d.site for d in declared]


def build_partial(directory: str, trace: Any, options: BuildOptions, fs: Any = None) -> Any:
    """``kube build``'s partial build of ``directory`` with the options it takes (those it
    does not take yet are left at kustomize's defaults); raises ``BuildError``."""
    from ..kube.kustomize.partial_build import build_partial as partial
    extra: dict[str, Any] = {name: value for name, value in (
        ("load_restrictor", options.load_restrictor), ("enable_helm", options.enable_helm),
        ("helm_command", options.helm_command)) if name in _build_parameters()}
    if fs is None and directory.startswith(MEMORY_ROOT):
        fs = memory_fs.get()
    return partial(directory, trace, fs, **extra)


def _build_parameters() -> frozenset[str]:
    from ..kube.kustomize.build import build

    code = build.__code__  # its parameter names (inspect.signature costs an import)
    return frozenset(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])


def lint_kustomization_built(files: Any, root: str, path: str,
                             options: BuildOptions = DEFAULT_OPTIONS) -> Outcome:
    """The outcome of the kustomization file ``path`` (relative to ``root``)."""
    sites = unit_sites(files, path)
    outcome = built_outcome(Outcome("kustomization", path, sites=sites, builder="kube build"),
                            files, root, posixpath.dirname(path), sites_by_step(sites),
                            options)
    if outcome.error is None:
        outcome.incomplete = [*placeholders(files, path), *outcome.incomplete]
    return outcome


def built_outcome(outcome: Outcome, files: Any, root: str, directory: str,
                  by_step: StepSites, options: BuildOptions, fs: Any = None) -> Outcome:
    """``outcome`` filled from the partial build of ``directory`` (relative to ``root``):
    the applications of the sites ``by_step`` names, what was skipped (a note), or the
    failure."""
    from ..kube.kustomize.build import BuildError, too_deep
    from ..kube.kustomize.trace import Trace

    blamed = keep_blame.get()
    # lint reads what patches did, not transformers (unless it wants the blame)
    trace = Trace() if blamed else Trace(patch_values_only=True)
    error: BuildError | None = None
    result: Any = None
    try:
        done = build_partial(os.path.join(root, *directory.split("/")) if directory else root,
                             trace, options, fs)
        result, skipped = done.result, done.skipped
    except BuildError as exc:
        error, skipped = exc, list(getattr(exc, "skipped", []))
    outcome.applications, last = applications(root, trace.steps, by_step)
    prefix = os.path.abspath(root) + os.sep if not root.startswith(MEMORY_ROOT) \
        else root + "/"
    for item in skipped:
        file = item.file.replace(prefix, "")
        note = f"{item.entry}: {item.reason}; lint checked what is at hand"
        outcome.incomplete = [*outcome.incomplete, note]
        where = Location(file, item.line) if item.line else Location(file)
        if outcome.offline is None:
            outcome.offline, outcome.offline_location = note, where
        else:
            outcome.offline_more.append((note, where))
    if error is None:
        outcome.built = _objects(result)
        if blamed:
            outcome.blame = _blame(result, prefix)
        return outcome
    message = error.message.replace(prefix, "")
    if message == too_deep().message:  # not kustomize's failure: lint could not follow it
        outcome.not_followed = ("a document under this kustomization is nested deeper than "
                                "cfgpatch follows (a few hundred levels); nothing was checked")
        return outcome
    from .offline import kept_own_error, offline_reason, reason_location  # (failures only)

    reason = offline_reason(error.code, message, error.problem)
    if reason is None and skipped and not kept_own_error(error.problem):
        return outcome  # what was skipped may hold what the build missed: the note says so
    if reason is not None:
        outcome.incomplete = [*outcome.incomplete, reason]
        outcome.offline = outcome.offline or reason
        outcome.offline_location = outcome.offline_location or \
            reason_location(message, outcome.path)
        return outcome
    outcome.error, outcome.error_problem = message, error.problem
    from .engine import resource_id
    from .failures import failure_location

    in_patch = last is not None and _failed_in_patch(trace)
    outcome.error_location = failure_location(files, outcome.path, message, error.problem,
                                              prefix) or (
        last.location() if in_patch and last is not None else Location(outcome.path))
    failed = trace.steps[-1].failed if trace.steps else None
    if in_patch and last is not None and failed is not None:  # the engine explains it
        outcome.applications.append(Application(
            last, resource_id(failed.before), failed.before, None,
            _findings(last, failed.before), node=_node(failed.before),
            error=KubeError(message)))
    return outcome


def _objects(result: Any) -> list[dict]:
    """The objects a build gives, as plain values (for the server-side apply checks)."""
    from ..kube.kustomize.styles import plain

    resources = getattr(result, "resources", None) or []
    return [obj for obj in (plain(r.value) for r in resources) if isinstance(obj, dict)]


def _blame(result: Any, prefix: str) -> list[dict[str, tuple[str, int]]]:
    """For each object :func:`_objects` gives, its fields' files (relative to the root)
    and lines."""
    from ..kube.explain.build import blame
    from ..kube.kustomize.styles import plain

    out = []
    for resource, found in zip(result.resources, blame(result)):
        if isinstance(plain(resource.value), dict):
            out.append({p: (f.replace(prefix, ""), line) for p, f, line in found.fields})
    return out


def placeholders(files: Any, path: str) -> list[str]:
    """Resource files of the kustomization that hold no document: placeholders another
    tool fills in (``flux bootstrap`` writes ``gotk-components.yaml`` so), so the build
    here is not the whole of what its patches will meet."""
    try:
        kustomization = read_kustomization(files, path)
    except Exception:  # noqa: BLE001 - it built; a reading lint cannot make is no placeholder
        return []
    out = []
    for entry in kustomization.value.get("resources") or []:
        name = join(kustomization.directory, entry) if isinstance(entry, str) else None
        if name is None or not name.endswith((".yaml", ".yml", ".json")):
            continue
        try:
            text = files[name]
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


__all__ = ["MEMORY_ROOT", "applications", "built_outcome", "keep_blame",
           "lint_kustomization_built", "memory_fs", "sites_by_step", "unit_sites"]
