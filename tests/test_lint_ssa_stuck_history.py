"""``ssa-stuck-field``'s ``history:``: what last wrote the objects before the tool that now
applies them server-side (docs/lint.md#stuck-fields).

Every (history, tool) pair was recorded with ``../shared/bin/ssa-oracle``
(``scripts/record_lint_stuck.py``, the ``history/...`` cases of
tests/data/lint/ssa-stuck-oracle.json; tests/test_lint_ssa_stuck.py replays every request
against the engine and re-records live): the simulation must end on the oracle's object,
and the command line, on two-commit git repositories, must report what stays there.
"""

from __future__ import annotations

import pytest

from cfgpatch.kube.explain.migration import simulate, written_by
from cfgpatch.kube.ssa import Types
from cfgpatch.lint.config import parse_config
from cfgpatch.lint.files import MemoryFiles
from cfgpatch.lint.linter import lint_files
from cfgpatch.lint.options import DEFAULT_HISTORY, HISTORIES
from cfgpatch.lint.ssa_stuck import BaseRef
from kube_ssa_support import clear_times
from test_lint_ssa_stuck import (
    KUSTOMIZATION,
    RECORD,
    _by_manager,
    _fields,
    config,
    deployment,
    lint,
    repo,
)

TOOLS = ("server-side", "flux", "helm4")
#: Whether the dropped fields stay, per (history, tool): read in each tool's sources
#: (kubectl's csaupgrade moves only Update entries owning the last-applied annotation;
#: Flux's cleanup takes kubectl* and its own entries; Helm 4 merges only helm's Update
#: entries), and what the oracle's recorded objects hold.
STAYS = {
    ("client-side", "server-side"): False, ("client-side", "flux"): False,
    ("client-side", "helm4"): True,
    ("server-side", "server-side"): False, ("server-side", "flux"): False,
    ("server-side", "helm4"): True,
    ("flux", "server-side"): True, ("flux", "flux"): False, ("flux", "helm4"): True,
    ("helm3", "server-side"): True, ("helm3", "flux"): True, ("helm3", "helm4"): False,
    ("helm4", "server-side"): True, ("helm4", "flux"): True, ("helm4", "helm4"): False,
}
#: The entry that keeps them.
OWNER = {"client-side": "kubectl-client-side-apply (Update apps/v1)",
         "server-side": "kubectl (Apply)", "flux": "kustomize-controller (Apply)",
         "helm3": "helm (Update apps/v1)", "helm4": "helm (Apply)"}
#: Whom a changed image conflicts with, when the tool applies without force.
CONFLICT = {("client-side", "helm4"): "kubectl-client-side-apply",
            ("server-side", "helm4"): "kubectl", ("flux", "helm4"): "kustomize-controller",
            ("flux", "server-side"): "kustomize-controller",
            ("helm3", "server-side"): "helm", ("helm4", "server-side"): "helm"}
DROPPED = [".spec.minReadySeconds", '.spec.template.spec.containers[name="log"]']
PAIRS = sorted(STAYS)


def test_every_history_but_none_and_every_tool_was_recorded():
    assert sorted(h for h in HISTORIES if h != "none") == sorted({h for h, _ in STAYS})
    for past, tool in PAIRS:
        assert f"history/{past}/{tool}" in RECORD
    assert DEFAULT_HISTORY == {"server-side": "client-side", "flux": "client-side",
                               "helm4": "helm3"}


@pytest.mark.parametrize("past", sorted({h for h, _ in STAYS}))
def test_each_history_writes_the_object_as_the_server_stores_it(past):
    case = RECORD[f"history/{past}/written"]
    assert clear_times(written_by(past, case["base"], Types())) == case["answer"]


@pytest.mark.parametrize("past,tool", PAIRS)
def test_the_simulation_ends_on_the_oracles_object(past, tool):
    case = RECORD[f"history/{past}/{tool}"]
    moved, left = simulate(tool, case["base"], case["head"], Types(), past)
    final = case["answers"][-1]
    assert final["ok"]
    assert _by_manager(moved.result.object) == _by_manager(final["object"])
    stays = STAYS[(past, tool)]
    assert _fields(final["object"]) == ((True, ["web", "log"]) if stays else (False, ["web"]))
    assert [item.field for item in left] == (DROPPED if stays else [])
    assert all(item.owners == (OWNER[past],) for item in left)


