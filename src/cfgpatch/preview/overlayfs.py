"""A file system with a few files added in memory over another (disk or git tree).

The preview builds what a Flux ``Kustomization`` makes of a folder without touching it:
the kustomization kustomize-controller generates for a folder that has none (every
manifest below it, and each sub-folder that has a kustomization), and the overlay that
carries the Flux object's ``targetNamespace``, ``namePrefix``, ``patches``...  Paths
the overlay holds answer from memory; every other path asks the file system below.
"""

from __future__ import annotations

import errno
import os
import posixpath

from ..kube.kustomize.filesys import DiskFileSystem, FileSystem


class OverlayFileSystem:
    def __init__(self, below: FileSystem | None, files: dict[str, str]) -> None:
        self.below: FileSystem = below if below is not None else DiskFileSystem()
        self.files = {posixpath.normpath(p): t.encode("utf-8") for p, t in files.items()}
        self.dirs: dict[str, set[str]] = {}
        for path in self.files:
            parent, name = posixpath.split(path)
            while True:
                self.dirs.setdefault(parent, set()).add(name)
                if parent == "/" or not parent:
                    break
                parent, name = posixpath.split(parent)

    def _mine(self, path: str) -> str | None:
        real = posixpath.normpath(self.below.abspath(path))
        return real if real in self.files or real in self.dirs else None

    def abspath(self, path: str) -> str:
        return self.below.abspath(path)

    def lexists(self, path: str) -> bool:
        return self._mine(path) is not None or self.below.lexists(path)

    def exists(self, path: str) -> bool:
        return self._mine(path) is not None or self.below.exists(path)

    def is_dir(self, path: str) -> bool:
        mine = self._mine(path)
        return (mine in self.dirs) if mine is not None else self.below.is_dir(path)

    def is_file(self, path: str) -> bool:
        mine = self._mine(path)
        return (mine in self.files) if mine is not None else self.below.is_file(path)

    def is_symlink(self, path: str) -> bool:
        return False if self._mine(path) is not None else self.below.is_symlink(path)

    def realpath(self, path: str) -> str:
        mine = self._mine(path)
        return mine if mine is not None else self.below.realpath(path)

    def read_bytes(self, path: str) -> bytes:
        mine = self._mine(path)
        if mine is None:
            return self.below.read_bytes(path)
        if mine not in self.files:
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        return self.files[mine]

    def list_dir(self, path: str) -> list[str]:
        mine = self._mine(path)
        below: list[str] = []
        if self.below.is_dir(path):
            below = self.below.list_dir(path)
        if mine is None:
            return below
        return sorted(set(below) | self.dirs.get(mine, set()))
