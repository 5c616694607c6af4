"""Annotation keys that read as no string fail the build, as kustomize's output does.

At the end of a build kustomize rewrites every resource's annotations (it takes its
internal annotations off), writing each key as a plain scalar, and reads them back with
YAML 1.2's scalars.  A key that then reads as something else than a string (``"true"``,
``"1"``, ``"null"``, ``"1.5"``, a date), whether the source quoted it, a JSON 6902 patch
added it (the patch's own YAML is YAML 1.1: its ``on:`` is ``"true"``) or
``commonAnnotations`` set it, makes a ``map[interface{}]interface{}`` Go's JSON refuses:
the build fails on the first such resource in output order, printing it in Go's
``%#v`` (measured with kubectl kustomize 1.32, tree ``json6902-annotation-keys``).
"""

from __future__ import annotations

from typing import Any

from ....errors import KUSTOMIZE_ERROR, KubeError
from ...io.kyaml import STR, TIMESTAMP
from ...io.kyaml_scalars import GoTime, go_syntax, resolve, typed_map


def check_annotation_keys(value: Any) -> None:
    """Raise kustomize's error when an annotation key of ``value`` reads as no string."""
    meta = value.get("metadata") if isinstance(value, dict) else None
    found = meta.get("annotations") if isinstance(meta, dict) else None
    if not isinstance(found, dict):
        return
    keys = [(typed_key(key), item) for key, item in found.items()]
    if all(type(key) is str for key, _ in keys):
        return
    shown = {**value, "metadata": {**meta, "annotations": typed_map(keys)}}
    raise KubeError(f"{go_syntax(shown)}: json: unsupported type: "
                    "map[interface {}]interface {}", code=KUSTOMIZE_ERROR)


def typed_key(key: str) -> Any:
    """A map key as YAML 1.2 reads it plain (``"1"`` is 1, a date Go's time.Time).

    >>> [typed_key(k) for k in ("on", "1", "true", "~")]
    ['on', 1, True, None]
    """
    tag, value = resolve(key)
    if tag == STR:
        return key
    return GoTime(value) if tag == TIMESTAMP else value
