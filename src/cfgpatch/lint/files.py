"""The files lint reads: a repository on disk or texts in memory, by relative path.

Both are read-only mappings from repository-relative POSIX paths (``apps/web/kustomization.yaml``)
to texts, with ``is_dir(path)`` and ``walk(path)`` (every file under a folder, sorted).
:class:`DiskFiles` reads lazily and remembers what it read (the human format quotes
lines from it); :class:`MemoryFiles` holds texts given to it (tests, the page).

>>> files = MemoryFiles({"a/kustomization.yaml": "resources: []", "a/b/x.yaml": "{}"})
>>> files.is_dir("a/b"), list(files.walk("a"))
(True, ['a/b/x.yaml', 'a/kustomization.yaml'])
"""

from __future__ import annotations

import os
from collections.abc import Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

#: Folders never walked (version control, caches, virtual environments).
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__",
                          ".tox", ".mypy_cache", ".pytest_cache"})


def _under(directory: str, path: str) -> bool:
    return not directory or path == directory or path.startswith(directory + "/")


class MemoryFiles(Mapping):
    """Texts by path."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._texts = dict(texts)

    def __getitem__(self, path: str) -> str:
        return self._texts[path]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._texts))

    def __len__(self) -> int:
        return len(self._texts)

    def is_dir(self, path: str) -> bool:
        prefix = path + "/" if path else ""
        return any(name.startswith(prefix) for name in self._texts)

    def walk(self, directory: str = "") -> Iterator[str]:
        for name in sorted(self._texts):
            if _under(directory, name) and not any(
                    part in SKIPPED_DIRS for part in name.split("/")[:-1]):
                yield name


class DiskFiles(Mapping):
    """The files under ``root`` (read on first use, as UTF-8)."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self._texts: dict[str, str] = {}

    def _real(self, path: str) -> str:
        return os.path.join(self.root, *path.split("/")) if path else self.root

    def __getitem__(self, path: str) -> str:
        if path not in self._texts:
            real = self._real(path)
            if not os.path.isfile(real):
                raise KeyError(path)
            with open(real, encoding="utf-8") as handle:
                self._texts[path] = handle.read()
        return self._texts[path]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and (path in self._texts or os.path.isfile(
            self._real(path)))

    def __iter__(self) -> Iterator[str]:
        return self.walk("")

    def __len__(self) -> int:
        return sum(1 for _ in self.walk(""))

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(self._real(path))

    def walk(self, directory: str = "") -> Iterator[str]:
        base = self._real(directory)
        found = []
        for folder, dirs, names in os.walk(base):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
            rel = os.path.relpath(folder, self.root).replace(os.sep, "/")
            rel = "" if rel == "." else rel
            found += [f"{rel}/{name}" if rel else name for name in names]
        return iter(sorted(found))


class TreeFiles(Mapping):
    """The files of another tree (a git commit's: :class:`cfgpatch.preview.gittree.GitTree`
    or anything with ``paths()``, ``read_text(path)`` and ``is_dir(path)``), seen from
    its folder ``sub`` (the linted root inside the repository, ``""`` for its top).

    ``build_fs``: the file system ``kube build`` reads the tree through, mounted at
    ``lint.kbuild.MEMORY_ROOT`` (None: lint holds every file in memory)."""

    def __init__(self, tree: Any, sub: str = "", build_fs: Any = None) -> None:
        self.tree = tree
        self.sub = sub.strip("/")
        self.build_fs = build_fs
        prefix = self.sub + "/" if self.sub else ""
        self._names = sorted(p[len(prefix):] for p in tree.paths() if p.startswith(prefix))
        self._set = set(self._names)

    def _full(self, path: str) -> str:
        return f"{self.sub}/{path}" if self.sub and path else (path or self.sub)

    def __getitem__(self, path: str) -> str:
        if path not in self._set:
            raise KeyError(path)
        try:
            return self.tree.read_text(self._full(path))
        except FileNotFoundError:
            raise KeyError(path) from None

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and path in self._set

    def __iter__(self) -> Iterator[str]:
        return self.walk("")

    def __len__(self) -> int:
        return len(self._names)

    def is_dir(self, path: str) -> bool:
        return self.tree.is_dir(self._full(path))

    def walk(self, directory: str = "") -> Iterator[str]:
        for name in self._names:
            if _under(directory, name) and not any(
                    part in SKIPPED_DIRS for part in name.split("/")[:-1]):
                yield name
