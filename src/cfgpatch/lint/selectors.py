"""kustomize's patch target selectors, as lint's own resolution matches them.

A selector (``group``, ``version``, ``kind``, ``name``, ``namespace``, ``labelSelector``,
``annotationSelector``) selects a resource when every field it gives matches: the
first five are regular expressions anchored at both ends (an empty or missing field
matches anything); ``name`` matches the resource's current name or any name it had
before (a base's ``namePrefix`` does not hide it from an overlay's target); the two
selectors are Kubernetes label selectors (``a=b``, ``a==b``, ``a!=b``, ``a``, ``!a``,
``a in (x,y)``, ``a notin (x,y)``, joined by commas).

>>> target = {"kind": "Deploy.*", "labelSelector": "app=web,tier in (fe,be)"}
>>> matches(target, {"apiVersion": "apps/v1", "kind": "Deployment",
...                  "metadata": {"name": "web", "labels": {"app": "web", "tier": "fe"}}})
True
>>> matches({"kind": "ploy"}, {"apiVersion": "apps/v1", "kind": "Deployment"})
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

SELECTOR_KEYS = ("group", "version", "kind", "name", "namespace", "labelSelector",
                 "annotationSelector")


class SelectorError(ValueError):
    """A selector kustomize refuses (a bad regular expression or label selector)."""


def _meta(obj: Any) -> dict:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    return meta if isinstance(meta, dict) else {}


def group_version(obj: Any) -> tuple[str, str]:
    api_version = str(obj.get("apiVersion", "")) if isinstance(obj, dict) else ""
    if "/" in api_version:
        group, version = api_version.rsplit("/", 1)
        return group, version
    return "", api_version


@lru_cache(maxsize=1024)
def _regex(pattern: str) -> re.Pattern:
    try:
        return re.compile(f"(?:{pattern})\\Z")
    except re.error as exc:
        raise SelectorError(f"invalid regular expression {pattern!r}: {exc}") from None


def _field_matches(pattern: Any, values: Iterable[str]) -> bool:
    if pattern in (None, ""):
        return True
    regex = _regex(str(pattern))
    return any(regex.match(value) for value in values)


def matches(target: dict, obj: Any, previous_names: Iterable[str] = ()) -> bool:
    """Whether the selector ``target`` selects ``obj`` (which may have had other names)."""
    group, version = group_version(obj)
    meta = _meta(obj)
    name = str(meta.get("name", ""))
    checks = (
        ("group", (group,)), ("version", (version,)),
        ("kind", (str(obj.get("kind", "")),)),
        ("name", (name, *previous_names)),
        ("namespace", (str(meta.get("namespace") or ""),)),
    )
    for key, values in checks:
        if not _field_matches(target.get(key), values):
            return False
    for key, field in (("labelSelector", "labels"), ("annotationSelector", "annotations")):
        text = target.get(key)
        if text:
            have = meta.get(field) if isinstance(meta.get(field), dict) else {}
            if not label_selector_matches(str(text), have):
                return False
    return True


_TERM = re.compile(r"\s*(!?)\s*([A-Za-z0-9_./-]+)\s*(?:(==|=|!=)\s*([A-Za-z0-9_.-]*)|"
                   r"\s(in|notin)\s*\(([^)]*)\))?\s*")


@lru_cache(maxsize=512)
def parse_label_selector(text: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The terms of a label selector: (operator, key, values).

    >>> parse_label_selector("app=web, tier notin (db), !canary")
    (('=', 'app', ('web',)), ('notin', 'tier', ('db',)), ('!', 'canary', ()))
    """
    terms = []
    for part in _split_terms(text):
        match = _TERM.fullmatch(part)
        if match is None or not part.strip():
            raise SelectorError(f"unable to parse requirement {part.strip()!r} of label "
                                f"selector {text!r}")
        bang, key, op, value, set_op, items = match.groups()
        if bang and (op or set_op):
            raise SelectorError(f"unable to parse requirement {part.strip()!r}")
        if bang:
            terms.append(("!", key, ()))
        elif op:
            terms.append(("!=" if op == "!=" else "=", key, (value,)))
        elif set_op:
            terms.append((set_op, key, tuple(v.strip() for v in items.split(",") if v.strip())))
        else:
            terms.append(("exists", key, ()))
    return tuple(terms)


def _split_terms(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def label_selector_matches(text: str, labels: dict) -> bool:
    """Whether ``labels`` satisfy the label selector ``text``."""
    for op, key, values in parse_label_selector(text):
        have = labels.get(key)
        present = key in labels
        value = "" if have is None else str(have)
        if op == "=" and not (present and value == values[0]):
            return False
        if op == "!=" and present and value == values[0]:
            return False
        if op == "exists" and not present:
            return False
        if op == "!" and present:
            return False
        if op == "in" and not (present and value in values):
            return False
        if op == "notin" and present and value in values:
            return False
    return True


def describe(target: dict) -> str:
    """``kind Deployment, name web`` (the fields given, in kustomize's order)."""
    parts = [f"{key} {target[key]}" for key in SELECTOR_KEYS if target.get(key)]
    return ", ".join(parts) or "an empty selector"
