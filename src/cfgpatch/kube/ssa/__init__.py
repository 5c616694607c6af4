"""Server-side apply, offline: the API server's field manager as Kubernetes 1.32 runs it.

A model of structured-merge-diff v4.4.2 and k8s.io/apimachinery v0.32.4
``pkg/util/managedfields`` (the field manager chain kube-apiserver uses), standard library
only.  Every field of an object is owned by the *managers* that set it: appliers
(``Apply`` entries) and writers (``Update`` entries: controllers, ``kubectl edit``,
``kubectl replace``).  ``metadata.managedFields`` records them.

API
---
``server_side_apply(live, obj, *, manager="kubectl", force=False, schema=None, crds=(),
time=None, subresource="") -> ApplyResult``
    The object the server stores after ``manager`` applies ``obj`` (``live=None``:
    creates it).  A field ``obj`` changes that another manager owns is a conflict:
    :class:`~cfgpatch.errors.OwnershipConflict` (code ``ownership conflict``) whose message
    is the server's text and whose ``conflicts`` are :class:`Conflict` values; ``force``
    takes the fields over instead.  Equal values are shared, not conflicts.  Fields the
    manager applied before and no longer sends are removed unless another manager owns
    them (``ApplyResult.changes.removed``; ``ApplyResult.dropped``: all it stopped sending).
``update(live, obj, *, manager, schema=None, crds=(), time=None, subresource="")
-> UpdateResult``
    An Update: the fields it changes become ``manager``'s; others lose them
    (``UpdateResult.taken``).
``Types(schema=None, crds=(), deduced=False, openapi=None)``
    Where kinds find their types: CRDs (``x-kubernetes-list-type``,
    ``x-kubernetes-list-map-keys``, ``x-kubernetes-map-type``,
    ``x-kubernetes-preserve-unknown-fields``, embedded resources) and an OpenAPI document's
    kinds (``--schema``), then the built-in Kubernetes 1.32 table; ``deduced``: kinds found
    nowhere are typed from their content.  Pass ``schema=Types(...)`` or ``crds=[crd]``.
``refusals(obj, *, schema=None, crds=(), allow_duplicates=False) -> list[Refusal]``
    Why the server would refuse an object (duplicate keys, missing key fields, undeclared
    fields, wrong kinds of values), without applying it (for lint).
``conflict_message(conflicts)``, ``field_owners(entries)`` (every owned field and its
owners, for explanations), ``Conflict``, ``ManagedFieldsEntry``, ``FieldSet``;
``csaupgrade.kubectl_server_side_apply(live, obj, ...)``: kubectl's whole
``apply --server-side``, with its client-side to server-side migration.
Other refusals of the server (duplicate keys in an associative list, an item without its
key field, a field a CRD does not declare, ``metadata.managedFields`` in an applied
object, a decoding error of ``managedFields``) raise :class:`~cfgpatch.errors.KubeError`
with code ``server refuses`` and the server's text.

>>> from cfgpatch.kube.ssa import OwnershipConflict, server_side_apply, update
>>> live = {"apiVersion": "apps/v1", "kind": "Deployment",
...         "metadata": {"name": "web", "namespace": "default"},
...         "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}}}
>>> first = server_side_apply(None, live, manager="helm", time="2026-01-01T00:00:00Z")
>>> [(e.manager, e.operation) for e in first.managed_fields]
[('helm', 'Apply')]
>>> scaled = dict(first.object, spec=dict(first.object["spec"], replicas=5))
>>> hpa = update(first.object, scaled, manager="hpa-controller", time="2026-01-01T00:01:00Z")
>>> [(e.manager, e.operation) for e in hpa.managed_fields]
[('helm', 'Apply'), ('hpa-controller', 'Update')]
>>> again = dict(live, spec=dict(live["spec"], replicas=3))
>>> try:
...     server_side_apply(hpa.object, again, manager="helm")
... except OwnershipConflict as exc:
...     print(exc.message)
Apply failed with 1 conflict: conflict with "hpa-controller" using apps/v1: .spec.replicas
>>> forced = server_side_apply(hpa.object, again, manager="helm", force=True)
>>> forced.object["spec"]["replicas"], [str(c) for c in forced.forced]
(3, ['conflict with "hpa-controller" using apps/v1: .spec.replicas'])

Limits: no defaulting and no version conversion (give objects as the server holds them
after defaulting; managers of other API versions are read as of the object's version),
no ``.status`` reset of the main resource, no pruning of custom resources; an Update
that the field manager cannot type fails here (the API server would drop
``managedFields`` and go on).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # the names are imported on first use (PEP 562)
    from ...errors import OwnershipConflict
    from .api import (
        ApplyResult,
        Changes,
        Conflict,
        Refusal,
        UpdateResult,
        conflict_message,
        field_owners,
        refusals,
        server_side_apply,
        update,
    )
    from .fieldpath import FieldSet, PathElement, path_string
    from .kind_types import Types
    from .managed import ManagedFieldsEntry

#: name -> module of the names imported on first use: typing objects (``Types``) does
#: not load the field manager.
_LAZY = {
    "OwnershipConflict": "cfgpatch.errors",
    **dict.fromkeys(("ApplyResult", "Changes", "Conflict", "Refusal", "UpdateResult",
                     "conflict_message", "field_owners", "refusals", "server_side_apply",
                     "update"), "cfgpatch.kube.ssa.api"),
    **dict.fromkeys(("FieldSet", "PathElement", "path_string"), "cfgpatch.kube.ssa.fieldpath"),
    "Types": "cfgpatch.kube.ssa.kind_types",
    "ManagedFieldsEntry": "cfgpatch.kube.ssa.managed",
}


def __getattr__(name: str) -> object:
    """The names of :data:`_LAZY`, imported on first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "ApplyResult",
    "Changes",
    "Conflict",
    "FieldSet",
    "ManagedFieldsEntry",
    "OwnershipConflict",
    "PathElement",
    "Refusal",
    "Types",
    "UpdateResult",
    "conflict_message",
    "field_owners",
    "path_string",
    "refusals",
    "server_side_apply",
    "update",
]
