"""``action.yml`` and ``.pre-commit-hooks.yaml``: the action's commands run as a script.

Each ``run`` step of the composite action is run with bash, in order, in a fixture
repository (a copy of a lint corpus tree), the way the runner does it: ``${{ ... }}``
expressions replaced (inputs by their defaults or the test's values, ``github.action_path``
by this checkout, step outputs from ``$GITHUB_OUTPUT``), ``bash -eo pipefail``.  The
``uses`` steps (setup-python, upload-sarif) are GitHub's; the test checks what they are
given.  ``python -m pip install`` is recorded rather than run (a real install takes about
a minute and the network); ``python`` and ``cfgpatch`` otherwise run this checkout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
TREES = ROOT / "tests" / "data" / "lint" / "trees"
SCHEMA = json.loads((ROOT / "tests/data/lint/sarif-schema-2.1.0.json").read_text("utf-8"))
_EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")

PYTHON_SHIM = """#!/usr/bin/env bash
if [ "$1 $2 $3" = "-m pip install" ]; then
  echo "$@" >> "$SHIM_LOG"
  exit 0
fi
PYTHONPATH="$CFGPATCH_SRC" exec "$REAL_PYTHON" "$@"
"""
CFGPATCH_SHIM = """#!/usr/bin/env bash
PYTHONPATH="$CFGPATCH_SRC" exec "$REAL_PYTHON" -m cfgpatch "$@"
"""


def _shims(folder: Path) -> Path:
    folder.mkdir()
    for name, text in (("python", PYTHON_SHIM), ("cfgpatch", CFGPATCH_SHIM)):
        path = folder / name
        path.write_text(text, encoding="utf-8")
        path.chmod(0o755)
    return folder


def _evaluate(text: str, inputs: dict, outputs: dict) -> str:
    def value(match: re.Match) -> str:
        expr = match.group(1)
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr == "github.action_path":
            return str(ROOT)
        found = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if found:
            return outputs.get(found.group(1), {}).get(found.group(2), "")
        raise AssertionError(f"the test does not evaluate ${{{{ {expr} }}}}")
    return _EXPR.sub(value, text)


def run_action(repo: Path, tmp: Path, **given: str) -> dict:
    """Run the action's steps in ``repo``; returns what happened."""
    inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    inputs.update({k.replace("_", "-"): v for k, v in given.items()})
    shims = _shims(tmp / "shims")
    log = tmp / "pip.log"
    outputs: dict[str, dict] = {}
    uses: list[tuple[str, dict]] = []
    printed = ""
    status = 0
    for index, step in enumerate(ACTION["runs"]["steps"]):
        if "uses" in step:
            uses.append((step["uses"], {k: _evaluate(str(v), inputs, outputs)
                                        for k, v in (step.get("with") or {}).items()}))
            continue
        assert step["shell"] == "bash"
        output_file = tmp / f"output-{index}"
        output_file.write_text("", encoding="utf-8")
        env = {**os.environ, "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}",
               "GITHUB_OUTPUT": str(output_file), "SHIM_LOG": str(log),
               "REAL_PYTHON": sys.executable, "CFGPATCH_SRC": str(ROOT / "src"),
               "NO_COLOR": "1"}
        env.update({k: _evaluate(str(v), inputs, outputs)
                    for k, v in (step.get("env") or {}).items()})
        script = _evaluate(step["run"], inputs, outputs)
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                               script], cwd=repo, env=env, capture_output=True, text=True,
                              timeout=300, check=False)
        printed += done.stdout
        assert "Traceback" not in done.stderr, done.stderr
        if "id" in step:
            outputs[step["id"]] = dict(line.split("=", 1) for line in
                                       output_file.read_text("utf-8").splitlines() if line)
        if done.returncode != 0:
            status = done.returncode
            break
    return {"status": status, "printed": printed, "uses": uses, "outputs": outputs,
            "pip": log.read_text("utf-8") if log.exists() else ""}


@pytest.fixture
def repo(tmp_path: Path):
    def make(tree: str) -> Path:
        target = tmp_path / "repo"
        shutil.copytree(TREES / tree, target)
        return target
    return make


def test_findings_fail_the_job_with_annotations_and_a_valid_sarif_log(repo, tmp_path):
    root = repo("renamed-target")
    result = run_action(root, tmp_path)
    assert result["status"] == 1
    assert result["outputs"]["lint"]["status"] == "1"
    assert "::error file=overlays/prod/kustomization.yaml,line=9,col=7" in result["printed"]
    assert result["pip"].split()[-1] == f"{ROOT}[yaml]"
    setup, upload = result["uses"]
    assert setup[0].startswith("actions/setup-python@") and setup[1]["python-version"]
    assert upload[0].startswith("github/codeql-action/upload-sarif@")
    log = json.loads((root / upload[1]["sarif_file"]).read_text("utf-8"))
    jsonschema.validate(log, SCHEMA)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"patch-matches-nothing"}


def test_a_clean_repository_passes(repo, tmp_path):
    result = run_action(repo("clean-overlays"), tmp_path)
    assert result["status"] == 0
    assert result["outputs"]["lint"]["status"] == "0"
    assert "::" not in result["printed"]


def test_inputs_choose_paths_level_and_package(repo, tmp_path):
    root = repo("field-set-twice")  # one warning
    (tmp_path / "a").mkdir()
    quiet = run_action(root, tmp_path / "a", package="cfgpatch==9.9", paths=". ")
    assert quiet["status"] == 0 and "::warning file=resources.yaml,line=6" in quiet["printed"]
    assert quiet["pip"].split()[-1] == "cfgpatch==9.9"
    (tmp_path / "b").mkdir()
    strict = run_action(root, tmp_path / "b", fail_on="warning")
    assert strict["status"] == 1


def test_the_pre_commit_hook_runs_lint_over_the_repository():
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert hook["id"] == "cfgpatch-lint" and hook["entry"] == "cfgpatch lint"
    assert hook["pass_filenames"] is False and hook["language"] == "python"
    pattern = re.compile(hook["files"])
    assert pattern.search("apps/web/kustomization.yaml") and pattern.search("a/Kustomization")
    assert not pattern.search("README.md")
