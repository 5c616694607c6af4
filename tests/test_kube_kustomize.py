"""The kustomize view: kustomize's own strategic merge on built-in kinds and on CRs.

Every expectation was recorded from ``kubectl kustomize`` (kustomize v5.5 in kubectl
1.32; the same in 1.27 and 1.33), with the resource and patch shown in each case.
"""

from __future__ import annotations

import copy

import pytest

from cfgpatch.kube import patch
from cfgpatch.kube.kustomize import KustomizeSchema, apply_strategic

DNS = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "dns"},
       "spec": {"selector": {"app": "dns"}, "ports": [
           {"name": "dns-tcp", "port": 53, "protocol": "TCP", "targetPort": 53},
           {"name": "dns-udp", "port": 53, "protocol": "UDP", "targetPort": 53},
           {"name": "metrics", "port": 9153, "protocol": "TCP"}]}}
TCP, UDP, METRICS = DNS["spec"]["ports"]


def ports(body):
    return patch(copy.deepcopy(DNS), {"spec": {"ports": body}}, as_="kustomize").object[
        "spec"]["ports"]


SERVICE_PORT_CASES = [
    ([{"port": 53, "protocol": "UDP", "targetPort": 5353}],
     [TCP, {**UDP, "targetPort": 5353}, METRICS]),
    ([{"containerPort": 9153, "name": "m2"}], []),
    ([{"name": "m2", "protocol": "UDP"}], [TCP, UDP, METRICS]),
    ([{"port": 8080, "name": "http"}], [{"name": "http", "port": 8080}, TCP, UDP, METRICS]),
    ([{"port": 53, "$patch": "delete"}], [TCP, UDP, METRICS]),
    ([{"port": 9153, "targetPort": 9154}], [TCP, UDP, METRICS]),
    ([{"port": 53, "protocol": "TCP", "$patch": "delete"}], [UDP, METRICS]),
    ([{"port": 53, "protocol": "UDP", "name": "x"}, {"port": 8080, "name": "http"}],
     [{"name": "http", "port": 8080}, TCP, {**UDP, "name": "x"}, METRICS]),
    ([{"protocol": "SCTP", "name": "q"}], [{"name": "q", "protocol": "SCTP"}, TCP, UDP, METRICS]),
    ([{"port": 9153, "protocol": "UDP"}], [{"port": 9153, "protocol": "UDP"}, TCP, UDP, METRICS]),
    ([{"name": "zz"}, {"port": 8080, "protocol": "TCP"}], [{"port": 8080, "protocol": "TCP"}]),
    ([{"$patch": "replace"}, {"port": 1, "protocol": "TCP"}], [{"port": 1, "protocol": "TCP"}]),
    ([{"port": "9153", "protocol": "TCP", "name": "s"}],
     [TCP, UDP, {"name": "s", "port": "9153", "protocol": "TCP"}]),
]


@pytest.mark.parametrize("body, expected", SERVICE_PORT_CASES)
def test_service_ports_keyed_on_port_and_protocol(body, expected):
    assert ports(body) == expected


DEPLOY = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {
    "name": "web", "finalizers": ["a.example/one", "b.example/two"]},
    "spec": {"template": {"spec": {
        "imagePullSecrets": [{"name": "reg1"}, {"name": "reg2"}],
        "tolerations": [{"key": "k1", "operator": "Exists"}],
        "containers": [
            {"name": "app", "image": "nginx:1.25",
             "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "MODE", "value": "prod"}],
             "ports": [{"containerPort": 80, "name": "http"},
                       {"containerPort": 443, "name": "https"}]},
            {"name": "metrics", "image": "statsd:v0.26"}]}}}}


def deploy_patch(body):
    return patch(copy.deepcopy(DEPLOY), body, as_="kustomize").object


def test_deployment_like_kubectl_for_names_and_union():
    body = {"metadata": {"finalizers": ["c.example/three"]}, "spec": {"template": {"spec": {
        "tolerations": [{"key": "k3", "operator": "Exists"}],
        "imagePullSecrets": [{"name": "reg3"}],
        "containers": [{"name": "app", "image": "nginx:1.27", "env": [{"name": "NEW",
                                                                        "value": "1"}]},
                       {"name": "side", "image": "side:1"}]}}}}
    out = deploy_patch(body)
    spec = out["spec"]["template"]["spec"]
    assert out["metadata"]["finalizers"] == ["c.example/three", "a.example/one",
                                             "b.example/two"]
    assert [c["name"] for c in spec["containers"]] == ["app", "side", "metrics"]
    assert [e["name"] for e in spec["containers"][0]["env"]] == ["NEW", "LOG_LEVEL", "MODE"]
    assert spec["tolerations"] == [{"key": "k3", "operator": "Exists"}]
    assert [s["name"] for s in spec["imagePullSecrets"]] == ["reg3", "reg1", "reg2"]


def container_ports(body):
    out = deploy_patch({"spec": {"template": {"spec": {"containers": [
        {"name": "app", "ports": body}]}}}})
    return out["spec"]["template"]["spec"]["containers"][0]["ports"]


CONTAINER_PORT_CASES = [
    ([{"containerPort": 80, "name": "web"}],
     [{"containerPort": 80, "name": "web"}, {"containerPort": 443, "name": "https"}]),
    ([{"containerPort": 80, "protocol": "TCP", "name": "web"}],
     [{"containerPort": 80, "name": "http"}, {"containerPort": 443, "name": "https"}]),
    ([{"containerPort": 8080}], [{"containerPort": 8080}, {"containerPort": 80, "name": "http"},
                                 {"containerPort": 443, "name": "https"}]),
]


@pytest.mark.parametrize("body, expected", CONTAINER_PORT_CASES)
def test_container_ports_keyed_on_container_port_and_protocol(body, expected):
    assert container_ports(body) == expected


