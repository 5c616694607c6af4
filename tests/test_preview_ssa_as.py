"""``kube preview --live DIR --server-side --as kubectl|helm4|flux``: whose apply is
previewed is said by ``--as`` (the words of ``kube apply --as``), not by the field
manager's name.  On the recorded stuck case (tests/data/preview/ssa-stuck-case.json: a
Deployment client-side ``kubectl apply`` wrote with ``minReadySeconds``, which the head
render drops): Helm 4 leaves it stuck, kubectl's migration removes it whatever the
manager's name, Flux's cleanup hands it to kustomize-controller and its apply removes
it, as ``cfgpatch kube apply --server-side --as flux`` does on the same objects."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cfgpatch.errors import InvalidInput
from cfgpatch.preview.engine import Options, preview
from cfgpatch.preview.live import SKIP
from cfgpatch.preview.objdiff import field_changes
from cfgpatch.preview.serverside import server_side
from preview_support import case_repo

STUCK = json.loads((Path(__file__).parent / "data/preview/ssa-stuck-case.json").read_text())


def _repo(tmp_path: Path) -> tuple[Path, str, str, Path]:
    return case_repo(tmp_path, STUCK, {"web.yaml": yaml.safe_dump(STUCK["live"][0])})


def _outcome(tmp_path: Path, tool: str, manager: str | None = None) -> dict:
    root, base, head, live = _repo(tmp_path)
    report = preview(Options(str(root), base, head, live=str(live),
                             server_side=server_side(tool, manager)))
    [deployment] = report["objects"]
    return deployment["live"]["server_side"]


def _changes(stored: dict) -> list[tuple[str, str]]:
    return sorted((c.path, c.action) for c in field_changes(STUCK["live"][0], stored)
                  if not c.path.startswith(SKIP))


REMOVED = [{"field": ".spec.minReadySeconds", "path": "/spec/minReadySeconds"}]


def test_each_tool_applies_under_its_own_manager():
    assert server_side() == server_side("kubectl", "kubectl")
    assert (server_side("helm4").field_manager, server_side("helm4").force) == ("helm", False)
    assert (server_side("flux").field_manager, server_side("flux").force) == \
        ("kustomize-controller", True)
    assert server_side("kubectl", "argocd-controller").field_manager == "argocd-controller"
    for tool, manager in (("helm4", "kubectl"), ("flux", "flux")):
        with pytest.raises(InvalidInput) as refused:
            server_side(tool, manager)
        assert refused.value.message.startswith(f"--as {tool} applies as")
    with pytest.raises(InvalidInput) as refused:
        server_side("argocd")
    assert refused.value.message == "--as argocd: not one of kubectl, helm4, flux"


def test_a_manager_named_helm_is_kubectls_apply_unless_as_helm4(tmp_path):
    ssa = _outcome(tmp_path, "kubectl", "helm")
    assert (ssa["field_manager"], ssa["as"]) == ("helm", "kubectl")
    assert "stuck" not in ssa and ssa["migrated_managers"] == ["kubectl-client-side-apply"]
    # kubectl saves the last-applied annotation again only as its own manager "kubectl"
    assert ssa["removed"] == [{"field": ".metadata.annotations",
                               "path": "/metadata/annotations"}, *REMOVED]
    helm4 = _outcome(tmp_path / "4", "helm4")
    assert (helm4["field_manager"], helm4["as"]) == ("helm", "helm4")
    assert [s["field"] for s in helm4["stuck"]] == [".spec.minReadySeconds"]
    assert sorted((c["path"], c["action"]) for c in helm4["changes"]) == \
        _changes(STUCK["outcomes"]["helm"]["object"])


def _kube_apply_as_flux(tmp_path: Path) -> dict:
    """``cfgpatch kube apply --server-side --as flux`` on the live object and the head
    render: the stored object."""
    (tmp_path / "live.yaml").write_text(yaml.safe_dump(STUCK["live"][0]))
    (tmp_path / "head.yaml").write_text(yaml.safe_dump(STUCK["head_objects"][0]))
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "apply", "--server-side",
                           "--as", "flux", "--live", str(tmp_path / "live.yaml"), "-f",
                           str(tmp_path / "head.yaml"), "-o", "json",
                           "--time", "1970-01-01T00:00:00Z"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_flux_hands_kubectls_fields_over_and_removes_what_it_no_longer_sends(tmp_path):
    ssa = _outcome(tmp_path, "flux")
    assert (ssa["field_manager"], ssa["force"], ssa["as"]) == \
        ("kustomize-controller", True, "flux")
    assert "stuck" not in ssa and ssa["migrated_managers"] == ["kubectl-client-side-apply"]
    assert ssa["removed"] == REMOVED
    stored = _kube_apply_as_flux(tmp_path)
    assert "minReadySeconds" not in stored["spec"]
    assert sorted((c["path"], c["action"]) for c in ssa["changes"]) == _changes(stored)
    assert "/metadata/annotations" in [c["path"] for c in ssa["changes"]]  # last-applied


@pytest.mark.parametrize(("flags", "message"), [
    (["--server-side", "--as", "helm4", "--field-manager", "kubectl"],
     "--as helm4 applies as helm: leave --field-manager out"),
    (["--as", "flux"], "--as and --field-manager need --server-side"),
    (["--field-manager", "helm"], "--as and --field-manager need --server-side"),
])
def test_command_line_refusals(tmp_path, flags, message):
    root, base, head, live = _repo(tmp_path)
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "preview", "-C", str(root),
                           "--base", base, "--head", head, "--live", str(live), *flags],
                          capture_output=True, text=True)
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_command_line_as_helm4(tmp_path):
    root, base, head, live = _repo(tmp_path)
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "preview", "-C", str(root),
                           "--base", base, "--head", head, "--live", str(live), "--server-side",
                           "--as", "helm4", "--format", "json"], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    ssa = json.loads(done.stdout)["objects"][0]["live"]["server_side"]
    assert (ssa["field_manager"], ssa["as"]) == ("helm", "helm4") and ssa["stuck"]
