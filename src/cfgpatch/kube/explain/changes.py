"""What a Kubernetes patch changed: every changed path, and where list elements landed.

:func:`compute_changes` compares the object before and after a patch and returns a
flat, document-ordered list of :class:`Change`.  Maps are compared key by key.  A
list is explained according to how the patch type treats it:

* merge-keyed lists (strategic ``patchMergeKey``): elements are paired by their key
  value, so each element is *kept* (unchanged) ``i -> j``, *merged* by key from
  ``i`` to ``j`` (its own changes follow), *inserted* at ``j`` or *removed* from ``i``;
* primitive union lists (strategic ``merge`` on scalars, e.g. ``finalizers``):
  paired by value;
* atomic lists, and every list under ``--type merge``: the list is *replaced
  wholesale* and the elements that are gone are named (``lost``: for a keyed list
  the elements whose key is gone, otherwise every element not found unchanged);
  an element restated with other content is *changed*;
* ``--type json`` on a list without a key: paired positionally by equality.

The list shape at a path comes from a :class:`Shapes` lookup, so this module never knows
where merge keys come from (built-in table, OpenAPI document or a CRD).
"""

from __future__ import annotations

from ...jsonvalue import canonical_unchecked, equal
from ...pointer import format_pointer
from ...records import dataclass, field
from ..schema.rules import ATOMIC, ATOMIC_RULE, KEYED, NO_SHAPES, SET, Shapes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

KEPT = "kept"
MERGED = "merged"
CHANGED = "changed"
INSERTED = "inserted"
REMOVED = "removed"

_ABSENT = object()


@dataclass(frozen=True)
class Landing:
    """Where one list element went: ``source`` index before, ``target`` index after."""

    action: str
    source: int | None
    target: int | None
    key: Any = None

    def to_dict(self) -> dict:
        out: dict = {"action": self.action}
        if self.source is not None:
            out["from"] = self.source
        if self.target is not None:
            out["to"] = self.target
        if self.key is not None:
            out["key"] = self.key
        return out

    def describe(self) -> str:
        label = f" {describe_key(self.key)}" if self.key is not None else ""
        if self.action == INSERTED:
            return f"inserted{label} at {self.target}"
        if self.action == REMOVED:
            return f"removed{label} from {self.source}"
        verb = "merged by key" if self.action == MERGED else self.action
        return f"{verb}{label} {self.source} -> {self.target}"


@dataclass(frozen=True)
class Change:
    """One changed path.  ``action`` is ``add``, ``remove``, ``replace`` or ``list``."""

    action: str
    path: str
    before: Any = _ABSENT
    after: Any = _ABSENT
    how: str = ""
    landings: tuple[Landing, ...] = ()
    lost: tuple[Any, ...] = field(default=())

    def to_dict(self) -> dict:
        out: dict = {"action": self.action, "path": self.path}
        if self.before is not _ABSENT and self.action != "list":
            out["before"] = self.before
        if self.after is not _ABSENT and self.action != "list":
            out["after"] = self.after
        if self.action == "list":
            out["how"] = self.how
            out["landings"] = [landing.to_dict() for landing in self.landings]
            if self.how == "replaced":
                out["lost"] = list(self.lost)
        return out

    def describe(self) -> str:
        if self.action == "add":
            return f"{self.path}: added {_short(self.after)}"
        if self.action == "remove":
            return f"{self.path}: removed (was {_short(self.before)})"
        if self.action == "replace":
            return f"{self.path}: {_short(self.before)} -> {_short(self.after)}"
        moves = ", ".join(landing.describe() for landing in self.landings)
        text = f"{self.path}: list {self.how}" + (f" ({moves})" if moves else "")
        if self.lost:
            text += "; lost " + ", ".join(describe_element(item) for item in self.lost)
        return text


def describe_key(key: Any) -> str:
    """A short label for a merge-key value (or a tuple of them)."""
    if isinstance(key, tuple):
        return "/".join(_short(part) for part in key)
    return _short(key)


def describe_element(item: Any) -> str:
    """Name a list element: its ``name`` when it has one, else its JSON text."""
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        return item["name"]
    return _short(item)