def test_new_containers_go_first_in_patch_order():
    out = deploy_patch({"spec": {"template": {"spec": {"containers": [
        {"name": "b", "image": "b"}, {"name": "a", "image": "a"}]}}}})
    assert [c["name"] for c in out["spec"]["template"]["spec"]["containers"]] == \
        ["b", "a", "app", "metrics"]


CONTAINER_CASES = [
    ([{"name": "metrics", "image": "m2"}, {"name": "app", "image": "a2"}],
     [("metrics", "m2"), ("app", "a2")]),
    ([{"name": "metrics", "image": "m2"}], [("metrics", "m2"), ("app", "nginx:1.25")]),
    ([{"name": "metrics", "$patch": "delete"}, {"name": "new"}],
     [("new", None), ("app", "nginx:1.25")]),
    ([{"image": "x"}], []),
    ([{"name": "app", "$patch": "replace", "image": "z"}],
     [("app", "nginx:1.25"), ("metrics", "statsd:v0.26")]),
]


@pytest.mark.parametrize("body, expected", CONTAINER_CASES)
def test_single_key_list_patch_elements_first(body, expected):
    out = deploy_patch({"spec": {"template": {"spec": {"containers": body}}}})
    assert [(c["name"], c.get("image")) for c in out["spec"]["template"]["spec"]["containers"]] \
        == expected


def test_env_null_value_moves_the_element_first():
    out = deploy_patch({"spec": {"template": {"spec": {"containers": [
        {"name": "app", "env": [{"name": "MODE", "value": None}]}]}}}})
    assert out["spec"]["template"]["spec"]["containers"][0]["env"] == [
        {"name": "MODE"}, {"name": "LOG_LEVEL", "value": "info"}]


def test_primitive_list_patch_values_first():
    out = deploy_patch({"metadata": {"finalizers": ["b.example/two", "c"]}})
    assert out["metadata"]["finalizers"] == ["b.example/two", "c", "a.example/one"]


def test_directives_other_than_patch_are_stored_as_data():
    body = {"metadata": {"$deleteFromPrimitiveList/finalizers": ["a.example/one"]},
            "spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "metrics"}]}}}}
    out = deploy_patch(body)
    assert out["metadata"]["finalizers"] == ["a.example/one", "b.example/two"]
    assert out["metadata"]["$deleteFromPrimitiveList/finalizers"] == ["a.example/one"]
    assert [c["name"] for c in out["spec"]["template"]["spec"]["containers"]] == ["app",
                                                                                   "metrics"]


def test_map_directives():
    obj = copy.deepcopy(DEPLOY)
    obj["spec"]["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}
    deleted = patch(copy.deepcopy(obj), {"spec": {"strategy": {"$patch": "delete"}}},
                    as_="kustomize").object
    assert "strategy" not in deleted["spec"]
    replaced = patch(copy.deepcopy(obj), {"spec": {"strategy": {"$patch": "replace",
                                                                "type": "Recreate"}}},
                     as_="kustomize").object
    assert replaced["spec"]["strategy"] == {"type": "Recreate"}
    kept = patch(copy.deepcopy(obj), {"spec": {"strategy": {"$retainKeys": ["type"],
                                                            "type": "Recreate"}}},
                 as_="kustomize").object
    assert kept["spec"]["strategy"] == {"$retainKeys": ["type"], "type": "Recreate",
                                        "rollingUpdate": {"maxSurge": 1}}


def test_custom_resource_every_list_replaced_finalizers_too():
    prom = {"apiVersion": "monitoring.coreos.com/v1", "kind": "Prometheus",
            "metadata": {"name": "main", "finalizers": ["a"]},
            "spec": {"replicas": 1, "containers": [{"name": "prometheus", "image": "p:1"},
                                                   {"name": "sidecar", "image": "s:1"}],
                     "tolerations": [{"key": "k1", "operator": "Exists"}]}}
    body = {"metadata": {"finalizers": ["b"]}, "spec": {
        "replicas": 3, "containers": [{"name": "prometheus", "image": "p:2"}],
        "tolerations": [{"key": "k3", "operator": "Exists"}], "extraList": ["x"]}}
    result = patch(prom, body, as_="kustomize")
    out = result.object
    (note,) = [f for f in result.findings if f.code == "kustomize-differs"]
    assert "every list is replaced" in note.message and "/spec/containers" in note.message
    assert out["metadata"]["finalizers"] == ["b"]
    assert out["spec"] == {"replicas": 3, "containers": [{"name": "prometheus", "image": "p:2"}],
                           "tolerations": [{"key": "k3", "operator": "Exists"}],
                           "extraList": ["x"]}


def test_differences_with_kubectl_are_findings():
    result = patch(copy.deepcopy(DNS), {"spec": {"ports": [
        {"port": 53, "protocol": "UDP", "targetPort": 5353}]}}, as_="kustomize")
    found = [f for f in result.findings if f.code == "kustomize-differs"]
    assert [f.path for f in found] == ["/spec/ports"]
    assert "dns-tcp" in found[0].message


def test_schemaless_merge_is_plain():
    resource = {"kind": "X", "metadata": {"name": "x"}, "a": {"b": 1}, "l": [1]}
    out = apply_strategic(resource, {"a": {"c": None, "b": 2}, "l": None},
                          KustomizeSchema.builtin())
    assert out == {"kind": "X", "metadata": {"name": "x"}, "a": {"b": 2}}


def test_top_level_delete_drops_the_resource():
    from cfgpatch.errors import KubeError
    with pytest.raises(KubeError) as info:
        patch(copy.deepcopy(DNS), {"$patch": "delete"}, as_="kustomize")
    assert info.value.code == "kustomize deletes"
