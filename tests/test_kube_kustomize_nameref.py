"""kustomize/nameref.py on its own: which references follow a renamed resource
(prefix, suffix, generated hash), which candidates are considered (kind, namespace,
prefix/suffix history), and the ambiguity error.  Each tree was built with ``kubectl
kustomize`` 1.32 when the test was written and answered what the assertions say."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.nameref import REFERENCES


def built(tmp_path: Path, files: dict[str, str]) -> dict[str, dict]:
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    top = tmp_path / "overlay" if "overlay/kustomization.yaml" in files else tmp_path
    return {f"{r.value['kind']}/{r.value['metadata']['name']}": r.value
            for r in build(str(top)).resources}


DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      serviceAccountName: web
      containers:
      - name: main
        image: nginx
        envFrom: [{configMapRef: {name: settings}}]
        env:
        - name: P
          valueFrom: {secretKeyRef: {name: creds, key: p}}
      volumes:
      - {name: data, persistentVolumeClaim: {claimName: data}}
      - {name: cfg, configMap: {name: settings}}
"""
OTHERS = """apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
"""


def test_a_prefix_reaches_every_reference_of_a_pod_template(tmp_path):
    out = built(tmp_path, {"kustomization.yaml": "namePrefix: p-\nresources: [d.yaml, o.yaml]\n",
                           "d.yaml": DEPLOY, "o.yaml": OTHERS})
    spec = out["Deployment/p-web"]["spec"]["template"]["spec"]
    assert spec["serviceAccountName"] == "p-web"
    main = spec["containers"][0]
    assert main["envFrom"][0]["configMapRef"]["name"] == "p-settings"
    assert main["env"][0]["valueFrom"]["secretKeyRef"]["name"] == "p-creds"
    assert [v.get("persistentVolumeClaim", v.get("configMap")) for v in spec["volumes"]] == \
        [{"claimName": "p-data"}, {"name": "p-settings"}]


def test_generated_hash_names_are_followed(tmp_path):
    out = built(tmp_path, {"kustomization.yaml": "resources: [d.yaml]\n"
                                                 "configMapGenerator:\n- name: settings\n"
                                                 "  literals: [A=1]\n",
                           "d.yaml": DEPLOY})
    [name] = [k for k in out if k.startswith("ConfigMap/")]
    volume = out["Deployment/web"]["spec"]["template"]["spec"]["volumes"][1]
    assert volume["configMap"]["name"] == name.split("/", 1)[1] != "settings"


def test_a_reference_to_something_outside_the_build_is_left_alone(tmp_path):
    out = built(tmp_path, {"kustomization.yaml": "namePrefix: p-\nresources: [d.yaml]\n",
                           "d.yaml": DEPLOY})
    spec = out["Deployment/p-web"]["spec"]["template"]["spec"]
    assert spec["serviceAccountName"] == "web"
    assert spec["volumes"][0]["persistentVolumeClaim"]["claimName"] == "data"


def test_only_the_referred_kind_is_a_candidate(tmp_path):
    # a Secret named "settings" renamed does not change a configMapRef to "settings"
    out = built(tmp_path, {
        "base/kustomization.yaml": "resources: [d.yaml]\n",
        "base/d.yaml": DEPLOY,
        "secret/kustomization.yaml": "namePrefix: s-\nresources: [s.yaml]\n",
        "secret/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: settings}\n",
        "overlay/kustomization.yaml": "resources: [../base, ../secret]\n"})
    main = out["Deployment/web"]["spec"]["template"]["spec"]["containers"][0]
    assert main["envFrom"][0]["configMapRef"]["name"] == "settings"


def test_role_binding_subjects_and_role_ref(tmp_path):
    rbac = """apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: bind}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: ServiceAccount, name: web}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web}
"""
    out = built(tmp_path, {"kustomization.yaml": "namePrefix: p-\nnamespace: team\n"
                                                 "resources: [r.yaml]\n", "r.yaml": rbac})
    binding = out["RoleBinding/p-bind"]
    assert binding["roleRef"]["name"] == "p-reader"
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "p-web",
                                    "namespace": "team"}]