def _short(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else canonical_unchecked(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class _Context:
    mode: str
    shapes: Shapes


def compute_changes(
    before: Any, after: Any, *, mode: str = "strategic", shapes: Shapes = NO_SHAPES
) -> list[Change]:
    """Every change from ``before`` to ``after``, in document order.

    ``mode`` is the patch type (``strategic``, ``merge`` or ``json``); it decides how
    lists are explained (see the module docstring).

    >>> [c.describe() for c in compute_changes({"a": 1, "b": 2}, {"a": 1, "c": 3})]
    ['/b: removed (was 2)', '/c: added 3']
    """
    out: list[Change] = []
    _diff(before, after, [], (), _Context(mode, shapes), out)
    return out


def _diff(before: Any, after: Any, tokens: list[str], shape: tuple[str, ...],
          ctx: _Context, out: list[Change]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        _diff_maps(before, after, tokens, shape, ctx, out)
    elif isinstance(before, list) and isinstance(after, list):
        if not equal(before, after):
            _diff_lists(before, after, tokens, shape, ctx, out)
    elif not equal(before, after):
        out.append(Change("replace", format_pointer(tokens), before, after))


def _diff_maps(before: dict, after: dict, tokens: list[str], shape: tuple[str, ...],
               ctx: _Context, out: list[Change]) -> None:
    for key, old in before.items():
        path = [*tokens, key]
        if key not in after:
            out.append(Change("remove", format_pointer(path), before=old))
        else:
            _diff(old, after[key], path, (*shape, key), ctx, out)
    for key, new in after.items():
        if key not in before:
            out.append(Change("add", format_pointer([*tokens, key]), after=new))


def _diff_lists(before: list, after: list, tokens: list[str], shape: tuple[str, ...],
                ctx: _Context, out: list[Change]) -> None:
    rule = ctx.shapes.list_rule(shape) or ATOMIC_RULE
    if rule.kind == KEYED and _all_keyed(before + after, rule.keys):
        pairs = _pair_by(before, after, lambda item: _key_of(item, rule.keys))
        how = "merged by key " + "+".join(rule.keys)
        key_of: Callable[[Any], Any] = lambda item: _key_of(item, rule.keys)  # noqa: E731
    elif rule.kind == SET and ctx.mode == "strategic":
        pairs = _pair_by(before, after, canonical_unchecked)
        how, key_of = "union", lambda item: item
    else:
        pairs = _pair_in_order(before, after)
        how, key_of = "positional", lambda item: None
    replaced = ctx.mode == "merge" or (ctx.mode == "strategic" and rule.kind == ATOMIC)
    landings = _landings(before, after, pairs, key_of, merged=not replaced)
    if how.startswith("merged by key"):
        lost = tuple(item for i, item in enumerate(before) if i not in pairs)
    else:
        present = {canonical_unchecked(new) for new in after}
        lost = tuple(item for item in before if canonical_unchecked(item) not in present)
    out.append(Change("list", format_pointer(tokens), before, after,
                      how="replaced" if replaced else how, landings=landings,
                      lost=lost if replaced else ()))
    for source, target in sorted(pairs.items(), key=lambda pair: pair[1]):
        _diff(before[source], after[target], [*tokens, str(target)], (*shape, "[]"), ctx, out)


def _landings(before: list, after: list, pairs: dict[int, int],
              key_of: Callable[[Any], Any], merged: bool = True) -> tuple[Landing, ...]:
    targets = {target: source for source, target in pairs.items()}
    items: list[Landing] = []
    for j, item in enumerate(after):
        i = targets.get(j)
        if i is None:
            items.append(Landing(INSERTED, None, j, key_of(item)))
        elif equal(before[i], item):
            items.append(Landing(KEPT, i, j, key_of(item)))
        else:
            action = MERGED if merged and key_of(item) is not None else CHANGED
            items.append(Landing(action, i, j, key_of(item)))
    for i, item in enumerate(before):
        if i not in pairs:
            items.append(Landing(REMOVED, i, None, key_of(item)))
    return tuple(items)


def _key_of(item: Any, keys: tuple[str, ...]) -> Any:
    values = tuple(item.get(key) for key in keys)
    return values[0] if len(values) == 1 else values


def _all_keyed(items: list, keys: tuple[str, ...]) -> bool:
    return bool(keys) and all(
        isinstance(item, dict) and any(key in item for key in keys) for item in items
    )


def _pair_by(before: list, after: list, key: Callable[[Any], Any]) -> dict[int, int]:
    """Pair each element of ``after`` with the first unused ``before`` element of equal key."""
    waiting: dict[str, list[int]] = {}
    for i, item in enumerate(before):
        waiting.setdefault(canonical_unchecked(key(item)), []).append(i)
    pairs: dict[int, int] = {}
    for j, item in enumerate(after):
        queue = waiting.get(canonical_unchecked(key(item)))
        if queue:
            pairs[queue.pop(0)] = j
    return pairs


#: Above this many cells the middle of two lists is aligned greedily, not by LCS.
LCS_LIMIT = 250_000


def _pair_in_order(before: list, after: list) -> dict[int, int]:
    """Pair equal elements in order (common ends, then an LCS), then gaps by position."""
    texts_a = [canonical_unchecked(item) for item in before]
    texts_b = [canonical_unchecked(item) for item in after]
    head = 0
    while head < min(len(before), len(after)) and texts_a[head] == texts_b[head]:
        head += 1
    tail = 0
    while (tail < min(len(before), len(after)) - head
           and texts_a[-1 - tail] == texts_b[-1 - tail]):
        tail += 1
    pairs = {i: i for i in range(head)}
    pairs.update({len(before) - 1 - k: len(after) - 1 - k for k in range(tail)})
    middle_a = list(range(head, len(before) - tail))
    middle_b = list(range(head, len(after) - tail))
    if len(middle_a) * len(middle_b) > LCS_LIMIT:
        matched = _greedy_matches(texts_a, texts_b, middle_a, middle_b)
    else:
        matched = _lcs_matches(texts_a, texts_b, middle_a, middle_b)
    pairs.update(_pairs_with_gaps(before, after, middle_a, middle_b, matched))
    return pairs


def _lcs_matches(texts_a: list[str], texts_b: list[str], rows: list[int],
                 cols: list[int]) -> list[tuple[int, int]]:
    n, m = len(rows), len(cols)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = (table[i + 1][j + 1] + 1 if texts_a[rows[i]] == texts_b[cols[j]]
                           else max(table[i + 1][j], table[i][j + 1]))
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if texts_a[rows[i]] == texts_b[cols[j]]:
            out.append((rows[i], cols[j]))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def _greedy_matches(texts_a: list[str], texts_b: list[str], rows: list[int],
                    cols: list[int]) -> list[tuple[int, int]]:
    """An increasing matching: each element takes the next equal one still ahead."""
    where: dict[str, list[int]] = {}
    for j in reversed(cols):
        where.setdefault(texts_b[j], []).append(j)
    out: list[tuple[int, int]] = []
    last = -1
    for i in rows:
        stack = where.get(texts_a[i])
        while stack and stack[-1] <= last:
            stack.pop()
        if stack:
            last = stack.pop()
            out.append((i, last))
    return out


def _pairs_with_gaps(before: list, after: list, rows: list[int], cols: list[int],
                     matched: list[tuple[int, int]]) -> dict[int, int]:
    pairs: dict[int, int] = {}
    prev_i, prev_j = (rows[0] - 1 if rows else 0), (cols[0] - 1 if cols else 0)
    end = (rows[-1] + 1 if rows else 0, cols[-1] + 1 if cols else 0)
    for i, j in [*matched, end]:
        gap_a = list(range(prev_i + 1, i))
        gap_b = list(range(prev_j + 1, j))
        pairs.update(_pair_gap(before, after, gap_a, gap_b))
        if (i, j) != end:
            pairs[i] = j
        prev_i, prev_j = i, j
    return pairs


def _pair_gap(before: list, after: list, gap_a: list[int], gap_b: list[int]) -> dict[int, int]:
    """Inside a gap, pair containers of the same kind position by position (changed)."""
    pairs: dict[int, int] = {}
    for i, j in zip(gap_a, gap_b):
        if type(before[i]) is type(after[j]) and isinstance(before[i], (dict, list)):
            pairs[i] = j
    return pairs
