"""The kustomize corpus (tests/data/kustomize): trees and kubectl kustomize's recorded answers.

Each :class:`Build` is one directory of one tree with what ``kubectl kustomize`` 1.32
printed (``$TREE`` in the recording stands for the tree's absolute path), recorded by
scripts/record_kustomize_trees.py.  :func:`run_ours` builds it with ``kube build`` and
answers in the same form (exit code, standard output, standard error).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from cfgpatch.kube.kustomize.build import BuildError, build

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
#: klog's header (time, process id) of a line kustomize logs: left out of the recordings
#: and never printed by ``kube build``.
from record_kustomize_trees import KLOG_HEADER  # noqa: E402, F401 - used by the live tests

DATA = Path(__file__).resolve().parent / "data" / "kustomize"
TREES = DATA / "trees"
RECORDED = DATA / "recorded"
#: The environment for a ``python -m cfgpatch`` child that uses this checkout's sources.
ROOT_SRC = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}


@dataclass(frozen=True)
class Build:
    tree: str
    rel: str
    exit_code: int
    stdout: str
    stderr: str
    versions: dict

    @property
    def directory(self) -> Path:
        root = TREES / self.tree
        return root if self.rel == "." else root / self.rel

    @property
    def id(self) -> str:
        return f"{self.tree}/{self.rel}" if self.rel != "." else self.tree

    def expected(self) -> tuple[int, str, str]:
        root = str((TREES / self.tree).resolve())
        return (self.exit_code, self.stdout.replace("$TREE", root),
                self.stderr.replace("$TREE", root))


def builds() -> list[Build]:
    out = []
    for path in sorted(RECORDED.glob("*.json")):
        recording = json.loads(path.read_text(encoding="utf-8"))
        for rel, answer in sorted(recording["builds"].items()):
            out.append(Build(recording["tree"], rel, answer["exit_code"], answer["stdout"],
                             answer["stderr"], answer.get("versions", {})))
    return out


def run_ours(directory: Path) -> tuple[int, str, str]:
    """``kube build`` of ``directory`` as (exit code, stdout, stderr) in kubectl's form."""
    try:
        result = build(str(directory))
    except BuildError as err:
        return 1, "", "".join(w + "\n" for w in err.warnings) + f"error: {err.message}\n"
    return 0, result.yaml(), "".join(w + "\n" for w in result.warnings)
