"""``cfgpatch kube diff`` (``cli/kube_diff.py``)."""

from __future__ import annotations

import pytest

from cli_support import run_cli, write_inputs

POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
       "spec": {"containers": [{"name": "app", "image": "a:1"}, {"name": "log"}]}}
POD2 = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "app", "image": "a:2"}]}}
CR = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
      "spec": {"tags": ["a"], "size": 1}}


@pytest.fixture()
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return write_inputs(tmp_path, {
        "old.json": POD, "new.json": POD2, "cr.json": CR,
        "cr2.json": {**CR, "spec": {"tags": ["a", "b"]}},
        "new.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
                    "spec:\n  containers:\n  - name: app\n    image: a:2\n"})


def run(capsys, *argv):
    return run_cli(capsys, "kube", "diff", *argv)


def test_strategic_two_way_patch(files, capsys):
    code, out, err = run(capsys, "old.json", "new.yaml", "--explain")
    assert code == 1
    assert out == ('{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":'
                   '[{"image":"a:2","name":"app"},{"$patch":"delete","name":"log"}]}}\n')
    assert "deleted spec.containers[name=log]" in err
    assert 'changed spec.containers[name=app].image' in err


def test_same_objects_exit_zero(files, capsys):
    code, out, _ = run(capsys, "old.json", "old.json")
    assert (code, out) == (0, "{}\n")


def test_merge_type_replaces_lists(files, capsys):
    code, out, _ = run(capsys, "old.json", "new.json", "--type", "merge")
    assert code == 1
    assert out == '{"spec":{"containers":[{"image":"a:2","name":"app"}]}}\n'


def test_custom_resource_defaults_to_merge(files, capsys):
    code, out, _ = run(capsys, "cr.json", "cr2.json")
    assert (code, out) == (1, '{"spec":{"size":null,"tags":["a","b"]}}\n')
    code, _, err = run(capsys, "cr.json", "cr2.json", "--type", "strategic")
    assert code == 2 and "strategic merge patch is not supported for Widget" in err