@pytest.mark.parametrize("past,tool", [p for p in PAIRS if p[1] != "flux"])
def test_a_changed_field_conflicts_with_the_historys_manager(past, tool):
    """Flux always forces; kubectl and Helm 4 fail on fields the history's manager owns."""
    case = RECORD[f"history/{past}/{tool}-change"]
    moved, _ = simulate(tool, case["base"], case["head"], Types(), past)
    manager = CONFLICT.get((past, tool))
    final = case["answers"][-1]
    assert final["ok"] is (manager is None)
    if manager is None:
        assert moved.conflicts == [] and moved.against == []
        return
    assert moved.against == [manager]
    assert moved.conflicts == ['.spec.template.spec.containers[name="web"].image']
    assert f'conflict with "{manager}"' in final["error"]
    assert moved.conflicts[0] in final["error"]


@pytest.mark.parametrize("name", sorted(k for k in RECORD if "/way-out-" in k))
def test_each_way_out_of_another_history_removes_the_field(name):
    """The message's ways out: the previous tool applies the new build first (both dropped
    parts go), or ``kubectl patch`` removes the field (that field goes)."""
    final = RECORD[name]["answers"][-1]
    assert final["ok"]
    assert _fields(final["object"]) == ((False, ["web"]) if name.endswith("-first")
                                        else (False, ["web", "log"]))


def test_every_history_whose_field_stays_has_both_ways_out_recorded():
    for past, tool in PAIRS:
        if STAYS[(past, tool)] and past != "client-side":  # (client-side's: way-out/...)
            assert f"history/{past}/{tool}/way-out-{past}-first" in RECORD
            assert f"history/{past}/{tool}/way-out-kubectl-patch" in RECORD


@pytest.mark.parametrize("tool", TOOLS)
def test_nothing_stays_when_the_tool_created_the_object(tool):
    case = RECORD[f"history/client-side/{tool}"]
    moved, left = simulate(tool, case["base"], case["head"], Types(), "none")
    assert left == [] and moved.result is not None


# --- the setting -----------------------------------------------------------------------

def test_history_per_folder_the_last_entry_that_says_wins():
    found = parse_config("lint:\n  kustomize:\n  - path: apps/**\n    apply: helm4\n"
                         "    history: helm3\n  - path: apps/legacy\n    history: "
                         "client-side\n  - path: apps/**\n    enable-helm: true\n")
    assert [found.history_of(d) for d in ("apps/web", "apps/legacy", "other")] == [
        "helm3", "client-side", ""]
    assert found.applied_with("apps/legacy") == "helm4"


@pytest.mark.parametrize("value", ["helm2", "kubectl", 3])
def test_an_unknown_history_is_a_usage_error(tmp_path, capsys, value):
    (tmp_path / ".cfgpatch.yaml").write_text(config("helm4", str(value)))
    code, _, err = lint(tmp_path, capsys=capsys)
    assert code == 2
    assert ".cfgpatch.yaml:5:5: lint.kustomize[0].history must be one of client-side, " \
           "server-side, flux, helm3, helm4, none" in err


def test_only_the_folders_said_to_have_another_history_report():
    text = "lint:\n  kustomize:\n  - path: apps/**\n    apply: helm4\n" \
           "  - path: apps/legacy\n    history: client-side\n"
    head = {".cfgpatch.yaml": text}
    for folder in ("apps/web", "apps/legacy"):
        head[f"{folder}/kustomization.yaml"] = KUSTOMIZATION
        head[f"{folder}/deployment.yaml"] = deployment(dropped=True)
    base = {k: deployment() if k.endswith("deployment.yaml") else v for k, v in head.items()}
    found = [f for f in lint_files(MemoryFiles(head), base=BaseRef("v1", MemoryFiles(base)))
             .findings if f.rule == "ssa-stuck-field"]
    assert [(f.location.file, f.detail["history"]) for f in found] == [
        ("apps/legacy/kustomization.yaml", "client-side")] * 2


