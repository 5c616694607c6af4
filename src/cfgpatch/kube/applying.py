"""Client-side apply, its two-way diff and Helm's upgrade, as functions over values.

* :func:`apply`: ``kubectl apply`` (client side, 1.32) of a manifest onto a live
  object (or none: the object is created);
* :func:`diff`: the patch ``kubectl`` would compute from one manifest to another
  (strategic merge for a kind with Go types, a JSON merge patch otherwise);
* :func:`upgrade`: Helm 3's ``upgrade`` of one object (old chart output, new chart
  output, live object).

Each returns a frozen dataclass with the patch, its exact bytes, the resulting object
and notes naming every field the patch touches; failures are
:class:`~cfgpatch.errors.KubeError` with kubectl's (or Helm's) text.  ``schema``
everywhere: a :class:`~cfgpatch.kube.schema.node.Schema` from
:func:`~cfgpatch.kube.load_openapi` (the user's OpenAPI document) instead of the
built-in Kubernetes 1.32 table.  The engines are imported on first use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import KubeError

if TYPE_CHECKING:
    from .engine.clientapply import Applied
    from .explain.apply import ApplyNote
    from .schema.node import Node, Schema

#: What :func:`apply` reports, as kubectl's line does (``deployment.apps/web configured``).
CREATED, CONFIGURED, UNCHANGED, UPDATED = "created", "configured", "unchanged", "updated"


@dataclass(frozen=True)
class ApplyOutcome:
    """One object's client-side apply (or Helm upgrade).

    ``action``: ``created`` (no live object), ``configured`` or ``unchanged`` (the
    patch is ``{}``: nothing is sent) for :func:`apply`; ``created``, ``updated`` or
    ``unchanged`` for :func:`upgrade`.  ``patch`` is None when the object is created;
    ``patch_text`` is the body kubectl sends (``json.Marshal``'s bytes as text);
    ``patch_type`` ``strategic`` or ``merge``; ``object`` the object the server stores
    (before its defaulting); ``annotation`` the new last-applied configuration
    (:func:`apply` only); ``notes`` one per field the patch touches."""

    action: str
    object: dict[str, Any]
    patch: dict[str, Any] | None
    patch_type: str
    patch_text: str
    original: dict[str, Any] | None
    annotation: str | None = None
    notes: tuple[ApplyNote, ...] = ()


@dataclass(frozen=True)
class DiffResult:
    """The patch from ``old`` to ``new``: ``patch`` (``{}``: no difference), its text as
    ``kubectl`` encodes it, its type and the notes (``changed``/``added``/``deleted``/
    ``reordered`` fields)."""

    patch: dict[str, Any]
    patch_type: str
    patch_text: str
    notes: tuple[ApplyNote, ...] = field(default=())

    @property
    def changed(self) -> bool:
        return bool(self.patch)


def kind_node(obj: dict[str, Any], schema: Schema | None = None) -> Node | None:
    """The schema node of ``obj``'s kind (None: a kind kubectl has no Go type for)."""
    from .schema.node import builtin_schema

    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return (schema or builtin_schema()).for_kind(api_version, kind)


def default_namespace(obj: dict[str, Any], namespace: str = "default") -> str | None:
    """The namespace kubectl fills into ``obj`` (None for a cluster-scoped kind)."""
    from .schema.scope import is_cluster_scoped

    if is_cluster_scoped(str(obj.get("apiVersion")), str(obj.get("kind"))):
        return None
    return namespace


def apply(manifest: dict[str, Any], live: dict[str, Any] | None = None, *,
          schema: Schema | None = None, namespace: str = "default",
          last_applied: Any = "annotation", overwrite: bool = True,
          source: str | None = None) -> ApplyOutcome:
    """``kubectl apply`` (client side) of ``manifest`` onto ``live``.

    ``namespace``: filled into a namespaced manifest without one; ``last_applied``: the
    last applied configuration to use instead of ``live``'s annotation (a dict, or None
    for none); ``overwrite=False``: kubectl's ``--overwrite=false`` (a field changed live
    since the last apply is a conflict); ``source``: the file name kubectl's error
    messages quote (None: apimachinery's message alone).
    """
    from .engine.clientapply import kubectl_apply

    node = kind_node(manifest, schema)
    done = kubectl_apply(manifest, live, node, namespace=default_namespace(manifest, namespace),
                         last_applied=last_applied, overwrite=overwrite, source=source)
    action = CREATED if done.current is None else UNCHANGED if done.unchanged else CONFIGURED
    return _outcome(action, done, node)


def upgrade(old: dict[str, Any] | None, new: dict[str, Any], live: dict[str, Any] | None, *,
            schema: Schema | None = None, cr_three_way: bool = False) -> ApplyOutcome:
    """Helm 3's upgrade of one object: ``old`` and ``new`` are the release's manifests of
    it before and after, ``live`` the object in the cluster (None: Helm creates it).

    ``cr_three_way``: a custom resource gets Helm's three-way JSON merge patch (what an
    install taking objects over uses) instead of the two-way one ``helm upgrade`` sends.
    """
    from .engine.clientapply import helm_upgrade

    node = kind_node(new, schema)
    done = helm_upgrade(old, new, live, node, cr_three_way=cr_three_way)
    action = CREATED if done.current is None else UNCHANGED if done.unchanged else UPDATED
    return _outcome(action, done, node)


def _outcome(action: str, done: Applied, node: Node | None) -> ApplyOutcome:
    from .explain.apply import explain_three_way

    notes = explain_three_way(done.original, done.modified, done.current, done.result, node)
    return ApplyOutcome(action, done.result, done.patch, done.patch_type, done.patch_text,
                        done.original, done.annotation, tuple(notes))


def diff(old: dict[str, Any], new: dict[str, Any], *, type: str | None = None,  # noqa: A002
         schema: Schema | None = None, explain: bool = True) -> DiffResult:
    """The patch from ``old`` to ``new`` as kubectl computes it (``kube diff``).

    ``type``: ``strategic`` or ``merge``; None picks strategic for a kind with Go types
    and merge otherwise.  A strategic patch for a kind without Go types is a
    :class:`~cfgpatch.errors.KubeError`.  ``explain=False``: no notes (the patch alone).
    """
    from .engine import create, createjson
    from .engine.clientapply import apply_patch
    from .explain.apply import explain_two_way
    from .go.json import encode
    from .io.unstructured import normalize

    old, new = normalize(old), normalize(new)
    node = kind_node(new, schema)
    patch_type = type or ("strategic" if node is not None else "merge")
    if patch_type not in ("strategic", "merge"):
        raise KubeError(f"unknown patch type {patch_type!r}", hint="use strategic or merge")
    if patch_type == "strategic" and node is None:
        raise KubeError(f"strategic merge patch is not supported for {new.get('kind')} "
                        f"({new.get('apiVersion')}); use --type merge",
                        hint="kubectl has no Go type for this kind, so it falls back to "
                             "a JSON merge patch")
    if node is not None and patch_type == "strategic":
        patch = create.create_two_way(old, new, node)
    else:
        node = None
        patch = createjson.create_merge_patch(old, new)
    if not explain:
        return DiffResult(patch, patch_type, encode(patch))
    notes = explain_two_way(old, new, apply_patch(old, patch, node), node)
    return DiffResult(patch, patch_type, encode(patch), tuple(notes))
