"""Name references: after every rename of a build, the fields that name a renamed resource.

kustomize runs this once, at the end of the whole build (after the hash suffixes of
generated ConfigMaps and Secrets): for every field that may name another resource
(:data:`REFERENCES`, kustomize v5.5's default table: a Deployment's ``configMapRef``,
an HPA's ``scaleTargetRef``, a RoleBinding's ``roleRef`` and ``subjects``, ...), the
value is looked up among the resources that field can reach (the same namespace, or
cluster-scoped, or a ServiceAccount; for a RoleBinding also the namespaces of its
ServiceAccount subjects) whose earlier names include it (a reference that is a map
with a ``namespace`` looks in that namespace, where an object without a namespace is in
``default``); one candidate (or several
with the same prefixes and suffixes, or several with the same final name) gives the
new name, more is kustomize's "found multiple possible referrals" error.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..problems import Kustomize, ProblemError, cause
from .fieldspecs import FieldSpec, considering, walk
from .resmap import ResMap
from .resources import Gvk, Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .trace import Trace  # imported by the caller that explains

_POD = ("volumes/{v}", "containers/env/valueFrom/{k}/name",
        "initContainers/env/valueFrom/{k}/name",
        "containers/envFrom/{r}/name", "initContainers/envFrom/{r}/name")
_WORKLOADS = (("Pod", "v1", "spec/"), ("PodTemplate", "", "template/spec/"),
              ("Deployment", "", "spec/template/spec/"), ("ReplicaSet", "", "spec/template/spec/"),
              ("DaemonSet", "", "spec/template/spec/"), ("StatefulSet", "", "spec/template/spec/"),
              ("Job", "", "spec/template/spec/"),
              ("CronJob", "", "spec/jobTemplate/spec/template/spec/"))
_TEMPLATED = (("Pod", "spec/"), ("StatefulSet", "spec/template/spec/"),
              ("Deployment", "spec/template/spec/"),
              ("ReplicationController", "spec/template/spec/"),
              ("CronJob", "spec/jobTemplate/spec/template/spec/"), ("Job", "spec/template/spec/"),
              ("DaemonSet", "spec/template/spec/"))


def _pod_refs(volume: str, key_ref: str, env_ref: str, extra: tuple[str, ...]) -> list[FieldSpec]:
    out = []
    for kind, version, prefix in _WORKLOADS:
        suffixes = [s.format(v=volume, k=key_ref, r=env_ref) for s in _POD] + list(extra)
        out += [FieldSpec(prefix + s, kind, "", version) for s in suffixes]
    return out


def _spec(path: str, kind: str, group: str = "", version: str = "") -> FieldSpec:
    return FieldSpec(path, kind, group, version)


_RBAC = "rbac.authorization.k8s.io"
_ADMISSION = "admissionregistration.k8s.io"

#: (referred Gvk, the fields that may name it), kustomize v5.5's nameReference table.
REFERENCES: list[tuple[Gvk, list[FieldSpec]]] = [
    *[(Gvk("", "", kind), [_spec("spec/scaleTargetRef/name", "HorizontalPodAutoscaler")])
      for kind in ("Deployment", "ReplicationController", "ReplicaSet", "StatefulSet")],
    (Gvk("", "v1", "ConfigMap"), [
        *_pod_refs("configMap/name", "configMapKeyRef", "configMapRef",
                   ("volumes/projected/sources/configMap/name",)),
        _spec("spec/configSource/configMap", "Node"),
        _spec("rules/resourceNames", "Role"), _spec("rules/resourceNames", "ClusterRole"),
        _spec("metadata/annotations/nginx.ingress.kubernetes.io\\/fastcgi-params-configmap",
              "Ingress")]),
    (Gvk("", "v1", "Secret"), [
        *_pod_refs("secret/secretName", "secretKeyRef", "secretRef",
                   ("imagePullSecrets/name", "volumes/projected/sources/secret/name")),
        _spec("spec/tls/secretName", "Ingress"),
        _spec("metadata/annotations/ingress.kubernetes.io\\/auth-secret", "Ingress"),
        _spec("metadata/annotations/nginx.ingress.kubernetes.io\\/auth-secret", "Ingress"),
        _spec("metadata/annotations/nginx.ingress.kubernetes.io\\/auth-tls-secret", "Ingress"),
        _spec("imagePullSecrets/name", "ServiceAccount"),
        *[_spec(f"parameters/{p}", "StorageClass")
          for p in ("secretName", "adminSecretName", "userSecretName", "secretRef")],
        _spec("rules/resourceNames", "Role"), _spec("rules/resourceNames", "ClusterRole"),
        _spec("spec/template/spec/containers/env/valueFrom/secretKeyRef/name", "Service",
              "serving.knative.dev", "v1"),
        _spec("spec/azureFile/secretName", "PersistentVolume")]),
    (Gvk("", "v1", "Service"), [
        _spec("spec/serviceName", "StatefulSet", "apps"),
        _spec("spec/rules/http/paths/backend/serviceName", "Ingress"),
        _spec("spec/backend/serviceName", "Ingress"),
        _spec("spec/rules/http/paths/backend/service/name", "Ingress"),
        _spec("spec/defaultBackend/service/name", "Ingress"),
        _spec("spec/service/name", "APIService", "apiregistration.k8s.io"),
        _spec("webhooks/clientConfig/service", "ValidatingWebhookConfiguration", _ADMISSION),
        _spec("webhooks/clientConfig/service", "MutatingWebhookConfiguration", _ADMISSION),
        _spec("spec/rules/backendRefs/name", "HTTPRoute")]),
    (Gvk(_RBAC, "", "Role"), [_spec("roleRef/name", "RoleBinding", _RBAC)]),
    (Gvk(_RBAC, "", "ClusterRole"), [_spec("roleRef/name", "RoleBinding", _RBAC),
                                     _spec("roleRef/name", "ClusterRoleBinding", _RBAC)]),
    (Gvk("", "v1", "ServiceAccount"), [
        _spec("subjects", "RoleBinding", _RBAC), _spec("subjects", "ClusterRoleBinding", _RBAC),
        *[_spec(prefix + "serviceAccountName", kind) for kind, prefix in _TEMPLATED]]),
    (Gvk("", "v1", "PersistentVolumeClaim"),
     [_spec(prefix + "volumes/persistentVolumeClaim/claimName", kind)
      for kind, prefix in _TEMPLATED]),
    (Gvk("", "v1", "PersistentVolume"), [_spec("spec/volumeName", "PersistentVolumeClaim"),
                                         _spec("rules/resourceNames", "ClusterRole")]),
    (Gvk("storage.k8s.io", "v1", "StorageClass"), [
        _spec("spec/storageClassName", "PersistentVolume"),
        _spec("spec/storageClassName", "PersistentVolumeClaim"),
        _spec("spec/volumeClaimTemplates/spec/storageClassName", "StatefulSet")]),
    (Gvk("scheduling.k8s.io", "v1", "PriorityClass"),
     [_spec(prefix + "priorityClassName", kind) for kind, prefix in _TEMPLATED]),
    # kustomize writes this group as "networking.k8s.io/v1", so it never matches
    (Gvk("networking.k8s.io/v1", "v1", "IngressClass"),
     [_spec("spec/ingressClassName", "Ingress")]),
    (Gvk(_ADMISSION, "", "ValidatingAdmissionPolicy"),
     [_spec("spec/policyName", "ValidatingAdmissionPolicyBinding", _ADMISSION)]),
]


def _covered(referral: Gvk, spec: FieldSpec) -> bool:
    """Whether kustomize drops a ``configurations:`` name reference: merged into the
    default table, a spec for the same referred type (group, version and kind alike)
    is dropped when a default one has its path and a type it selects (measured: a
    kind-less spec at a Deployment's path no longer reaches a custom resource)."""
    return any(default == referral and any(
        known.path == spec.path and known.gvk.selected_by(spec.gvk) for known in specs)
        for default, specs in REFERENCES)


def fix_references(resmap: ResMap, trace: Trace | None = None) -> None:
    """Update every name reference of the build (see the module docstring)."""
    from .transformers import run_at

    jobs: dict[int, list[tuple[Gvk, FieldSpec]]] = {}
    extra = [(referral, [spec]) for referral, spec in resmap.config.references
             if not _covered(referral, spec)]
    origins = [(resource, resource.org_id().gvk) for resource in resmap.resources]
    for referral, specs in [*REFERENCES, *extra]:
        for spec in specs:
            for resource, origin in origins:
                if origin.selected_by(spec.gvk):
                    jobs.setdefault(id(resource), []).append((referral, spec))
    touched = [r for r in resmap.resources if id(r) in jobs]
    index = _Index(resmap.resources)

    def change(referrer: Resource) -> None:
        reach = _Reach(index, referrer)
        for referral, spec in jobs[id(referrer)]:
            setter = _Setter(referrer, referral, spec, reach)
            try:
                walk(referrer.value, spec, setter.visit)
            except KubeError as err:
                found = cause(err)
                if getattr(found, "code", None) != "obj-at-path":
                    raise
                rid = referrer.cur_id()
                detail = considering(spec, rid, getattr(err, "traversals", []), found.cause)
                raise _updating(spec.path, rid, detail) from None

    if touched:
        run_at(resmap, trace, ("(name references)", 0), "nameReference", 0, change, touched)


class _Index:
    """The ids of the build's resources, once (name references rename no resource)."""

    def __init__(self, resources: list[Resource]) -> None:
        self.resources = resources
        self.cur = {id(r): r.cur_id() for r in resources}
        self.prev = {id(r): r.prev_ids() for r in resources}
        self.by_name: dict[str, list[Resource]] = {}
        for resource in resources:
            for name in dict.fromkeys(i.name for i in self.prev[id(resource)]):
                self.by_name.setdefault(name, []).append(resource)


class _Reach:
    """Which resources a referrer may refer to (kustomize's namespace sieve), lazily."""

    def __init__(self, index: _Index, referrer: Resource) -> None:
        self.index, self.referrer = index, referrer
        self.cur = index.cur[id(referrer)]
        self.namespaces = _role_binding_namespaces(referrer)
        self._all: list[Resource] | None = None

    def accepts(self, resource: Resource) -> bool:
        if self.cur.cluster_scoped:
            return True
        other = self.index.cur[id(resource)]
        return other.cluster_scoped or other.same_namespace(self.cur) or \
            resource.namespace in self.namespaces

    def all(self) -> list[Resource]:
        if self._all is None:
            self._all = [r for r in self.index.resources if self.accepts(r)]
        return self._all

    def named(self, name: str) -> list[Resource]:
        """The reachable resources with ``name`` among their ids, in build order."""
        return [r for r in self.index.by_name.get(name, ()) if self.accepts(r)]


def _role_binding_namespaces(referrer: Resource) -> set[str]:
    if referrer.gvk.kind != "RoleBinding":
        return set()
    subjects = referrer.value.get("subjects")
    found = set()
    for subject in subjects if isinstance(subjects, list) else []:
        if isinstance(subject, dict) and subject.get("kind") == "ServiceAccount" \
                and "namespace" in subject:
            if not isinstance(subject["namespace"], str):
                # kustomize's words, a null or a number alike
                raise ProblemError(Kustomize("blank-namespace", id=str(referrer.cur_id())),
                                   code=KUSTOMIZE_ERROR)
            found.add(subject["namespace"])
    return found


class _Setter:
    def __init__(self, referrer: Resource, referral: Gvk, spec: FieldSpec,
                 reach: _Reach) -> None:
        self.referrer, self.referral, self.spec = referrer, referral, spec
        self.reach = reach

    def visit(self, parent: Any, key: Any) -> None:
        node = parent.get(key) if isinstance(parent, dict) else None
        if node is None:
            return
        if isinstance(node, list):
            for index, item in enumerate(node):
                self._one(node, index, item)
        else:
            self._one(parent, key, node)

    def _one(self, holder: Any, key: Any, node: Any) -> None:
        if isinstance(node, dict):
            self._mapping(node)
        elif isinstance(node, (str, int, float, bool)):
            text = node if isinstance(node, str) else str(node)
            found = self._select(text, None, by_namespace=False)
            if found is not None and found.name != text:
                holder[key] = found.name

    def _mapping(self, node: dict) -> None:
        if "name" not in node:
            raise _updating(self.spec.path, self.referrer.cur_id(), Kustomize("no-name-field"))
        candidates = None
        if isinstance(node.get("namespace"), str):
            candidates = _in_namespace(self.reach.all(), node["namespace"])
        old = node["name"] if isinstance(node["name"], str) else str(node["name"])
        found = self._select(old, candidates, by_namespace=True)
        if found is None or (found.name == old and not found.namespace):
            return
        node["name"] = found.name
        if found.namespace:
            node["namespace"] = found.namespace

    def _select(self, old: str, candidates: list[Resource] | None, by_namespace: bool
                ) -> Resource | None:
        prev = self.reach.index.prev
        if candidates is None:
            chosen = self.reach.named(old)
        else:
            chosen = [r for r in candidates if any(i.name == old for i in prev[id(r)])]
        chosen = [r for r in chosen if any(i.gvk.selected_by(self.referral)
                                           for i in prev[id(r)])]
        chosen = [r for r in chosen if self._role_ref_accepts(r)]
        chosen = [r for r in chosen if self._same_namespace(r)]
        if len(chosen) == 1:
            return chosen[0]
        # kustomize sieves twice: an empty prefix (suffix) list on either side matches
        # any, then, with several left, the lists must end alike
        chosen = [r for r in chosen if _affixes_match(r, self.referrer, allow_empty=True)]
        if len(chosen) > 1:
            chosen = [r for r in chosen if _affixes_match(r, self.referrer, allow_empty=False)]
        if len(chosen) == 1:
            return chosen[0]
        if not chosen:
            return None
        first = chosen[0]
        if all(r.name == first.name and (not by_namespace or r.namespace == first.namespace)
               for r in chosen):
            return first
        ids = ", ".join(str(r.cur_id()) for r in chosen)
        rid, path = self.referrer.cur_id(), self.spec.path
        raise _updating(path, rid, considering(self.spec, rid, [], Kustomize(
            "many-referrals", detail=ids)),
            hint="kustomize then prints the referrer and every candidate as YAML")

    def _role_ref_accepts(self, resource: Resource) -> bool:
        if not self.spec.path.endswith("roleRef/name"):
            return True
        ref = self.referrer.value.get("roleRef")
        if not isinstance(ref, dict) or ref.get("apiGroup") is None or ref.get("kind") is None:
            return True
        wanted = Gvk(str(ref["apiGroup"]), "", str(ref["kind"]))
        return any(i.gvk.selected_by(wanted) for i in resource.prev_ids())

    def _same_namespace(self, resource: Resource) -> bool:
        cur = self.reach.cur
        if cur.cluster_scoped:
            return True
        other = self.reach.index.cur[id(resource)]
        return other.cluster_scoped or resource.gvk.kind == "ServiceAccount" or \
            other.same_namespace(cur)


def _in_namespace(resources: list[Resource], namespace: str) -> list[Resource]:
    """The resources a reference with ``namespace`` may name: those first in that
    namespace, else those now in it (no namespace reads as ``default``)."""
    by_org = [r for r in resources if _or_default(r.org_id().namespace) == namespace]
    return by_org or [r for r in resources if _or_default(r.namespace) == namespace]


def _or_default(namespace: str) -> str:
    return namespace or "default"


def _affixes_match(resource: Resource, referrer: Resource, allow_empty: bool) -> bool:
    pairs = ((resource.prefixes, referrer.prefixes), (resource.suffixes, referrer.suffixes))
    return all((allow_empty and (not mine or not theirs)) or _same_endings(mine, theirs)
               for mine, theirs in pairs)


def _same_endings(a: list[str], b: list[str]) -> bool:
    shortest, longest = (a, b) if len(a) <= len(b) else (b, a)
    if not shortest:
        return not longest
    return longest[len(longest) - len(shortest):] == shortest


def _updating(path: str, rid: object, problem: Kustomize, hint: str | None = None
              ) -> ProblemError:
    """kustomize's error updating the name reference at ``path`` of the resource ``rid``."""
    return ProblemError(Kustomize("updating-name-reference", field=path, id=str(rid),
                                  cause=problem), code=KUSTOMIZE_ERROR, hint=hint)
