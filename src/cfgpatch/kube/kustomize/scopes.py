"""Which resource types kustomize treats as cluster-scoped (no namespace).

kustomize decides it from the built-in OpenAPI schema it ships (kyaml's), which is older
than kubectl 1.32: types it does not know (any custom resource, and newer built-ins such
as ``ValidatingAdmissionPolicy`` or ``flowcontrol.apiserver.k8s.io/v1`` ``FlowSchema``)
are treated as namespaced and get ``namespace:`` set.  The table is the answer of
``kubectl kustomize`` 1.32 to the ``scope-probe`` tree of the corpus
(tests/data/kustomize/trees/scope-probe: 95 apiVersion/kind pairs); a test holds it to
the recording.
"""

from __future__ import annotations

#: (apiVersion, kind) that kustomize knows as cluster-scoped.
CLUSTER_SCOPED: frozenset[tuple[str, str]] = frozenset({
    ("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration"),
    ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"),
    ("admissionregistration.k8s.io/v1beta1", "MutatingWebhookConfiguration"),
    ("admissionregistration.k8s.io/v1beta1", "ValidatingWebhookConfiguration"),
    ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
    ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition"),
    ("apiregistration.k8s.io/v1", "APIService"),
    ("apiregistration.k8s.io/v1beta1", "APIService"),
    ("certificates.k8s.io/v1", "CertificateSigningRequest"),
    ("certificates.k8s.io/v1beta1", "CertificateSigningRequest"),
    ("flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema"),
    ("flowcontrol.apiserver.k8s.io/v1beta1", "PriorityLevelConfiguration"),
    ("networking.k8s.io/v1", "IngressClass"),
    ("networking.k8s.io/v1beta1", "IngressClass"),
    ("node.k8s.io/v1", "RuntimeClass"),
    ("node.k8s.io/v1beta1", "RuntimeClass"),
    ("policy/v1beta1", "PodSecurityPolicy"),
    ("rbac.authorization.k8s.io/v1", "ClusterRole"),
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
    ("rbac.authorization.k8s.io/v1beta1", "ClusterRole"),
    ("rbac.authorization.k8s.io/v1beta1", "ClusterRoleBinding"),
    ("scheduling.k8s.io/v1", "PriorityClass"),
    ("scheduling.k8s.io/v1beta1", "PriorityClass"),
    ("storage.k8s.io/v1", "CSIDriver"),
    ("storage.k8s.io/v1", "CSINode"),
    ("storage.k8s.io/v1", "StorageClass"),
    ("storage.k8s.io/v1", "VolumeAttachment"),
    ("storage.k8s.io/v1beta1", "CSIDriver"),
    ("storage.k8s.io/v1beta1", "CSINode"),
    ("storage.k8s.io/v1beta1", "StorageClass"),
    ("storage.k8s.io/v1beta1", "VolumeAttachment"),
    ("v1", "ComponentStatus"),
    ("v1", "Namespace"),
    ("v1", "Node"),
    ("v1", "PersistentVolume"),
})


def is_cluster_scoped(api_version: str, kind: str) -> bool:
    """Whether kustomize leaves resources of this type without a namespace.

    >>> is_cluster_scoped("rbac.authorization.k8s.io/v1", "ClusterRole")
    True
    >>> is_cluster_scoped("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy")
    False
    """
    return (api_version, kind) in CLUSTER_SCOPED
