"""The file systems ``kube build`` reads a kustomization tree from.

The loader (:mod:`.loader`) asks a :class:`FileSystem` for the few facts kustomize's own
file loader asks the operating system: does a path exist (with or without following a
final symbolic link), is it a directory or a file, where does it lead once every
symbolic link is followed, what does a file hold, what does a directory list.  Paths
are absolute POSIX paths (``/repo/overlays/prod/kustomization.yaml``); errors are
:class:`OSError` with the operating system's ``strerror`` (the loader turns them into
kustomize's messages).

* :class:`DiskFileSystem`: the machine's files (the default; the messages name the
  absolute paths of this machine, as ``kubectl kustomize`` prints them).
* :class:`MemoryFileSystem`: a mapping of path to bytes (or text), with optional
  symbolic links and empty directories: for the page, for tests, for trees read from
  elsewhere.
* :class:`TreeFileSystem`: the base of both in-memory and other trees (a git tree, an
  archive): a subclass answers :meth:`~TreeFileSystem.kind`, :meth:`~TreeFileSystem.
  readlink`, :meth:`~TreeFileSystem.read_file` and :meth:`~TreeFileSystem.entries` for
  paths whose directories are real (no link on the way), and gets every other operation,
  symbolic links included, from here.

>>> fs = MemoryFileSystem({"/t/kustomization.yaml": "resources: [cm.yaml]\\n",
...                        "/t/cm.yaml": b"kind: ConfigMap\\n"}, symlinks={"/u": "t"})
>>> fs.is_dir("/t"), fs.is_file("/u/cm.yaml"), fs.realpath("/u/cm.yaml")
(True, True, '/t/cm.yaml')
>>> fs.list_dir("/t")
['cm.yaml', 'kustomization.yaml']
"""

from __future__ import annotations

import errno
import os
import posixpath

from ...protocols import Protocol, runtime_checkable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

#: What :meth:`TreeFileSystem.kind` answers for a path.
FILE, DIRECTORY, SYMLINK = "file", "dir", "symlink"
_MAX_LINKS = 40  # Linux's limit of symbolic links followed in one path


@runtime_checkable
class FileSystem(Protocol):
    """What ``kube build`` needs to know about files (absolute POSIX paths)."""

    def abspath(self, path: str) -> str:
        """``path`` made absolute (relative paths are relative to the working
        directory) and cleaned, without following links."""

    def lexists(self, path: str) -> bool:
        """Whether ``path`` exists, a broken symbolic link included."""

    def exists(self, path: str) -> bool:
        """Whether ``path`` exists once its symbolic links are followed."""

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory (symbolic links followed)."""

    def is_file(self, path: str) -> bool:
        """Whether ``path`` is a regular file (symbolic links followed)."""

    def is_symlink(self, path: str) -> bool:
        """Whether ``path`` itself is a symbolic link."""

    def realpath(self, path: str) -> str:
        """``path`` with every symbolic link followed (missing parts kept as written)."""

    def read_bytes(self, path: str) -> bytes:
        """The bytes of file ``path``; :class:`OSError` when it cannot be read."""

    def list_dir(self, path: str) -> list[str]:
        """The sorted names in directory ``path``; :class:`OSError` when it is none."""


class DiskFileSystem:
    """The machine's own files, read through :mod:`os`."""

    def abspath(self, path: str) -> str:
        return os.path.abspath(path)

    def lexists(self, path: str) -> bool:
        return os.path.lexists(path)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def is_file(self, path: str) -> bool:
        return os.path.isfile(path)

    def is_symlink(self, path: str) -> bool:
        return os.path.islink(path)

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def read_bytes(self, path: str) -> bytes:
        with open(path, "rb") as handle:
            return handle.read()

    def list_dir(self, path: str) -> list[str]:
        return sorted(os.listdir(path))


def _missing(path: str) -> OSError:
    return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)


