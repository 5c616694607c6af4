"""docs/kustomize.md's worked example is what `cfgpatch kube build --explain` prints."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kustomize_corpus import ROOT_SRC

DOC = Path(__file__).resolve().parent.parent / "docs" / "kustomize.md"
BLOCK = re.compile(r"```(yaml|text)\n(.*?)```", re.S)


def _blocks() -> tuple[dict[str, str], list[str]]:
    files, texts = {}, []
    for kind, body in BLOCK.findall(DOC.read_text(encoding="utf-8")):
        if kind == "yaml":
            first, _, rest = body.partition("\n")
            files[first.removeprefix("# ").strip()] = rest
        else:
            texts.append(body)
    return files, texts


def _write(tmp_path: Path) -> Path:
    files, _ = _blocks()
    assert set(files) == {"kustomization.yaml", "deploy.yaml", "replicas.yaml"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_worked_example_is_what_kube_build_prints(tmp_path):
    tree = _write(tmp_path)
    _, (stdout, stderr) = _blocks()
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "build", "--explain",
                           str(tree)], capture_output=True, text=True, check=False,
                          env=ROOT_SRC)
    assert done.returncode == 0, done.stderr
    assert done.stdout == stdout
    assert done.stderr == stderr


def test_the_worked_example_is_what_kubectl_kustomize_prints(tmp_path):
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        if os.environ.get("CI") == "true":
            pytest.fail("kubectl is required in CI")
        pytest.skip("kubectl is not installed")
    tree = _write(tmp_path)
    _, (stdout, _) = _blocks()
    done = subprocess.run([kubectl, "kustomize", str(tree)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == stdout
