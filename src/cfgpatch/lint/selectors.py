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

from ..errors import KubeError
from ..kube.kustomize.selectors import Requirement
from ..kube.kustomize.selectors import parse_label_selector as kube_parse_label_selector

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
            have = meta.get(field)
            if not isinstance(have, dict):
                have = {}
            if not label_selector_matches(str(text), have):
                return False
    return True


def parse_label_selector(text: str) -> tuple[Requirement, ...]:
    """The requirements of a label selector, read as kustomize reads them (kube build's
    parser); :class:`SelectorError` with kustomize's words when it cannot be read.

    >>> [(r.operator, r.key) for r in parse_label_selector("app=web, tier notin (db), !x")]
    [('=', 'app'), ('notin', 'tier'), ('!exists', 'x')]
    """
    try:
        return kube_parse_label_selector(text)
    except KubeError as exc:
        raise SelectorError(exc.message) from None


def label_selector_matches(text: str, labels: dict) -> bool:
    """Whether ``labels`` satisfy the label selector ``text``."""
    return all(requirement.satisfied(labels) for requirement in parse_label_selector(text))


def describe(target: dict) -> str:
    """``kind Deployment, name web`` (the fields given, in kustomize's order)."""
    parts = [f"{key} {target[key]}" for key in SELECTOR_KEYS if target.get(key)]
    return ", ".join(parts) or "an empty selector"
