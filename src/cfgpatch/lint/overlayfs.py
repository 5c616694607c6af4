"""A file system with a few files laid over another one (for ``kube build``).

A Flux Kustomization's build is the folder's kustomization with ``spec.patches``
appended, or, in a folder without one, the kustomization kustomize-controller writes
there.  :class:`OverlayFileSystem` answers ``kube build`` from those few files first
and from the repository's file system (the disk, or the files in memory) for the rest;
nothing is written anywhere.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Mapping

from ..kube.kustomize.filesys import DIRECTORY, FILE, SYMLINK, TreeFileSystem


class OverlayFileSystem(TreeFileSystem):
    """``files`` (absolute POSIX paths -> bytes) over ``base`` (a
    :class:`~cfgpatch.kube.kustomize.filesys.TreeFileSystem`, or None for the disk)."""

    def __init__(self, files: Mapping[str, bytes], base: TreeFileSystem | None = None,
                 cwd: str = "/") -> None:
        self.files = dict(files)
        self.base = base
        self.cwd = cwd
        self.folders: dict[str, set[str]] = {}
        for path in self.files:
            while path != "/":
                parent, name = posixpath.split(path)
                self.folders.setdefault(parent, set()).add(name)
                path = parent

    def kind(self, path: str) -> str | None:
        if path in self.files:
            return FILE
        if self.base is not None:
            found = self.base.kind(path)
        elif os.path.islink(path):
            found = SYMLINK
        elif os.path.isdir(path):
            found = DIRECTORY
        else:
            found = FILE if os.path.isfile(path) else None
        if found is None and path in self.folders:
            return DIRECTORY
        return found

    def readlink(self, path: str) -> str:
        return self.base.readlink(path) if self.base is not None else os.readlink(path)

    def read_file(self, path: str) -> bytes:
        if path in self.files:
            return self.files[path]
        if self.base is not None:
            return self.base.read_file(path)
        with open(path, "rb") as handle:
            return handle.read()

    def entries(self, path: str) -> Iterable[str]:
        names = set(self.folders.get(path, ()))
        if self.base is not None:
            if self.base.kind(path) == DIRECTORY:
                names.update(self.base.entries(path))
        elif os.path.isdir(path):
            names.update(os.listdir(path))
        return sorted(names)


__all__ = ["OverlayFileSystem"]
