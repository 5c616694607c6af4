"""The detectors of ``cfgpatch lint``: from an :class:`~cfgpatch.lint.model.Outcome` to
findings at the lines of the patch text.

* the patch engine's findings of every application (same codes as ``kube patch``),
  placed at the field or operation they concern;
* ``build-failed``, ``patch-matches-nothing``, ``selector-matches-other-kinds``,
  ``custom-resource-list-replaced`` here; ``field-set-twice`` in ``lint.overlap``.

Findings are made at the rule's default level; ``lint.linter`` applies the config.
"""

from __future__ import annotations

from functools import partial

from ..kube.schema.rules import KEYED, Shapes
from ..records import replace
from .finding import LintFinding, Location, make
from .model import Application, Outcome, PatchSite, app_shapes
from .ssa_ready import ssa_readiness

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

#: Engine findings that say nothing about a kustomize build: kustomize does not refuse a
#: strategic patch on a custom resource (custom-resource-list-replaced says what it does).
KUSTOMIZE_SKIP = frozenset({"custom-resource", "fallback-view", "server-side-apply-view",
                            "kustomize-differs"})


def check(outcome: Outcome) -> list[LintFinding]:
    """Every finding of one linted unit."""
    out: list[LintFinding] = list(outcome.notes)
    if outcome.error is not None:
        failed = "partial-build-failed" if outcome.partial else "build-failed"
        out.append(replace(make(failed, _build_message(outcome),
                                outcome.error_location or Location(outcome.path),
                                error=outcome.error), problem=outcome.error_problem))
    if outcome.offline is not None:
        out.append(make("build-incomplete", f"not followed offline: {outcome.offline}",
                        outcome.offline_location or Location(outcome.path)))
    for reason, where in outcome.offline_more:
        out.append(make("build-incomplete", f"not followed offline: {reason}", where))
    if outcome.not_followed is not None:
        out.append(make("not-followed", outcome.not_followed, Location(outcome.path)))
    by_site: dict[int, list[Application]] = {id(s): [] for s in outcome.sites}
    for app in outcome.applications:
        by_site.setdefault(id(app.site), []).append(app)
        out.extend(engine_findings(app, outcome.kind))
        out.extend(custom_resource_lists(app, outcome))
    if outcome.error is None:
        for site in outcome.sites:
            apps = by_site.get(id(site), [])
            if not apps and site.target is not None and not outcome.incomplete:
                out.append(_matches_nothing(site))
            out.extend(_other_kinds(site, apps))
        if outcome.applications:  # (a repository may have no patches: nothing to load)
            from .overlap import field_set_twice

            out.extend(field_set_twice(outcome.applications))
        out.extend(ssa_readiness(outcome))
    return marked(out, outcome.partial)


def _build_message(outcome: Outcome) -> str:
    what = {"flux": "the Flux Kustomization's build", "standalone": "the patch"}.get(
        outcome.kind, "kustomize build")
    if outcome.partial:
        what = "the Flux Kustomization's build of the folder of the same path here"
    return f"{what} fails: {outcome.error}"


def marked(findings: list[LintFinding], partial: str) -> list[LintFinding]:
    """``findings`` of a partial build, each saying so (``detail.partial``)."""
    if not partial:
        return findings
    return [f if f.rule == "flux-other-source" else
            replace(f, detail={**f.detail, "partial": partial}) for f in findings]


def engine_findings(app: Application, unit_kind: str) -> Iterator[LintFinding]:
    """The patch engine's findings of ``app``, at their field or operation."""
    from .locate import finding_location  # (patches only: a repository may have none)

    shapes = app_shapes(app)
    for finding in app.findings:
        if unit_kind != "standalone" and finding.code in KUSTOMIZE_SKIP:
            continue
        if unit_kind != "standalone" and app.node is None and \
                finding.code == "atomic-list-replaced":
            continue  # a custom resource: custom-resource-list-replaced says it with names
        location = finding_location(app.site, finding, app.before, shapes)
        detail = {"pointer": finding.path, "resource": app.resource.describe(),
                  **(finding.detail or {})}
        detail.pop("result", None)
        detail.pop("kustomize", None)
        message = f"{app.resource.describe()}: {finding.message}"
        guard = (finding.detail or {}).get("guard")
        if guard is not None:
            from ..jsonvalue import canonical_unchecked
            detail["guard_text"] = f"- {canonical_unchecked(guard)}"
        yield make(finding.code, message, location, **detail)


