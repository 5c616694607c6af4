"""``cfgpatch kube apply --server-side`` and ``cfgpatch kube update``
(``cli/kube_server_side.py``), replayed against the field manager of Kubernetes 1.32
(records of ``scripts/record_ssa_cli.py``; the live test asks ``ssa-oracle`` itself)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml

from cfgpatch.cli import main

DATA = Path(__file__).resolve().parent / "data" / "kube" / "ssa"
CASES = json.loads((DATA / "cli_cases.json").read_text())
ORACLE = Path(__file__).resolve().parents[2] / "shared" / "bin" / "ssa-oracle"
TIME = "2026-01-01T00:00:00Z"  # later than every time the records carry (none)
LAST = "kubectl.kubernetes.io/last-applied-configuration"


def cleared(obj):
    for entry in (obj.get("metadata") or {}).get("managedFields") or []:
        entry.pop("time", None)
    return obj


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def replay(case, results, tmp_path, capsys):
    """Each operation of a case through the command line, the live object being the
    answer to the operation before; yields (ours, the oracle's) per operation."""
    live = case["live"]
    crd = ["--crd", str(DATA / "crds" / case["schema"][4:])] if case["schema"] != "builtin" \
        else []
    for number, (op, want) in enumerate(zip(case["ops"], results, strict=True)):
        new = tmp_path / f"new{number}.json"
        new.write_text(json.dumps(op["object"]))
        argv = ["kube", "apply", "--server-side"] if op["op"] == "apply" else ["kube", "update"]
        argv += ["-f", str(new), "--field-manager", op["manager"], "--time", TIME, "-o", "json",
                 *crd]
        if op.get("force"):
            argv.append("--force-conflicts")
        if live is not None:
            old = tmp_path / f"live{number}.json"
            old.write_text(json.dumps(live))
            argv += ["--live", str(old)]
        code, out, err = cli(capsys, *argv)
        if want["ok"]:
            assert (code, err) == (0, ""), err
            ours = cleared(json.loads(out))
            yield ours, cleared(want["object"])
            live = want["object"]
        else:
            assert (code, out) == (1, "")
            yield err.splitlines()[0], "error: " + want["error"].splitlines()[0]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_recorded_scenarios_agree_with_the_field_manager(case, tmp_path, capsys):
    for ours, theirs in replay(case, case["results"], tmp_path, capsys):
        assert ours == theirs


def test_live_against_the_oracle(tmp_path, capsys):
    """The same scenarios asked of ``ssa-oracle`` now (CI has ../shared: it must run)."""
    if not ORACLE.exists() or shutil.which("true") is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{ORACLE} is missing")
        pytest.skip(f"{ORACLE} is missing: the recorded scenarios are replayed instead")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    from record_ssa_cli import run_oracle, scenarios

    cases = scenarios()
    answers = run_oracle(cases, oracle=ORACLE)
    agree = total = 0
    for case in cases:
        for ours, theirs in replay(case, answers[case["id"]], tmp_path, capsys):
            agree += ours == theirs
            total += 1
    assert agree == total


def deployment(replicas=3, image="nginx:1.27", extra=None):
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
           "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}},
                                 "spec": {"containers": [{"name": "app", "image": image}]}}}}
    if extra:
        obj["spec"].update(extra)
    return obj


@pytest.fixture()
def put(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def write(name, obj):
        (tmp_path / name).write_text(json.dumps(obj) if not isinstance(obj, str) else obj)
        return name
    return write


def test_create_prints_the_stored_object_with_managed_fields(put, capsys):
    code, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f", put("d.json",
                       deployment()), "--time", TIME)
    assert code == 0
    stored = yaml.safe_load(out)
    entry, = stored["metadata"]["managedFields"]
    assert (entry["manager"], entry["operation"], entry["time"]) == ("kubectl", "Apply", TIME)
    assert stored["metadata"]["namespace"] == "default"  # the request's namespace
    assert "f:replicas" in entry["fieldsV1"]["f:spec"]


def test_no_time_means_now(put, capsys):
    code, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f",
                       put("d.json", deployment()), "-o", "json")
    time = json.loads(out)["metadata"]["managedFields"][0]["time"]
    assert code == 0 and time.startswith("20") and time.endswith("Z")


