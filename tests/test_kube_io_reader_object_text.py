"""How the YAML object file (``-f``) is read, and long keys printed, held to kubectl.

``tests/data/kube/object-text/cases.jsonl`` is recorded by
``scripts/record_kube_object_text.py`` from kubectl 1.32, 1.27 and 1.33 (they agree on
every case): tabs in every position, every character after a backslash in a
double-quoted string, anchors defined twice or holding themselves, ``%YAML``/``%TAG``
directives, ``---`` separators in their many forms, text after ``...``, and ``-o yaml``
keys around 128 bytes.  Every case is replayed through ``cfgpatch kube patch`` (no
kubectl needed): same exit code, same standard output, standard error starting with
kubectl's.  The only cases answered otherwise are files kubectl reads as several
objects (:data:`SEVERAL_OBJECTS`), which cfgpatch refuses on purpose.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

import pytest

from cfgpatch.cli import main

DATA = Path(__file__).resolve().parent / "data" / "kube" / "object-text"
VERSIONS = ("1.32", "1.27", "1.33")
#: Files kubectl reads as two objects (it patches and prints the first, then fails on
#: the second): cfgpatch patches one object at a time, and fails before printing any.
SEVERAL_OBJECTS = {"directive-after-document"}


def load_cases() -> list[dict]:
    lines = (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


CASES = load_cases()


def run_cfgpatch(case: dict) -> dict:
    """``cfgpatch kube <argv>`` in a scratch folder holding the object as obj.yaml."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.yaml").write_bytes(case["object"].encode("utf-8"))
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["kube", *case["argv"]])
        finally:
            os.chdir(here)
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "exit_code": code}


def test_recording_covers_every_group_and_versions_agree() -> None:
    groups = {case["id"].split("-", 1)[0] for case in CASES}
    assert groups == {"tab", "escape", "anchor", "directive", "separator", "key", "patch"}
    assert len(CASES) > 200
    assert all(case["same_in"] == ["1.27", "1.33"] for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_kubectl(case: dict) -> None:
    ours, kubectl = run_cfgpatch(case), case["kubectl"]["1.32"]
    if case["id"] in SEVERAL_OBJECTS:
        assert kubectl["exit_code"] == 1 and kubectl["stdout"]
        assert ours["exit_code"] == 1 and not ours["stdout"]
        assert ours["stderr"].startswith(kubectl["stderr"]), ours["stderr"]
        return
    assert ours["exit_code"] == kubectl["exit_code"], (ours["stderr"], kubectl["stderr"])
    assert ours["stdout"] == kubectl["stdout"]
    assert ours["stderr"].startswith(kubectl["stderr"]), ours["stderr"]
    if kubectl["exit_code"] == 0:
        assert ours["stderr"] == kubectl["stderr"]
