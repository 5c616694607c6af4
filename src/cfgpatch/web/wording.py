"""What the page says about a result, in words: the verdict and "What changed".

The page draws these texts as they are; no wording of changes lives in JavaScript.
:func:`change_entries` turns the engine's :class:`~cfgpatch.kube.explain.changes.Change`
list into entries ``{"symbol", "path", "text", "kind", "items"}``:

* a map member added, removed or replaced: ``+``, ``−`` or ``~`` with the values;
* a list merged by key or as a set: where each element landed (kept, merged by key,
  inserted, removed), named by its key;
* a list replaced wholesale that has a merge key (a merge patch on ``containers``):
  each element of the new list (restated unchanged, restated with changes, new) and
  the elements that are lost, by key;
* a list replaced wholesale without a key (``tolerations``, ``args``): the list is one
  value, so its elements are compared as values: which were removed, which inserted,
  how many kept; the position-by-position sub-changes the engine also reports for it
  are left out (an element cannot be both "lost" and "changed").

Values are written as compact JSON.  A long value is shortened only between members
or elements (``{"key":"a","operator":"Exists", … 2 more}``), never inside a token.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..jsonvalue import canonical_unchecked

MINUS = "\u2212"
ARROW = "\u2192"
ELLIPSIS = "\u2026"
#: About how many characters a value may take in a sentence.
BRIEF = 90


def brief(value: Any, limit: int = BRIEF) -> str:
    """Compact JSON of ``value``, shortened between members when longer than ``limit``.

    >>> brief({"key": "dedicated", "operator": "Equal", "value": "web"}, 40)
    '{"key":"dedicated","operator":"Equal", … 1 more}'
    >>> brief("x" * 12, 8)
    '"xxxxx…"'
    """
    text = canonical_unchecked(value)
    if len(text) <= limit:
        return text
    if isinstance(value, dict) and value:
        parts = [canonical_unchecked(k) + ":" + canonical_unchecked(value[k])
                 for k in sorted(value)]
        return _shortened(parts, "{", "}", limit)
    if isinstance(value, list) and value:
        return _shortened([canonical_unchecked(v) for v in value], "[", "]", limit)
    if isinstance(value, str):
        return canonical_unchecked(value[: max(1, limit - 3)])[:-1] + ELLIPSIS + '"'
    return text


def _shortened(parts: list[str], opening: str, closing: str, limit: int) -> str:
    kept: list[str] = []
    used = 2
    for part in parts:
        if kept and used + len(part) + 1 > limit:
            break
        kept.append(part)
        used += len(part) + 1
    rest = len(parts) - len(kept)
    tail = f", {ELLIPSIS} {rest} more" if rest else ""
    return opening + ",".join(kept) + tail + closing


def element_name(item: Any) -> str:
    """A list element as the page names it: its ``name`` when it has one, else its value."""
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        return item["name"]
    return brief(item)


def _key_label(key: Any) -> str:
    if isinstance(key, tuple):
        return "/".join(part if isinstance(part, str) else brief(part) for part in key)
    return key if isinstance(key, str) else brief(key)


def verdict(result: dict) -> str:
    """One sentence for a result (``bridge`` result form)."""
    if not result["ok"]:
        return "Rejected: kubectl would exit 1 and leave the object as it was."
    count = len(result["changes"])
    if count == 0:
        return "Accepted: the object is unchanged (kubectl would exit 0)."
    return f"Accepted: {count} change{'s' if count != 1 else ''} (kubectl would exit 0)."


# ------------------------------------------------------------------ what changed


def change_entries(changes: list) -> list[dict]:
    """The page's "What changed" entries for ``changes`` (see the module docstring)."""
    out: list[dict] = []
    hidden: list[str] = []  # lists shown as one value: their sub-changes are left out
    for change in changes:
        if any(change.path.startswith(prefix + "/") for prefix in hidden):
            continue
        if change.action != "list":
            out.append(_member_entry(change))
        elif change.how == "replaced" and all(lan.key is None for lan in change.landings):
            hidden.append(change.path)
            out.append(_value_list_entry(change))
        elif change.how == "replaced":
            out.append(_keyed_replaced_entry(change))
        else:
            out.append(_merged_entry(change))
    return out


def _entry(symbol: str, kind: str, path: str, text: str, items: list | None = None) -> dict:
    entry = {"symbol": symbol, "kind": kind, "path": path or "(root)", "text": text}
    if items:
        entry["items"] = items
    return entry


def _item(symbol: str, kind: str, text: str) -> dict:
    return {"symbol": symbol, "kind": kind, "text": text}


def _member_entry(change: Any) -> dict:
    if change.action == "add":
        return _entry("+", "add", change.path, f"added {brief(change.after)}")
    if change.action == "remove":
        return _entry(MINUS, "remove", change.path, f"removed (was {brief(change.before)})")
    return _entry("~", "replace", change.path,
                  f"{brief(change.before)} {ARROW} {brief(change.after)}")