def _hpa_live(put, capsys):
    code, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f",
                       put("d.json", deployment()), "--field-manager", "helm", "-o", "json",
                       "--time", TIME)
    scaled = json.loads(out)
    scaled["spec"]["replicas"] = 7
    code, out, _ = cli(capsys, "kube", "update", "-f", put("s.json", scaled), "--live",
                       "d.json", "--field-manager", "kube-controller-manager", "-o", "json")
    assert code == 0
    return put("live.json", out)


def test_conflict_prints_the_server_text_and_kubectls_advice(put, capsys):
    live = _hpa_live(put, capsys)
    code, out, err = cli(capsys, "kube", "apply", "--server-side", "-f",
                         put("n.json", deployment(image="nginx:1.28")), "--live", live,
                         "--field-manager", "helm")
    assert (code, out) == (1, "")
    assert err.startswith('error: Apply failed with 1 conflict: conflict with '
                          '"kube-controller-manager" using apps/v1: .spec.replicas\n'
                          "Please review the fields above--they currently have other "
                          "managers. Here\n")
    assert "re-run the apply\n  command with the `--force-conflicts` flag." in err
    assert err.endswith("server-side-apply/#conflicts\n")


def test_explain_conflict_gives_three_ways_and_the_tools_choice(put, capsys):
    live = _hpa_live(put, capsys)
    _, _, err = cli(capsys, "kube", "apply", "--server-side", "-f",
                    put("n.json", deployment(image="nginx:1.28")), "--live", live,
                    "--field-manager", "helm", "--explain")
    assert "conflict on .spec.replicas: owned by \"kube-controller-manager\" using apps/v1; " \
           "live 7, the configuration 3" in err
    for way in ("1. force (--force-conflicts)", "2. drop .spec.replicas",
                "3. have kube-controller-manager give it up"):
        assert way in err
    assert "Helm 4 (" in err and "fails on it" in err
    assert "Flux (" in err and "the field becomes kustomize-controller's" in err


def test_explain_force_and_owners(put, capsys):
    live = _hpa_live(put, capsys)
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f", put("n.json",
                       deployment()), "--live", live, "--field-manager", "helm",
                       "--force-conflicts", "--explain", "-o", "name")
    assert code == 0
    assert 'forced .spec.replicas: taken from "kube-controller-manager" using apps/v1' in err
    assert ("* .spec.replicas: kube-controller-manager (Update apps/v1) -> helm (Apply)"
            in err)


def test_explain_removed_and_stuck(put, capsys):
    first = deployment(extra={"minReadySeconds": 5, "paused": False})
    _, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f", put("a.json", first),
                    "--field-manager", "helm", "-o", "json")
    put("l1.json", out)
    _, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f",
                    put("b.json", deployment(extra={"paused": False})), "--field-manager",
                    "ops", "--live", "l1.json", "-o", "json")
    put("l2.json", out)
    code, out, err = cli(capsys, "kube", "apply", "--server-side", "-f",
                         put("c.json", deployment()), "--live", "l2.json",
                         "--field-manager", "helm", "--explain", "-o", "json")
    assert code == 0
    spec = json.loads(out)["spec"]
    assert "minReadySeconds" not in spec and spec["paused"] is False
    assert "removed .spec.minReadySeconds: helm owned it as an applier" in err
    assert "kept .spec.paused: helm no longer sends it, but ops (Apply) still owns it" in err


def test_client_side_fields_migrate_to_kubectl(put, capsys):
    """kubectl's move: the client-side manager's fields become kubectl's, so a field the
    configuration drops is removed rather than stuck."""
    old = deployment(extra={"minReadySeconds": 5})
    code, out, _ = cli(capsys, "kube", "update", "-f", put("o.json", {
        **old, "metadata": {"name": "web", "annotations": {LAST: json.dumps(old)}}}),
        "--field-manager", "kubectl-client-side-apply", "-o", "json")
    assert code == 0
    put("live.json", out)
    code, out, err = cli(capsys, "kube", "apply", "--server-side", "-f",
                         put("n.json", deployment()), "--live", "live.json", "-o", "json",
                         "--explain")
    stored = json.loads(out)
    managers = {(e["manager"], e["operation"]) for e in stored["metadata"]["managedFields"]}
    assert ("kubectl-client-side-apply", "Update") not in managers
    assert ("kubectl", "Apply") in managers
    assert "minReadySeconds" not in stored["spec"]
    assert "step: managed fields of kubectl-client-side-apply moved to kubectl" in err