def _matches_nothing(site: PatchSite) -> LintFinding:
    selector = ", ".join(f"{k} {v}" for k, v in (site.target or {}).items()) or "empty selector"
    related = (site.target_location,) if site.target_location else ()
    return make("patch-matches-nothing",
                f"the target ({selector}) of {site.label} selects no resource of the build, "
                f"so the patch does nothing", site.location(), related, target=site.target)


def _other_kinds(site: PatchSite, apps: list[Application]) -> Iterator[LintFinding]:
    if site.target is None or not apps:
        return
    kinds = sorted({a.resource.kind for a in apps})
    own = site.patch.get("kind") if isinstance(site.patch, dict) else None
    if "kind" in site.target and (own is None or kinds == [own]):
        return
    strays = [k for k in kinds if k != own] if own else kinds
    if own is None and len(kinds) < 2:
        return
    if not strays:
        return
    names = ", ".join(a.resource.describe() for a in apps if a.resource.kind in strays)
    named = f"the patch is written for {own}" if own else "the patch names no kind"
    related = (site.target_location,) if site.target_location else ()
    yield make("selector-matches-other-kinds",
               f"the target of {site.label} also selects {names} ({', '.join(kinds)} in all); "
               f"{named}", site.location(), related, kinds=kinds)


def custom_resource_lists(app: Application, outcome: Outcome) -> Iterator[LintFinding]:
    """A strategic patch on a kind without a schema: each list it replaced, and what it lost."""
    if app.node is not None or app.site.patch_type != "strategic" or outcome.kind == \
            "standalone" or app.error is not None or not isinstance(app.before, dict):
        return
    from ..kube.explain.changes import compute_changes  # (patches' explanations only)
    from ..kube.explain.walk import restated
    from .locate import pointer_location

    crd_shapes = _crd_shapes(outcome.crds, app.before)
    for change in compute_changes(app.before, app.after, mode="merge"):
        if change.action != "list" or not change.lost:
            continue
        keys = _list_keys(crd_shapes, change.path)
        name_of = partial(_name, keys=keys)
        lost = [name_of(item) for item in change.lost
                if not restated(item, change.after, name_of)]
        if not lost:  # every element restated with all its fields: changed on purpose
            continue
        kept = {name_of(item) for item in change.after}
        gone = [name for name in lost if name not in kept] or lost
        hint = (f"; its CRD keys this list on {', '.join(keys)}, but kustomize does not read "
                f"CRDs for merging (crds: neither: only an openapi: document gives it merge "
                f"keys)" if keys else "")
        yield make("custom-resource-list-replaced",
                   f"{app.resource.describe()}: kustomize has no merge keys for "
                   f"{app.resource.kind}, so the patch replaces {change.path} and loses "
                   f"{', '.join(gone)}{hint}",
                   pointer_location(app.site, change.path, app.before, None),
                   pointer=change.path, lost=gone, resource=app.resource.describe())


def _crd_shapes(crds: list, obj: dict) -> Shapes | None:
    if not crds:
        return None
    from ..kube.schema.crd import crd_shapes
    kind, group = obj.get("kind"), str(obj.get("apiVersion", "")).rsplit("/", 1)[0]
    for crd in crds:
        spec = crd.get("spec") if isinstance(crd, dict) else None
        if not isinstance(spec, dict):
            continue
        names = spec.get("names", {})
        if isinstance(names, dict) and names.get("kind") == kind and spec.get("group") == group:
            try:
                return crd_shapes(crd, obj)
            except Exception:  # noqa: BLE001 - a CRD we cannot read names no keys
                return None
    return None


def _list_keys(shapes: Shapes | None, pointer: str) -> tuple[str, ...]:
    if shapes is None:
        return ()
    shape = tuple("[]" if t.isdigit() else t for t in pointer.split("/")[1:])
    rule_ = shapes.list_rule(shape)
    return tuple(rule_.keys) if rule_ is not None and rule_.kind == KEYED else ()


def _name(item: Any, keys: tuple[str, ...]) -> str:
    if keys and isinstance(item, dict) and all(k in item for k in keys):
        return "/".join(str(item[k]) for k in keys)
    from ..kube.explain.changes import describe_element

    return describe_element(item)