class TreeFileSystem:
    """A file system answered from a tree held elsewhere (see the module docstring).

    Subclasses implement the four primitives for *physical* paths (absolute, cleaned,
    no symbolic link among their directories); this class follows links for them.
    """

    cwd = "/"

    # --- the primitives -------------------------------------------------------------

    def kind(self, path: str) -> str | None:
        """:data:`FILE`, :data:`DIRECTORY`, :data:`SYMLINK` or None (no such entry)."""
        raise NotImplementedError

    def readlink(self, path: str) -> str:
        """The target of symbolic link ``path``, as written (relative to its directory
        or absolute)."""
        raise NotImplementedError

    def read_file(self, path: str) -> bytes:
        """The bytes of the regular file ``path``."""
        raise NotImplementedError

    def entries(self, path: str) -> Iterable[str]:
        """The names in the directory ``path``."""
        raise NotImplementedError

    # --- the protocol ---------------------------------------------------------------

    def abspath(self, path: str) -> str:
        return posixpath.normpath(posixpath.join(self.cwd, path))

    def lexists(self, path: str) -> bool:
        return self._entry_kind(path) is not None

    def exists(self, path: str) -> bool:
        return self._final_kind(path) is not None

    def is_dir(self, path: str) -> bool:
        return self._final_kind(path) == DIRECTORY

    def is_file(self, path: str) -> bool:
        return self._final_kind(path) == FILE

    def is_symlink(self, path: str) -> bool:
        return self._entry_kind(path) == SYMLINK

    def realpath(self, path: str) -> str:
        return posixpath.normpath(self._real("/", self._absolute(path), {})[0])

    def read_bytes(self, path: str) -> bytes:
        physical = self._resolve(self._absolute(path))
        if physical is None:
            raise _missing(path)
        kind = self.kind(physical)
        if kind == DIRECTORY:
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        return self.read_file(physical)

    def list_dir(self, path: str) -> list[str]:
        physical = self._resolve(self._absolute(path))
        if physical is None:
            raise _missing(path)
        if self.kind(physical) != DIRECTORY:
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), path)
        return sorted(self.entries(physical))

    # --- following links --------------------------------------------------------------

    def _absolute(self, path: str) -> str:
        """``path`` made absolute, not cleaned (``..`` after a link leaves the link's
        target, as the operating system reads it)."""
        return path if path.startswith("/") else posixpath.join(self.cwd, path)

    def _final_kind(self, path: str) -> str | None:
        physical = self._resolve(self._absolute(path))
        return None if physical is None else self.kind(physical)

    def _entry_kind(self, path: str) -> str | None:
        """The kind of ``path`` itself (a final link is not followed)."""
        parent, name = posixpath.split(self._absolute(path).rstrip("/") or "/")
        if name in ("", ".", ".."):
            return self._final_kind(path)
        physical = self._resolve(parent)
        if physical is None or self.kind(physical) != DIRECTORY:
            return None
        return self.kind(posixpath.join(physical, name))

    def _resolve(self, path: str) -> str | None:
        """The physical path of absolute ``path``, or None when a part of it is missing,
        is no directory, or its links loop."""
        parts = [p for p in path.split("/") if p]
        current, followed = "/", 0
        while parts:
            part = parts.pop(0)
            if part == ".":
                continue
            if part == "..":
                current = posixpath.dirname(current)
                continue
            candidate = posixpath.join(current, part)
            kind = self.kind(candidate)
            if kind == SYMLINK:
                followed += 1
                if followed > _MAX_LINKS:
                    return None
                target = self.readlink(candidate)
                parts = [p for p in target.split("/") if p] + parts
                current = "/" if target.startswith("/") else current
                continue
            if kind is None or (kind == FILE and parts):
                return None
            current = candidate
        return current

    def _real(self, path: str, rest: str, seen: dict[str, str | None]) -> tuple[str, bool]:
        """``os.path.realpath``'s walk (missing parts kept as written, a loop left where
        it starts): ``rest`` followed from the physical ``path``; whether it resolved."""
        if rest.startswith("/"):
            path, rest = "/", rest.lstrip("/")
        names = rest.split("/")
        for index, name in enumerate(names):
            if name in ("", "."):
                continue
            if name == "..":
                path = posixpath.dirname(path)
                continue
            candidate = posixpath.join(path, name)
            if self.kind(candidate) != SYMLINK:
                path = candidate
                continue
            if candidate in seen:
                known = seen[candidate]
                if known is None:  # a loop
                    return posixpath.join(candidate, *names[index + 1:]), False
                path = known
                continue
            seen[candidate] = None
            path, ok = self._real(path, self.readlink(candidate), seen)
            if not ok:
                return posixpath.join(path, *names[index + 1:]), False
            seen[candidate] = path
        return path, True


class MemoryFileSystem(TreeFileSystem):
    """Files held in memory: ``{path: bytes or text}`` (text is stored as UTF-8).

    Relative paths are relative to ``cwd`` (``/`` by default); the directories of every
    file, link and ``directories`` entry exist.  ``symlinks`` maps a link's path to its
    target as written (relative to the link's directory, or absolute).
    """

    def __init__(self, files: Mapping[str, bytes | str], *,
                 symlinks: Mapping[str, str] | None = None,
                 directories: Iterable[str] = (), cwd: str = "/") -> None:
        self.cwd = posixpath.normpath(posixpath.join("/", cwd))
        self._files: dict[str, bytes] = {}
        self._links: dict[str, str] = {}
        self._dirs: dict[str, set[str]] = {"/": set()}
        for path, data in files.items():
            self._files[self._add(path)] = data.encode("utf-8") if isinstance(data, str) else data
        for path, target in (symlinks or {}).items():
            self._links[self._add(path)] = target
        for path in directories:
            self._add_directory(self.abspath(path))

    def _add(self, path: str) -> str:
        absolute = self.abspath(path)
        parent, name = posixpath.split(absolute)
        self._add_directory(parent)
        self._dirs[parent].add(name)
        return absolute

    def _add_directory(self, path: str) -> None:
        if path in self._dirs:
            return
        self._dirs[path] = set()
        parent, name = posixpath.split(path)
        self._add_directory(parent)
        self._dirs[parent].add(name)

    def kind(self, path: str) -> str | None:
        if path in self._files:
            return FILE
        if path in self._links:
            return SYMLINK
        if path in self._dirs:
            return DIRECTORY
        return None

    def readlink(self, path: str) -> str:
        return self._links[path]

    def read_file(self, path: str) -> bytes:
        return self._files[path]

    def entries(self, path: str) -> Iterable[str]:
        return self._dirs.get(path, ())


def default() -> FileSystem:
    """The file system of a build that names none: the disk."""
    return DiskFileSystem()