def test_kubectl_migrates_for_any_field_manager(put, capsys):
    """kubectl hands the client-side fields to whatever --field-manager names (only the
    annotation's own save is kubectl's alone): the dropped field is removed."""
    old = deployment(extra={"minReadySeconds": 5})
    _, out, _ = cli(capsys, "kube", "update", "-f", put("o.json", {
        **old, "metadata": {"name": "web", "annotations": {LAST: json.dumps(old)}}}),
        "--field-manager", "kubectl-client-side-apply", "-o", "json")
    put("live.json", out)
    code, out, err = cli(capsys, "kube", "apply", "--server-side", "-f",
                         put("n.json", deployment()), "--live", "live.json", "-o", "json",
                         "--field-manager", "helm")
    assert code == 0 and "minReadySeconds" not in json.loads(out)["spec"]


def test_several_objects_of_a_folder_printed_as_kubectl_prints_them(put, capsys, tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "sub").mkdir()
    put("m/a.yaml", yaml.safe_dump(deployment()))
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
          "data": {"k": "v"}}
    put("m/sub/b.yaml", yaml.safe_dump(cm))
    code, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f", "m", "-R")
    docs = list(yaml.safe_load_all(out))
    assert code == 0 and [d["kind"] for d in docs] == ["Deployment", "ConfigMap"]
    assert out.count("---\n") == 1
    code, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f", "m", "-o", "name")
    assert out == "deployment.apps/web\n"


def test_duplicate_key_refused_with_the_servers_words(put, capsys):
    obj = deployment()
    obj["spec"]["template"]["spec"]["containers"].append({"name": "app", "image": "x"})
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f", put("d.json", obj))
    assert code == 1 and "duplicate entries for key [name=\"app\"]" in err


def test_flag_errors(put, capsys):
    new = put("d.json", deployment())
    code, _, err = cli(capsys, "kube", "apply", "-f", new, "--live", new, "--force-conflicts")
    assert (code, err) == (1, "error: --force-conflicts only works with --server-side\n")
    code, _, err = cli(capsys, "kube", "update", "-f", new)
    assert code == 1 and "needs --field-manager" in err
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f", new, "--time", "soon")
    assert code == 1 and 'error: --time "soon" is not an RFC 3339 time' in err
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f", new, "--crd", new)
    assert code == 1 and "holds no CustomResourceDefinition" in err
    with pytest.raises(SystemExit):
        cli(capsys, "kube", "apply", "-f", new)  # client-side still needs --live


def test_a_kind_without_a_type_asks_for_its_crd(put, capsys):
    obj = {"apiVersion": "example.com/v1", "kind": "Nope", "metadata": {"name": "x"}}
    code, out, err = cli(capsys, "kube", "apply", "--server-side", "-f", put("n.json", obj))
    assert (code, out) == (1, "")
    assert "no corresponding type for example.com/v1, Kind=Nope" in err
    assert "give it with --crd" in err


def test_server_dry_run_keeps_nothing_for_the_next_object(put, capsys):
    first = deployment()
    second = deployment(image="nginx:1.28")
    put("both.yaml", yaml.safe_dump(first) + "---\n" + yaml.safe_dump(second))
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f", "both.yaml", "-o",
                       "name", "--explain", "--dry-run=server")
    # the second apply creates the object again: nothing was kept from the first
    assert code == 0 and err.count("by kubectl creates the object") == 2
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f", "both.yaml", "-o",
                       "name", "--explain")
    assert "by kubectl changes the object" in err
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f", "both.yaml",
                       "--dry-run=client")
    assert code == 2 and "not modelled" in err


