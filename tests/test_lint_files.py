"""lint/files.py: the repository on disk and texts in memory, read alike."""

from __future__ import annotations

import pytest

from cfgpatch.lint.files import DiskFiles, MemoryFiles

TREE = {"a/kustomization.yaml": "resources: []\n", "a/b/x.yaml": "{}\n",
        "a/.git/config": "x", "node_modules/m/k.yaml": "x", "z.yaml": "é\n"}


@pytest.fixture
def disk(tmp_path):
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return DiskFiles(str(tmp_path))


def test_disk_and_memory_walk_the_same_files_and_skip_the_same_folders(disk):
    memory = MemoryFiles(TREE)
    expected = ["a/b/x.yaml", "a/kustomization.yaml", "z.yaml"]
    assert list(disk.walk("")) == list(memory.walk("")) == expected
    assert list(disk.walk("a")) == list(memory.walk("a")) == expected[:2]
    assert list(disk) == expected and len(disk) == 3


def test_reading_and_folders(disk):
    memory = MemoryFiles(TREE)
    for files in (disk, memory):
        assert files["z.yaml"] == "é\n"
        assert files.is_dir("a/b") and files.is_dir("") and not files.is_dir("a/b/x.yaml")
        with pytest.raises(KeyError):
            files["a/missing.yaml"]
        with pytest.raises(KeyError):
            files["a/b"]  # a folder is not a file
    assert "a/b/x.yaml" in disk and "a/b" not in disk and 3 not in disk


@pytest.mark.parametrize("texts", [
    {"../k.yaml": "x"},  # leaves the folder
    {"/etc/k.yaml": "x"},  # absolute
    {"a/./b.yaml": "x"},  # not a normal path
    {"a": "x", "a/b.yaml": "y"},  # a file where another path needs a folder
])
def test_paths_no_folder_could_hold_are_linted_without_a_crash(texts):
    from cfgpatch.lint import lint_files

    tree = {"kustomization.yaml": "resources: [missing.yaml]\n", **texts}
    report = lint_files(MemoryFiles(tree))
    assert [t["builder"] for t in report.targets] == ["kube build"]
    assert [f.rule for f in report.findings] == ["build-failed"]


def test_in_memory_kustomizations_are_built_by_kube_build_in_memory():
    from cfgpatch.lint import lint_files

    tree = {"kustomization.yaml": "resources: [missing.yaml]\n"}
    exact = lint_files(MemoryFiles(tree))
    assert [t["builder"] for t in exact.targets] == ["kube build"]
    (failed,) = exact.findings
    # kustomize's own text, with no trace of where the files were mounted
    assert failed.rule == "build-failed" and "cfgpatch-lint-memory" not in failed.message
    assert "missing.yaml" in failed.message
