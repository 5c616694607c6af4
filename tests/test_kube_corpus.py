"""The recorded kubectl corpus, replayed through the CLI contract (no kubectl needed).

Each ``tests/data/kube/cases/<id>.json`` holds the object text (as the file named in
``manifest``), the ``kubectl`` arguments (``argv``) and what kubectl 1.32 printed:
``stdout``, ``stderr`` (a crash keeps its first ``panic:`` line) and ``exit_code``.
The same arguments go to ``cfgpatch kube patch``: the exit code and standard output
must be identical, and standard error must start with kubectl's text (our
explanation follows it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from cfgpatch.cli import main
from cfgpatch.kube.schema.node import builtin_schema

CASE_DIR = Path(__file__).resolve().parent / "data" / "kube" / "cases"


@dataclass(frozen=True)
class Case:
    name: str
    manifest: str
    object_text: str
    type: str
    patch_text: str
    argv: tuple[str, ...]
    stdout: str
    stderr: str
    exit_code: int

    @property
    def suffix(self) -> str:
        return Path(self.manifest).suffix or ".yaml"


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CASE_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        cases.append(Case(data["id"], data["manifest"], data["object"], data["type"],
                          data["patch"], tuple(data["argv"]), data["stdout"], data["stderr"],
                          data["exit_code"]))
    return cases


CASES = load_cases()


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str


def run_cli(case: Case) -> Run:
    """``cfgpatch kube <argv>`` in a scratch folder holding the manifest under its name."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / case.manifest).write_text(case.object_text, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["kube", *case.argv])
        finally:
            os.chdir(here)
    return Run(code, out.getvalue(), err.getvalue())


def agrees(case: Case, run: Run) -> bool:
    return (run.code == case.exit_code and run.stdout == case.stdout
            and run.stderr.startswith(case.stderr)
            and (case.exit_code != 0 or run.stderr == case.stderr))


def test_corpus_is_present_and_large():
    assert len(CASES) >= 200, f"only {len(CASES)} recorded cases"
    heads = {(data["api_version"], data["kind"]) for data in (
        json.loads((CASE_DIR / f"{c.name}.json").read_text()) for c in CASES)}
    assert {"Deployment", "Service", "Namespace"} <= {kind for _, kind in heads}
    custom = [head for head in heads if builtin_schema().for_kind(*head) is None]
    assert len(custom) >= 2, f"custom resources in the corpus: {custom}"
    assert {c.type for c in CASES} == {"strategic", "merge", "json"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_matches_kubectl(case):
    run = run_cli(case)
    assert run.code == case.exit_code, run.stderr
    assert run.stdout == case.stdout
    assert run.stderr.startswith(case.stderr), run.stderr
    if case.exit_code == 0:
        assert run.stderr == case.stderr
