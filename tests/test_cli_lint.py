"""``cfgpatch lint``: arguments, formats, exit status, and kustomize's own build errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cfgpatch.cli import main
from cfgpatch.cli.lint import kustomize_message
from conftest import require

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "tests" / "data" / "lint" / "trees"


def lint(*args: str, capsys) -> tuple[int, str, str]:
    code = main(["lint", "--no-kubectl", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_clean_tree_exits_0(capsys):
    code, out, _ = lint("--root", str(TREES / "clean-overlays"), capsys=capsys)
    assert code == 0
    assert out.startswith("no findings; 4 patches checked (3 kustomizations)")


def test_findings_at_or_above_fail_on_exit_1(capsys):
    root = str(TREES / "field-set-twice")  # one warning
    assert lint("--root", root, capsys=capsys)[0] == 0
    assert lint("--root", root, "--fail-on", "warning", capsys=capsys)[0] == 1
    assert lint("--root", root, "--fail-on", "note", capsys=capsys)[0] == 1
    assert lint("--root", str(TREES / "renamed-target"), "--fail-on", "never",
                capsys=capsys)[0] == 0
    assert lint("--root", str(TREES / "renamed-target"), capsys=capsys)[0] == 1


def test_a_build_failure_exits_2_and_is_reported(capsys):
    code, out, _ = lint("--root", str(TREES / "build-fails"), "--format", "json",
                        capsys=capsys)
    assert code == 2
    (finding,) = json.loads(out)["findings"]
    assert (finding["rule"], finding["file"], finding["line"]) == \
        ("build-failed", "base/kustomization.yaml", 3)


def test_usage_errors_exit_2(capsys, tmp_path):
    root = str(TREES / "clean-overlays")
    assert lint("--root", root, str(tmp_path), capsys=capsys)[0] == 2  # outside the root
    code, _, err = lint("--root", root, str(TREES / "clean-overlays" / "nope"), capsys=capsys)
    assert code == 2 and "no such file or folder" in err
    code, _, err = lint("--root", root, "--disable", "no-such-rule", capsys=capsys)
    assert code == 2 and "unknown rule 'no-such-rule'" in err
    (tmp_path / ".cfgpatch.yaml").write_text("lint:\n  severity: {field-set-twice: loud}\n")
    code, _, err = lint("--root", str(tmp_path), capsys=capsys)
    assert code == 2 and "lint.severity.field-set-twice" in err
    assert lint("--root", str(tmp_path / "missing"), capsys=capsys)[0] == 2


def test_paths_limit_what_is_linted(capsys):
    root = TREES / "renamed-target"
    code, out, _ = lint("--root", str(root), str(root / "base"), "--format", "json",
                        capsys=capsys)
    report = json.loads(out)
    assert code == 0 and report["findings"] == []
    assert [t["path"] for t in report["linted"]] == ["base/kustomization.yaml"]


def test_disable_and_schema_options(capsys):
    root = str(TREES / "renamed-target")
    code, out, _ = lint("--root", root, "--disable", "patch-matches-nothing", capsys=capsys)
    assert code == 0 and out.startswith("no findings")


def test_output_file_and_github_format(capsys, tmp_path):
    target = tmp_path / "out.txt"
    code, out, _ = lint("--root", str(TREES / "selector-kinds"), "--format", "github",
                        "--output", str(target), capsys=capsys)
    assert code == 0 and out == ""
    lines = target.read_text().splitlines()
    assert lines[0].startswith("::warning file=kustomization.yaml,line=8,col=7,")
    assert "title=selector-matches-other-kinds::" in lines[0]


def test_colour_only_when_asked_or_on_a_terminal(capsys):
    root = str(TREES / "selector-kinds")
    assert "\x1b[" not in lint("--root", root, capsys=capsys)[1]  # captured: not a TTY
    assert "\x1b[33;1mwarning" in lint("--root", root, "--color", "always", capsys=capsys)[1]


def test_the_command_line_entry_point_runs_lint():
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "lint", "--no-kubectl",
                           "--root", str(TREES / "clean-flux")], capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "2 patches checked (1 Flux Kustomization, 1 kustomization)" in done.stdout


def test_kustomize_messages_are_read_from_kubectl_stderr():
    klog = ('E1203 09:24:56.242309   12631 run.go:72] "command failed" '
            'err="invalid Kustomization: json: unknown field \\"foo\\""\n')
    assert kustomize_message(klog) == 'invalid Kustomization: json: unknown field "foo"'
    assert kustomize_message("# Warning: x\nerror: accumulating resources: nope\n") == \
        "accumulating resources: nope"


def test_live_build_errors_are_kustomize_s_own(capsys, tmp_path):
    """With kubectl, a failed build carries kubectl kustomize's text; a kustomization
    lint's own resolution cannot follow but kustomize builds is not reported."""
    require(shutil.which("kubectl") is not None, "kubectl is not on PATH")
    shutil.copytree(TREES / "build-fails", tmp_path / "repo")
    code = main(["lint", "--root", str(tmp_path / "repo"), "--format", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert code == 2
    assert [f["message"] for f in findings] == [
        "kustomize build fails: accumulating resources: accumulation err='accumulating "
        "resources from 'servcie.yaml': evalsymlink failure on 'base/servcie.yaml' : lstat "
        "base/servcie.yaml: no such file or directory': must build at directory: not a valid "
        "directory: evalsymlink failure on 'base/servcie.yaml' : lstat base/servcie.yaml: no "
        "such file or directory"]


@pytest.mark.parametrize("tree", ["clean-overlays", "clean-flux", "components"])
def test_live_kubectl_builds_every_corpus_kustomization_lint_builds(tree, tmp_path):
    """Lint's resolution agrees with kubectl kustomize on which corpus trees build."""
    require(shutil.which("kubectl") is not None, "kubectl is not on PATH")
    for path in sorted((TREES / tree).rglob("kustomization.yaml")):
        if "kind: Component" in path.read_text():
            continue
        done = subprocess.run(["kubectl", "kustomize", str(path.parent)], capture_output=True,
                              text=True, check=False, timeout=120)
        assert done.returncode == 0, done.stderr


def test_a_tree_nested_too_deeply_is_not_followed_not_a_crash(capsys, tmp_path):
    (tmp_path / "kustomization.yaml").write_text("resources:\n- r.yaml\n")
    (tmp_path / "r.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
                                     "data:\n  x: " + "[" * 3000 + "]" * 3000 + "\n")
    code, out, _ = lint("--root", str(tmp_path), "--format", "json", capsys=capsys)
    assert code == 0  # a warning
    (finding,) = json.loads(out)["findings"]
    assert (finding["rule"], finding["file"]) == ("not-followed", "kustomization.yaml")
