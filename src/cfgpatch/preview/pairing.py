"""Pairing the objects of two renders: by group, kind, namespace and name.

What is left unpaired is looked at again: a generated ConfigMap or Secret whose hash
suffix changed (``web-config-8f2k9c6t7m`` -> ``web-config-b5h4k2g7hd``) is the same
object renamed; an object whose namespace alone changed is a namespace move; any other
unpaired object whose content, name aside, equals one on the other side is a rename
(an object with nothing but its name, a bare Namespace, is never paired so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..jsonvalue import canonical_unchecked
from .render import RenderedObject

HASHED = re.compile(r"^(.+)-[a-z0-9]{10}$")
GENERATED_KINDS = ("ConfigMap", "Secret")


@dataclass
class Pair:
    base: RenderedObject | None
    head: RenderedObject | None
    how: str = "same"  # same, hash-renamed, renamed, namespace-moved, added, removed


def pair(base: list[RenderedObject], head: list[RenderedObject]) -> list[Pair]:
    """Every object of both sides once, in head order then the removed ones."""
    by_id = {o.ident: o for o in base}
    out: list[Pair] = []
    unpaired_head: list[RenderedObject] = []
    for obj in head:
        found = by_id.pop(obj.ident, None)
        if found is None:
            unpaired_head.append(obj)
        else:
            out.append(Pair(found, obj))
    left = list(by_id.values())
    for obj in unpaired_head:
        match, how = _counterpart(obj, left)
        if match is not None:
            left.remove(match)
            out.append(Pair(match, obj, how))
        else:
            out.append(Pair(None, obj, "added"))
    out += [Pair(obj, None, "removed") for obj in left]
    return out


def _counterpart(obj: RenderedObject, left: list[RenderedObject]
                 ) -> tuple[RenderedObject | None, str]:
    group, kind, namespace, name = obj.ident
    if kind in GENERATED_KINDS and HASHED.match(name):
        stem = HASHED.match(name)[1]  # type: ignore[index]
        for other in left:
            g, k, ns, n = other.ident
            found = HASHED.match(n)
            if (g, k, ns) == (group, kind, namespace) and found and found[1] == stem:
                return other, "hash-renamed"
    for other in left:
        g, k, ns, n = other.ident
        if (g, k, n) == (group, kind, name) and ns != namespace:
            return other, "namespace-moved"
    if not _substantial(obj.value):
        return None, ""  # nothing but a name (a bare Namespace): a rename says nothing
    text = _nameless(obj.value)
    for other in left:
        g, k, ns, _ = other.ident
        if (g, k, ns) == (group, kind, namespace) and _nameless(other.value) == text:
            return other, "renamed"
    return None, ""


def _substantial(value: dict) -> bool:
    found = value.get("metadata")
    meta: dict = found if isinstance(found, dict) else {}
    return any(k not in ("apiVersion", "kind", "metadata") for k in value) or \
        any(k not in ("name", "namespace") for k in meta)


def _nameless(value: dict) -> str:
    meta = value.get("metadata")
    if isinstance(meta, dict):
        value = {**value, "metadata": {k: v for k, v in meta.items() if k != "name"}}
    return canonical_unchecked(value)
