"""``ssa-stuck-field``: a field the working tree drops that a move to server-side apply
would leave in the cluster (docs/lint.md#stuck-fields).

The claims about the final objects come from the API server's own field manager:
``scripts/record_lint_stuck.py`` recorded ``../shared/bin/ssa-oracle``'s answers to each
tool's requests (tests/data/lint/ssa-stuck-oracle.json); the engine replays them here,
and the rule's simulation must end on the oracle's final object.  The repositories are
git repositories made in ``tmp_path`` with two commits (the base on ``main``, the change
on a branch), linted through the command line.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cfgpatch.cli import main
from cfgpatch.kube.explain.migration import simulate
from cfgpatch.kube.ssa import Types
from cfgpatch.lint.files import MemoryFiles, TreeFiles
from cfgpatch.lint.linter import lint_files
from cfgpatch.lint.ssa_stuck import BaseRef
from conftest import SHARED, require
from kube_ssa_support import agree, clear_times, replay
from preview_support import commit, git, new_repo

RECORD = json.loads((Path(__file__).resolve().parent / "data" / "lint"
                     / "ssa-stuck-oracle.json").read_text(encoding="utf-8"))
HELM = SHARED / "bin" / "helm"

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web{annotations}
spec:
  replicas: 2
{extra}  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: {image}
{sidecar}"""
SIDECAR = "      - name: log\n        image: busybox:1.36\n"
MERGE = "\n  annotations:\n    kustomize.toolkit.fluxcd.io/ssa: Merge"
KUSTOMIZATION = "namespace: shop\nresources:\n- deployment.yaml\n"
FLUX = """apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: app
  namespace: flux-system
spec:
  interval: 10m
  path: ./app
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
"""


def deployment(dropped: bool = False, image: str = "nginx:1.27", merge: bool = False) -> str:
    return DEPLOYMENT.format(annotations=MERGE if merge else "",
                             extra="" if dropped else "  minReadySeconds: 10\n",
                             image=image, sidecar="" if dropped else SIDECAR)


def config(apply: str, history: str = "") -> str:
    """``app``'s ``lint.kustomize`` entry (``history`` only when given)."""
    text = f"lint:\n  kustomize:\n  - path: app\n    apply: {apply}\n" if apply else \
        ("lint:\n  kustomize:\n  - path: app\n" if history else "")
    return text + (f"    history: {history}\n" if history else "")


def repo(tmp_path: Path, apply: str = "helm4", *, flux: bool = False, merge: bool = False,
         head: dict | None = None, history: str = "client-side") -> Path:
    """``app/`` at the base (on main) and the change (on branch ``change``); the objects'
    history is client-side ``kubectl apply`` unless said ("": the applier's default)."""
    root = tmp_path / "repo"
    files = {"app/kustomization.yaml": KUSTOMIZATION,
             "app/deployment.yaml": deployment(merge=merge)}
    if apply or history:
        files[".cfgpatch.yaml"] = config(apply, history)
    if flux:
        files["clusters/app.yaml"] = FLUX
    new_repo(root, files)
    git(root, "checkout", "-q", "-b", "change")
    commit(root, "change", head if head is not None else
           {"app/deployment.yaml": deployment(dropped=True, merge=merge)})
    return root


def lint(root: Path, *args: str, capsys) -> tuple[int, list[dict], str]:
    code = main(["lint", "--no-kubectl", "--root", str(root), "--format", "json", *args])
    out, err = capsys.readouterr()
    found = json.loads(out)["findings"] if out.startswith("{") else []
    return code, [f for f in found if f["rule"] == "ssa-stuck-field"], err


# --- the oracle's answers -------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(k for k, v in RECORD.items() if "ops" in v))
def test_the_engine_answers_every_request_as_the_oracle(name):
    case = RECORD[name]
    ours = replay({"schema": "builtin", "live": case["live"], "ops": case["ops"]})
    for mine, theirs in zip(ours, case["answers"], strict=True):
        assert agree(mine, theirs), (name, mine, theirs)


@pytest.mark.parametrize("variant", ["drop", "change"])
def test_the_client_side_history_is_the_servers(variant):
    from cfgpatch.kube.explain.migration import client_side_created

    case = RECORD[f"{variant}/history"]
    ours = clear_times(client_side_created(case["base"], Types()))
    assert ours == case["answer"]


