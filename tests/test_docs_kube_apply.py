"""docs/kube-apply.md's worked examples are what the CLI prints, and kubectl's patches.

Every ``console`` block of the "Worked examples" section is run (in a folder holding the
``yaml`` blocks shown before it in the same example, each named by its first line) and
compared with the block's text (standard output, then standard error) and the exit code
written after it.  An example that names a recorded case (``Recorded case `id```) must use
that case's objects, and the patch (or kubectl's line, warning or error) it prints must be
what kubectl 1.32 sent or printed in ``tests/data/kube/apply/recorded.jsonl``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cfgpatch.kube.io import reader
from cfgpatch.kube.io.unstructured import normalize

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "kube-apply.md"
RECORDED = ROOT / "tests" / "data" / "kube" / "apply" / "recorded.jsonl"
TOKEN = re.compile(
    r"(?P<heading>^### )"
    r"|[Rr]ecorded case\s+`(?P<case>[^`]+)`"
    r"|```yaml\n# (?P<name>\S+)\n(?P<body>.*?)```"
    r"|```console\n\$ (?P<cmd>[^\n]*)\n(?P<out>.*?)```\n\nExit code (?P<rc>\d+)\.",
    re.S | re.M)


def _examples() -> list[dict]:
    text = DOC.read_text(encoding="utf-8")
    part = text.split("\n## Worked examples\n", 1)[1].split("\n## ", 1)[0]
    runs, files, case = [], {}, None
    for match in TOKEN.finditer(part):
        if match["heading"]:
            files, case = {}, None
        elif match["case"]:
            case = match["case"]
        elif match["name"]:
            files[match["name"]] = match["body"]
        else:
            runs.append({"cmd": match["cmd"], "out": match["out"], "rc": int(match["rc"]),
                         "files": dict(files), "case": case})
    return runs


def _recorded() -> dict[str, dict]:
    rows = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]
    return {row["id"]: row for row in rows}


EXAMPLES = _examples()


def test_the_doc_has_its_examples():
    assert len(EXAMPLES) >= 11
    cases = {run["case"] for run in EXAMPLES}
    for wanted in ("scale-kept-replicas-never-applied", "scale-reverted-replicas-in-manifest",
                   "label-removed-never-applied", "container-removed",
                   "env-var-live-only-kept", "overwrite-false-conflict",
                   "edit-image-and-container-removed"):
        assert wanted in cases
    commands = " ".join(run["cmd"] for run in EXAMPLES)
    assert "kube diff" in commands and "kube upgrade" in commands
    assert "--cr-three-way" in commands


@pytest.mark.parametrize("run", EXAMPLES, ids=[f"{i}-{r['case'] or r['cmd'].split()[2]}"
                                                 for i, r in enumerate(EXAMPLES)])
def test_example_is_what_the_cli_prints(run, tmp_path):
    for name, body in run["files"].items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    argv = shlex.split(run["cmd"])
    assert argv[0] == "cfgpatch"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}  # this tree's cfgpatch
    done = subprocess.run([sys.executable, "-m", "cfgpatch", *argv[1:]], cwd=tmp_path,
                          capture_output=True, text=True, check=False, env=env)
    assert done.stdout + done.stderr == run["out"]
    assert done.returncode == run["rc"]


def _object(run: dict, name: str) -> dict:
    obj, _notes = reader.load_object(run["files"][name], name)
    return normalize(obj)


@pytest.mark.parametrize("run", [r for r in EXAMPLES if r["case"]], ids=lambda r: r["case"])
def test_recorded_example_is_kubectls(run):
    case = _recorded()[run["case"]]
    out = run["out"]
    if case["how"] == "edit":
        assert _object(run, "old.yaml") == normalize(case["old"])
        assert _object(run, "new.yaml") == normalize(case["new"])
        assert out.splitlines()[0] == case["patch"]
        return
    assert _object(run, "live.yaml") == normalize(case["live"])
    assert _object(run, "manifest.yaml") == normalize(case["manifest"])
    assert run["rc"] == case["code"]
    if case["code"] != 0:
        # kubectl's whole error, byte for byte (recorded with the file manifest.json)
        ours = out.split("\ncfgpatch: ", 1)[0] + "\n"
        assert ours == case["stderr"].replace('"manifest.json"', '"manifest.yaml"')
        return
    lines = out.splitlines()
    assert lines[0] == case["stdout"].strip()
    if case["patch"] is None:
        assert lines[1] == "# patch: {} (nothing is sent)"
    else:
        assert lines[1] == f"# patch ({case['content_type']}):"
        assert lines[2] == case["patch"]
    assert out.endswith(case["stderr"])  # kubectl's warning, or nothing


def test_the_counts_of_recorded_cases_are_right():
    text = DOC.read_text(encoding="utf-8")
    rows = list(_recorded().values())
    assert f"holds {len(rows)} cases" in text
    assert f"(`how: apply`, {sum(r['how'] == 'apply' for r in rows)} cases)" in text
    assert f"(`how: edit`, {sum(r['how'] == 'edit' for r in rows)} cases)" in text