# --- on repositories, through the command line -----------------------------------------

@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("past", HISTORIES)
def test_each_tool_and_history_on_a_repository(tmp_path, capsys, past, tool):
    flux = tool == "flux"
    root = repo(tmp_path, "" if flux else tool, flux=flux, history=past)
    _, found, _ = lint(root, capsys=capsys)
    stays = past != "none" and STAYS[(past, tool)]
    assert [f["detail"]["field"] for f in found] == (DROPPED if stays else [])
    for finding in found:
        assert finding["detail"]["history"] == past
        assert finding["detail"]["owners"] == [OWNER[past]]
        assert f"History assumed: {past} (.cfgpatch.yaml says so)" in finding["message"]
        assert "set `history:` for path app in .cfgpatch.yaml's lint.kustomize" in \
            finding["message"]
        if past != "client-side":
            assert finding["detail"]["way_out"].startswith("apply this build once with ")


@pytest.mark.parametrize("tool", TOOLS)
def test_the_default_history_per_tool(tmp_path, capsys, tool):
    """Helm 4 over a Helm 3 release and the others over client-side ``kubectl apply``:
    nothing stays in this change, so nothing is reported."""
    flux = tool == "flux"
    root = repo(tmp_path, "" if flux else tool, flux=flux, history="")
    assert lint(root, capsys=capsys)[1] == []


def test_helm4_over_a_helm3_release_even_with_a_changed_image(tmp_path, capsys):
    head = {"app/deployment.yaml": deployment(dropped=True, image="nginx:1.28")}
    assert lint(repo(tmp_path, "helm4", head=head, history=""), capsys=capsys)[1] == []


def test_a_finding_under_the_default_says_it_is_the_default(tmp_path, capsys):
    _, found, _ = lint(repo(tmp_path, "", flux=True, merge=True, history=""), capsys=capsys)
    assert len(found) == 2
    assert "History assumed: client-side (the default for apply: flux); if something else " \
           "wrote these objects, set `history:` for path app" in found[0]["message"]
    assert "none when Flux (kustomize-controller) created them" in found[0]["message"]


@pytest.mark.parametrize("merge", [False, True])
def test_flux_over_a_helm3_release_keeps_helms_fields(tmp_path, capsys, merge):
    """With or without ``ssa: Merge``: the cleanup never takes helm's entries."""
    _, found, _ = lint(repo(tmp_path, "", flux=True, history="helm3", merge=merge),
                       capsys=capsys)
    assert [(f["file"], f["line"]) for f in found] == [("clusters/app.yaml", 4)] * 2
    message = found[0]["message"]
    assert "over the base build as Helm 3 wrote it: helm (Update apps/v1) still owns it" \
        in message
    assert "Flux's cleanup hands over only the kubectl*, before-first-apply and its own " \
           "Update entries, not helm's" in message
    assert "Way out: apply this build once with Helm 3 before the move" in message


def test_kubectl_server_side_over_helm4_names_the_conflict_with_helm(tmp_path, capsys):
    head = {"app/deployment.yaml": deployment(dropped=True, image="nginx:1.28")}
    _, found, _ = lint(repo(tmp_path, "server-side", head=head, history="helm4"),
                       capsys=capsys)
    assert len(found) == 2
    assert "kubectl apply --server-side fails on 1 conflict(s) with helm (" in \
        found[0]["message"]


def test_history_none_reads_no_git(tmp_path, capsys):
    """Nothing can stay in objects the tool created: the rule has no unit to check and
    does not look for a base (outside git: no note either)."""
    root = tmp_path / "plain"
    for name, text in {".cfgpatch.yaml": config("helm4", "none"),
                       "app/kustomization.yaml": KUSTOMIZATION,
                       "app/deployment.yaml": deployment()}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    assert lint(root, capsys=capsys)[1] == []
    (root / ".cfgpatch.yaml").write_text(config("helm4", "helm3"))
    assert [f["level"] for f in lint(root, capsys=capsys)[1]] == ["note"]
