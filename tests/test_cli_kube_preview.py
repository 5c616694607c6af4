"""``cfgpatch kube preview``: exit status, formats, the working tree as head."""

from __future__ import annotations

import json
import subprocess
import sys

from preview_support import EDITS, apply_edits, gitops_files, new_repo


def _run(root, *args):
    return subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "preview", "-C", str(root),
                           *args], capture_output=True, text=True)


def test_exit_status_and_formats(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, gitops_files())
    quiet = _run(root, "--base", base)
    assert quiet.returncode == 0, quiet.stderr
    assert "no change" in quiet.stdout
    apply_edits(root, ["patch"])
    calm = _run(root, "--base", base, "--format", "json")
    assert calm.returncode == 0, calm.stderr
    report = json.loads(calm.stdout)
    assert report["schema"] == "cfgpatch.preview/v1"
    assert report["head"]["ref"] == "working tree"
    apply_edits(root, ["image"])
    risky = _run(root, "--base", base, "--format", "sarif")
    assert risky.returncode == 1
    results = json.loads(risky.stdout)["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["image"]
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 10
    html = _run(root, "--base", base, "--format", "html", "--output", str(tmp_path / "p.html"))
    assert html.returncode == 1 and "<div class=sbs>" in (tmp_path / "p.html").read_text()
    assert _run(root, "--base", "no-such-ref").returncode == 2
    saved = tmp_path / "r.json"
    assert _run(root, "--base", base, "--format", "json", "-o", str(saved)).returncode == 1
    again = _run(root, "--report", str(saved), "--format", "markdown", "-o", str(tmp_path / "c"))
    assert again.returncode == 1 and "**Risks (1)**" in (tmp_path / "c").read_text()
    (tmp_path / "bad.json").write_text("{}")
    bad = _run(root, "--report", str(tmp_path / "bad.json"))
    assert bad.returncode == 2 and "not a cfgpatch.preview/v1 report" in bad.stderr


def test_a_build_error_is_exit_2(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, gitops_files())
    (root / "overlays/prod/replicas.yaml").unlink()
    out = _run(root, "--base", base)
    assert out.returncode == 2
    assert "error: overlays/prod at head" in out.stdout
    assert len(EDITS) > 0
