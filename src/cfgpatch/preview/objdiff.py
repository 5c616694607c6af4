"""One object's change: a semantic diff (lists by merge key) and the plain YAML diff.

The semantic diff is :func:`cfgpatch.kube.explain.changes.compute_changes` in
strategic mode with the kind's schema (merge-keyed lists paired by key, moves named),
flattened so that an element inserted into or removed from a keyed list is a change of
its own.  Each :class:`FieldChange` says where it is on each side: the pointer into the
head object (what is there now) and into the base object (what went away).  A Secret's
``data`` and ``stringData`` values are never shown: only that they changed.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from ..kube.explain.build import _schema
from ..kube.explain.changes import INSERTED, REMOVED, compute_changes

HIDDEN = "(hidden)"
SECRET_FIELDS = ("/data", "/stringData")


@dataclass
class FieldChange:
    action: str  # add, remove, replace, move
    path: str  # pointer (head side for add/replace/move, base side for remove)
    before: Any = None
    after: Any = None
    base_path: str = ""
    attribution: list[dict] = field(default_factory=list)
    ignored: bool = False
    how: str = ""

    def to_dict(self) -> dict:
        out: dict = {"action": self.action, "path": self.path}
        if self.action != "add":
            out["before"] = self.before
        if self.action != "remove":
            out["after"] = self.after
        if self.base_path and self.base_path != self.path:
            out["base_path"] = self.base_path
        if self.how:
            out["how"] = self.how
        out["attribution"] = self.attribution
        return out


def field_changes(before: dict, after: dict) -> list[FieldChange]:
    node, shapes = _schema(after)
    out: list[FieldChange] = []
    out_all = compute_changes(before, after, mode="strategic", shapes=shapes)
    for change in out_all:
        if change.action == "list":
            for landing in change.landings:
                if landing.action == INSERTED:
                    out.append(FieldChange("add", f"{change.path}/{landing.target}",
                                           after=_at(after, f"{change.path}/{landing.target}")))
                elif landing.action == REMOVED:
                    path = f"{change.path}/{landing.source}"
                    out.append(FieldChange("remove", path, before=_at(before, path),
                                           base_path=path))
            if change.how == "replaced" and not _inner(change.path, out_all):
                out.append(FieldChange("replace", change.path, _at(before, change.path),
                                       _at(after, change.path), change.path, how="replaced"))
            continue
        before_value = change.before if change.action != "add" else None
        after_value = change.after if change.action != "remove" else None
        out.append(FieldChange(change.action, change.path, before_value, after_value,
                               change.path if change.action == "remove" else ""))
    if before.get("kind") == "Secret" or after.get("kind") == "Secret":
        for item in out:
            if item.path.startswith(SECRET_FIELDS) or item.path in ("", "/"):
                item.before = HIDDEN if item.before is not None else None
                item.after = HIDDEN if item.after is not None else None
    return out


def _inner(path: str, changes: list) -> bool:
    return any(c.path.startswith(path + "/") for c in changes)


def yaml_diff(before_text: str, after_text: str, kind: str, label: str) -> str:
    if kind == "Secret":
        before_text, after_text = redact(before_text), redact(after_text)
    lines = difflib.unified_diff(before_text.splitlines(keepends=True),
                                 after_text.splitlines(keepends=True),
                                 f"base/{label}", f"head/{label}", n=3)
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def redact(text: str) -> str:
    """A Secret's YAML with the values of ``data`` and ``stringData`` replaced."""
    out, inside = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith(("data:", "stringData:")):
            inside = True
            out.append(line)
            continue
        if inside and line.startswith((" ", "-")):
            key, sep, _ = line.partition(":")
            out.append(f"{key}{sep} {HIDDEN}\n" if sep else line)
            continue
        inside = False
        out.append(line)
    return "".join(out)


def _at(value: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            value = value[int(token)] if token.isdigit() and int(token) < len(value) else None
        elif isinstance(value, dict):
            value = value.get(token)
        else:
            return None
    return value
