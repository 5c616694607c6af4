"""``kube build --explain`` for kustomize's ``replacements``: what each one changed.

One :class:`ReplacementReport` per replacement, in the order kustomize ran them: where
it is written, the resource and field it copied from and the value copied, and per
target resource every field it changed (:mod:`.changes`, before -> after).  A
replacement whose targets already held the value changed nothing and says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..kustomize.positions import escape
from ..kustomize.trace import Step
from .changes import _short

FIELD = "replacements"


_ABSENT: Any = object()


@dataclass(frozen=True)
class FieldChange:
    """One field a replacement set: its pointer, and its value before (absent: created)."""

    path: str
    before: Any
    after: Any

    def to_dict(self) -> dict:
        out = {"path": self.path, "after": self.after}
        if self.before is not _ABSENT:
            out["before"] = self.before
        return out

    def describe(self) -> str:
        if self.before is _ABSENT:
            return f"{self.path}: created {_short(self.after)}"
        return f"{self.path}: {_short(self.before)} -> {_short(self.after)}"


@dataclass
class ReplacementReport:
    step: Step
    targets: list[tuple[str, list[FieldChange]]] = field(default_factory=list)

    @property
    def source(self) -> dict:
        return self.step.selector or {}

    def to_dict(self, rel: Any) -> dict:
        source = self.source
        return {"field": FIELD, "index": self.step.index,
                "file": rel(self.step.kustomization), "line": self.step.line,
                "source": {"resource": source.get("resource"),
                           "fieldPath": source.get("fieldPath"),
                           "value": source.get("value")},
                "targets": [{"resource": label, "changes": [c.to_dict() for c in changes]}
                            for label, changes in self.targets]}

    def describe(self, number: int, rel: Any) -> list[str]:
        step, source = self.step, self.source
        where = f"{rel(step.kustomization)}:{step.line}" if step.line \
            else rel(step.kustomization)
        out = [f"replacement {number}: {FIELD}[{step.index}] at {where}",
               f"  source: {source.get('resource')} {source.get('fieldPath')} = "
               f"{_short(source.get('value'))}"]
        if not self.targets:
            out.append("  changed nothing: every target already held this value")
        for label, changes in self.targets:
            out.append(f"  {label}:")
            out += [f"    {c.describe()}" for c in changes]
        return out


def reports(steps: list[Step]) -> list[ReplacementReport]:
    """The replacement steps of a build trace, explained."""
    out = []
    for step in steps:
        if step.field != FIELD:
            continue
        report = ReplacementReport(step)
        for touch in step.touches:
            changes: list[FieldChange] = []
            _diff(touch.before, touch.after, "", changes)
            report.targets.append((touch.label, changes))
        out.append(report)
    return out


def _diff(before: Any, after: Any, pointer: str, out: list[FieldChange]) -> None:
    """The fields set between ``before`` and ``after`` (a replacement only sets or
    creates fields: a list grows only at its end)."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key, value in after.items():
            _diff(before.get(key, _ABSENT), value, f"{pointer}/{escape(str(key))}", out)
    elif isinstance(before, list) and isinstance(after, list) and len(after) >= len(before):
        for index, value in enumerate(after):
            _diff(before[index] if index < len(before) else _ABSENT, value,
                  f"{pointer}/{index}", out)
    elif before is _ABSENT or before != after or type(before) is not type(after):
        out.append(FieldChange(pointer, before, after))
