"""The risks of one object's change, and Secrets shown without their values."""

from __future__ import annotations

import copy

from cfgpatch.preview.objdiff import HIDDEN, field_changes, yaml_diff
from cfgpatch.preview.render import RenderedObject
from cfgpatch.preview.risks import hpa_targets, object_risks

DEPLOYMENT = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
              "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                       "template": {"metadata": {"labels": {"app": "web"}},
                                    "spec": {"containers": [{"name": "web",
                                                             "image": "nginx:1.25"}]}}}}


def _risks(before, after, how="same", scaled=False):
    changes = field_changes(before, after) if before and after else []
    return [(r.rule, r.path) for r in object_risks(after["kind"] if after else before["kind"],
                                                   how, changes, before, after, scaled)]


def test_selector_change_forces_a_recreate_and_the_image_is_named():
    after = copy.deepcopy(DEPLOYMENT)
    after["spec"]["selector"]["matchLabels"]["tier"] = "a"
    after["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx@sha256:abc"
    risks = _risks(DEPLOYMENT, after)
    assert ("recreate", "/spec/selector/matchLabels/tier") in risks
    assert ("image", "/spec/template/spec/containers/0/image") in risks


def test_replicas_matter_only_where_an_hpa_scales():
    after = copy.deepcopy(DEPLOYMENT)
    after["spec"]["replicas"] = 5
    assert _risks(DEPLOYMENT, after) == []
    assert _risks(DEPLOYMENT, after, scaled=True) == [("hpa-replicas", "/spec/replicas")]
    hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
           "metadata": {"name": "web", "namespace": "shop"},
           "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}}}
    assert hpa_targets([RenderedObject(hpa, "")]) == {("Deployment", "shop", "web")}


def test_service_cluster_ip_and_pvc_class():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
               "spec": {"clusterIP": "10.0.0.1", "type": "ClusterIP"}}
    moved = copy.deepcopy(service)
    moved["spec"].update(clusterIP="10.0.0.2", type="NodePort")
    assert {r for r, _ in _risks(service, moved)} == {"recreate"}
    fresh = copy.deepcopy(service)
    del fresh["spec"]["clusterIP"]
    given = copy.deepcopy(fresh)
    given["spec"]["clusterIP"] = "10.0.0.9"  # the base left it to the API server
    assert _risks(fresh, given) == []
    pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "d"},
           "spec": {"storageClassName": "standard", "accessModes": ["ReadWriteOnce"]}}
    fast = copy.deepcopy(pvc)
    fast["spec"]["storageClassName"] = "fast"
    assert _risks(pvc, fast) == [("recreate", "/spec/storageClassName")]


def test_crd_version_no_longer_served():
    crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": "w.example.com"},
           "spec": {"versions": [{"name": "v1", "served": True}, {"name": "v2"}]}}
    after = copy.deepcopy(crd)
    after["spec"]["versions"][0]["served"] = False
    assert ("crd-version-removed", "/spec/versions") in _risks(crd, after)


def test_removed_objects_and_namespace_moves():
    assert _risks(DEPLOYMENT, None, "removed") == [("removed", "")]
    moved = copy.deepcopy(DEPLOYMENT)
    moved["metadata"]["namespace"] = "shop"
    assert ("namespace-moved", "") in _risks(DEPLOYMENT, moved, "namespace-moved")


def test_secret_values_never_shown():
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"},
              "data": {"password": "c2VjcmV0"}}
    after = copy.deepcopy(secret)
    after["data"]["password"] = "bmV3c2VjcmV0"
    changes = field_changes(secret, after)
    assert [(c.before, c.after) for c in changes] == [(HIDDEN, HIDDEN)]
    assert _risks(secret, after) == [("secret-data", "/data/password")]
    diff = yaml_diff("data:\n  password: c2VjcmV0\nkind: Secret\n",
                     "data:\n  password: bmV3c2VjcmV0\nkind: Secret\n", "Secret", "Secret/s")
    assert "c2VjcmV0" not in diff and "bmV3c2VjcmV0" not in diff
