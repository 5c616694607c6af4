"""Replay: the preview's renders of the test repository at both refs equal what
``kubectl.1.32 kustomize`` printed for them (scripts/record_preview_kubectl.py)."""

from __future__ import annotations

import json
from pathlib import Path

from cfgpatch.preview.entrypoints import EntryPoint
from cfgpatch.preview.gittree import GitRepo, GitTreeFileSystem
from cfgpatch.preview.render import How, render
from preview_support import EDITS, apply_edits, commit, gitops_files, new_repo

RECORD = json.loads((Path(__file__).parent / "data/preview/kubectl-renders.json").read_text())


def test_renders_equal_the_recorded_kubectl_output(tmp_path):
    root = tmp_path / "repo"
    refs = {"base": new_repo(root, gitops_files())}
    apply_edits(root, list(EDITS))
    refs["head"] = commit(root, "edits")
    repo = GitRepo.at(str(root))
    compared = 0
    for label, sha in refs.items():
        tree = repo.tree(sha)
        fs = GitTreeFileSystem(tree, repo.root)
        for entry, answer in RECORD["refs"][label].items():
            done = render(EntryPoint(entry, "kustomization"), tree, repo.root, How(fs))
            assert (done.error == "") == (answer["exit"] == 0), (label, entry, done.error)
            if answer["exit"] == 0:
                assert done.output == answer["stdout"], (label, entry)
                compared += 1
    assert compared >= 4
