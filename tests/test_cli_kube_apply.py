"""``cfgpatch kube apply`` (``cli/kube_apply.py``)."""

from __future__ import annotations

import json

import pytest

from cfgpatch.cli import main

LAST = "kubectl.kubernetes.io/last-applied-configuration"


def deployment(replicas=None, containers=("app",)):
    spec = {"selector": {"matchLabels": {"app": "web"}},
            "template": {"spec": {"containers": [{"name": n, "image": f"{n}:1"}
                                                 for n in containers]}}}
    if replicas is not None:
        spec["replicas"] = replicas
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default"}, "spec": spec}


def applied(obj, last):
    out = json.loads(json.dumps(obj))
    text = json.dumps({**last, "metadata": {**last["metadata"], "annotations": {}}},
                      sort_keys=True, separators=(",", ":")) + "\n"
    out["metadata"]["annotations"] = {LAST: text}
    return out


@pytest.fixture()
def write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def put(name, obj):
        (tmp_path / name).write_text(json.dumps(obj))
        return name
    return put


def run(capsys, *argv):
    code = main(["kube", "apply", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_manual_scale_kept_when_replicas_never_applied(write, capsys):
    live = write("live.json", applied(deployment(5), deployment()))
    new = write("new.json", deployment())
    code, out, _ = run(capsys, "-f", new, "--live", live)
    assert code == 0
    assert out.startswith("deployment.apps/web unchanged\n# patch: {} (nothing is sent)\n")
    assert "kept spec.replicas: only in the live object, never applied" in out


def test_manual_scale_reverted_and_patch_printed(write, capsys):
    live = write("live.json", applied(deployment(5), deployment(3)))
    new = write("new.json", deployment(3))
    code, out, _ = run(capsys, "-f", new, "--live", live, "--show", "patch,explanation")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "deployment.apps/web configured"
    assert lines[1] == "# patch (application/strategic-merge-patch+json):"
    assert json.loads(lines[2])["spec"] == {"replicas": 3}
    assert "reverted spec.replicas" in out and "# result" not in out


def test_container_removed_and_result_json(write, capsys):
    last = deployment(containers=("app", "log"))
    live = write("live.json", applied(last, last))
    new = write("new.json", deployment())
    code, out, _ = run(capsys, "-f", new, "--live", live, "-o", "json")
    assert code == 0
    assert '{"$patch":"delete","name":"log"}' in out
    assert "removed spec.template.spec.containers[name=log]" in out
    result = json.loads(out[out.index("{\n"):out.index("\n}\n") + 2])
    assert [c["name"] for c in result["spec"]["template"]["spec"]["containers"]] == ["app"]
    assert LAST in result["metadata"]["annotations"]


def test_last_applied_flag_and_none(write, capsys):
    live = write("live.json", deployment(5))
    last = write("last.json", deployment(5))
    new = write("new.json", deployment())
    code, out, _ = run(capsys, "-f", new, "--live", live, "--last-applied", last,
                       "--show", "patch")
    assert code == 0 and '"replicas":null' in out
    code, out, _ = run(capsys, "-f", new, "--live", live, "--last-applied", "none",
                       "--show", "patch")
    assert code == 0 and "replicas" not in out.split("\n", 2)[2].split("last-applied")[0]


def test_overwrite_false_conflict_is_kubectls_error(write, capsys):
    live = write("live.json", applied(deployment(5), deployment(3)))
    new = write("new.json", deployment(4))
    code, _, err = run(capsys, "-f", new, "--live", live, "--overwrite=false")
    assert code == 1
    assert err.startswith("error: patch:\n")
    assert "conflicts with changes made from original to current" in err


@pytest.mark.parametrize("flag", ["--server-side", "--prune"])
def test_out_of_scope_flags_are_refused(write, capsys, flag):
    live = write("live.json", deployment())
    code, _, err = run(capsys, "-f", live, "--live", live, flag)
    assert code == 2 and "not modelled" in err


def test_custom_resource_uses_a_json_merge_patch(write, capsys):
    cr = {"apiVersion": "example.com/v1", "kind": "Widget",
          "metadata": {"name": "w", "namespace": "default"}, "spec": {"tags": ["a"]}}
    live_obj = applied({**cr, "spec": {"tags": ["a", "live"]}}, cr)
    live = write("live.json", live_obj)
    new = write("new.json", {**cr, "spec": {"tags": ["b"]}})
    code, out, _ = run(capsys, "-f", new, "--live", live, "--show", "patch,explanation")
    assert code == 0
    assert out.startswith("widget.example.com/w configured\n# patch (application/merge-patch+json)")
    assert "reverted spec.tags" in out


def test_missing_file(write, capsys):
    code, _, err = run(capsys, "-f", "nope.yaml", "--live", "nope.yaml")
    assert code == 1 and 'the path "nope.yaml" does not exist' in err


def _recorded(case_id):
    from pathlib import Path

    path = Path(__file__).parent / "data" / "kube" / "apply" / "recorded.jsonl"
    return next(row for row in map(json.loads, path.read_text().splitlines())
                if row["id"] == case_id)


@pytest.mark.parametrize("case_id", ["no-last-applied", "label-removed-never-applied",
                                     "namespace-cluster-scoped-no-annotation",
                                     "container-removed", "endpoints-no-annotation"])
def test_missing_annotation_warning_is_kubectls(write, capsys, case_id):
    case = _recorded(case_id)
    live, new = write("live.json", case["live"]), write("new.json", case["manifest"])
    code, out, err = run(capsys, "-f", new, "--live", live, "--show", "patch")
    assert code == case["code"] == 0
    assert err == case["stderr"]  # kubectl's warning, or nothing when annotated
    assert out.splitlines()[0] == case["stdout"].strip()
    assert out.splitlines()[2] == case["patch"]
