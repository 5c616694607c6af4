"""``--live DIR --server-side``: the preview's live outcome is the server-side apply of the
head render onto the live objects, as the API server's field manager answers it.

scripts/record_preview_ssa.py made the live objects (with their ``managedFields``) and
the outcomes with ../shared/bin/ssa-oracle (Kubernetes 1.32's field manager): the
Deployment's ``spec.replicas`` is owned by ``hpa-controller`` (a conflict), the ConfigMap's
``data.OLD_FLAG`` was applied by ``kubectl`` before and is no longer sent (a removal).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.preview.engine import Options, preview
from cfgpatch.preview.html import render_html
from cfgpatch.preview.human import render_human
from cfgpatch.preview.live import SKIP
from cfgpatch.preview.markdown import render_markdown
from cfgpatch.preview.objdiff import field_changes
from cfgpatch.preview.report import exit_status
from cfgpatch.preview.sarif import render_sarif
from cfgpatch.preview.serverside import ServerSide, server_side
from preview_support import case_repo

CASE = json.loads((Path(__file__).parent / "data/preview/ssa-case.json").read_text())


def _setup(tmp_path: Path) -> tuple[Path, str, str, Path]:
    return case_repo(tmp_path, CASE, {"objects.yaml": yaml.safe_dump(
        {"apiVersion": "v1", "kind": "List", "items": CASE["live"]})})


def _run(tmp_path: Path, force: bool = False) -> tuple[dict, dict]:
    root, base, head, live = _setup(tmp_path)
    kept: dict = {}
    report = preview(Options(str(root), base, head, live=str(live), keep=kept,
                             server_side=ServerSide("kubectl", force)))
    assert [o.value for o in kept["app"][1].objects] == CASE["head_objects"]
    return report, {o["kind"]: o for o in report["objects"]}


def _oracle_changes(kind: str, mode: str) -> list[tuple[str, str]]:
    live = next(o for o in CASE["live"] if o["kind"] == kind)
    stored = CASE["outcomes"][kind][mode]["object"]
    return sorted((c.path, c.action) for c in field_changes(live, stored)
                  if not c.path.startswith(SKIP))


def test_a_field_another_manager_owns_is_a_conflict_with_the_servers_text(tmp_path):
    report, objects = _run(tmp_path)
    ssa = objects["Deployment"]["live"]["server_side"]
    assert ssa["applied"] is False
    assert ssa["message"] == CASE["outcomes"]["Deployment"]["apply"]["error"]
    [conflict] = ssa["conflicts"]
    assert (conflict["manager"], conflict["operation"], conflict["field"], conflict["path"]) \
        == ("hpa-controller", "Update", ".spec.replicas", "/spec/replicas")
    assert (conflict["file"], conflict["line"]) == ("app/deployment.yaml", 6)
    [risk] = [r for r in objects["Deployment"]["risks"] if r["rule"] == "live-conflict"]
    assert (risk["file"], risk["line"], risk["manager"]) == (
        "app/deployment.yaml", 6, "hpa-controller")
    assert "fails" in risk["message"] and '"hpa-controller" using apps/v1' in risk["message"]
    assert exit_status(report) == 1


def test_a_field_the_applier_stopped_sending_is_removed(tmp_path):
    _, objects = _run(tmp_path)
    config = objects["ConfigMap"]
    ssa = config["live"]["server_side"]
    assert ssa["applied"] is True and ssa["removed"] == [
        {"field": ".data.OLD_FLAG", "path": "/data/OLD_FLAG"}]
    assert [r["path"] for r in config["risks"] if r["rule"] == "live-removal"] == [
        "/data/OLD_FLAG"]
    assert sorted((c["path"], c["action"]) for c in ssa["changes"]) == \
        _oracle_changes("ConfigMap", "apply")
    assert config["live"]["unchanged"] is False


def test_force_conflicts_takes_the_field_over_as_the_server_does(tmp_path):
    _, objects = _run(tmp_path, force=True)
    ssa = objects["Deployment"]["live"]["server_side"]
    assert ssa["applied"] is True and ssa["force"] is True
    assert [c["field"] for c in ssa["conflicts"]] == [".spec.replicas"]
    assert sorted((c["path"], c["action"]) for c in ssa["changes"]) == \
        _oracle_changes("Deployment", "force")
    [risk] = [r for r in objects["Deployment"]["risks"] if r["rule"] == "live-conflict"]
    assert "takes over" in risk["message"]


def test_every_format_shows_the_server_side_outcome(tmp_path):
    report, _ = _run(tmp_path)
    human = render_human(report)
    assert "live (server-side apply by kubectl): conflict with \"hpa-controller\"" in human
    assert "removes .data.OLD_FLAG" in human
    markdown = "".join(render_markdown(report))
    assert "**live-conflict**" in markdown and "server-side apply by kubectl" in markdown
    html = render_html(report)
    assert "live-conflict" in html and "server-side apply by kubectl" in html
    sarif = render_sarif(report)
    results = sarif["runs"][0]["results"]
    conflict = next(r for r in results if r["ruleId"] == "live-conflict")
    location = conflict["locations"][0]["physicalLocation"]
    assert (location["artifactLocation"]["uri"], location["region"]["startLine"]) == (
        "app/deployment.yaml", 6)
    rules = {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert {"live-conflict", "live-removal", "live-refused"} <= rules


def test_client_side_stays_the_default(tmp_path):
    root, base, head, live = _setup(tmp_path)
    report = preview(Options(str(root), base, head, live=str(live)))
    deployment = next(o for o in report["objects"] if o["kind"] == "Deployment")
    assert "server_side" not in deployment["live"] and "patch" in deployment["live"]


@pytest.mark.parametrize("flags,code,text", [
    (["--server-side", "--field-manager", "kustomize-controller"], 1, "kustomize-controller"),
    (["--server-side"], 1, '"hpa-controller"'),
])
def test_command_line(tmp_path, flags, code, text):
    root, base, head, live = _setup(tmp_path)
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "preview", "-C", str(root),
                           "--base", base, "--head", head, "--live", str(live), *flags,
                           "--format", "json"], capture_output=True, text=True)
    assert done.returncode == code, done.stderr
    assert text in done.stdout


def test_server_side_without_live_is_a_usage_error(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "preview",
                           "-C", str(tmp_path), "--server-side"], capture_output=True, text=True)
    assert done.returncode == 2 and "need --live DIR" in done.stderr


def test_the_recording_is_what_the_oracle_answers_today():
    """Live: kubectl.1.32 and ssa-oracle record the case again; it must not differ."""
    scripts = Path(__file__).resolve().parent.parent / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        import record_preview_ssa as recorder
        from record_kustomize_helm import kubectl
    finally:
        sys.path.remove(str(scripts))
    from conftest import require

    binary = kubectl()
    require(binary is not None, "kubectl.1.32 is not installed")
    require(recorder.ORACLE.exists(), f"ssa-oracle is not at {recorder.ORACLE}")
    assert json.loads(json.dumps(recorder.record(binary))) == CASE


def test_the_modules_examples_hold():
    import doctest

    from cfgpatch.preview import config, serverside

    for module in (config, serverside):
        assert doctest.testmod(module).failed == 0


_KEYS = st.text(st.characters(codec="ascii", exclude_characters="\x00"), max_size=4)
_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                       lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(_KEYS, inner, max_size=3), max_leaves=12)


@settings(deadline=None)  # no time limit: the machine is shared
@given(_VALUES)
def test_every_leaf_path_reads_back_as_its_json_pointer(value):
    from cfgpatch.kube.ssa import fieldpath as fp
    from cfgpatch.preview.render import leaves
    from cfgpatch.preview.serverside import pointer_of

    for pointer in leaves(value):
        path, current = [], value
        for token in pointer.split("/")[1:]:
            key = token.replace("~1", "/").replace("~0", "~")
            if isinstance(current, list):
                path.append(fp.index(int(key)))
                current = current[int(key)]
            else:
                path.append(fp.field(key))
                current = current[key]
        assert pointer_of(tuple(path), value) == pointer


def test_a_live_object_saved_without_managed_fields_is_said_so(tmp_path):
    root, base, head, live = _setup(tmp_path)
    items = json.loads(json.dumps(CASE["live"]))
    for item in items:
        del item["metadata"]["managedFields"]
    (live / "objects.yaml").write_text(yaml.safe_dump({"kind": "List", "items": items}))
    report = preview(Options(str(root), base, head, live=str(live),
                             server_side=ServerSide()))
    config = next(o for o in report["objects"] if o["kind"] == "ConfigMap")
    assert config["live"]["server_side"]["no_managed_fields"] is True
    assert "--show-managed-fields" in render_human(report)


# A field left stuck by the move from client-side to server-side apply: the live
# Deployment was written by client-side kubectl apply with minReadySeconds; the head
# render drops it (scripts/record_preview_ssa.py, the oracle's answers for Helm 4's
# single apply and for kubectl's whole flow).
STUCK = json.loads((Path(__file__).parent / "data/preview/ssa-stuck-case.json").read_text())


def _stuck_run(tmp_path: Path, tool: str, manager: str | None = None) -> tuple[dict, dict]:
    root, base, head, live = case_repo(tmp_path, STUCK,
                                       {"web.yaml": yaml.safe_dump(STUCK["live"][0])})
    kept: dict = {}
    report = preview(Options(str(root), base, head, live=str(live), keep=kept,
                             server_side=server_side(tool, manager)))
    assert [o.value for o in kept["app"][1].objects] == STUCK["head_objects"]
    [deployment] = report["objects"]
    return report, deployment


def _stuck_oracle_changes(manager: str) -> list[tuple[str, str]]:
    stored = STUCK["outcomes"][manager]["object"]
    return sorted((c.path, c.action) for c in field_changes(STUCK["live"][0], stored)
                  if not c.path.startswith(SKIP))


def test_the_stuck_case_is_what_client_side_apply_leaves():
    [entry] = STUCK["live"][0]["metadata"]["managedFields"]
    assert (entry["manager"], entry["operation"]) == ("kubectl-client-side-apply", "Update")
    assert "minReadySeconds" in json.loads(STUCK["live"][0]["metadata"]["annotations"][
        "kubectl.kubernetes.io/last-applied-configuration"])["spec"]
    assert "minReadySeconds" not in STUCK["head_objects"][0]["spec"]
    assert STUCK["kubectl_ops"] == ["apply", "apply", "update", "apply"]


def test_helm_4_leaves_a_field_client_side_apply_set_stuck(tmp_path):
    report, deployment = _stuck_run(tmp_path, "helm4")
    server = STUCK["outcomes"]["helm"]
    assert server["ok"] and server["object"]["spec"]["minReadySeconds"] == 10
    ssa = deployment["live"]["server_side"]
    assert ssa["applied"] is True and ssa["removed"] == [] and "migrated_managers" not in ssa
    assert ssa["stuck"] == [{"field": ".spec.minReadySeconds", "path": "/spec/minReadySeconds",
                             "manager": "kubectl-client-side-apply",
                             "file": "app/deployment.yaml", "line": 7}]
    assert sorted((c["path"], c["action"]) for c in ssa["changes"]) == \
        _stuck_oracle_changes("helm")
    [risk] = [r for r in report["risks"] if r["rule"] == "live-stuck"]
    assert (risk["object"], risk["field"], risk["path"], risk["manager"], risk["file"],
            risk["line"]) == ("Deployment/shop/web", ".spec.minReadySeconds",
                              "/spec/minReadySeconds", "kubectl-client-side-apply",
                              "app/deployment.yaml", 7)
    assert "stays in the live object" in risk["message"]
    assert report["summary"]["risks"]["live-stuck"] == 1


def test_kubectls_migration_removes_it_instead(tmp_path):
    report, deployment = _stuck_run(tmp_path, "kubectl")
    server = STUCK["outcomes"]["kubectl"]
    assert server["ok"] and "minReadySeconds" not in server["object"]["spec"]
    ssa = deployment["live"]["server_side"]
    assert "stuck" not in ssa and ssa["migrated_managers"] == ["kubectl-client-side-apply"]
    assert ssa["removed"] == [{"field": ".spec.minReadySeconds",
                               "path": "/spec/minReadySeconds"}]
    assert sorted((c["path"], c["action"]) for c in ssa["changes"]) == \
        _stuck_oracle_changes("kubectl")
    assert not [r for r in report["risks"] if r["rule"] == "live-stuck"]


def test_every_format_shows_the_stuck_field(tmp_path):
    report, _ = _stuck_run(tmp_path, "helm4")
    human = render_human(report)
    assert "live (server-side apply by helm): keeps .spec.minReadySeconds (stuck: " \
           "kubectl-client-side-apply still owns it)" in human
    assert "live-stuck" in human
    markdown = "".join(render_markdown(report))
    assert "**live-stuck**" in markdown and "keeps .spec.minReadySeconds" in markdown
    html = render_html(report)
    assert "live-stuck" in html and "keeps .spec.minReadySeconds" in html
    sarif = render_sarif(report)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "live-stuck"]
    location = result["locations"][0]["physicalLocation"]
    assert (location["artifactLocation"]["uri"], location["region"]["startLine"]) == (
        "app/deployment.yaml", 7)
    rules = {r["id"]: r["shortDescription"]["text"]
             for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert "kubectl-client-side-apply" in rules["live-stuck"]


def test_the_stuck_recording_is_what_the_oracle_answers_today():
    """Live: kubectl.1.32 and ssa-oracle record the stuck case again; it must not differ."""
    scripts = Path(__file__).resolve().parent.parent / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        import record_preview_ssa as recorder
        from record_kustomize_helm import kubectl
    finally:
        sys.path.remove(str(scripts))
    from conftest import require

    binary = kubectl()
    require(binary is not None, "kubectl.1.32 is not installed")
    require(recorder.ORACLE.exists(), f"ssa-oracle is not at {recorder.ORACLE}")
    assert json.loads(json.dumps(recorder.record_stuck(binary))) == STUCK


def test_helm_4_hands_over_a_helm_3_releases_own_entries_first():
    """A release Helm 3 installed (an Update by ``helm``): Helm 4 merges that entry into
    its Apply entry before applying, so what the chart stops sending is removed, while a
    ``kubectl-client-side-apply`` entry beside it is left alone (its field stays)."""
    from cfgpatch.kube.ssa import update
    from cfgpatch.preview.render import RenderedObject
    from cfgpatch.preview.serverside import outcome, types_for

    head = json.loads(json.dumps(STUCK["head_objects"][0]))
    older = json.loads(json.dumps(head))
    older["spec"]["minReadySeconds"] = 10
    live = update(None, older, manager="helm", time="2024-01-01T00:00:00Z").object
    out, risks = outcome(RenderedObject(head), live, server_side("helm4"), types_for([head]))
    assert out["migrated_managers"] == ["helm"] and "stuck" not in out
    assert out["removed"] == [{"field": ".spec.minReadySeconds",
                               "path": "/spec/minReadySeconds"}]
    assert [r["rule"] for r in risks] == ["live-removal"]
    edited = json.loads(json.dumps(STUCK["live"][0]))
    edited["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:1.26"
    both = update(STUCK["live"][0], edited, manager="helm", time="2024-01-01T00:00:00Z").object
    out, risks = outcome(RenderedObject(head), both, server_side("helm4"), types_for([head]))
    assert out["migrated_managers"] == ["helm"] and out["conflicts"] == []
    assert [(s["field"], s["manager"]) for s in out["stuck"]] == [
        (".spec.minReadySeconds", "kubectl-client-side-apply")]
    assert "live-stuck" in [r["rule"] for r in risks]
