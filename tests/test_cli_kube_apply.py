"""``cfgpatch kube apply`` (``cli/kube_apply.py``)."""

from __future__ import annotations

import json

import pytest
import yaml

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


@pytest.mark.parametrize("case_id", ["overwrite-false-conflict", "overwrite-false-no-conflict",
                                     "unknown-field-changed", "env-repeated-names-long"])
def test_a_patch_that_cannot_be_made_fails_with_kubectls_whole_message(write, capsys, case_id):
    """kubectl wraps apimachinery's message in the object and the three inputs; the
    recorded standard error, byte for byte, then our hint."""
    case = _recorded(case_id)
    live, new = write("live.json", case["live"]), write("manifest.json", case["manifest"])
    code, out, err = run(capsys, "-f", new, "--live", live, *case.get("flags", ()))
    assert (code, out) == (case["code"], case["stdout"]) == (1, "")
    ours, _, hint = err.partition("\ncfgpatch: ")
    assert ours + "\n" == case["stderr"] and hint


@pytest.mark.parametrize("flag", ["--prune"])
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


def config_map(name, data, namespace="default"):
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": data}


def documents(*objects):
    """A YAML file of several documents."""
    return "---\n".join(yaml.safe_dump(obj) for obj in objects)


def test_an_object_applied_twice_sees_its_first_apply(write, capsys, tmp_path):
    """A server stores each object as it is applied, so the second apply of one object
    in a file is computed against the first's result (and its annotation)."""
    (tmp_path / "new.yaml").write_text(documents(config_map("a", {"x": "2"}),
                                                 config_map("a", {"x": "3"}),
                                                 config_map("b", {"k": "1"}),
                                                 config_map("b", {"k": "1"})))
    live = write("live.json", applied(config_map("a", {"x": "1"}), config_map("a", {"x": "1"})))
    code, out, err = run(capsys, "-f", "new.yaml", "--live", live, "--show", "patch")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "configmap/a configured" and '"data":{"x":"2"}' in lines[2]
    assert lines[3] == "configmap/a configured" and '"data":{"x":"3"}' in lines[5]
    assert lines[6:] == ["configmap/b created",
                         "# no patch: the object is created as it is below",
                         "configmap/b unchanged", "# patch: {} (nothing is sent)"]


def test_live_objects_no_manifest_object_names_are_reported(write, capsys, tmp_path):
    (tmp_path / "live.yaml").write_text(documents(config_map("a", {"x": "1"}),
                                                  config_map("old", {"x": "1"}, "team")))
    new = write("new.json", config_map("a", {"x": "1"}))
    code, out, err = run(capsys, "-f", new, "--live", "live.yaml", "--show", "patch")
    assert code == 0 and out.startswith("configmap/a configured\n")
    assert err.endswith("cfgpatch: ConfigMap old (v1) in namespace team of --live matches no "
                        "object of -f (left as it is)\n")


def test_last_applied_of_several_objects_is_matched_by_identity(write, capsys, tmp_path):
    (tmp_path / "new.yaml").write_text(documents(config_map("a", {"x": "1"}),
                                                 config_map("b", {"y": "1"})))
    (tmp_path / "live.yaml").write_text(documents(
        config_map("a", {"x": "1", "gone": "1"}),
        applied(config_map("b", {"y": "1", "gone": "1"}), config_map("b", {"gone": "1"}))))
    last = write("last.json", config_map("a", {"gone": "1"}))
    code, out, _ = run(capsys, "-f", "new.yaml", "--live", "live.yaml", "--last-applied",
                       last, "--show", "patch")
    assert code == 0
    lines = out.splitlines()
    # a: the given configuration; b: its own annotation; both drop "gone"
    assert '"data":{"gone":null}' in lines[2] and '"data":{"gone":null}' in lines[5]


def test_a_live_object_of_another_version_is_refused(write, capsys, tmp_path):
    old = {**deployment(3), "apiVersion": "apps/v1beta2"}
    live, new = write("live.json", old), write("new.json", deployment(3))
    code, out, err = run(capsys, "-f", new, "--live", live)
    assert (code, out) == (1, "")
    assert err.startswith("error: deployment.apps/web is apps/v1 in the manifest but "
                          "apps/v1beta2 in --live\ncfgpatch: an API server converts")


