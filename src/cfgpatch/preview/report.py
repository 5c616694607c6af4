"""The preview report: a plain dict every output format reads (schema in docs/preview.md).

``schema`` is ``cfgpatch.preview/v1``; keys are only ever added within a version.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .attribution import Attributor
from .config import PreviewConfig
from .entrypoints import EntryPoint
from .objdiff import FieldChange, field_changes, yaml_diff
from .pairing import Pair
from .render import RenderedObject, leaves
from .risks import object_risks

SCHEMA = "cfgpatch.preview/v1"
STATUSES = ("added", "removed", "changed", "hash-renamed", "renamed", "namespace-moved")


def object_entry(entry: EntryPoint, pair: Pair, attributor: Attributor, config: PreviewConfig,
                 scaled: set) -> dict:
    obj = pair.head or pair.base
    assert obj is not None
    group, kind, namespace, name = obj.ident
    out: dict[str, Any] = {"entry_point": entry.key, "group": group, "kind": kind,
                           "namespace": namespace, "name": name}
    if pair.base is not None and pair.head is not None and pair.how != "same":
        _, _, old_ns, old_name = pair.base.ident
        out["renamed_from"] = {"namespace": old_ns, "name": old_name}
    whole = [i for i in config.ignore if i.covers(kind, name, ()) and not i.path]
    changes: list[FieldChange] = []
    if pair.base is not None and pair.head is not None:
        changes = field_changes(pair.base.value, pair.head.value)
        status = "changed" if pair.how == "same" else pair.how
        if not changes and pair.how == "same":
            status = "unchanged"
    else:
        status = pair.how
    for change in changes:
        keys = tuple(t.replace("~1", "/").replace("~0", "~")
                     for t in change.path.split("/")[1:])
        change.ignored = bool(whole) or any(i.covers(kind, name, keys) for i in config.ignore)
        change.attribution = _attribute(change, pair, attributor)
    shown = [c for c in changes if not c.ignored]
    ignored = len(changes) - len(shown)
    if status == "changed" and not shown:
        status = "ignored"
    if whole and status != "unchanged":
        status = "ignored"
        ignored = max(1, ignored)
    out["status"] = status
    out["ignored_changes"] = ignored
    out["changes"] = [c.to_dict() for c in shown]
    if status in ("added", "removed"):
        side = pair.head if status == "added" else pair.base
        out["sources"] = _sources(side, "head" if status == "added" else "base", attributor)
    label = f"{kind}/{name}" if not namespace else f"{kind}/{namespace}/{name}"
    visible = status not in ("unchanged", "ignored")  # an unchanged object is not written
    before = pair.base.yaml if pair.base and visible else ""
    after = pair.head.yaml if pair.head and visible else ""
    out["yaml_diff"] = yaml_diff(before, after, kind, label) if visible else ""
    out["before_yaml"], out["after_yaml"] = _shown(before, kind), _shown(after, kind)
    risks = object_risks(kind, status, shown, pair.base.value if pair.base else None,
                         pair.head.value if pair.head else None,
                         (kind, namespace, name) in scaled) \
        if status not in ("unchanged", "ignored") else []
    out["risks"] = [r.to_dict(label) for r in risks]
    if status == "removed" and out["risks"] and out.get("sources"):
        out["risks"][0]["file"] = out["sources"][0]["file"]
        out["risks"][0]["line"] = out["sources"][0]["line"]
    return out


def _shown(text: str, kind: str) -> str:
    from .objdiff import redact

    return redact(text) if kind == "Secret" else text


def _attribute(change: FieldChange, pair: Pair, attributor: Attributor) -> list[dict]:
    on_base = change.action == "remove"
    side: RenderedObject | None = pair.base if on_base else pair.head
    if side is None:
        return []
    path = change.base_path or change.path if on_base else change.path
    places: dict[tuple[str, int], None] = {}
    for pointer in leaves(_value_at(side.value, path), path):
        where = side.blame.get(pointer)
        if where is not None:
            places[where] = None
        for more in side.also.get(pointer, ()):
            places[more] = None
    if not places and path in side.blame:
        places[side.blame[path]] = None
    out = []
    side_name = "base" if on_base else "head"
    spans = sorted(((file, line, attributor.extent(side_name, file, line))
                    for file, line in places), key=lambda s: (s[0], s[1], -s[2]))
    kept: list[tuple[str, int, int]] = []
    for file, line, end in spans:  # a block inside one already named adds nothing
        if not any(f == file and first <= line and end <= last for f, first, last in kept):
            kept.append((file, line, end))
    for file, line, end in kept:
        commits = attributor.base_commits(file, line, end) if on_base else \
            attributor.head_commits(file, line, end)
        out.append({"file": file, "line": line, "end_line": end, "side": side_name,
                    "commits": [c.to_dict() for c in commits]})
    return out


def _sources(obj: RenderedObject | None, side: str, attributor: Attributor) -> list[dict]:
    """Where an added (or removed) object is written: per file, the lines of its fields."""
    if obj is None:
        return []
    spans: dict[str, tuple[int, int]] = {}
    for file, line in obj.blame.values():
        if file.startswith("(") or not line:
            continue
        first, last = spans.get(file, (line, line))
        spans[file] = (min(first, line), max(last, attributor.extent(side, file, line)))
    out = []
    for file, (line, end) in sorted(spans.items()):
        commits = attributor.head_commits(file, line, end) if side == "head" else \
            attributor.base_commits(file, line, end)
        out.append({"file": file, "line": line, "end_line": end, "side": side,
                    "commits": [c.to_dict() for c in commits]})
    return out


def _value_at(value: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        elif isinstance(value, dict) and token in value:
            value = value[token]
        else:
            return None
    return value


def summarize(root: str, base_ref: str, base: str, head_ref: str, head: str,
              entries: list[dict], skipped: list[str], objects: list[dict],
              config: PreviewConfig) -> dict:
    risks = [r for o in objects for r in o["risks"]]
    shown = [o for o in objects if o["status"] != "ignored"]
    by_kind: dict[str, Counter] = {}
    for obj in shown:
        by_kind.setdefault(obj["kind"], Counter())[obj["status"]] += 1
    ignored_objects = sum(1 for o in objects if o["status"] == "ignored")
    return {
        "schema": SCHEMA,
        "repository": root,
        "base": {"ref": base_ref, "commit": base},
        "head": {"ref": head_ref, "commit": head},
        "entry_points": entries,
        "skipped_entry_points": skipped,
        "summary": {
            "objects": dict(Counter(o["status"] for o in shown)),
            "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())},
            "risks": dict(Counter(r["rule"] for r in risks)),
            "ignored": {"changes": sum(o["ignored_changes"] for o in objects),
                        "objects": ignored_objects,
                        "rules": [i.describe() for i in config.ignore]},
            "errors": sum(1 for e in entries if e.get("error")),
            "not_rendered": sum(1 for e in entries if e.get("not_rendered")),
        },
        "risks": risks,
        "objects": shown,
    }


def exit_status(report: dict) -> int:
    """2 when an entry point failed to render, 1 when a risk is found, else 0."""
    if report["summary"]["errors"]:
        return 2
    return 1 if report["risks"] else 0
