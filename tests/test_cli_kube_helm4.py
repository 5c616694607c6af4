"""``cfgpatch kube upgrade --server-side`` (``cli/kube_helm4.py``): Helm 4's upgrade."""

from __future__ import annotations

import json

import pytest

from cfgpatch.cli import main

TIME = "2026-01-01T00:00:00Z"


def deployment(replicas=3, image="nginx:1.27", extra=None):
    obj = {"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": "web", "namespace": "default"},
           "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}},
                                 "spec": {"containers": [{"name": "app", "image": image}]}}}}
    obj["spec"].update(extra or {})
    return obj


@pytest.fixture()
def put(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def write(name, obj):
        (tmp_path / name).write_text(obj if isinstance(obj, str) else json.dumps(obj))
        return name
    return write


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def helm3_live(put, capsys, spec_extra):
    """A Deployment Helm 3 created (an Update by helm), then kubectl scaled it."""
    code, out, _ = cli(capsys, "kube", "update", "-f", put("h3.json", deployment(
        extra=spec_extra)), "--field-manager", "helm", "-o", "json", "--time", TIME)
    assert code == 0
    return put("live.json", out)


def test_hpa_owned_replicas_fail_the_upgrade_with_helms_words(put, capsys):
    code, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f",
                       put("d.json", deployment()), "--field-manager", "helm", "-o", "json")
    scaled = json.loads(out)
    scaled["spec"]["replicas"] = 9
    _, out, _ = cli(capsys, "kube", "update", "-f", put("s.json", scaled), "--live", "d.json",
                    "--field-manager", "kube-controller-manager", "-o", "json")
    live = put("live.json", out)
    code, out, err = cli(capsys, "kube", "upgrade", "--server-side", "--old", "d.json",
                         "--new", put("n.json", deployment(replicas=4)), "--live", live)
    assert code == 1 and out == "deployment.apps/web conflict: Helm 4 fails\n"
    assert err == ("Error: UPGRADE FAILED: conflict occurred while applying object "
                   "default/web apps/v1, Kind=Deployment: Apply failed with 1 conflict: "
                   "conflict with \"kube-controller-manager\" using apps/v1: .spec.replicas\n")
    code, out, _ = cli(capsys, "kube", "upgrade", "--server-side", "--old", "d.json",
                       "--new", "n.json", "--live", live, "--force-conflicts", "-o", "json",
                       "--show", "result")
    assert code == 0 and '"replicas": 4' in out


def test_from_client_side_migrates_helms_update_entry(put, capsys):
    live = helm3_live(put, capsys, {"minReadySeconds": 5})
    old = put("old.json", deployment(extra={"minReadySeconds": 5}))
    new = put("new.json", deployment())
    code, out, _ = cli(capsys, "kube", "upgrade", "--server-side", "--old", old, "--new", new,
                       "--live", live, "-o", "json", "--show", "result")
    assert code == 0
    assert json.loads(out.split("\n", 1)[1])["spec"]["minReadySeconds"] == 5  # stuck
    code, out, err = cli(capsys, "kube", "upgrade", "--server-side", "--old", old, "--new",
                         new, "--live", live, "-o", "json", "--show", "result",
                         "--from-client-side", "--explain")
    stored = json.loads(out.split("\n", 1)[1])
    assert code == 0 and "minReadySeconds" not in stored["spec"]
    assert [(e["manager"], e["operation"]) for e in stored["metadata"]["managedFields"]] == \
        [("helm", "Apply")]
    assert "removed .spec.minReadySeconds" in err


def test_created_when_not_live(put, capsys):
    new = put("new.json", deployment())
    code, out, _ = cli(capsys, "kube", "upgrade", "--server-side", "--old", new, "--new", new,
                       "--live", put("none.json", ""), "--time", TIME)
    assert code == 0 and out.startswith("deployment.apps/web recreated\n")
    assert "manager: helm\n    operation: Apply\n" in out


def test_explain_names_a_field_client_side_apply_left_stuck(put, capsys):
    old = deployment(extra={"minReadySeconds": 5})
    last = json.dumps(old)
    code, out, _ = cli(capsys, "kube", "update", "-f", put("csa.json", {
        **old, "metadata": {**old["metadata"], "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": last}}}),
        "--field-manager", "kubectl-client-side-apply", "-o", "json")
    live = put("live.json", out)
    code, out, err = cli(capsys, "kube", "upgrade", "--server-side", "--old",
                         put("old.json", old), "--new", put("new.json", deployment()),
                         "--live", live, "--show", "explanation", "--explain")
    assert code == 0
    assert "stuck .spec.minReadySeconds: client-side kubectl apply set it and " \
           "kubectl-client-side-apply still owns it" in err
