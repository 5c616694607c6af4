"""Map keys kustomize writes itself are plain scalars: at output, one that reads as no
string fails the build.

kustomize prints through Go's JSON from its YAML nodes, read with YAML 1.2's scalars.  A
key written in a file keeps its style (``"1":`` stays a string), but the keys kustomize
writes itself are plain: the label keys of ``labels``/``commonLabels`` (in every field
they go to), the keys a generator writes (data, labels, annotations), and every
annotation key (at the end of a build kustomize rewrites each resource's annotations to
take its internal ones off).  A plain key that then reads as something else than a
string (``"true"``, ``"1"``, ``"null"``, ``"1.5"``, a date) makes a
``map[interface{}]interface{}`` Go's JSON refuses: the build fails on the first such
resource in output order, printing it in Go's ``%#v`` (measured with kubectl kustomize
1.32, tree ``json6902-annotation-keys``).  The kustomization itself is YAML 1.1 written
as JSON: its ``on:`` is ``"true"``, its ``1e3:`` ``"1000"``.

:func:`plain_key` makes the key kustomize writes (a ``TypedKey`` when it reads as no
string, and the resource is told); a plain key in a file that reads so is a ``TypedKey``
too (a resource's, or a strategic patch's merged into one: kustomize fails when it
prints it, not when it reads it); :func:`check_keys` raises kustomize's error.
"""

from __future__ import annotations

import json

from ...errors import KUSTOMIZE_ERROR
from ..io.kyaml import STR, TIMESTAMP
from ..io.kyaml_scalars import GoTime, TypedKey, go_syntax, resolve, typed_map
from ..problems import Kustomize, ProblemError, YamlSyntax, YamlValue
from .styles import EmptyNullKey, FlowEmptyKey

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def plain_key(key: str) -> str:
    """``key`` as kustomize writes it: a ``TypedKey`` when YAML reads it as no string.

    >>> [type(plain_key(k)).__name__ for k in ("app", "1", "true")]
    ['str', 'TypedKey', 'TypedKey']
    """
    return TypedKey(key) if type(typed_key(key)) is not str else key


def has_typed_keys(mapping: dict) -> bool:
    """Does ``mapping`` (a map kustomize wrote keys into) hold a ``TypedKey``?"""
    return any(isinstance(key, TypedKey) for key in mapping)


def check_keys(value: Any, walk: bool) -> None:
    """Raise kustomize's error when a plain key of ``value`` reads as no string: its
    annotation keys, and with ``walk`` the ``TypedKey`` keys anywhere in it."""
    shown, failed = _shown(value, walk, _TOP, 0)
    if failed:
        raise ProblemError(YamlValue("unsupported-type", "map[interface {}]interface {}",
                                     value=go_syntax(shown)), code=KUSTOMIZE_ERROR)
    # kustomize then reads the map's JSON back as YAML, where a key holding U+0085 (which
    # Go's JSON encoder leaves as it is) is a key cut by a line break (measured)
    if _holds_nel(value):
        from ..io.writer import nel_key_line  # (the printer's modules: only when needed)

        line = nel_key_line(value)
        if line is not None:
            # (go-yaml's parser prints the line of its mark as it is)
            syntax = YamlSyntax("parser", "expected ',' or '}'", None, line, None, False, None)
            raise ProblemError(Kustomize("go-value", detail=go_syntax(shown), cause=syntax),
                               code=KUSTOMIZE_ERROR)


def _holds_nel(value: Any) -> bool:
    """Whether U+0085 is anywhere in ``value`` (one C-level pass: most never hold it)."""
    try:
        return "\x85" in json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # a key of no JSON type: look key by key
        return True


def check_annotation_keys(value: Any) -> None:
    """:func:`check_keys` of the annotations only (what lint's resolution can check)."""
    check_keys(value, walk=False)


_TOP, _METADATA, _ANNOTATIONS, _OTHER = "top", "metadata", "annotations", "other"


def _role(role: str, key: str) -> str:
    if role == _TOP and key == "metadata":
        return _METADATA
    return _ANNOTATIONS if role == _METADATA and key == "annotations" else _OTHER


def _shown(value: Any, walk: bool, role: str, depth: int) -> tuple[Any, bool]:
    """``value`` as Go prints it where a plain key reads as no string, and whether one
    does (``role``: where ``value`` is; every annotation key is plain)."""
    if depth > 10000:
        return value, False
    if isinstance(value, list):
        if not walk:
            return value, False
        items = [_shown(item, walk, _OTHER, depth + 1) for item in value]
        return [item for item, _ in items], any(failed for _, failed in items)
    if not isinstance(value, dict):
        return value, False
    failed = False
    pairs = []
    for key, item in value.items():
        inner = _role(role, key)
        if walk or inner != _OTHER:
            item, below = _shown(item, walk, inner, depth + 1)
            failed = failed or below
        if item == "" and isinstance(key, FlowEmptyKey) and role != _ANNOTATIONS:
            item = None  # (printed "", but Go's map holds nil: measured)
        pairs.append((key, item))
    every = role == _ANNOTATIONS
    typed = [(typed_key(key) if every or isinstance(key, TypedKey) else key, item)
             for key, item in pairs]
    if any(type(key) is not str and not isinstance(key, EmptyNullKey) for key, _ in typed):
        return typed_map(typed), True
    return dict(pairs), failed


def typed_key(key: str) -> Any:
    """A map key as YAML 1.2 reads it plain (``"1"`` is 1, a date Go's time.Time).

    >>> [typed_key(k) for k in ("on", "1", "true", "~")]
    ['on', 1, True, None]
    """
    tag, value = resolve(key)
    if tag == STR:
        return str(key) if isinstance(key, EmptyNullKey) else key
    return GoTime(value) if tag == TIMESTAMP else value
