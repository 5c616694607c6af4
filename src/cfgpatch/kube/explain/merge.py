"""Findings about JSON merge patches (RFC 7386 as kubectl applies it), and the
Namespace finalizers finding that every patch type can trigger."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...jsonvalue import equal
from ..schema.rules import KEYED, SET, ListRule
from .catalogue import Finding, Situation, make
from .changes import describe_element
from .walk import directive_keys, missing_elements, nulls, unknown_fields, walk_merge


def _merge_replaced(s: Situation) -> Iterator[Finding]:
    for visit in walk_merge(s.obj, s.patch):
        if not isinstance(visit.value, list) or not isinstance(visit.before, list):
            continue
        if equal(visit.value, visit.before):
            continue
        rule = s.shapes.list_rule(visit.shape)
        lost = missing_elements(visit.before, visit.value)
        if not lost:
            continue
        gone = _gone_by_key(visit.before, visit.value, rule)
        text = f"{visit.key} is replaced wholesale"
        if gone:
            text += "; lost " + ", ".join(describe_element(item) for item in gone)
        changed = [item for item in lost if not any(item is g for g in gone)]
        if changed:
            text += ("; " if gone else "; ") + "restated without some of their fields: " + \
                ", ".join(describe_element(item) for item in changed)
        if rule is not None and rule.kind in (KEYED, SET):
            text += "; --type strategic would merge it"
        yield make("merge-list-replaced", visit.tokens, text, lost=lost)


def _gone_by_key(before: list, after: list, rule: ListRule | None) -> list:
    if rule is None or rule.kind != KEYED:
        return missing_elements(before, after)
    key = rule.keys[0]
    kept = [item.get(key) for item in after if isinstance(item, dict)]
    return [item for item in before
            if not (isinstance(item, dict) and any(equal(item.get(key), k) for k in kept))]


def directives_as_data(s: Situation) -> Iterator[Finding]:
    for tokens, key in directive_keys(s.patch, []):
        yield make("directive-as-data", tokens,
                   f"{key} is a strategic-merge directive; --type {s.patch_type} stores it "
                   f"as an ordinary key")


def _merge_departures(s: Situation) -> Iterator[Finding]:
    for tokens, inside in _nulls_inside_lists(s.patch, []):
        yield make("kubectl-merge-departure", tokens,
                   f"kubectl drops the null members inside this list ({inside}); RFC 7386 "
                   f"would store the list exactly as written")


def _nulls_inside_lists(value: Any, tokens: list[str], in_list: bool = False
                        ) -> Iterator[tuple[list[str], str]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if in_list and child is None:
                yield [*tokens, key], key
            else:
                yield from _nulls_inside_lists(child, [*tokens, key], in_list)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _nulls_inside_lists(child, [*tokens, str(i)], True)


def namespace_finalize(s: Situation) -> Iterator[Finding]:
    if not (isinstance(s.obj, dict) and s.obj.get("kind") == "Namespace"):
        return
    touched = False
    if s.patch_type == "json" and isinstance(s.patch, list):
        touched = any(isinstance(op, dict) and str(op.get("path", "")).startswith(
            "/spec/finalizers") for op in s.patch)
    elif isinstance(s.patch, dict) and isinstance(s.patch.get("spec"), dict):
        touched = any(k.endswith("finalizers") for k in s.patch["spec"])
    if touched:
        yield make("namespace-finalize", ["spec", "finalizers"],
                   "the result shows the local edit, but a server changes spec.finalizers "
                   "only through PUT .../namespaces/<name>/finalize; metadata.finalizers is a "
                   "different list")


MERGE_DETECTORS = (_merge_replaced, directives_as_data, _merge_departures, nulls, unknown_fields)
