"""``kube build --explain``: every patch of a build in kustomize's order, and a blame.

:func:`explain` turns the :class:`~cfgpatch.kube.kustomize.trace.Trace` of a
build into:

* one :class:`PatchReport` per patch, in the order kustomize applied them: the
  resources it targeted; ``matched_nothing`` for a patch that selected nothing (kustomize
  says nothing); ``extra_kinds`` when its selector matched kinds the patch does not name
  (a target without ``kind`` whose strategic patch names a Deployment also patches the
  Service of the same name); per target the changes (:mod:`.changes`, computed on the
  resource as it was at that step), the findings of the patch type's detectors, and
  every list the patch replaced with the elements it lost;
* a blame of the output: for each field (leaf) of each resource, the file and line that
  last set it (the resource file, a patch, or the kustomization line of a transformer).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..kustomize.build import BuildResult
from ..kustomize.positions import escape
from ..kustomize.resources import Resource
from ..kustomize.trace import PATCH, Step, Touch
from ..schema.rules import Shapes
from .catalogue import Finding, Situation
from .changes import Change, compute_changes, describe_element
from .findings import detect
from .replacements import ReplacementReport
from .replacements import reports as replacement_reports


@dataclass
class TargetReport:
    resource: str
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    lost: list[tuple[str, list[str]]] = field(default_factory=list)  # (list path, elements)
    deleted: bool = False


@dataclass
class PatchReport:
    step: Step
    targets: list[TargetReport] = field(default_factory=list)
    extra_kinds: list[str] = field(default_factory=list)

    @property
    def matched_nothing(self) -> bool:
        return not self.step.touches


@dataclass
class Blame:
    resource: str
    fields: list[tuple[str, str, int]] = field(default_factory=list)  # pointer, file, line


@dataclass
class Explanation:
    patches: list[PatchReport]
    blame: list[Blame]
    root: str = ""
    replacements: list[ReplacementReport] = field(default_factory=list)

    def to_dict(self) -> dict:
        rel = self._rel
        return {"patches": [_patch_dict(p, self.root) for p in self.patches],
                "replacements": [r.to_dict(rel) for r in self.replacements],
                "blame": [{"resource": b.resource, "fields": [
                    {"path": p, "file": _rel(f, self.root), "line": line}
                    for p, f, line in b.fields]} for b in self.blame]}

    def describe(self) -> str:
        """The human form (what ``--explain`` writes on standard error)."""
        out = []
        for number, report in enumerate(self.patches, 1):
            out += _describe_patch(number, report, self.root)
        for number, replacement in enumerate(self.replacements, 1):
            out += replacement.describe(number, self._rel)
        out.append("blame (file:line that last set each field):")
        for blame in self.blame:
            out.append(f"  {blame.resource}")
            for pointer, file, line in blame.fields:
                where = f"{_rel(file, self.root)}:{line}" if line else _rel(file, self.root)
                out.append(f"    {pointer}  {where}")
        return "\n".join(out) + "\n"

    def _rel(self, path: str) -> str:
        return _rel(path, self.root)


def explain(result: BuildResult, root: str = "") -> Explanation:
    """The explanation of a build made with a trace (``build(dir, Trace())``)."""
    if result.trace is None:
        raise ValueError("the build has no trace: build it with build(directory, Trace())")
    reports = [_report(step) for step in result.trace.steps if step.kind == PATCH]
    return Explanation(reports, _blame(result), root, replacement_reports(result.trace.steps))


def blame(result: BuildResult) -> list[Blame]:
    """The blame alone of a build made with a trace (no patch reports: cheaper)."""
    if result.trace is None:
        raise ValueError("the build has no trace: build it with build(directory, Trace())")
    return _blame(result)


# ----------------------------------------------------------------- patches


def _report(step: Step) -> PatchReport:
    report = PatchReport(step)
    kinds = [t.label.split("/", 1)[0] for t in step.touches]
    if step.patch_kinds:
        report.extra_kinds = [k for k in dict.fromkeys(kinds) if k not in step.patch_kinds]
    for touch in step.touches:
        report.targets.append(_target(step, touch))
    return report


def _target(step: Step, touch: Touch) -> TargetReport:
    out = TargetReport(touch.label)
    if touch.after is None:
        out.deleted = True
        return out
    node, shapes = _schema(touch.before)
    mode = step.patch_type if node is not None or step.patch_type == "json" else "merge"
    out.changes = compute_changes(touch.before, touch.after, mode=mode, shapes=shapes)
    for change in out.changes:
        if change.action == "list" and change.how == "replaced" and change.lost:
            kept = [describe_element(i) for i in change.after] \
                if isinstance(change.after, list) else []
            gone = [describe_element(i) for i in change.lost]
            gone = [g for g in gone if g not in kept] or gone
            out.lost.append((change.path, gone))
    if node is not None or step.patch_type == "json":
        situation = Situation(touch.before, step.patch, step.patch_type, touch.after,
                              shapes=shapes, node=node, kind=touch.label.split("/", 1)[0])
        if step.patch_type == "json":
            situation.before_op = _before_op(touch.before, step.patch)
        try:
            out.findings = detect(situation)
        except Exception:  # noqa: BLE001 - a detector that cannot read this patch says nothing
            out.findings = []
    return out


def _schema(value: Any) -> tuple[Any, Shapes]:
    from ..schema.node import builtin_schema, node_shapes

    api = value.get("apiVersion") if isinstance(value, dict) else None
    kind = value.get("kind") if isinstance(value, dict) else None
    node = builtin_schema().for_kind(api if isinstance(api, str) else "",
                                     kind if isinstance(kind, str) else "",
                                     unversioned=False)  # kyaml has no unversioned kinds
    return node, (node_shapes(node) if node is not None else Shapes())


def _before_op(obj: Any, ops: Any):
    from ..engine import jsonpatch

    def before(index: int) -> Any:
        try:
            return jsonpatch.apply_document(obj, ops[:index]) if isinstance(ops, list) else None
        except Exception:  # noqa: BLE001 - an earlier operation failed
            return None

    return before


def _patch_dict(report: PatchReport, root: str) -> dict:
    step = report.step
    return {"field": step.field, "index": step.index,
            "kustomization": _rel(step.kustomization, root), "line": step.line,
            "type": step.patch_type, "patch_file": _rel(step.patch_file, root),
            "target": step.selector, "patch_kinds": list(step.patch_kinds),
            "matched_nothing": report.matched_nothing, "extra_kinds": report.extra_kinds,
            "targets": [{"resource": t.resource, "deleted": t.deleted,
                         "changes": [c.to_dict() for c in t.changes],
                         "findings": [f.to_dict() for f in t.findings],
                         "lists_replaced": [{"path": p, "lost": names} for p, names in t.lost]}
                        for t in report.targets]}


def _describe_patch(number: int, report: PatchReport, root: str) -> list[str]:
    step = report.step
    where = f"{_rel(step.kustomization, root)}:{step.line}"
    head = f"patch {number}: {step.field}[{step.index}] ({step.patch_type}) at {where}"
    if step.patch_file != step.kustomization:
        head += f", from {_rel(step.patch_file, root)}"
    out = [head]
    if step.selector is not None:
        out.append("  target: " + " ".join(f"{k}={v}" for k, v in step.selector.items()))
    if report.matched_nothing:
        out.append("  matched nothing: this patch changed no resource (kustomize does not "
                   "say so)")
    if report.extra_kinds:
        out.append(f"  the selector also matched {', '.join(report.extra_kinds)}, which the "
                   f"patch does not name ({', '.join(step.patch_kinds)})")
    for target in report.targets:
        if target.deleted:
            out.append(f"  {target.resource}: deleted")
            continue
        out.append(f"  {target.resource}:" + ("" if target.changes else " no change"))
        out += [f"    {c.describe()}" for c in target.changes]
        out += [f"    list {p} replaced, lost: {', '.join(names)}" for p, names in target.lost]
        out += [f"    {f.describe()}" for f in target.findings]
    return out


# ----------------------------------------------------------------- blame


def _blame(result: BuildResult) -> list[Blame]:
    assert result.trace is not None
    blames: dict[int, dict[str, tuple[str, int]]] = {}
    for step in result.trace.steps:
        for touch in step.touches:
            current = blames.get(id(touch.resource))
            if current is None:
                current = _initial(touch.resource, touch.before)
            blames[id(touch.resource)] = _update(current, touch, step)
    out = []
    for resource in result.resources:
        current = blames.get(id(resource)) or _initial(resource, resource.value)
        leaves = _leaves(resource.value)
        out.append(Blame(resource.describe(), [(p, *current.get(p, (resource.source.file, 0)))
                                               for p in sorted(leaves)]))
    return out


def _initial(resource: Resource, value: Any) -> dict[str, tuple[str, int]]:
    if value is None:
        return {}
    source = resource.source
    return {p: (source.file, source.position(p)[0]) for p in _leaves(value)}


def _update(current: dict, touch: Touch, step: Step) -> dict[str, tuple[str, int]]:
    if touch.after is None:
        return {}
    before = _leaves(touch.before) if touch.before is not None else {}
    after = _leaves(touch.after)
    out = {p: at for p, at in current.items() if p in after}
    for pointer, value in after.items():
        if pointer not in before or not _same(before[pointer], value):
            out[pointer] = _where(step, pointer, touch.after)
    return out


def _where(step: Step, pointer: str, after: Any) -> tuple[str, int]:
    if step.kind != PATCH:
        return step.kustomization, step.line
    if step.patch_type == "json":
        return step.patch_file, _json_line(step, pointer)
    tokens = _patch_tokens(after, step.patch, pointer.split("/")[1:])
    while tokens:
        found = step.patch_positions.get("/" + "/".join(tokens))
        if found:
            return step.patch_file, found[0]
        tokens = tokens[:-1]
    return step.patch_file, step.patch_positions.get("", (step.patch_line, 0))[0]


def _patch_tokens(after: Any, patch: Any, tokens: list[str]) -> list[str]:
    """The pointer into the strategic patch that corresponds to ``tokens`` in the result
    (list elements matched by ``name``, by equal value, or by position)."""
    out: list[str] = []
    for token in tokens:
        if isinstance(after, dict) and isinstance(patch, dict):
            key = token.replace("~1", "/").replace("~0", "~")
            if key not in patch:
                return out
            after, patch = after.get(key), patch[key]
            out.append(token)
        elif isinstance(after, list) and isinstance(patch, list) and token.isdigit() \
                and int(token) < len(after):
            element = after[int(token)]
            index = _matching_element(element, patch)
            if index is None:
                return out
            after, patch = element, patch[index]
            out.append(str(index))
        else:
            return out
    return out


def _matching_element(element: Any, items: list) -> int | None:
    name = element.get("name") if isinstance(element, dict) else None
    for index, item in enumerate(items):
        if name is not None and isinstance(item, dict) and item.get("name") == name:
            return index
        if name is None and item == element:
            return index
    return None


def _json_line(step: Step, pointer: str) -> int:
    """The line of the last operation whose path leads to ``pointer``."""
    found = step.patch_line
    for index, op in enumerate(step.patch if isinstance(step.patch, list) else []):
        path = op.get("path") if isinstance(op, dict) else None
        if isinstance(path, str) and (pointer == path or pointer.startswith(path + "/")
                                      or path.endswith("/-")):
            found = step.patch_positions.get(f"/{index}", (found, 0))[0]
    return found


def _keys_only(pointer: str) -> str:
    return "/".join(t for t in pointer.split("/") if not t.isdigit())


def _leaves(value: Any, pointer: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    stack = [(pointer, value)]
    while stack:
        path, current = stack.pop()
        if isinstance(current, dict) and current:
            stack += [(f"{path}/{escape(str(k))}", v) for k, v in current.items()]
        elif isinstance(current, list) and current:
            stack += [(f"{path}/{i}", v) for i, v in enumerate(current)]
        else:
            out[path] = current
    return out


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _rel(path: str, root: str) -> str:
    if not root or not os.path.isabs(path):
        return path
    return os.path.relpath(path, root)
