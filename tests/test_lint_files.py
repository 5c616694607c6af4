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


def test_written_holds_the_texts_as_a_folder_and_removes_it_afterwards():
    from cfgpatch.lint.files import written

    with written(MemoryFiles(TREE)) as root:
        assert root is not None and DiskFiles(root)["z.yaml"] == "é\n"
        assert sorted(DiskFiles(root).walk("")) == ["a/b/x.yaml", "a/kustomization.yaml",
                                                   "z.yaml"]
    import os
    assert not os.path.exists(root)


@pytest.mark.parametrize("texts", [
    {"../k.yaml": "x"},  # leaves the folder
    {"/etc/k.yaml": "x"},  # absolute
    {"a/./b.yaml": "x"},  # not a normal path
    {"a": "x", "a/b.yaml": "y"},  # a file where another path needs a folder
    {"k.yaml": "\udc80"},  # not UTF-8
])
def test_files_that_cannot_be_a_folder_are_not_written(texts):
    from cfgpatch.lint.files import written

    with written(MemoryFiles(texts)) as root:
        assert root is None


def test_in_memory_kustomizations_are_built_by_kube_build_unless_they_cannot_be_written():
    from cfgpatch.lint import lint_files

    tree = {"kustomization.yaml": "resources: [missing.yaml]\n"}
    exact = lint_files(MemoryFiles(tree))
    own = lint_files(MemoryFiles({**tree, "x/../y.yaml": "{}"}))
    assert [t["builder"] for t in exact.targets] == ["kube build"]
    assert [t["builder"] for t in own.targets] == ["lint"]
    (failed,) = exact.findings
    # kustomize's own text, with no trace of the private folder it was built in
    assert failed.rule == "build-failed" and "/tmp" not in failed.message
    assert "missing.yaml" in failed.message