def test_as_flux_hands_kubectls_fields_over_and_forces(put, capsys):
    old = deployment(extra={"minReadySeconds": 5})
    code, out, _ = cli(capsys, "kube", "update", "-f", put("o.json", {
        **old, "metadata": {"name": "web", "annotations": {LAST: json.dumps(old)}}}),
        "--field-manager", "kubectl-client-side-apply", "-o", "json")
    put("live.json", out)
    code, out, err = cli(capsys, "kube", "apply", "--server-side", "--as", "flux", "-f",
                         put("n.json", deployment(replicas=4)), "--live", "live.json",
                         "-o", "json", "--explain")
    stored = json.loads(out)
    assert code == 0
    assert [(e["manager"], e["operation"]) for e in stored["metadata"]["managedFields"]] == \
        [("kustomize-controller", "Apply")]
    assert "annotations" not in stored["metadata"]  # the cleanup drops last-applied
    assert "minReadySeconds" not in stored["spec"] and stored["spec"]["replicas"] == 4
    assert "cleanup: kubectl-client-side-apply (Update) handed to kustomize-controller" in err


def test_as_flux_forces_an_hpa_conflict(put, capsys):
    live = _hpa_live(put, capsys)
    code, out, err = cli(capsys, "kube", "apply", "--server-side", "--as", "flux", "-f",
                         put("n.json", deployment()), "--live", live, "-o", "json",
                         "--explain")
    assert code == 0 and json.loads(out)["spec"]["replicas"] == 3
    assert 'forced .spec.replicas: taken from "kube-controller-manager" using apps/v1' in err
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "--as", "flux", "-f",
                       "n.json", "--field-manager", "helm")
    assert code == 1 and "--as flux applies as kustomize-controller" in err


def test_an_hpa_writes_replicas_through_the_scale_subresource(put, capsys):
    code, out, _ = cli(capsys, "kube", "apply", "--server-side", "-f",
                       put("d.json", deployment()), "--field-manager", "helm", "-o", "json",
                       "--time", TIME)
    put("live.json", out)
    scale = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
             "spec": {"replicas": 7, "paused": True}}  # (only replicas goes through /scale)
    code, out, _ = cli(capsys, "kube", "update", "-f", put("s.json", scale), "--live",
                       "live.json", "--field-manager", "kube-controller-manager",
                       "--subresource", "scale", "-o", "json")
    stored = json.loads(out)
    assert code == 0 and stored["spec"]["replicas"] == 7 and "paused" not in stored["spec"]
    hpa = stored["metadata"]["managedFields"][-1]
    assert (hpa["manager"], hpa["operation"], hpa["apiVersion"], hpa["subresource"],
            hpa["fieldsV1"]) == ("kube-controller-manager", "Update", "apps/v1", "scale",
                                 {"f:spec": {"f:replicas": {}}})
    code, _, err = cli(capsys, "kube", "apply", "--server-side", "-f",
                       put("n.json", deployment(image="nginx:1.28")), "--live",
                       put("hpa.json", out), "--field-manager", "helm")
    assert code == 1  # the server's words for a subresource's manager
    assert err.startswith('error: Apply failed with 1 conflict: conflict with '
                          '"kube-controller-manager" with subresource "scale" using apps/v1: '
                          ".spec.replicas\n")


def test_status_and_scale_writes_take_only_their_part(put, capsys):
    put("live.json", json.dumps(dict(deployment(), status={"replicas": 1})))
    new = dict(deployment(replicas=9, image="other:2"), status={"replicas": 3})
    code, out, _ = cli(capsys, "kube", "update", "-f", put("s.json", new), "--live",
                       "live.json", "--field-manager", "kube-controller-manager",
                       "--subresource", "status", "-o", "json")
    stored = json.loads(out)
    assert code == 0 and stored["status"] == {"replicas": 3}
    assert stored["spec"] == deployment()["spec"]
    assert stored["metadata"]["managedFields"][0]["subresource"] == "status"
    code, _, err = cli(capsys, "kube", "update", "-f", put("n.json", deployment()),
                       "--field-manager", "x", "--subresource", "scale")
    assert code == 1 and "needs the live object (--live)" in err
    code, _, err = cli(capsys, "kube", "update", "-f", put("m.json", {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}}),
        "--live", "live.json", "--field-manager", "x", "--subresource", "scale")
    assert code == 1 and "takes spec.replicas from -f: it has none" in err
