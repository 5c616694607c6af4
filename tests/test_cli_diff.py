"""``cfgpatch diff`` and ``cfgpatch rebase`` on files."""

from __future__ import annotations

import json
import subprocess
import sys

from cfgpatch.cli import main


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def test_diff_prints_the_patch(tmp_path, capsys):
    a = write(tmp_path, "a.json", {"name": "edge", "ttl": 30, "tags": ["a"], "old": True})
    b = write(tmp_path, "b.json", {"name": "edge", "ttl": 60, "tags": ["a", "b"], "region": "eu"})
    assert main(["diff", a, b]) == 0
    assert capsys.readouterr().out == (
        '[{"op":"remove","path":"/old"},{"op":"add","path":"/region","value":"eu"},'
        '{"op":"add","path":"/tags/1","value":"b"},{"op":"replace","path":"/ttl","value":60}]\n'
    )


def test_diff_stats(tmp_path, capsys):
    a = write(tmp_path, "a.json", {"db": {"host": "h"}})
    b = write(tmp_path, "b.json", {"database": {"host": "h"}})
    assert main(["diff", "--stats", a, b]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats == {"ops": 1, "add": 0, "remove": 0, "replace": 0, "move": 1,
                     "digest": stats["digest"], "roundtrip": True}
    assert len(stats["digest"]) == 12


def test_diff_reads_stdin_and_reports_bad_json(tmp_path):
    a = write(tmp_path, "a.json", "[1, 2]")
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "diff", a, "-"],
                          input="[2]", capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, '[{"op":"remove","path":"/0"}]\n')
    bad = write(tmp_path, "bad.json", "{NaN")
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "diff", a, bad],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "invalid json" in done.stderr and "bad.json" in done.stderr
    assert "Traceback" not in done.stderr


def test_rebase_prints_the_rebased_patch(tmp_path, capsys):
    base = write(tmp_path, "base.json", {"a": 1, "b": {"x": 1}})
    head = write(tmp_path, "head.json", {"a": 1, "b": {"x": 2}})
    patch = write(tmp_path, "p.json", [{"op": "replace", "path": "/a", "value": 5}])
    assert main(["rebase", "--base", base, "--head", head, patch]) == 0
    assert capsys.readouterr().out == '[{"op":"replace","path":"/a","value":5}]\n'


def test_rebase_conflict_names_pointer_and_three_values(tmp_path, capsys):
    base = write(tmp_path, "base.json", {"a": 1, "b": {"x": 1}})
    head = write(tmp_path, "head.json", {"a": 1, "b": {"x": 2}})
    patch = write(tmp_path, "p.json", [{"op": "replace", "path": "/b/x", "value": 3}])
    assert main(["rebase", "--base", base, "--head", head, patch]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "conflict at /b/x" in captured.err
    assert "base: 1" in captured.err and "mine: 3" in captured.err and "head: 2" in captured.err


def test_rebase_root_conflict_and_replay_failure(tmp_path, capsys):
    base = write(tmp_path, "base.json", [1])
    head = write(tmp_path, "head.json", [2])
    patch = write(tmp_path, "p.json", [{"op": "add", "path": "/0", "value": 0}])
    assert main(["rebase", "--base", base, "--head", head, patch]) == 1
    assert "conflict at (root)" in capsys.readouterr().err
    bad = write(tmp_path, "bad.json", [{"op": "remove", "path": "/7"}])
    assert main(["rebase", "--base", base, "--head", head, bad]) == 1
    assert "path not found" in capsys.readouterr().err
    not_a_patch = write(tmp_path, "obj.json", {"op": "remove"})
    assert main(["rebase", "--base", base, "--head", head, not_a_patch]) == 1
    assert "invalid patch" in capsys.readouterr().err