def _final(name: str) -> dict:
    return RECORD[name]["answers"][-1]


def _by_manager(obj: dict) -> dict:
    """The object with its entries in one order: the server sorts them by time, which the
    simulation stamps once and the oracle clears between requests."""
    out = clear_times(copy.deepcopy(obj))
    out["metadata"]["managedFields"].sort(key=lambda e: (e["manager"], e["operation"]))
    return out


def _fields(obj: dict) -> tuple[bool, list[str]]:
    spec = obj["spec"]
    return "minReadySeconds" in spec, [c["name"] for c in spec["template"]["spec"]["containers"]]


@pytest.mark.parametrize("tool,recorded,stuck", [
    ("server-side", "drop/server-side", []),
    ("flux", "drop/flux", []),
    ("helm4", "drop/helm4", [".spec.minReadySeconds",
                             '.spec.template.spec.containers[name="log"]']),
    ("server-side", "change/server-side", []),
    ("flux", "change/flux", []),
    ("helm4", "change/helm4-forced", [".spec.minReadySeconds",
                                      '.spec.template.spec.containers[name="log"]']),
    ("flux", "drop/flux-merge", [".spec.minReadySeconds",
                                 '.spec.template.spec.containers[name="log"]']),
])
def test_the_simulation_ends_on_the_oracles_object(tool, recorded, stuck):
    case = RECORD[recorded]
    moved, left = simulate(tool, case["base"], case["head"], Types())
    final = _final(recorded)
    assert final["ok"]
    assert _by_manager(moved.result.object) == _by_manager(final["object"])
    assert [item.field for item in left] == stuck
    # what stays is what the oracle's object still holds
    assert _fields(final["object"]) == ((True, ["web", "log"]) if stuck else (False, ["web"]))


def test_helm4_removes_them_from_a_release_helm3_installed():
    """The assumption matters: Helm 4 merges helm's own Update entries first."""
    from cfgpatch.kube.explain.migration import apply_as, left_behind

    case = RECORD["helm3/helm4"]
    moved = apply_as("helm4", case["live"], case["head"], Types())
    assert moved.handed == ["helm"]
    assert _by_manager(moved.result.object) == _by_manager(_final("helm3/helm4")["object"])
    assert _fields(_final("helm3/helm4")["object"]) == (False, ["web"])
    assert left_behind(case["base"], case["head"], moved.result.object,
                       moved.result.managed_fields, Types()) == []


@pytest.mark.parametrize("value,where,cleanup,applied", [
    ("Merge", "annotations", False, True), ("merge", "labels", False, True),
    ("Ignore", "annotations", True, False), ("IfNotPresent", "annotations", True, False),
    ("", "annotations", True, True)])
def test_fluxs_ssa_label_or_annotation(value, where, cleanup, applied):
    from cfgpatch.kube.explain.migration import apply_as, client_side_created
    from cfgpatch.kube.ssa.flux import skips_apply, skips_cleanup

    base = copy.deepcopy(RECORD["drop/flux"]["base"])
    head = copy.deepcopy(RECORD["drop/flux"]["head"])
    if value:
        head["metadata"][where] = {"kustomize.toolkit.fluxcd.io/ssa": value}
    live = client_side_created(base, Types())
    assert skips_cleanup(head, live) is not cleanup
    assert skips_apply(head, live) is not applied
    moved = apply_as("flux", live, head, Types())
    assert (moved.result is not None) is applied
    if applied:
        assert bool(moved.handed) is cleanup


def test_helm4_fails_on_a_changed_field_kubectl_client_side_apply_owns():
    case = RECORD["change/helm4"]
    moved, _ = simulate("helm4", case["base"], case["head"], Types())
    assert not _final("change/helm4")["ok"]
    assert moved.conflicts == ['.spec.template.spec.containers[name="web"].image']
    assert moved.conflicts[0] in _final("change/helm4")["error"]


