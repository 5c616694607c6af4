"""Findings about strategic merge patches: lists replaced, merged or deleted by surprise.

Among them: an atomic list replaced (naming the lost elements), ``finalizers: []`` that
empties nothing (the finalizers finding: a union list), Service ports sharing a number,
a merge key of the wrong type, ``$patch: delete`` or ``$deleteFromPrimitiveList`` that
matched nothing, and where kubectl's answer depends on Go's map order.

Every detector reads a :class:`~cfgpatch.kube.explain.catalogue.Situation` and yields
findings; none changes the outcome of the patch.  They read the strategic walk of
:mod:`cfgpatch.kube.explain.walk` (one visit per patched member).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...jsonvalue import canonical_unchecked, equal
from ..schema.rules import ATOMIC, KEYED, SET, ListRule
from .catalogue import Finding, Situation, make
from .changes import describe_element
from .walk import (
    Visit,
    directive_keys,
    first_match,
    key_index,
    missing_elements,
    nulls,
    restated,
    strategic_visits,
    unknown_fields,
)


def _strategic_lists(s: Situation) -> Iterator[tuple[Visit, ListRule | None]]:
    for visit in strategic_visits(s):
        if isinstance(visit.value, list):
            yield visit, s.shapes.list_rule(visit.shape)


def _atomic_replaced(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is not None and rule.kind != ATOMIC or not isinstance(visit.before, list):
            continue
        # An element the patch restates by name with all its fields (a subject moved
        # to another namespace) is changed on purpose, not lost.
        lost = [item for item in missing_elements(visit.before, visit.value)
                if not restated(item, visit.value, describe_element)]
        if lost:
            names = ", ".join(describe_element(item) for item in lost)
            yield make("atomic-list-replaced", visit.tokens,
                       f"{visit.key} is atomic: the patch list replaces it and drops {names}",
                       lost=lost)


def _finalizers_empty(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is not None and rule.kind == SET and visit.value == [] and visit.before:
            yield make("finalizers-empty-noop", visit.tokens,
                       f"{visit.key}: [] is merged as a union and changes nothing; use null, "
                       f"$deleteFromPrimitiveList/{visit.key} or --type merge to remove entries")


def _keyed_items(s: Situation) -> Iterator[tuple[Visit, str, dict, list]]:
    for visit, rule in _strategic_lists(s):
        if rule is None or rule.kind != KEYED or not isinstance(visit.before, list):
            continue
        for item in visit.value:
            if isinstance(item, dict) and rule.keys[0] in item:
                yield visit, rule.keys[0], item, visit.before


def _shared_key(s: Situation) -> Iterator[Finding]:
    for visit, key, item, olds in _keyed_items(s):
        matches = key_index(olds, key, s.memo).get(canonical_unchecked(item[key]), [])
        if len(matches) > 1 and item.get("$patch") != "delete":
            first = olds[matches[0]]
            clash = [k for k, v in item.items() if k in first and not k.startswith("$")
                     and not equal(first[k], v)]
            text = (f"{len(matches)} elements have {key} {canonical_unchecked(item[key])}; "
                    f"the patch went into the first ({describe_element(first)})")
            if clash:
                text += f" and overwrote its {', '.join(clash)}"
            yield make("shared-merge-key", [*visit.tokens, str(matches[0])], text,
                       matches=matches)
        elif len(matches) > 1:
            yield make("shared-merge-key", visit.tokens,
                       f"$patch: delete on {key} {canonical_unchecked(item[key])} removes all "
                       f"{len(matches)} elements that share it", matches=matches)


def _key_type(s: Situation) -> Iterator[Finding]:
    for visit, key, item, olds in _keyed_items(s):
        value = item[key]
        if canonical_unchecked(value) in key_index(olds, key, s.memo):
            continue
        for i, old in enumerate(olds):
            if isinstance(old, dict) and key in old and _loosely_equal(old[key], value):
                yield make("merge-key-type", [*visit.tokens, str(i)],
                           f"{key} {canonical_unchecked(value)} does not match the existing "
                           f"{canonical_unchecked(old[key])}; a new element was added instead")
                break


def _loosely_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    return str(a).strip() == str(b).strip() and type(a) is not type(b)


def _delete_nothing(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is None or rule.kind != KEYED:
            continue
        olds = visit.before if isinstance(visit.before, list) else []
        for item in visit.value:
            if (isinstance(item, dict) and item.get("$patch") == "delete"
                    and rule.keys[0] in item
                    and first_match(olds, rule.keys[0], item[rule.keys[0]], s.memo) is None):
                yield make("delete-matched-nothing", visit.tokens,
                           f"$patch: delete for {rule.keys[0]} "
                           f"{canonical_unchecked(item[rule.keys[0]])} matched no element")
    yield from _delete_primitive_nothing(s)


def _delete_primitive_nothing(s: Situation) -> Iterator[Finding]:
    for tokens, before, patch in _patch_maps(s.obj, s.patch):
        for key, values in patch.items():
            if not key.startswith("$deleteFromPrimitiveList/") or not isinstance(values, list):
                continue
            name = key.split("/", 1)[1]
            have = before.get(name) if isinstance(before, dict) else None
            have = have if isinstance(have, list) else []
            for value in values:
                if not any(equal(value, h) for h in have):
                    yield make("delete-matched-nothing", [*tokens, name],
                               f"{canonical_unchecked(value)} is not in {name}")


def _delete_and_add(s: Situation) -> Iterator[Finding]:
    if not _has_key_prefix(s.patch, "$deleteFromPrimitiveList/"):
        return  # only a field beside its $deleteFromPrimitiveList/ twin depends on key order
    if s.node is not None and isinstance(s.obj, dict) and isinstance(s.patch, dict):
        from ..engine.maporder import order_alternatives  # both orders, computed
        for pointer, message in order_alternatives(s.obj, s.patch, s.node):
            yield make("kubectl-nondeterministic", pointer, message)
        return
    for tokens, _before, patch in _patch_maps(s.obj, s.patch):
        for key, values in patch.items():
            if not key.startswith("$deleteFromPrimitiveList/") or not isinstance(values, list):
                continue
            name = key.split("/", 1)[1]
            added = patch.get(name)
            both = [v for v in values if isinstance(added, list)
                    and any(equal(v, a) for a in added)]
            if both:
                yield make("kubectl-nondeterministic", [*tokens, name],
                           f"{', '.join(canonical_unchecked(v) for v in both)} is both deleted "
                           f"and added; kubectl keeps or drops it depending on which of the two "
                           f"keys it happens to handle first (the result shown keeps it)")


def _has_key_prefix(value: Any, prefix: str) -> bool:
    """True if any object inside ``value`` has a key starting with ``prefix``."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if any(isinstance(key, str) and key.startswith(prefix) for key in node):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _patch_maps(before: Any, patch: Any, tokens: list[str] | None = None
                ) -> Iterator[tuple[list[str], Any, dict]]:
    """Every map of the patch reachable through maps, with the original beside it."""
    tokens = tokens or []
    if not isinstance(patch, dict):
        return
    yield tokens, before, patch
    base = before if isinstance(before, dict) else {}
    for key, value in patch.items():
        if isinstance(value, dict) and not key.startswith("$"):
            yield from _patch_maps(base.get(key), value, [*tokens, key])


