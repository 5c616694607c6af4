"""Standalone patch files: a patch that ``.cfgpatch.yaml`` maps to the file of its target.

Each mapping is applied the way ``kubectl patch --local -f TARGET --type TYPE
--patch-file PATCH`` would (the same engine and findings as ``cfgpatch kube patch``), to
every object of the target file that ``select`` keeps.  A patch kubectl refuses is a
``patch-fails`` finding with kubectl's message; a selection that keeps nothing is
``patch-matches-nothing``.
"""

from __future__ import annotations

from ..errors import CfgPatchError, KubeError
from .config import Config, StandalonePatch
from .finding import LintFinding, Location, make
from .locate import op_location
from .model import Application, Outcome, PatchSite, ResourceId
from .yamlpos import Tree, documents

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

_TYPES = {"strategic": "strategic", "merge": "merge", "json": "json"}


def lint_standalone(entry: StandalonePatch, config: Config, files: Mapping[str, str],
                    crds: list) -> tuple[Outcome, list[LintFinding]]:
    """The outcome of one mapping, and findings that belong to the target file."""
    site = PatchSite(entry.patch, "", patch_type=entry.type, declared_in=config.source,
                     label=f"lint.patches[{entry.index}] ({entry.patch})",
                     target=dict(entry.select) or None)
    outcome = Outcome("standalone", entry.patch, [site], crds=crds)
    patch_text = _read(files, entry.patch)
    target_text = _read(files, entry.target)
    if patch_text is None or target_text is None:
        missing = entry.patch if patch_text is None else entry.target
        outcome.error = f"{missing} (named in {config.source}) cannot be read"
        outcome.error_location = _config_location(files, config, entry)
        return outcome, []
    site.text = patch_text
    from ..kube.io.reader import compose_documents, load_patch, object_from_nodes
    try:
        patch, patch_notes = load_patch(patch_text, _TYPES[entry.type])
        site.patch = patch
        objects = [object_from_nodes([node], entry.target)
                   for node in compose_documents(target_text, entry.target)]
    except CfgPatchError as exc:
        return _failed(outcome, site, exc), []
    trees = _trees(target_text)
    extra: list[LintFinding] = []
    for number, (obj, notes) in enumerate(objects):
        if not _selected(obj, entry.select):
            continue
        app = _apply(site, obj, notes, patch, patch_notes, entry.type, crds)
        outcome.applications.append(app)
        if app.error is not None:
            index = _failing_op(obj, patch) if entry.type == "json" else None
            where = op_location(site, index) if isinstance(index, int) else site.location()
            extra.append(make("patch-fails", f"{app.resource.describe()}: kubectl patch fails: "
                              f"{app.error.message}", where, resource=app.resource.describe(),
                              op_index=index))
        extra.extend(_object_notes(app, entry.target, trees[number] if number < len(trees)
                                   else None))
    return outcome, extra


def _read(files: Mapping[str, str], path: str) -> str | None:
    try:
        return files[path]
    except (KeyError, OSError, UnicodeDecodeError):
        return None


def _trees(text: str) -> list[Tree]:
    try:
        return documents(text)
    except ValueError:
        return []


def _config_location(files: Mapping[str, str], config: Config, entry: StandalonePatch
                     ) -> Location:
    text = _read(files, config.source) or ""
    trees = _trees(text)
    if trees:
        span, _ = trees[0].find(["lint", "patches", entry.index])
        return Location(config.source, span.line, span.column, span.end_line, span.end_column)
    return Location(config.source)


def _failed(outcome: Outcome, site: PatchSite, exc: CfgPatchError) -> Outcome:
    outcome.error = exc.message
    outcome.error_location = site.location()
    return outcome


def _failing_op(obj: Any, ops: Any) -> int | None:
    """The JSON Patch operation kubectl fails on: applied one at a time, the first that
    fails (None when that does not reproduce the failure)."""
    from ..kube.engine import jsonpatch

    if not isinstance(ops, list) or not isinstance(obj, dict):
        return None
    state = obj
    for index, op in enumerate(ops):
        try:
            state = jsonpatch.apply(state, [op])
        except CfgPatchError:
            return index
    return None


def _selected(obj: Any, select: dict) -> bool:
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    have = {"apiVersion": obj.get("apiVersion"), "kind": obj.get("kind"),
            "name": meta.get("name"), "namespace": meta.get("namespace") or ""}
    return all(str(have.get(k) or "") == v for k, v in select.items())


def resource_id(obj: Any) -> ResourceId:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict):
        meta = {}
    return ResourceId(str(obj.get("apiVersion", "")), str(obj.get("kind", "")),
                      str(meta.get("name", "")), str(meta.get("namespace") or ""))


def _crd_for(obj: dict, crds: list) -> Any:
    group = str(obj.get("apiVersion", "")).rsplit("/", 1)[0]
    for crd in crds:
        spec = crd.get("spec") if isinstance(crd, dict) else None
        if isinstance(spec, dict) and spec.get("group") == group and isinstance(
                spec.get("names"), dict) and spec["names"].get("kind") == obj.get("kind"):
            return crd
    return None


def _apply(site: PatchSite, obj: dict, notes: list, patch: Any, patch_notes: list,
           patch_type: str, crds: list) -> Application:
    from ..kube.patcher import patch as kube_patch
    from ..kube.schema.node import builtin_schema

    node = builtin_schema().for_kind(str(obj.get("apiVersion", "")), str(obj.get("kind", "")))
    app = Application(site, resource_id(obj), obj, None, node=node)
    try:
        result = kube_patch(obj, patch, patch_type, crd=_crd_for(obj, crds), notes=notes,
                            patch_notes=patch_notes)
    except KubeError as exc:
        app.error = exc
        app.findings = list(exc.findings)
        return app
    app.after = result.object
    app.findings = list(result.findings)
    return app


def _object_notes(app: Application, target: str, tree: Tree | None) -> list[LintFinding]:
    """YAML type notes of the target object belong to the target file's lines."""
    out = []
    kept = []
    for finding in app.findings:
        if finding.code == "yaml-type-change" and (finding.detail or {}).get("source") == \
                "object":
            where = Location(target)
            if tree is not None:
                path = [int(t) if t.isdigit() else t for t in
                        (p.replace("~1", "/").replace("~0", "~")
                         for p in finding.path.split("/")[1:])]
                span, _ = tree.find(path)
                where = Location(target, span.line, span.column, span.end_line,
                                 span.end_column)
            out.append(make("yaml-type-change", f"{app.resource.describe()}: "
                            f"{finding.message}", where, pointer=finding.path))
        else:
            kept.append(finding)
    app.findings = kept
    return out