@pytest.mark.parametrize("way,gone", [
    ("kubectl-server-side-as-helm", (False, ["web"])),  # both dropped parts removed
    ("kubectl-patch", (False, ["web", "log"])),  # what the patch removes only
    ("client-side-first", (False, ["web"])),
    ("flux-merge-kubectl-server-side", (False, ["web"])),
])
def test_each_way_out_the_message_gives_removes_the_field(way, gone):
    final = _final(f"way-out/{way}")
    assert final["ok"] and _fields(final["object"]) == gone


def test_null_in_the_configuration_is_no_way_out():
    final = _final("way-out/null-in-chart")
    assert not final["ok"]
    assert 'conflict with "kubectl-client-side-apply"' in final["error"]


# --- the rule on repositories ---------------------------------------------------------

def test_helm4_reports_each_dropped_part_at_its_base_line(tmp_path, capsys):
    code, found, _ = lint(repo(tmp_path, "helm4"), capsys=capsys)
    assert code == 0  # a warning
    assert [(f["detail"]["field"], f["detail"]["base_file"], f["detail"]["base_line"])
            for f in found] == [
        (".spec.minReadySeconds", "app/deployment.yaml", 7),
        ('.spec.template.spec.containers[name="log"]', "app/deployment.yaml", 19)]
    first = found[0]
    assert (first["file"], first["line"], first["level"]) == ("app/kustomization.yaml", 1,
                                                              "warning")
    assert first["detail"]["owners"] == ["kubectl-client-side-apply (Update apps/v1)"]
    assert first["detail"]["base_ref"].startswith("main@")
    assert "--field-manager=helm" in first["message"]
    assert "Helm 4 hands over only helm's own Update entries" in first["message"]


def test_kubectl_server_side_migrates_and_removes_them(tmp_path, capsys):
    assert lint(repo(tmp_path, "server-side"), capsys=capsys)[1] == []


def test_flux_hands_kubectl_managers_over_and_removes_them(tmp_path, capsys):
    assert lint(repo(tmp_path, "", flux=True, history=""), capsys=capsys)[1] == []


def test_flux_with_ssa_merge_keeps_them_at_the_flux_object(tmp_path, capsys):
    _, found, _ = lint(repo(tmp_path, "", flux=True, merge=True, history=""),
                       capsys=capsys)
    assert [(f["file"], f["line"], f["detail"]["tool"]) for f in found] == [
        ("clusters/app.yaml", 4, "flux")] * 2
    assert "ssa: Merge" in found[0]["message"]
    assert "--field-manager=kustomize-controller" in found[0]["message"]


@pytest.mark.parametrize("apply", ["client-side", ""])
def test_client_side_or_unsaid_applies_are_not_checked(tmp_path, capsys, apply):
    _, found, _ = lint(repo(tmp_path, apply, history=""), capsys=capsys)
    assert found == []


def test_helm4_with_a_changed_image_also_names_the_conflict(tmp_path, capsys):
    head = {"app/deployment.yaml": deployment(dropped=True, image="nginx:1.28")}
    _, found, _ = lint(repo(tmp_path, "helm4", head=head), capsys=capsys)
    assert len(found) == 2
    assert "fails on 1 conflict(s) with kubectl-client-side-apply" in found[0]["message"]


def test_a_field_a_patch_set_is_placed_at_the_patch(tmp_path, capsys):
    root = tmp_path / "repo"
    patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n" \
            "  progressDeadlineSeconds: 120\n"
    new_repo(root, {".cfgpatch.yaml": config("helm4", "client-side"),
                    "app/kustomization.yaml": KUSTOMIZATION + "patches:\n- path: slow.yaml\n",
                    "app/slow.yaml": patch,
                    "app/deployment.yaml": deployment(dropped=True)})
    git(root, "checkout", "-q", "-b", "change")
    commit(root, "no patch", {"app/kustomization.yaml": KUSTOMIZATION})
    _, found, _ = lint(root, capsys=capsys)
    assert [(f["detail"]["field"], f["detail"]["base_file"], f["detail"]["base_line"])
            for f in found] == [(".spec.progressDeadlineSeconds", "app/slow.yaml", 6)]


