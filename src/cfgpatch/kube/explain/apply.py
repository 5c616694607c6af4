"""What a ``kubectl apply`` (or Helm upgrade, or two-way diff) does, field by field.

The three inputs of a three-way patch and its result are flattened into *fields*:
paths to scalars, to whole atomic lists and maps, and to the elements of merge lists
(``spec.template.spec.containers[name=app].image``, ``metadata.finalizers[=a]``), as the
schema says the lists merge (a custom resource has no merge lists).  Comparing the
fields gives the famous surprises:

* ``removed``: in the last applied configuration, not in the manifest: the patch
  deletes it (``kubectl scale`` replicas are removed this way when the manifest
  stops naming ``replicas``);
* ``kept``: only in the live object, never in the last applied configuration: apply
  leaves it alone, even when you deleted it from the manifest yourself (the field
  was added by hand or by a controller);
* ``dropped``: only in the live object but gone from the result anyway (an atomic list
  or map replaced whole, a ``$retainKeys`` map);
* ``reverted``: changed in the live object since the last apply and named by the
  manifest: the manifest's value wins (a manual ``kubectl scale`` undone);
* ``left``: the live value differs from the manifest's but the patch does not name
  the field (Helm's two-way patch of a custom resource), so the live value stays;
* ``changed`` / ``added``: the manifest changes or adds the field;
* ``reordered``: a merge list whose order the patch's ``$setElementOrder`` changes.

:func:`explain_three_way` and :func:`explain_two_way` return :class:`ApplyNote` items
in path order.  Standard library only.

>>> last = {"spec": {"replicas": 3}}
>>> live = {"spec": {"replicas": 5, "paused": True}}
>>> [n.describe() for n in explain_three_way(last, {"spec": {}}, live, live, None)]
['kept spec.paused: only in the live object, never applied, so apply leaves it (true)', \
'removed spec.replicas: in the last applied configuration but not in the manifest, so \
apply deletes it (was 5)']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..go.json import encode
from ..schema.node import Node

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
_ANNOTATION_PATH = f"metadata.annotations.{LAST_APPLIED}"
#: The value of a merge-list element's own field (its contents are fields of their own).
ELEMENT = "<element>"
_MAX_TEXT = 60

WORDING = {
    "removed": "in the last applied configuration but not in the manifest, so apply "
               "deletes it",
    "kept": "only in the live object, never applied, so apply leaves it",
    "dropped": "only in the live object, but the patch replaces what holds it",
    "reverted": "changed in the live object since the last apply; the manifest's value "
                "wins",
    "left": "the live value differs from the manifest's, but the patch does not touch "
            "it, so the live value stays",
    "changed": "the manifest changes it",
    "added": "the manifest adds it",
    "reordered": "the patch sets the list's order to the manifest's",
    "deleted": "not in the new object, so the patch deletes it",
}


@dataclass(frozen=True)
class ApplyNote:
    """One field and what the patch does to it (``code`` is a key of :data:`WORDING`)."""

    code: str
    path: str
    before: Any = None
    after: Any = None

    def describe(self) -> str:
        text = f"{self.code} {self.path}: {WORDING[self.code]}"
        if self.code in ("changed", "reverted"):
            return f"{text} ({_short(self.before)} -> {_short(self.after)})"
        if self.code == "left":
            return f"{text} (live {_short(self.before)}, manifest {_short(self.after)})"
        if self.code in ("removed", "deleted"):
            return f"{text} (was {_short(self.before)})"
        if self.code in ("kept", "dropped", "added"):
            shown = self.after if self.code == "added" else self.before
            return f"{text} ({_short(shown)})"
        return text

    def to_dict(self) -> dict:
        return {"code": self.code, "path": self.path, "before": self.before,
                "after": self.after}


def explain_three_way(original: dict | None, modified: dict, current: dict | None,
                      result: dict, node: Node | None) -> list[ApplyNote]:
    """The notes of a three-way patch (``original`` = last applied, ``current`` = live;
    None when the object is created: every field of the manifest is added)."""
    last = fields(original or {}, node)
    new, out = fields(modified, node), fields(result, node)
    live = fields(current, node) if current is not None else {}
    notes: list[ApplyNote] = []
    for path, value in live.items():
        if path in new or path == _ANNOTATION_PATH:
            continue
        if path in last:
            notes.append(ApplyNote("removed", path, value))
        elif not _covered(path, last):
            notes.append(ApplyNote("kept" if path in out else "dropped", path, value))
    for path, value in new.items():
        if path == _ANNOTATION_PATH:
            continue
        if out.get(path) != value and out.get(path) == live.get(path):
            if path in live or not _covered_by(path, live):
                notes.append(ApplyNote("left", path, live.get(path), value))
        elif path not in live:
            if not _covered_by(path, live):
                notes.append(ApplyNote("added", path, None, value))
        elif live[path] != value:
            edited = path not in last or last[path] != live[path]
            notes.append(ApplyNote("reverted" if edited else "changed", path, live[path],
                                   value))
    notes.extend(_reordered(current, result, node))
    return _tidy(notes)


def explain_two_way(old: dict, new: dict, result: dict | None,
                    node: Node | None) -> list[ApplyNote]:
    """The notes of a two-way patch from ``old`` to ``new``."""
    before, after = fields(old, node), fields(new, node)
    notes = [ApplyNote("deleted", path, value) for path, value in before.items()
             if path not in after and not _covered(path, after)]
    for path, value in after.items():
        if path not in before:
            if not _covered_by(path, before):
                notes.append(ApplyNote("added", path, None, value))
        elif before[path] != value:
            notes.append(ApplyNote("changed", path, before[path], value))
    notes.extend(_reordered(old, result if result is not None else new, node))
    return _tidy(notes)


def _tidy(notes: list[ApplyNote]) -> list[ApplyNote]:
    """Sorted by path; a note inside an element that has the same note is left out."""
    whole = {(note.code, note.path) for note in notes
             if note.before == ELEMENT or note.after == ELEMENT}
    kept = [note for note in notes
            if not any(code == note.code and _inside(note.path, path)
                       for code, path in whole)]
    return sorted(kept, key=lambda note: (note.path, note.code))


def _inside(path: str, prefix: str) -> bool:
    return path.startswith(prefix + ".") or path.startswith(prefix + "[")


def _covered_by(path: str, known: dict) -> bool:
    """Whether ``known`` has fields inside ``path`` (an empty map against a full one)."""
    return any(_inside(other, path) for other in known)


def _covered(path: str, known: dict) -> bool:
    """Whether a prefix of ``path`` is itself a field of ``known`` (a whole value; a
    merge-list element's own marker is not: its fields are listed apart)."""
    return any(path.startswith(prefix + sep) for prefix, value in known.items()
               if value != ELEMENT for sep in (".", "["))


# ------------------------------------------------------------------ flattening


def fields(obj: Any, node: Node | None, prefix: str = "") -> dict[str, str]:
    """Every field of ``obj`` as path -> canonical JSON text of its value."""
    out: dict[str, str] = {}
    if isinstance(obj, dict) and (obj or not prefix):
        for key, value in obj.items():
            path = f"{prefix}.{key}" if prefix else key
            child, meta = _field(node, key)
            if isinstance(value, list) and meta is not None and meta.strategy == "merge":
                _list_fields(value, child, meta.merge_key, path, out)
            elif isinstance(value, dict) and value and (meta is None or
                                                        meta.strategy != "replace"):
                out.update(fields(value, child, path))
            else:
                out[path] = encode(value)
    else:
        out[prefix] = encode(obj)
    return out


def _field(node: Node | None, key: str) -> tuple[Node | None, Any]:
    if node is None:
        return None, None
    found = node.field(key)
    if found is None:
        return None, None
    child, meta = found
    if child.kind == "slice":
        return child.elem, meta
    return child, meta


def _list_fields(items: list, elem: Node | None, merge_key: str, path: str,
                 out: dict) -> None:
    if not items:
        out[path] = "[]"
        return
    for item in items:
        if isinstance(item, dict) and merge_key and merge_key in item:
            where = f"{path}[{merge_key}={_key_text(item[merge_key])}]"
            rest = {k: v for k, v in item.items() if k != merge_key}
            out[where] = ELEMENT
            out.update(fields(rest, elem, where) if rest else {})
        elif not isinstance(item, (dict, list)):
            out[f"{path}[={_key_text(item)}]"] = encode(item)
        else:
            out[path] = encode(items)  # not keyed as the schema says: one value
            return


def _key_text(value: Any) -> str:
    return value if isinstance(value, str) else encode(value)


def _reordered(before: Any, after: Any, node: Node | None, path: str = "") -> list:
    """Merge lists whose keys come in another order in ``after``."""
    found: list[ApplyNote] = []
    if not isinstance(before, dict) or not isinstance(after, dict) or node is None:
        return found
    for key, old in before.items():
        new = after.get(key)
        where = f"{path}.{key}" if path else key
        child, meta = _field(node, key)
        if isinstance(old, list) and isinstance(new, list) and meta is not None \
                and meta.strategy == "merge":
            order_old = [_key_of(item, meta.merge_key) for item in old]
            order_new = [_key_of(item, meta.merge_key) for item in new]
            common = [k for k in order_new if k in order_old]
            if common != [k for k in order_old if k in order_new]:
                found.append(ApplyNote("reordered", where, order_old, order_new))
            if meta.merge_key:
                found.extend(_reordered_items(old, new, child, meta.merge_key, where))
        elif isinstance(old, dict):
            found.extend(_reordered(old, new, child, where))
    return found


def _reordered_items(old: list, new: list, elem: Node | None, merge_key: str,
                     path: str) -> list:
    found: list[ApplyNote] = []
    later = {_key_of(item, merge_key): item for item in new}
    for item in old:
        key = _key_of(item, merge_key)
        if isinstance(item, dict) and isinstance(later.get(key), dict):
            where = f"{path}[{merge_key}={_key_text(item.get(merge_key))}]"
            found.extend(_reordered(item, later[key], elem, where))
    return found


def _key_of(item: Any, merge_key: str) -> Any:
    if isinstance(item, dict):
        return encode(item.get(merge_key))
    return encode(item)


def _short(text: Any) -> str:
    if text == ELEMENT:
        return "the whole element"
    if text is None:
        return "nothing"
    value = text if isinstance(text, str) else encode(text)
    return value if len(value) <= _MAX_TEXT else value[:_MAX_TEXT - 3] + "..."