def _value_list_entry(change: Any) -> dict:
    """A list without a key, replaced as one value: compare its elements as values."""
    before, after = change.before, change.after
    waiting = Counter(canonical_unchecked(item) for item in after)
    removed = []
    for item in before:
        text = canonical_unchecked(item)
        if waiting[text]:
            waiting[text] -= 1
        else:
            removed.append(item)
    left = Counter(canonical_unchecked(item) for item in before)
    inserted = []
    for item in after:
        text = canonical_unchecked(item)
        if left[text]:
            left[text] -= 1
        else:
            inserted.append(item)
    kept = len(after) - len(inserted)
    items = [_item(MINUS, "removed", f"removed {brief(item)}") for item in removed]
    items += [_item("+", "inserted", f"inserted {brief(item)}") for item in inserted]
    if kept:
        items.append(_item("=", "kept", f"{kept} element{'s' if kept != 1 else ''} kept as "
                           f"{'they were' if kept != 1 else 'it was'}"))
    text = (f"list replaced wholesale (it has no merge key, so it is one value): "
            f"{_count(before)} before, {_count(after)} after")
    return _entry("~", "list replaced", change.path, text, items)


def _count(items: list) -> str:
    return f"{len(items)} element{'s' if len(items) != 1 else ''}"


def _keyed_replaced_entry(change: Any) -> dict:
    """A keyed list replaced wholesale (a merge patch): the new list, and what is lost."""
    items = []
    for landing in change.landings:
        label = _key_label(landing.key)
        if landing.action == "kept":
            items.append(_item("=", "kept", f"{label} restated unchanged "
                               f"({landing.source} {ARROW} {landing.target})"))
        elif landing.action == "changed":
            items.append(_item("~", "changed", f"{label} restated with changes "
                               f"({landing.source} {ARROW} {landing.target}); its changes follow"))
        elif landing.action == "inserted":
            items.append(_item("+", "inserted", f"{label} inserted at {landing.target}"))
    if change.lost:
        names = ", ".join(element_name(item) for item in change.lost)
        items.append(_item(MINUS, "lost", f"lost: {names}"))
    text = "list replaced wholesale: the list in the patch is the whole new list"
    return _entry("~", "list replaced", change.path, text, items)


def _merged_entry(change: Any) -> dict:
    """A list merged by key or as a set (strategic), or aligned by position (json)."""
    items = []
    for landing in change.landings:
        label = f" {_key_label(landing.key)}" if landing.key is not None else ""
        if landing.action == "inserted":
            items.append(_item("+", "inserted", f"inserted{label} at {landing.target}"))
        elif landing.action == "removed":
            items.append(_item(MINUS, "removed", f"removed{label} from {landing.source}"))
        elif landing.action == "merged":
            items.append(_item("~", "merged", f"merged by key{label}: "
                               f"{landing.source} {ARROW} {landing.target}"))
        elif landing.action == "changed":
            items.append(_item("~", "changed", f"changed{label}: "
                               f"{landing.source} {ARROW} {landing.target}"))
        elif landing.source != landing.target:
            items.append(_item("=", "kept", f"kept{label}: moved "
                               f"{landing.source} {ARROW} {landing.target}"))
        else:
            items.append(_item("=", "kept", f"kept{label} at {landing.target}"))
    how = change.how
    text = f"list {how}" if how != "positional" else "list changed in place (by position)"
    return _entry("~", "list", change.path, text, items)


# ------------------------------------------------------------------ rejections


def rejection(message: str, hint: str | None, op_index: int | None = None,
              op: Any = None, op_count: int = 0) -> dict:
    """``{"plain", "kubectl"}`` for a patch kubectl refuses: our words first (for a JSON
    Patch: which operation failed, and that the ones before it were not applied either),
    kubectl's own text second."""
    cause = (hint or message).rstrip(".")
    cause = cause[0].upper() + cause[1:]
    plain = f"{cause}."
    if op_index is not None:
        cause = cause.removesuffix(", so nothing was applied")
        what = _op_label(op)
        plain = f"Operation {op_index}{what} failed: {cause[0].lower() + cause[1:]}."
        if op_index == 1:
            plain += " Operation 0 before it was not applied either"
        elif op_index > 1:
            plain += f" Operations 0 to {op_index - 1} before it were not applied either"
        elif op_count > 1:
            plain += " None of the operations was applied"
        if op_index or op_count > 1:
            plain += ": a JSON patch is applied completely or not at all."
    return {"plain": plain, "kubectl": f"error: {message}"}


def _op_label(op: Any) -> str:
    if not isinstance(op, dict) or not isinstance(op.get("op"), str):
        return ""
    path = op.get("path")
    return f" ({op['op']} {path})" if isinstance(path, str) else f" ({op['op']})"
