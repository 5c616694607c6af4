"""kustomize's field specs: which fields of which kinds each transformer touches.

A :class:`FieldSpec` names a path (``spec/template/metadata/labels``; ``[]`` marks a
list whose elements are visited, and kustomize visits list elements on the way anyway;
``\\/`` is a ``/`` inside a key), the group/version/kind it applies to ("" = any), and
whether missing fields on the way are created.  The tables are the defaults kustomize
v5.5 (kubectl 1.32) applies, checked field by field against ``kubectl kustomize`` by the
corpus (labels-namespaces, prefix-references, images-replicas, nested-bases, ...).

:func:`walk` finds (and with ``create`` makes) the fields of one resource that a spec
names and hands each to a setter, as kustomize's field-spec filter does.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ...records import dataclass
from ..problems import Kustomize, ProblemError
from .resources import Gvk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, ClassVar

    Setter = Callable[[dict, str, Any], None]


class _SpecGvk:
    """``FieldSpec.gvk``, made on first reading and kept in the spec's ``__dict__`` (which
    then answers): what ``functools.cached_property`` does, without the lock Python 3.11
    takes on every first reading (about 7 of 8 microseconds; a build reads hundreds)."""

    def __get__(self, spec: FieldSpec | None, owner: type) -> Any:
        if spec is None:
            return self
        made = spec.__dict__["gvk"] = Gvk(spec.group, spec.version, spec.kind)
        return made


@dataclass(frozen=True)
class FieldSpec:
    path: str
    kind: str = ""
    group: str = ""
    version: str = ""
    create: bool = False

    #: The spec's group, version and kind (asked for on every walk: made once per spec).
    gvk: ClassVar[Gvk] = _SpecGvk()  # type: ignore[assignment]

    def applies_to(self, gvk: Gvk) -> bool:
        return gvk.selected_by(self.gvk)


def _specs(rows: list[tuple]) -> tuple[FieldSpec, ...]:
    return tuple(FieldSpec(*row) for row in rows)


CONFLICTING = Kustomize("conflicting-field-specs")


def merge_specs(existing: tuple[FieldSpec, ...], incoming: Iterable[FieldSpec]
                ) -> tuple[FieldSpec, ...]:
    """kustomize's ``FsSlice.MergeAll``: each incoming spec is appended unless a spec
    already there has its path and is *selected by* the incoming one's type (empty
    group, version or kind select any), in which case it is dropped, and it is an error
    (:data:`CONFLICTING`) when the two disagree on ``create``.

    So the order matters: merging the defaults into a custom ``kind: App`` spec for
    ``metadata/labels`` drops the default for every kind (measured: a ConfigMap then gets
    no ``commonLabels``).

    >>> custom = (FieldSpec("metadata/labels", "App", create=True),)
    >>> merge_specs(custom, (FieldSpec("metadata/labels", create=True),)) == custom
    True
    """
    out = list(existing)
    by_path: dict[str, list[FieldSpec]] = {}  # the specs of each path, in order
    for spec in out:
        by_path.setdefault(spec.path, []).append(spec)
    for spec in incoming:
        same = [s for s in by_path.get(spec.path, ()) if s.gvk.selected_by(spec.gvk)]
        if not same:
            out.append(spec)
            by_path.setdefault(spec.path, []).append(spec)
        elif same[0].create != spec.create:
            raise ProblemError(CONFLICTING, code=KUSTOMIZE_ERROR)
    return tuple(out)


def config_order(spec: FieldSpec, ranks: dict[str, int]) -> tuple:
    """Where kustomize sorts a field spec in a transformer configuration: by the rank of
    its kind in the output order, then ``group_version_kind`` (``~G``, ``~V``, ``~K``
    for empty parts); ``ranks`` as :func:`~.resources.legacy_sort` builds them."""
    gvk = spec.gvk
    return ranks.get(gvk.kind, 0), "_".join((gvk.group or "~G", gvk.version or "~V",
                                             gvk.kind or "~K"))


_APPS_WORKLOADS = ("Deployment", "StatefulSet")
_AFFINITY = (
    "spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/"
    "podAffinityTerm/labelSelector/matchLabels",
    "spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
    "labelSelector/matchLabels",
    "spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/"
    "podAffinityTerm/labelSelector/matchLabels",
    "spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
    "labelSelector/matchLabels",
    "spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels",
)

#: Labels on the objects and on the pod (and claim) templates they create.
METADATA_LABELS = _specs([
    ("metadata/labels", "", "", "", True),
    ("spec/template/metadata/labels", "ReplicationController", "", "v1", True),
    ("spec/template/metadata/labels", "Deployment", "", "", True),
    ("spec/template/metadata/labels", "ReplicaSet", "", "", True),
    ("spec/template/metadata/labels", "DaemonSet", "", "", True),
    ("spec/template/metadata/labels", "StatefulSet", "apps", "", True),
    ("spec/volumeClaimTemplates[]/metadata/labels", "StatefulSet", "apps", "", True),
    ("spec/template/metadata/labels", "Job", "batch", "", True),
    ("spec/jobTemplate/metadata/labels", "CronJob", "batch", "", True),
    ("spec/jobTemplate/spec/template/metadata/labels", "CronJob", "batch", "", True),
])

#: ``commonLabels`` and ``labels`` with ``includeSelectors``: selectors as well.
COMMON_LABELS = _specs([
    ("spec/selector", "Service", "", "v1", True),
    ("spec/selector", "ReplicationController", "", "v1", True),
    ("spec/selector/matchLabels", "Deployment", "", "", True),
    *[(path, "Deployment", "apps", "", False) for path in _AFFINITY],
    ("spec/selector/matchLabels", "ReplicaSet", "", "", True),
    ("spec/selector/matchLabels", "DaemonSet", "", "", True),
    ("spec/selector/matchLabels", "StatefulSet", "apps", "", True),
    *[(path, "StatefulSet", "apps", "", False) for path in _AFFINITY],
    ("spec/selector/matchLabels", "Job", "batch", "", False),
    ("spec/jobTemplate/spec/selector/matchLabels", "CronJob", "batch", "", False),
    ("spec/selector/matchLabels", "PodDisruptionBudget", "policy", "", False),
    ("spec/podSelector/matchLabels", "NetworkPolicy", "networking.k8s.io", "", False),
    ("spec/ingress/from/podSelector/matchLabels", "NetworkPolicy", "networking.k8s.io", "",
     False),
    ("spec/egress/to/podSelector/matchLabels", "NetworkPolicy", "networking.k8s.io", "",
     False),
]) + METADATA_LABELS

#: ``labels`` without selectors or templates.
RESOURCE_LABELS = _specs([("metadata/labels", "", "", "", True)])

#: ``commonAnnotations``.
ANNOTATIONS = _specs([
    ("metadata/annotations", "", "", "", True),
    ("spec/template/metadata/annotations", "ReplicationController", "", "v1", True),
    ("spec/template/metadata/annotations", "Deployment", "", "", True),
    ("spec/template/metadata/annotations", "ReplicaSet", "", "", True),
    ("spec/template/metadata/annotations", "DaemonSet", "", "", True),
    ("spec/template/metadata/annotations", "StatefulSet", "", "", True),
    ("spec/template/metadata/annotations", "Job", "batch", "", True),
    ("spec/jobTemplate/metadata/annotations", "CronJob", "batch", "", True),
    ("spec/jobTemplate/spec/template/metadata/annotations", "CronJob", "batch", "", True),
])

#: ``namespace``: besides ``metadata/namespace`` of every namespaced kind (and the
#: RoleBinding subjects named ``default``, both handled in code as kustomize does).
NAMESPACE = _specs([
    ("metadata/name", "Namespace", "", "", True),
    ("spec/service/namespace", "APIService", "apiregistration.k8s.io", "", True),
    ("spec/conversion/webhook/clientConfig/service/namespace", "CustomResourceDefinition",
     "apiextensions.k8s.io", "", False),
])

#: ``replicas``, in the order kustomize names them in its error.
REPLICAS = _specs([
    ("spec/replicas", "Deployment", "", "", True),
    ("spec/replicas", "StatefulSet", "", "", True),
    ("spec/replicas", "ReplicaSet", "", "", True),
    ("spec/replicas", "ReplicationController", "", "", True),
])

#: ``varReference``: the fields where ``vars`` are replaced, in kustomize's order
#: (measured: kubectl kustomize 1.32 prints its configuration in a merge error).
VAR_REFERENCES = _specs([
    ("spec/ports/port", "Service"),
    ("spec/ports/targetPort", "Service"),
    ("spec/nfs/server", "PersistentVolume"),
    ("spec/template/spec/initContainers/volumeMounts/mountPath", "Deployment"),
    ("spec/template/spec/initContainers/env/value", "Deployment"),
    ("spec/template/spec/initContainers/command", "Deployment"),
    ("spec/template/spec/initContainers/args", "Deployment"),
    ("spec/template/spec/containers/volumeMounts/mountPath", "Deployment"),
    ("spec/template/spec/containers/env/value", "Deployment"),
    ("spec/template/spec/volumes/nfs/server", "Deployment"),
    ("spec/template/metadata/annotations", "Deployment"),
    ("spec/template/spec/containers/command", "Deployment"),
    ("spec/template/spec/containers/args", "Deployment"),
    ("spec/template/spec/containers/volumeMounts/mountPath", "StatefulSet"),
    ("spec/template/spec/containers/env/value", "StatefulSet"),
    ("spec/template/spec/initContainers/args", "StatefulSet"),
    ("spec/volumeClaimTemplates/spec/nfs/server", "StatefulSet"),
    ("spec/template/spec/initContainers/command", "StatefulSet"),
    ("spec/template/spec/containers/command", "StatefulSet"),
    ("spec/template/spec/containers/args", "StatefulSet"),
    ("spec/template/spec/initContainers/volumeMounts/mountPath", "StatefulSet"),
    ("spec/template/spec/initContainers/env/value", "StatefulSet"),
    ("spec/jobTemplate/spec/template/spec/initContainers/env/value", "CronJob"),
    ("spec/jobTemplate/spec/template/spec/initContainers/command", "CronJob"),
    ("spec/jobTemplate/spec/template/spec/initContainers/args", "CronJob"),
    ("spec/jobTemplate/spec/template/spec/containers/volumeMounts/mountPath", "CronJob"),
    ("spec/jobTemplate/spec/template/spec/containers/env/value", "CronJob"),
    ("spec/jobTemplate/spec/template/spec/containers/command", "CronJob"),
    ("spec/jobTemplate/spec/template/spec/initContainers/volumeMounts/mountPath", "CronJob"),
    ("spec/jobTemplate/spec/template/volumes/nfs/server", "CronJob"),
    ("spec/jobTemplate/spec/template/spec/containers/args", "CronJob"),
    ("spec/template/spec/containers/command", "DaemonSet"),
    ("spec/template/spec/volumes/nfs/server", "DaemonSet"),
    ("spec/template/spec/initContainers/volumeMounts/mountPath", "DaemonSet"),
    ("spec/template/spec/initContainers/env/value", "DaemonSet"),
    ("spec/template/spec/initContainers/command", "DaemonSet"),
    ("spec/template/spec/initContainers/args", "DaemonSet"),
    ("spec/template/spec/containers/volumeMounts/mountPath", "DaemonSet"),
    ("spec/template/spec/containers/env/value", "DaemonSet"),
    ("spec/template/spec/containers/args", "DaemonSet"),
    ("spec/tls/secretName", "Ingress"),
    ("spec/tls/hosts", "Ingress"),
    ("spec/rules/host", "Ingress"),
    ("spec/template/spec/initContainers/command", "Job"),
    ("spec/template/spec/volumes/nfs/server", "Job"),
    ("spec/template/spec/containers/args", "Job"),
    ("spec/template/spec/containers/command", "Job"),
    ("spec/template/spec/containers/env/value", "Job"),
    ("spec/template/spec/containers/volumeMounts/mountPath", "Job"),
    ("spec/template/spec/initContainers/args", "Job"),
    ("spec/template/spec/initContainers/env/value", "Job"),
    ("spec/template/spec/initContainers/volumeMounts/mountPath", "Job"),
    ("spec/containers/volumeMounts/mountPath", "Pod"),
    ("spec/containers/args", "Pod"),
    ("spec/initContainers/command", "Pod"),
    ("spec/initContainers/env/value", "Pod"),
    ("spec/initContainers/volumeMounts/mountPath", "Pod"),
    ("spec/volumes/nfs/server", "Pod"),
    ("spec/initContainers/args", "Pod"),
    ("spec/containers/env/value", "Pod"),
    ("spec/containers/command", "Pod"),
    ("spec/template/spec/volumes/nfs/server", "ReplicaSet"),
    ("spec/template/spec/containers/volumeMounts/mountPath", "ReplicaSet"),
    ("spec/template/spec/containers/env/value", "ReplicaSet"),
    ("spec/template/spec/containers/command", "ReplicaSet"),
    ("spec/template/spec/containers/args", "ReplicaSet"),
    ("spec/template/spec/initContainers/args", "ReplicaSet"),
    ("spec/template/spec/initContainers/volumeMounts/mountPath", "ReplicaSet"),
    ("spec/template/spec/initContainers/env/value", "ReplicaSet"),
    ("spec/template/spec/initContainers/command", "ReplicaSet"),
    ("metadata/labels", ""),
    ("metadata/annotations", ""),
])

#: Kinds ``namePrefix``/``nameSuffix`` leave alone.
PREFIX_SKIPPED = (Gvk("", "", "CustomResourceDefinition"),
                  Gvk("apiregistration.k8s.io", "", "APIService"), Gvk("", "", "Namespace"))


def split_path(path: str) -> list[str]:
    """``a/b\\/c/d`` -> ``["a", "b/c", "d"]``."""
    parts: list[str] = []
    for piece in path.split("/"):
        if parts and parts[-1].endswith("\\"):
            parts[-1] = parts[-1][:-1] + "/" + piece
        else:
            parts.append(piece)
    return parts


def considering(spec: FieldSpec, rid: Any, traversals: list, problem: Any) -> Kustomize:
    """kustomize's error from a field spec's walk over the resource ``rid``: every list
    entered on the way (``detail``: the path left to walk from each), then ``problem``."""
    return Kustomize("considering-field", field=spec.path, id=str(rid),
                     detail=tuple(tuple(rest) for rest in traversals), cause=problem)


def walk(value: Any, spec: FieldSpec, visit: Callable[[dict, str], None],
         leaf_kind: type = dict) -> None:
    """Call ``visit(parent, key)`` for every field of ``value`` that ``spec.path`` names.

    With ``spec.create``, missing maps on the way are created (never inside a ``[]``
    step), and so is the last field (as an empty ``leaf_kind``: a map for labels, a
    string for a namespace; ``visit`` sets it); a ``null`` on the way becomes an empty
    map.  Lists are entered element by element.  A scalar where the path goes on is
    kustomize's error.
    """
    for parent, key, _trail in walk_paths(value, spec):
        visit(parent, key)


def walk_paths(value: Any, spec: FieldSpec) -> list[tuple[dict, str, tuple]]:
    """The fields :func:`walk` visits, as (parent map, key, path tokens to the field)."""
    out: list[tuple[dict, str, tuple]] = []
    _walk(value, split_path(spec.path), spec, out, ())
    return out


def _walk(node: Any, parts: list[str], spec: FieldSpec, out: list, trail: tuple) -> None:
    if isinstance(node, list):
        for index, item in enumerate(node):
            try:
                _walk(item, parts, spec, out, (*trail, str(index)))
            except KubeError as err:  # kustomize's "visit traversal on path: [...]"
                err.traversals = [parts, *getattr(err, "traversals", [])]  # type: ignore
                raise
        return
    if not isinstance(node, dict):
        raise ProblemError(Kustomize("obj-at-path", field=spec.path,
                                     cause=Kustomize("not-sequence-or-mapping")),
                           code=KUSTOMIZE_ERROR)
    name, is_seq = (parts[0][:-2], True) if parts[0].endswith("[]") else (parts[0], False)
    last = len(parts) == 1
    if name not in node:
        if not spec.create or is_seq:
            return
        if last:
            out.append((node, name, (*trail, name)))
            return
        node[name] = {}
    elif node[name] is None and not last:
        if not spec.create:  # a null on the way is left as it is (measured: volumes: null)
            return
        node[name] = [] if is_seq else {}
    if last:
        out.append((node, name, (*trail, name)))
    else:
        _walk(node[name], parts[1:], spec, out, (*trail, name))
