"""Server-side apply readiness rules of ``cfgpatch lint`` (``lint/ssa_ready.py``)."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.lint.directory import lint_directory


def deployment(replicas=3, env=None, containers=None):
    spec = {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                         "spec": {"containers": containers or [
                             {"name": "app", "image": "nginx", **({"env": env} if env else {})}
                         ]}}}
    if replicas is not None:
        spec["replicas"] = replicas
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": spec}


HPA = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
       "metadata": {"name": "web"},
       "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment",
                                   "name": "web"}, "minReplicas": 2, "maxReplicas": 5}}


def lint(tmp_path: Path, *objects) -> list:
    app = tmp_path / "app"
    app.mkdir()
    names = []
    for i, obj in enumerate(objects):
        (app / f"o{i}.yaml").write_text(yaml.safe_dump(obj))
        names.append(f"o{i}.yaml")
    (app / "kustomization.yaml").write_text(yaml.safe_dump({"resources": names}))
    report = lint_directory(str(tmp_path))
    return [(f.rule, f.message) for f in report.findings]


def test_replicas_with_an_hpa_of_the_same_build(tmp_path):
    found = lint(tmp_path, deployment(), HPA)
    assert ("replicas-with-hpa", "Deployment/web declares spec.replicas (3) and "
            "HorizontalPodAutoscaler/web scales it") in found


def test_no_replicas_no_finding(tmp_path):
    assert [r for r, _ in lint(tmp_path, deployment(replicas=None), HPA)] == []


def test_hpa_of_another_workload_says_nothing(tmp_path):
    other = dict(HPA, spec=dict(HPA["spec"], scaleTargetRef={"kind": "Deployment",
                                                             "name": "api"}))
    assert lint(tmp_path, deployment(), other) == []


def test_duplicate_container_names_refused_as_the_server_says(tmp_path):
    found = lint(tmp_path, deployment(containers=[{"name": "a", "image": "x"},
                                                  {"name": "a", "image": "y"}]))
    assert found == [("ssa-duplicate-key", "Deployment/web: the API server refuses its "
                      "server-side apply: failed to create typed patch object (/web; "
                      "apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate "
                      "entries for key [name=\"a\"]")]


def test_item_without_its_key(tmp_path):
    found = lint(tmp_path, deployment(replicas=None, env=[{"name": "A", "value": "1"},
                                                          {"value": "2"}]))
    assert found == [("ssa-missing-key", "Deployment/web: item 1 of .spec.template.spec."
                      "containers[name=\"app\"].env has no name; server-side apply keys it "
                      "as [name=\"\"]")]


# ------------------------------------------------ objects skipped as keyless (speed)

def _keyed_findings(obj):
    from cfgpatch.kube.ssa import Types
    from cfgpatch.lint.finding import Location
    from cfgpatch.lint.ssa_ready import _keys

    return [(f.rule, f.message) for f in _keys(obj, Types(), Location("k.yaml"))]


KEYLESS = [
    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}},
    {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
     "metadata": {"name": "r"},
     "rules": [{"apiGroups": [""], "resources": ["pods", "pods"], "verbs": ["get"]}]},
    {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "type": "Opaque"},
]
KEYED = [
    deployment(containers=[{"name": "a", "image": "x"}, {"name": "a", "image": "y"}]),
    deployment(containers=[{"image": "x"}]),
    {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
     "spec": {"ports": [{"port": 80}, {"port": 80}]}},
    {"apiVersion": "v1", "kind": "ConfigMap",
     "metadata": {"name": "c", "finalizers": ["a", "a"]}},
    {"apiVersion": "example.com/v1", "kind": "Unknown", "metadata": {"name": "u"},
     "spec": {"items": [1]}},
]


def test_keyless_objects_are_those_whose_lists_are_all_atomic():
    from cfgpatch.kube.ssa import Types
    from cfgpatch.lint.ssa_ready import _keyless

    types = Types()
    assert [_keyless(o, types) for o in KEYLESS] == [True] * len(KEYLESS)
    assert [_keyless(o, types) for o in KEYED] == [False] * len(KEYED)
    assert all(_keyed_findings(o) == [] for o in KEYLESS)  # skipping them loses nothing
    assert _keyed_findings(KEYED[0]) and _keyed_findings(KEYED[1])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(KEYLESS + KEYED), st.lists(st.sampled_from(
    ["finalizers", "ownerReferences", "labels", "args", "rules", "ports"]), max_size=3),
    st.lists(st.sampled_from(["x", "", 0]), max_size=3))
def test_an_object_skipped_as_keyless_has_no_key_finding(base, fields, items):
    from cfgpatch.kube.ssa import Types
    from cfgpatch.lint.ssa_ready import _keyless

    obj = copy.deepcopy(base)
    for name in fields:  # lists of whatever relationship their type gives, or none
        where = obj["metadata"] if name in ("finalizers", "ownerReferences", "labels") \
            else obj.setdefault("spec", {})
        where[name] = [{"name": str(i), "uid": str(i)} if name == "ownerReferences"
                       else i for i in items]
    if _keyless(obj, Types()):
        assert _keyed_findings(obj) == []


# ------------------------------------------- objects whose keyed lists are surely clean

_NAMES = st.sampled_from(["a", "b", "", 1, None])


@st.composite
def _keyed_deployment(draw):
    containers = []
    for _ in range(draw(st.integers(1, 3))):
        container = {"image": "x"}
        if draw(st.integers(0, 4)):
            container["name"] = draw(_NAMES)
        ports = []
        for _ in range(draw(st.integers(0, 2))):
            port = {"containerPort": draw(st.sampled_from([80, 81, "80", 0]))}
            if draw(st.booleans()):
                port["protocol"] = draw(st.sampled_from(["TCP", "UDP", ""]))
            ports.append(port)
        if ports:
            container["ports"] = ports
        env = [{"value": "v", **({"name": draw(_NAMES)} if draw(st.integers(0, 3)) else {})}
               for _ in range(draw(st.integers(0, 2)))]
        if env:
            container["env"] = env
        containers.append(container)
    obj = deployment(containers=containers)
    if draw(st.booleans()):
        obj["metadata"]["finalizers"] = draw(st.lists(st.sampled_from(["f", "g", 1]),
                                                      max_size=3))
    return obj


@settings(max_examples=150, deadline=None)
@given(_keyed_deployment())
def test_an_object_skipped_as_clean_has_no_key_finding(obj):
    from cfgpatch.kube.ssa import Types
    from cfgpatch.lint.ssa_ready import _keyless

    if _keyless(obj, Types()):
        assert _keyed_findings(obj) == []


def test_a_usual_deployment_is_not_applied():
    from cfgpatch.kube.ssa import Types
    from cfgpatch.lint.ssa_ready import _keyless

    usual = deployment(containers=[
        {"name": "app", "image": "x", "ports": [{"containerPort": 80}, {"containerPort": 81}],
         "env": [{"name": "A", "value": "1"}], "volumeMounts": [{"name": "v", "mountPath": "/v"}]},
        {"name": "proxy", "image": "y"}])
    assert _keyless(usual, Types())
    assert not _keyless(deployment(containers=[{"name": "a", "image": "x"},
                                               {"name": "a", "image": "y"}]), Types())