def test_a_helm_chart_change_is_placed_at_its_template(tmp_path, capsys):
    require(HELM.exists(), f"{HELM} (helm 3, for kustomize's helmCharts)")
    root = tmp_path / "repo"
    template = deployment().replace("  minReadySeconds: 10\n",
                                    "  {{- if .Values.minReadySeconds }}\n"
                                    "  minReadySeconds: {{ .Values.minReadySeconds }}\n"
                                    "  {{- end }}\n")
    new_repo(root, {
        ".cfgpatch.yaml": config("helm4", "client-side") + f"    enable-helm: true\n    helm-command: {HELM}\n",
        "app/kustomization.yaml": "helmCharts:\n- name: web\n  releaseName: web\n"
                                  "  namespace: shop\n",
        "app/charts/web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
        "app/charts/web/values.yaml": "minReadySeconds: 10\n",
        "app/charts/web/templates/deployment.yaml": template})
    git(root, "checkout", "-q", "-b", "change")
    commit(root, "values", {"app/charts/web/values.yaml": "minReadySeconds: 0\n"})
    _, found, _ = lint(root, capsys=capsys)
    assert [(f["detail"]["field"], f["detail"]["base_file"], f["detail"]["base_line"])
            for f in found] == [(".spec.minReadySeconds",
                                 "app/charts/web/templates/deployment.yaml", 8)]


# --- the base ref ----------------------------------------------------------------------

def test_without_a_default_branch_the_rule_is_off_with_a_note(tmp_path, capsys):
    root = repo(tmp_path, "helm4")
    git(root, "branch", "-m", "main", "trunk")
    _, found, _ = lint(root, capsys=capsys)
    assert [(f["level"], f["file"]) for f in found] == [("note", "app/kustomization.yaml")]
    assert "no default branch" in found[0]["message"]
    assert lint(root, "--base", "trunk", capsys=capsys)[1][0]["level"] == "warning"


def test_outside_git_the_rule_is_off_with_a_note(tmp_path, capsys):
    root = tmp_path / "plain"
    for name, text in {".cfgpatch.yaml": config("helm4"), "app/kustomization.yaml":
                       KUSTOMIZATION, "app/deployment.yaml": deployment()}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    _, found, _ = lint(root, capsys=capsys)
    assert [f["level"] for f in found] == ["note"]
    assert "not inside a git repository" in found[0]["message"]


def test_base_from_the_option_and_from_the_config(tmp_path, capsys):
    root = repo(tmp_path, "helm4")
    assert len(lint(root, "--base", "main", capsys=capsys)[1]) == 2
    assert lint(root, "--base", "change", capsys=capsys)[1] == []  # nothing dropped
    (root / ".cfgpatch.yaml").write_text(config("helm4", "client-side") + "  base: change\n")
    assert lint(root, capsys=capsys)[1] == []


def test_an_unknown_base_is_a_usage_error(tmp_path, capsys):
    code, _, err = lint(repo(tmp_path, "helm4"), "--base", "nope", capsys=capsys)
    assert code == 2 and "--base: unknown git revision 'nope'" in err


def test_the_rule_disabled_reads_no_git(tmp_path, capsys):
    root = tmp_path / "plain"
    root.mkdir()
    (root / ".cfgpatch.yaml").write_text(config("helm4"))
    (root / "app").mkdir()
    (root / "app/kustomization.yaml").write_text(KUSTOMIZATION)
    (root / "app/deployment.yaml").write_text(deployment())
    assert lint(root, "--disable", "ssa-stuck-field", capsys=capsys)[1] == []


@pytest.mark.parametrize("text,message", [
    ("lint:\n  kustomize:\n  - path: app\n    apply: argo\n", "apply must be one of"),
    ("lint:\n  base: 3\n", "lint.base must be a git ref"),
])
def test_bad_settings_are_usage_errors(tmp_path, capsys, text, message):
    (tmp_path / ".cfgpatch.yaml").write_text(text)
    code, _, err = lint(tmp_path, capsys=capsys)
    assert code == 2 and message in err


