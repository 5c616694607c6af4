"""Server-side apply readiness rules of ``cfgpatch lint`` (``lint/ssa_ready.py``)."""

from __future__ import annotations

from pathlib import Path

import yaml

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
