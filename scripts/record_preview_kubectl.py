"""Record ``kubectl.1.32 kustomize``'s output for the kube preview test repository
(tests/preview_support.py) at its base and head commits, for the replay test
(tests/test_preview_recorded.py); CI replays the record without kubectl.

    python scripts/record_preview_kubectl.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from cfgpatch.preview.gittree import GitRepo  # noqa: E402
from preview_support import EDITS, apply_edits, commit, gitops_files, new_repo  # noqa: E402

RECORD = ROOT / "tests" / "data" / "preview" / "kubectl-renders.json"
ENTRY_POINTS = ("overlays/prod", "base", "components/annotate")


def main() -> int:
    found = shutil.which("kubectl")
    if not found:
        raise SystemExit("kubectl is not installed")
    kubectl = os.path.join(os.path.dirname(os.path.realpath(found)), "kubectl.1.32")
    out: dict = {"kubectl": "1.32", "refs": {}}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "repo"
        refs = {"base": new_repo(root, gitops_files())}
        apply_edits(root, list(EDITS))
        refs["head"] = commit(root, "edits")
        repo = GitRepo.at(str(root))
        for label, sha in refs.items():
            folder = Path(scratch) / label
            repo.tree(sha).materialize(str(folder))
            answers = {}
            for entry in ENTRY_POINTS:
                proc = subprocess.run([kubectl, "kustomize", str(folder / entry)],
                                      capture_output=True, text=True)
                answers[entry] = {"exit": proc.returncode, "stdout": proc.stdout}
            out["refs"][label] = answers
    RECORD.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