def test_in_memory_with_a_base_of_texts_and_a_sub_folder_tree():
    head = {".cfgpatch.yaml": config("helm4", "client-side"),
            "app/kustomization.yaml": KUSTOMIZATION,
            "app/deployment.yaml": deployment(dropped=True)}
    base = dict(head, **{"app/deployment.yaml": deployment()})
    found = [f for f in lint_files(MemoryFiles(head), base=BaseRef("v1", MemoryFiles(base)))
             .findings if f.rule == "ssa-stuck-field"]
    assert [f.detail["base_line"] for f in found] == [7, 19]
    assert [f for f in lint_files(MemoryFiles(head)).findings
            if f.rule == "ssa-stuck-field"] == []  # no base given: silent
    off = lint_files(MemoryFiles(head), base=BaseRef(note="why")).findings
    assert [(f.rule, f.level, f.message[:29]) for f in off] == [
        ("ssa-stuck-field", "note", "ssa-stuck-field is off: why; ")]

    class Tree:  # a repository whose linted root is its folder "deploy"
        def paths(self):
            return sorted("deploy/" + p for p in base)

        def read_text(self, path):
            return base[path.removeprefix("deploy/")]

        def is_dir(self, path):
            return any(p.startswith(path + "/") for p in self.paths())

    files = TreeFiles(Tree(), "deploy")
    assert sorted(files) == sorted(base) and files.is_dir("app")
    found = [f for f in lint_files(MemoryFiles(head), base=BaseRef("v1", files)).findings
             if f.rule == "ssa-stuck-field"]
    assert [f.detail["base_file"] for f in found] == ["app/deployment.yaml"] * 2


def test_the_recording_is_what_the_oracle_answers_today():
    """Live: ssa-oracle answers the same requests again; the record must not differ."""
    import subprocess
    import sys

    oracle = SHARED / "bin" / "ssa-oracle"
    require(oracle.exists(), f"{oracle} (the API server's field manager)")
    script = Path(__file__).resolve().parent.parent / "scripts" / "record_lint_stuck.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_build_carrying_the_last_applied_annotation_disarms_kubectls_migration():
    case = RECORD["annotation/server-side-forced"]
    moved, left = simulate("server-side", case["base"], case["head"], Types())
    assert not _final("annotation/server-side")["ok"]
    assert moved.conflicts == [
        ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"]
    assert moved.conflicts[0] in _final("annotation/server-side")["error"]
    assert moved.handed == []  # nothing migrated
    assert _by_manager(moved.result.object) == _by_manager(
        _final("annotation/server-side-forced")["object"])
    assert [item.field for item in left] == [
        ".spec.minReadySeconds", '.spec.template.spec.containers[name="log"]']


def test_the_annotation_case_on_a_repository(tmp_path, capsys):
    exported = deployment(dropped=True).replace(
        "  name: web\n", "  name: web\n  annotations:\n"
        "    kubectl.kubernetes.io/last-applied-configuration: '{}'\n")
    _, found, _ = lint(repo(tmp_path, "server-side", head={"app/deployment.yaml": exported}),
                       capsys=capsys)
    assert len(found) == 2
    assert "remove the kubectl.kubernetes.io/last-applied-configuration annotation" in \
        found[0]["detail"]["way_out"]
    assert "fails on 1 conflict(s)" in found[0]["message"]
    # without the annotation the same change leaves nothing (the migration runs)
    assert lint(repo(tmp_path / "b", "server-side"), capsys=capsys)[1] == []


def test_a_custom_resource_without_its_crd_is_typed_from_its_content():
    widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n" \
             "  size: 3\n{extra}"
    head = {".cfgpatch.yaml": config("server-side") + "  - path: app\n    apply: helm4\n"
                                                      "    history: flux\n",
            "app/kustomization.yaml": "resources:\n- widget.yaml\n",
            "app/widget.yaml": widget.format(extra="")}
    base = dict(head, **{"app/widget.yaml": widget.format(extra="  color: red\n")})
    found = [f for f in lint_files(MemoryFiles(head), base=BaseRef("v1", MemoryFiles(base)))
             .findings if f.rule == "ssa-stuck-field"]
    assert [(f.detail["field"], f.detail["base_line"], f.detail["tool"]) for f in found] == [
        (".spec.color", 7, "helm4")]  # the later entry that matches the folder wins


def test_the_server_side_appliers_are_the_tools_the_migration_models():
    """The rule picks units by DEFAULT_HISTORY's tools before loading the migration
    tables (and the field manager): both must name the same tools."""
    from cfgpatch.kube.explain.migration import MANAGERS
    from cfgpatch.lint.options import DEFAULT_HISTORY

    assert set(DEFAULT_HISTORY) == set(MANAGERS)
