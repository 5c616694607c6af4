"""``cfgpatch apply``: files and stdin, messages that name the failing operation."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cfgpatch.cli import main


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def test_prints_canonical_result(tmp_path, capsys):
    doc = write(tmp_path, "doc.json", {"b": 1, "a": [1]})
    patch = write(tmp_path, "p.json", [{"op": "add", "path": "/a/0", "value": "é"}])
    assert main(["apply", doc, patch]) == 0
    assert capsys.readouterr().out == '{"a":["é",1],"b":1}\n'


def test_failure_names_op_pointer_and_reason(tmp_path, capsys):
    doc = write(tmp_path, "doc.json", {"spec": {"a": 1}})
    patch = write(
        tmp_path,
        "p.json",
        [
            {"op": "replace", "path": "/spec/a", "value": 2},
            {"op": "test", "path": "/spec/a", "value": 2},
            {"op": "remove", "path": "/spec/x"},
        ],
    )
    assert main(["apply", doc, patch]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert 'op 2 (remove /spec/x): path not found: no key "x" in /spec' in captured.err


def test_unescaped_annotation_key_prints_the_corrected_pointer(tmp_path, capsys):
    doc = write(tmp_path, "d.json", {"metadata": {"annotations": {"kubernetes.io/ingress.class": "a"}}})
    patch = write(
        tmp_path,
        "p.json",
        [{"op": "replace", "path": "/metadata/annotations/kubernetes.io/ingress.class", "value": "b"}],
    )
    assert main(["apply", doc, patch]) == 1
    assert "/metadata/annotations/kubernetes.io~1ingress.class" in capsys.readouterr().err


def test_merge_type(tmp_path, capsys):
    doc = write(tmp_path, "d.json", {"a": 1, "l": [1, 2]})
    patch = write(tmp_path, "p.json", {"a": None, "l": [3]})
    assert main(["apply", "--type", "merge", doc, patch]) == 0
    assert capsys.readouterr().out == '{"l":[3]}\n'


@pytest.mark.parametrize(
    "doc,patch,message",
    [
        ("{", "[]", "invalid json"),
        ("{}", "{}", "invalid patch"),
        ('{"a":1,"a":2}', "[]", "duplicate key"),
        ("[" * 100_000, "[]", "nested too deeply"),
        ("{}", '[{"op":"add","path":"/a/01","value":1}]', "path not found"),
    ],
)
def test_bad_input_gets_one_clear_line(tmp_path, capsys, doc, patch, message):
    assert main(["apply", write(tmp_path, "d", doc), write(tmp_path, "p", patch)]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_file(tmp_path, capsys):
    assert main(["apply", str(tmp_path / "nope.json"), "-"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_stdin_and_non_utf8_through_python_m(tmp_path):
    doc = write(tmp_path, "d.json", {"a": 1})
    ok = subprocess.run(
        [sys.executable, "-m", "cfgpatch", "apply", doc, "-"],
        input=b'[{"op":"remove","path":"/a"}]',
        capture_output=True,
    )
    assert (ok.returncode, ok.stdout) == (0, b"{}\n")
    bad = subprocess.run(
        [sys.executable, "-m", "cfgpatch", "apply", "-", doc],
        input=b"\xff\xfe{}",
        capture_output=True,
    )
    assert bad.returncode == 1
    assert b"not UTF-8" in bad.stderr and b"Traceback" not in bad.stderr


def test_only_one_stdin(capsys):
    assert main(["apply", "-", "-"]) == 1
    assert "standard input" in capsys.readouterr().err
