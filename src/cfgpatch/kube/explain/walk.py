"""Walking a strategic or merge patch member by member, for the findings detectors.

A :class:`Visit` pairs one member of the patch with the original value it lands
on.  The strategic walk follows keyed lists into the element each patch element
merges with; the merge walk only descends objects.  The two detectors that read
either walk (nulls that delete, fields the schema does not know) live here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ...jsonvalue import canonical_unchecked
from ..schema.rules import KEYED, Shapes
from .catalogue import ABSENT, DIRECTIVE_PREFIXES, Finding, Situation, make


@dataclass(frozen=True)
class Visit:
    """One member of the patch (``key`` at ``tokens``) and what it lands on (``before``)."""

    tokens: list[str]
    shape: tuple[str, ...]
    key: str
    before: Any
    value: Any
    parent_before: Any


def _walk_strategic(before: Any, patch: Any, shapes: Shapes, tokens: list[str] | None = None,
                    shape: tuple[str, ...] = (), memo: dict | None = None) -> Iterator[Visit]:
    """Visit every key of a strategic patch, paired with the original value it lands on."""
    tokens = tokens or []
    memo = {} if memo is None else memo
    if not isinstance(patch, dict):
        return
    base = before if isinstance(before, dict) else {}
    for key, value in patch.items():
        if key.startswith("$"):
            continue
        old = base.get(key, ABSENT)
        visit = Visit([*tokens, key], (*shape, key), key, old, value, before)
        yield visit
        if isinstance(value, dict):
            yield from _walk_strategic(old, value, shapes, visit.tokens, visit.shape, memo)
        elif isinstance(value, list):
            yield from _walk_keyed(old, value, shapes, visit, memo)


def _walk_keyed(old: Any, items: list, shapes: Shapes, visit: Visit,
                memo: dict) -> Iterator[Visit]:
    rule = shapes.list_rule(visit.shape)
    if rule is None or rule.kind != KEYED:
        return
    olds = old if isinstance(old, list) else []
    for item in items:
        if not isinstance(item, dict) or rule.keys[0] not in item:
            continue
        index = first_match(olds, rule.keys[0], item[rule.keys[0]], memo)
        target = olds[index] if index is not None else ABSENT
        where = [*visit.tokens, str(index) if index is not None else "-"]
        yield from _walk_strategic(target, item, shapes, where, (*visit.shape, "[]"), memo)


def strategic_visits(s: Situation) -> list[Visit]:
    """The strategic walk of the patch, done once per situation."""
    if "visits" not in s.memo:
        s.memo["visits"] = list(_walk_strategic(s.obj, s.patch, s.shapes, memo=s.memo))
    return s.memo["visits"]


def key_index(items: list, key: str, memo: dict) -> dict[str, list[int]]:
    """Key value (canonical text) -> indices of the elements carrying it."""
    ident = ("index", id(items), key)
    if ident not in memo:
        index: dict[str, list[int]] = {}
        for i, item in enumerate(items):
            if isinstance(item, dict) and key in item:
                index.setdefault(canonical_unchecked(item[key]), []).append(i)
        memo[ident] = (items, index)  # keep ``items`` alive so its id stays unique
    return memo[ident][1]


def missing_elements(before: list, after: list) -> list:
    """Elements of ``before`` with no equal element in ``after`` (by canonical text)."""
    present = {canonical_unchecked(item) for item in after}
    return [item for item in before if canonical_unchecked(item) not in present]


def restated(item: Any, after: list, name_of: Callable[[Any], str]) -> bool:
    """Whether ``after`` holds an element of ``item``'s name with every field ``item`` has
    (values changed, none dropped): a list restated on purpose, not an element lost."""
    if not isinstance(item, dict):
        return False
    name = name_of(item)
    return any(isinstance(new, dict) and name_of(new) == name and item.keys() <= new.keys()
               for new in after)


def first_match(items: list, key: str, value: Any, memo: dict | None = None) -> int | None:
    found = key_index(items, key, {} if memo is None else memo).get(canonical_unchecked(value))
    return found[0] if found else None


def directive_keys(value: Any, tokens: list[str]) -> Iterator[tuple[list[str], str]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if key.startswith(DIRECTIVE_PREFIXES):
                yield [*tokens, key], key
            yield from directive_keys(child, [*tokens, key])
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from directive_keys(child, [*tokens, str(i)])


def walk_merge(before: Any, patch: Any, tokens: list[str] | None = None,
                shape: tuple[str, ...] = ()) -> Iterator[Visit]:
    tokens = tokens or []
    if not isinstance(patch, dict):
        return
    base = before if isinstance(before, dict) else {}
    for key, value in patch.items():
        old = base.get(key, ABSENT)
        visit = Visit([*tokens, key], (*shape, key), key, old, value, before)
        yield visit
        if isinstance(value, dict):
            yield from walk_merge(old, value, visit.tokens, visit.shape)


def nulls(s: Situation) -> Iterator[Finding]:
    walk = strategic_visits(s) if s.patch_type == "strategic" else walk_merge(s.obj, s.patch)
    for visit in walk:
        if visit.value is None:
            if visit.before is ABSENT:
                text = f"null for {visit.key}, which is not there: nothing to delete"
            elif len(visit.tokens) == 1 and isinstance(visit.before, (dict, list)) \
                    and visit.before:
                yield make("null-deletes-section", visit.tokens,
                           f"null deletes the whole top-level {visit.key} section (was "
                           f"{_brief(visit.before)}); omit the key to leave it as it is")
                continue
            else:
                text = f"null deletes {visit.key} (was {_brief(visit.before)})"
            yield make("null-deletes", visit.tokens, text)


def _brief(value: Any) -> str:
    text = canonical_unchecked(value)
    return text if len(text) <= 50 else text[:47] + "..."


def unknown_fields(s: Situation) -> Iterator[Finding]:
    walk = strategic_visits(s) if s.patch_type == "strategic" else walk_merge(s.obj, s.patch)
    for visit in walk:
        if s.shapes.field_known(visit.shape) is False:
            yield make("unknown-field", visit.tokens,
                       f"{visit.key} is not a field of {s.kind or 'this kind'} here")