def test_an_object_twice_in_live_is_an_error(write, capsys, tmp_path):
    (tmp_path / "live.yaml").write_text(documents(deployment(3), deployment(4)))
    new = write("new.json", deployment(3))
    code, _, err = run(capsys, "-f", new, "--live", "live.yaml")
    assert code == 1 and err.startswith("error: deployment.apps/web appears twice in --live\n")


def test_namespace_flag_must_match_a_single_object(write, capsys):
    new = write("new.json", config_map("a", {"x": "1"}, "other"))
    code, out, err = run(capsys, "-f", new, "--live", "none", "-n", "team")
    assert (code, out) == (1, "")
    assert err == ('error: the namespace from the provided object "other" does not match the '
                   "namespace \"team\". You must pass '--namespace=other' to perform this "
                   "operation.\n")


def test_standard_input_is_named_stdin_in_kubectls_message(write, capsys, monkeypatch):
    import io
    import sys

    live = write("live.json", applied(deployment(5), deployment(3)))
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(deployment(4))))
    code, _, err = run(capsys, "-f", "-", "--live", live, "--overwrite=false")
    assert code == 1
    assert 'for: "STDIN": error when patching "STDIN": creating patch with:\n' in err


def test_a_url_is_refused_before_anything_is_applied(write, capsys):
    new = write("new.json", config_map("a", {"x": "1"}))
    code, out, err = run(capsys, "-f", new, "-f", "https://example.com/m.yaml", "--live", "none")
    assert (code, out) == (1, "")
    assert err.startswith("error: https://example.com/m.yaml: cfgpatch does not fetch manifests\n")


def test_kustomize_directory_kube_build_refuses_is_refused_the_same_way(capsys, tmp_path,
                                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "kustomization.yaml").write_text(
        "resources: [github.com/example/repo//base]\n")
    code, out, err = run(capsys, "-k", "k", "--live", "none")
    assert (code, out) == (3, "")
    assert "is not modelled by cfgpatch kube build" in err


def test_kustomize_directory_kustomize_refuses_is_kustomizes_error(capsys, tmp_path,
                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "kustomization.yaml").write_text("helmCharts: [{name: x}]\n")
    code, out, err = run(capsys, "-k", "k", "--live", "none")
    assert (code, out) == (1, "")
    assert "must specify --enable-helm" in err


def test_f_and_k_together_are_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        run(capsys, "-k", "k", "-f", "x.yaml", "--live", "none")
    assert stopped.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_file_that_cannot_be_read_does_not_stop_the_others(capsys, tmp_path, monkeypatch):
    """kubectl reports it with the reading errors and applies the other files. The file
    starts with a UTF-16 byte order mark, so it is read as UTF-16 (``kube.io.filebytes``)
    and its one string is no object: kubectl's decoder's words."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "a.yaml").write_text(yaml.safe_dump(config_map("a", {"x": "1"})))
    (tmp_path / "m" / "b.yaml").write_bytes(b"\xff\xfe\x00bad")
    code, out, err = run(capsys, "-f", "m", "--live", "none", "--show", "patch")
    assert code == 1 and out.startswith("configmap/a created\n")
    assert err.startswith('error: unable to decode "m/b.yaml": json: cannot unmarshal '
                          "string into Go value of type unstructured.detector")


def test_a_link_to_a_directory_is_read_as_a_file(capsys, tmp_path, monkeypatch):
    """Go's filepath.Walk does not follow a link given as the root (kubectl 1.32, asked by
    hand: ``error: error parsing linkdir: read linkdir: is a directory``)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "a.yaml").write_text(yaml.safe_dump(config_map("a", {"x": "1"})))
    (tmp_path / "linkdir").symlink_to("m")
    code, out, err = run(capsys, "-f", "linkdir", "--live", "none")
    assert (code, out) == (1, "")
    assert err == "error: error parsing linkdir: read linkdir: is a directory\n"
