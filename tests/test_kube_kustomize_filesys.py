"""kube build reads through a file system (kustomize/filesys.py).

Every recorded tree of the corpus, copied into a :class:`MemoryFileSystem` at the same
absolute paths, builds exactly as it does from disk (output, warnings, errors with
their paths); the in-memory tree follows symbolic links as the disk does.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.filesys import (
    DiskFileSystem,
    FileSystem,
    MemoryFileSystem,
    TreeFileSystem,
)
from kustomize_corpus import TREES, builds

BUILDS = builds()


def memory_copy(root: Path) -> MemoryFileSystem:
    """The files, links and directories under ``root``, at their absolute paths."""
    files, links, dirs = {}, {}, []
    for folder, subdirs, names in os.walk(root):
        dirs.append(folder)
        for name in subdirs + names:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                links[path] = os.readlink(path)
            elif os.path.isfile(path):
                files[path] = Path(path).read_bytes()
    return MemoryFileSystem(files, symlinks=links, directories=dirs, cwd=os.getcwd())


def _answer(directory: str, fs: FileSystem | None) -> tuple[int, str, str, list[str]]:
    try:
        result = build(directory, fs=fs)
    except BuildError as err:
        return 1, "", err.message, err.warnings
    return 0, result.yaml(), "", result.warnings


@pytest.mark.parametrize("case", BUILDS, ids=[b.id for b in BUILDS])
def test_a_tree_in_memory_builds_as_on_disk(case):
    root = (TREES / case.tree).resolve()
    directory = str(case.directory.resolve())
    assert _answer(directory, memory_copy(root)) == _answer(directory, None)


def test_both_file_systems_satisfy_the_protocol():
    assert isinstance(DiskFileSystem(), FileSystem)
    assert isinstance(MemoryFileSystem({}), FileSystem)


CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {}\n"


def test_a_memory_tree_builds_with_relative_paths_from_its_working_directory():
    fs = MemoryFileSystem({"base/kustomization.yaml": "resources: [cm.yaml]\n",
                           "base/cm.yaml": CM.format("a"),
                           "/repo/prod/kustomization.yaml": "namePrefix: p-\n"
                                                           "resources: [../base]\n"},
                          cwd="/repo")
    assert build("prod", fs=fs).yaml() == CM.format("p-a")
    assert fs.list_dir("/") == ["repo"] and fs.list_dir(".") == ["base", "prod"]


def test_messages_name_the_memory_paths():
    fs = MemoryFileSystem({"/t/kustomization.yaml": "resources: [gone.yaml]\n"})
    with pytest.raises(BuildError) as caught:
        build("/t", fs=fs)
    assert "lstat /t/gone.yaml: no such file or directory" in caught.value.message
    with pytest.raises(BuildError) as caught:
        build("/nowhere/x", fs=fs)
    assert caught.value.message == (
        "must build at directory: not a valid directory: evalsymlink failure on "
        "'/nowhere/x' : lstat /nowhere: no such file or directory")


def test_links_are_followed_and_resolved_as_the_disk_resolves_them(tmp_path):
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "e" / "f.txt").write_bytes(b"x")
    links = {"a": "d/e", "b": str(tmp_path / "a"), "c": "b/../e", "loop": "loop",
             "broken": "nowhere", "d/up": ".."}
    for name, target in links.items():
        os.symlink(target, tmp_path / name)
    fs = memory_copy(tmp_path)
    disk = DiskFileSystem()
    probes = ["a", "b", "c", "loop", "broken", "a/f.txt", "b/f.txt", "c/f.txt", "d/up/d/e",
              "a/f.txt/x", "broken/x", "d/up/a/../e", "nothing/..", "d/e/f.txt"]
    for probe in probes:
        path = str(tmp_path / probe)
        for ask in ("lexists", "exists", "is_dir", "is_file", "is_symlink", "realpath"):
            assert getattr(fs, ask)(path) == getattr(disk, ask)(path), (probe, ask)
    assert fs.read_bytes(str(tmp_path / "b" / "f.txt")) == b"x"
    assert fs.list_dir(str(tmp_path / "a")) == ["f.txt"]
    with pytest.raises(FileNotFoundError):
        fs.read_bytes(str(tmp_path / "broken"))
    with pytest.raises(IsADirectoryError):
        fs.read_bytes(str(tmp_path / "a"))
    with pytest.raises(NotADirectoryError):
        fs.list_dir(str(tmp_path / "d" / "e" / "f.txt"))


class _Counting(TreeFileSystem):
    """A tree answered by primitives only (as a git tree would be)."""

    def __init__(self, inner: MemoryFileSystem) -> None:
        self.inner, self.calls = inner, 0

    def kind(self, path):
        self.calls += 1
        return self.inner.kind(path)

    def readlink(self, path):
        return self.inner.readlink(path)

    def read_file(self, path):
        return self.inner.read_file(path)

    def entries(self, path):
        return self.inner.entries(path)


def test_a_subclass_answering_four_primitives_builds():
    inner = MemoryFileSystem({"/t/kustomization.yaml": "resources: [cm.yaml]\n",
                              "/t/cm.yaml": CM.format("a")}, symlinks={"/u": "t"})
    fs = _Counting(inner)
    assert build("/u", fs=fs).yaml() == CM.format("a")
    assert fs.calls > 0


_NAMES = st.sampled_from(["a", "b", "c", "..", "."])


@settings(max_examples=60, deadline=None)
@given(links=st.dictionaries(st.sampled_from(["a", "b", "c", "x/l"]),
                             st.lists(_NAMES, min_size=1, max_size=3).map("/".join),
                             max_size=3),
       probe=st.lists(_NAMES, min_size=1, max_size=4).map("/".join))
def test_memory_realpath_agrees_with_the_disk(tmp_path_factory, links, probe):
    root = tmp_path_factory.mktemp("links")
    (root / "x").mkdir()
    (root / "x" / "f").write_bytes(b"")
    for name, target in links.items():
        os.symlink(target, root / name)
    fs, disk = memory_copy(root), DiskFileSystem()
    path = str(root / probe)
    for ask in ("realpath", "exists", "lexists", "is_dir", "is_file"):
        assert getattr(fs, ask)(path) == getattr(disk, ask)(path), ask
