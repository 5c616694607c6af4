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

import re
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


def verdict(result: dict, changes: list | None = None) -> str:
    """One sentence for a result (``bridge`` result form); with the engine's ``changes``,
    what the patch loses is said in the sentence itself (:func:`losses`)."""
    if not result["ok"]:
        return "Rejected: kubectl would exit 1 and leave the object as it was."
    count = len(result["changes"])
    if count == 0:
        return "Accepted: the object is unchanged (kubectl would exit 0)."
    lost = losses(changes or [])
    said = f", and {joined(lost)}" if lost else ""
    return f"Accepted: {count} change{'s' if count != 1 else ''}{said} (kubectl would exit 0)."


#: How many losses the verdict names before it counts the rest.
NAMED_LOSSES = 2


def joined(lost: list[str]) -> str:
    """``container `a` is gone``, ``… `a` and list `b` are gone``,
    ``…, `b` and 2 more are gone``."""
    named, rest = lost[:NAMED_LOSSES], len(lost) - NAMED_LOSSES
    if len(lost) == 1:
        return f"{lost[0]} is gone"
    if rest <= 0:
        return f"{' and '.join(named)} are gone"
    return f"{', '.join(named)} and {rest} more are gone"


def _field(path: str) -> str:
    """The last member name of a pointer, unescaped (``containers``)."""
    last = path.rsplit("/", 1)[-1]
    return last.replace("~1", "/").replace("~0", "~")


def _element_noun(path: str) -> str:
    """What one element of the list at ``path`` is called: ``container``, ``port``."""
    name = _field(path)
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).lower()
    if words.endswith("ies"):
        return words[:-3] + "y"
    if words.endswith(("sses", "xes")):
        return words[:-2]
    if words == "env":
        return "env var"
    return words[:-1] if words.endswith("s") and not words.endswith("ss") else f"{name} element"


def dotted(path: str) -> str:
    """A JSON Pointer as dotted member names, unescaped (``spec.containers``)."""
    return ".".join(part.replace("~1", "/").replace("~0", "~") for part in path.split("/")[1:])


def losses(changes: list) -> list[str]:
    """What a result no longer has, one phrase each, in document order: a list element
    that is gone (``container `metrics` is gone``), a map section or a field removed;
    the members of something already named gone are not named again."""
    out: list[str] = []
    gone: list[str] = []
    for change in changes:
        if any(change.path.startswith(prefix + "/") for prefix in gone):
            continue
        if change.action == "remove":
            kind = "section" if isinstance(change.before, dict) else "field"
            if isinstance(change.before, list):
                kind = "list"
            out.append(f"{kind} `{dotted(change.path)}`")
            gone.append(change.path)
        elif change.action == "list":
            noun = _element_noun(change.path)
            names = [_loss_name(item) for item in change.lost]
            if not change.lost:
                names = [_landing_name(change, lan) for lan in change.landings
                         if lan.action == "removed"]
            if change.how == "replaced" and all(lan.key is None for lan in change.landings):
                names = [_loss_name(item) for item in _removed_values(change)]
            out += [f"{noun} `{name}`" for name in names]
    return out


def _loss_name(item: Any) -> str:
    """A lost element, short: its ``name``, else its ``key``, else the string, else JSON."""
    if isinstance(item, dict):
        for member in ("name", "key", "mountPath", "ip"):
            if isinstance(item.get(member), str):
                return item[member]
    return item if isinstance(item, str) else brief(item, 40)


def _landing_name(change: Any, landing: Any) -> str:
    if landing.key is not None:
        return _key_label(landing.key)
    before = change.before if isinstance(change.before, list) else []
    index = landing.source
    if index is not None and index < len(before):
        return _loss_name(before[index])
    return f"#{index}"


def _removed_values(change: Any) -> list:
    waiting = Counter(canonical_unchecked(item) for item in change.after)
    removed = []
    for item in change.before:
        text = canonical_unchecked(item)
        if waiting[text]:
            waiting[text] -= 1
        else:
            removed.append(item)
    return removed


# ------------------------------------------------------------------ what changed


def change_entries(changes: list, patch_type: str = "") -> list[dict]:
    """The page's "What changed" entries for ``changes`` (see the module docstring).
    Under ``json`` a list is never merged by key: every operation picks its element by
    position, so a list's entry says where each element is, by position."""
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
        elif patch_type == "json":
            out.append(_positional_entry(change))
        else:
            out.append(_merged_entry(change))
    return out


def _entry(symbol: str, kind: str, path: str, text: str, items: list | None = None) -> dict:
    entry: dict[str, Any] = {"symbol": symbol, "kind": kind, "path": path or "(root)",
                             "text": text}
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


def _positional_entry(change: Any) -> dict:
    """A list a JSON Patch changed: its operations picked elements by position."""
    items = []
    for landing in change.landings:
        label = f" {_key_label(landing.key)}" if landing.key is not None else ""
        if landing.action == "inserted":
            items.append(_item("+", "inserted", f"inserted{label} at position {landing.target}"))
        elif landing.action == "removed":
            items.append(_item(MINUS, "removed", f"removed{label} from position {landing.source}"))
        elif landing.action in ("merged", "changed"):
            where = (f"position {landing.source}" if landing.source == landing.target
                     else f"position {landing.source} {ARROW} {landing.target}")
            items.append(_item("~", "changed", f"changed{label} at {where}"))
        elif landing.source != landing.target:
            items.append(_item("=", "kept", f"kept{label}: moved {landing.source} {ARROW} "
                               f"{landing.target}"))
        else:
            items.append(_item("=", "kept", f"kept{label} at {landing.target}"))
    text = "list changed by position (a JSON patch picks elements by index, never by key)"
    return _entry("~", "list", change.path, text, items)
