"""``cfgpatch kube apply`` on files of several objects, against recorded kubectl.

``tests/data/kube/apply/several.jsonl`` holds what kubectl 1.27, 1.32 and 1.33 did for
each case of ``scripts/kube_apply_many_cases.py`` against the fake API server
(``scripts/record_kube_apply_many.py``): standard output and error, exit code, and
every PATCH and POST.  Ours must print kubectl's lines and errors byte for byte
(our own ``cfgpatch:`` lines aside), send the same PATCH bodies and create the same
objects, in the same order.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cfgpatch.cli import main

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from fake_kube_api import object_path  # noqa: E402

RECORDED = Path(__file__).parent / "data" / "kube" / "apply" / "several.jsonl"
CASES = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]


def run(tmp_path, monkeypatch, capsys, case: dict) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)
    name = case.get("name", "manifest.yaml")
    (tmp_path / name).write_text(case["manifest"], encoding="utf-8")
    live = {"apiVersion": "v1", "kind": "List", "items": case["live"]}
    (tmp_path / "live.json").write_text(json.dumps(live), encoding="utf-8")
    code = main(["kube", "apply", "-f", name, "--live", "live.json", "--show", "patch,result",
                 "-o", "json", *case["flags"]])
    out, err = capsys.readouterr()
    return code, out, err


def parse(out: str) -> tuple[list[str], list[tuple]]:
    """kubectl's lines of our output, and what we send: ("PATCH", content type, body) or
    ("POST", the created object)."""
    lines, sent = [], []
    rows = iter(out.splitlines())
    for row in rows:
        if row.startswith("# patch (application/"):
            sent.append(("PATCH", row[len("# patch ("):-2], next(rows)))
        elif row.startswith("# result (created"):
            block = []
            for inner in rows:
                block.append(inner)
                if inner == "}":
                    break
            sent.append(("POST", json.loads("\n".join(block))))
        elif row.startswith("# result ("):
            for inner in rows:
                if inner == "}":
                    break
        elif not row.startswith("#"):
            lines.append(row)
    return lines, sent


def kubectl_sent(answer: dict) -> list[tuple]:
    return [("PATCH", content_type, body) if method == "PATCH" else ("POST", json.loads(body))
            for method, _, content_type, body in answer["writes"]]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_several_objects_as_kubectl_applies_them(tmp_path, monkeypatch, capsys, case):
    answer = case["kubectl"]["1.32"]
    code, out, err = run(tmp_path, monkeypatch, capsys, case)
    lines, sent = parse(out)
    assert code == answer["exit_code"]
    assert lines == answer["stdout"].splitlines()
    assert sent == kubectl_sent(answer)
    ours = "".join(line for line in err.splitlines(keepends=True)
                   if not line.startswith("cfgpatch: "))
    assert ours == answer["stderr"]


def test_every_write_goes_where_kubectl_sends_it():
    """The recorded paths follow the objects' identities (namespace from -n included)."""
    for case in CASES:
        for method, path, _, body in case["kubectl"]["1.32"]["writes"]:
            obj = json.loads(body) if method == "POST" else None
            if obj is not None and obj.get("apiVersion"):
                assert path == object_path(obj).rpartition("/")[0]
