"""Live: the renders of both refs equal ``kubectl.1.32 kustomize`` at that ref, byte for
byte (required in CI; skipped locally with the reason when kubectl is missing)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from cfgpatch.preview.engine import Options, preview
from cfgpatch.preview.gittree import GitRepo
from conftest import require
from preview_support import EDITS, apply_edits, commit, gitops_files, new_repo


def _kubectl() -> str | None:
    found = shutil.which("kubectl")
    if not found:
        return None
    binary = Path(os.path.realpath(found)).parent / "kubectl.1.32"
    return str(binary) if binary.exists() else None


def test_renders_equal_kubectl_kustomize_at_both_refs(tmp_path):
    kubectl = _kubectl()
    require(kubectl is not None, "kubectl.1.32 is not installed")
    root = tmp_path / "repo"
    base = new_repo(root, gitops_files())
    apply_edits(root, list(EDITS))
    head = commit(root, "edits")
    kept: dict = {}
    preview(Options(str(root), base, head, all_entry_points=True, keep=kept))
    repo = GitRepo.at(str(root))
    checked = 0
    for ref, side in ((base, 0), (head, 1)):
        folder = tmp_path / ref
        repo.tree(ref).materialize(str(folder))
        for key, renders in kept.items():
            if renders[side].entry.kind != "kustomization":
                continue
            proc = subprocess.run([kubectl, "kustomize", str(folder / key)],
                                  capture_output=True, text=True, check=True)
            assert renders[side].output == proc.stdout, (ref, key)
            checked += 1
    assert checked == 2