def _retain_keys(s: Situation) -> Iterator[Finding]:
    if s.result is None:
        return
    for visit in strategic_visits(s):
        if (isinstance(visit.value, dict) and isinstance(visit.before, dict)
                and "$retainKeys" not in visit.value
                and visit.value.get("$patch") not in ("replace", "delete")
                and s.shapes.retains_keys(visit.shape)):
            yield from _leftover(visit.tokens, visit.before, visit.value, visit.key)
        if not isinstance(visit.value, list):
            continue
        rule = s.shapes.list_rule(visit.shape)
        if (rule and rule.kind == KEYED and isinstance(visit.before, list)
                and s.shapes.retains_keys((*visit.shape, "[]"))):
            for item in visit.value:
                if not isinstance(item, dict) or "$retainKeys" in item or rule.keys[0] not in item:
                    continue
                i = first_match(visit.before, rule.keys[0], item[rule.keys[0]], s.memo)
                if i is not None and isinstance(visit.before[i], dict):
                    name = describe_element(item)
                    yield from _leftover([*visit.tokens, str(i)], visit.before[i], item, name,
                                         skip=rule.keys)


def _leftover(tokens: list[str], before: dict, patch: dict, name: str,
              skip: tuple[str, ...] = ()) -> Iterator[Finding]:
    added = [k for k in patch if not k.startswith("$") and k not in before
             and patch[k] is not None]
    if "type" in patch and "type" in before and not equal(patch["type"], before["type"]):
        added.append(f"type {canonical_unchecked(patch['type'])}")
    if not added:
        return
    stale = [k for k in before if k not in patch and k not in skip]
    if stale:
        yield make("retain-keys-leftover", tokens,
                   f"{name} now has {', '.join(added)} and still {', '.join(stale)}; add "
                   f"\"$retainKeys\": {canonical_unchecked(sorted([*skip, *patch]))} or null "
                   f"the old keys", stale=stale)


def _duplicates(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is None or rule.kind != SET or not isinstance(visit.before, list):
            continue
        texts = [canonical_unchecked(v) for v in visit.before]
        if len(set(texts)) != len(texts):
            yield make("duplicates-order", visit.tokens,
                       f"{visit.key} already holds duplicates; kubectl removes them and may "
                       f"reorder the list")


def _directives_in_atomic(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is not None and rule.kind != ATOMIC:
            continue
        for tokens, key in directive_keys(visit.value, visit.tokens):
            yield make("directive-as-data", tokens,
                       f"{key} inside the atomic list {visit.key} is not interpreted; it is "
                       f"stored as a literal element")


STRATEGIC_DETECTORS = (_atomic_replaced, _finalizers_empty, _shared_key, _key_type,
                       _delete_nothing, _delete_and_add, _retain_keys, _duplicates,
                       _directives_in_atomic, nulls, unknown_fields)