SUBJECTS = """apiVersion: v1
kind: ServiceAccount
metadata: {name: web}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: job}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: job, namespace: tools}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bind}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects:
- {kind: ServiceAccount, name: web, namespace: default}
- {kind: ServiceAccount, name: web, namespace: other}
- {kind: ServiceAccount, name: job, namespace: default}
- {kind: ServiceAccount, name: job, namespace: tools}
"""


def test_a_subject_in_namespace_default_names_a_service_account_without_one(tmp_path):
    # measured with kubectl 1.32: "default" is the namespace of an object without one
    # (tree nameref-default-namespace)
    out = built(tmp_path, {"kustomization.yaml": "namePrefix: p-\nresources: [r.yaml]\n",
                           "r.yaml": SUBJECTS})
    assert out["ClusterRoleBinding/p-bind"]["subjects"] == [
        {"kind": "ServiceAccount", "name": "p-web", "namespace": "default"},
        {"kind": "ServiceAccount", "name": "web", "namespace": "other"},
        {"kind": "ServiceAccount", "name": "p-job", "namespace": "default"},
        {"kind": "ServiceAccount", "name": "p-job", "namespace": "tools"}]


def test_a_webhook_service_in_namespace_default_follows_the_namespace_transformer(tmp_path):
    hooks = """apiVersion: v1
kind: Service
metadata: {name: hook}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: mutate}
webhooks:
- name: a.example.com
  clientConfig: {service: {name: hook, namespace: default, path: /m}}
- name: b.example.com
  clientConfig: {service: {name: hook, namespace: Default}}
"""
    out = built(tmp_path, {"kustomization.yaml": "nameSuffix: -x\nnamespace: team\n"
                                                 "resources: [r.yaml]\n", "r.yaml": hooks})
    services = [w["clientConfig"]["service"] for w in out["MutatingWebhookConfiguration/mutate-x"]
                ["webhooks"]]
    assert services == [{"name": "hook-x", "namespace": "team", "path": "/m"},
                        {"name": "hook", "namespace": "Default"}]


def test_candidates_renamed_where_the_referrer_was_not_are_not_followed(tmp_path):
    # two ConfigMaps "settings", renamed a-/b- in bases the Deployment is not in: the
    # prefix sieve leaves none, and the reference stays (measured, kubectl 1.32)
    files = {
        "a/kustomization.yaml": "namePrefix: a-\nresources: [c.yaml]\n",
        "a/c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n",
        "b/kustomization.yaml": "namePrefix: b-\nresources: [c.yaml]\n",
        "b/c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n",
        "d/kustomization.yaml": "resources: [d.yaml]\n", "d/d.yaml": DEPLOY,
        "overlay/kustomization.yaml": "resources: [../a, ../b, ../d]\n"}
    out = built(tmp_path, files)
    volume = out["Deployment/web"]["spec"]["template"]["spec"]["volumes"][1]
    assert volume["configMap"]["name"] == "settings"
    assert {"ConfigMap/a-settings", "ConfigMap/b-settings"} <= set(out)


def test_a_reference_that_is_not_a_map_with_name_is_kustomizes_error(tmp_path):
    bad = DEPLOY.replace("configMapRef: {name: settings}", "configMapRef: settings")
    with pytest.raises(BuildError) as caught:
        built(tmp_path, {"kustomization.yaml": "namePrefix: p-\nresources: [d.yaml, o.yaml]\n",
                         "d.yaml": bad, "o.yaml": OTHERS})
    path = "spec/template/spec/containers/envFrom/configMapRef/name"
    rid = "Deployment.v1.apps/p-web.[noNs]"
    assert caught.value.message == (
        f"updating name reference in '{path}' field of '{rid}': considering field '{path}' "
        f"of object {rid}: visit traversal on path: [envFrom configMapRef name]: "
        f"visit traversal on path: [configMapRef name]: expected sequence or mapping node")


def test_the_reference_table_has_kustomizes_kinds():
    kinds = {gvk.kind for gvk, _specs in REFERENCES}
    assert {"ConfigMap", "Secret", "Service", "ServiceAccount", "PersistentVolumeClaim",
            "Role", "ClusterRole", "PriorityClass", "StorageClass"} <= kinds
