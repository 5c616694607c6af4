"""Reading a kustomization tree (from disk or any :class:`.filesys.FileSystem`) the way
kustomize's file loader does.

A :class:`Loader` is rooted at one directory (a kustomization or a component) and
remembers the loader that referred to it, so that a base which is the directory itself
or one of the directories above it in the chain is refused (kustomize's "cycle
detected").  Files are read only from the root and below (kustomize's default load
restrictor); other kustomizations may live anywhere.  What it refuses is a
:class:`~cfgpatch.kube.problems.Kustomize` record (a missing path, a file outside the
root, a cycle ...), with the absolute paths of this machine; ``compat.kustomize`` words
it as ``kubectl kustomize`` prints it.

URLs and git references (remote bases) are not read: :func:`is_remote` tells them
apart and the build refuses them as not modelled.
"""

from __future__ import annotations

import posixpath

from ...errors import KUSTOMIZE_ERROR
from ...lazy_pattern import lazily
from ...records import dataclass, field
from ..io.filebytes import UTF16_MARKS
from ..problems import Kustomize, ProblemError
from .filesys import DiskFileSystem, FileSystem

ROOT_ONLY, UNRESTRICTED = "LoadRestrictionsRootOnly", "LoadRestrictionsNone"
LOAD_RESTRICTORS = (ROOT_ONLY, UNRESTRICTED)
KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")

_REMOTE = lazily(r"^(https?://|git::|git@|ssh://|file://|github\.com/|gitlab\.com/|"
                     r"bitbucket\.org/)|\?ref=|//\S*\?|\.git(/|$|\?)")


def is_remote(path: str) -> bool:
    """Whether ``path`` names a remote base or file (a URL or a git repository).

    >>> [is_remote(p) for p in ("../base", "https://x.example/a.yaml",
    ...  "github.com/acme/repo//base?ref=v1", "deploy.yaml")]
    [False, True, True, False]
    """
    return bool(_REMOTE.search(path))


class LoaderError(ProblemError):
    """A file or directory kustomize cannot load (``problem``: a
    :class:`~cfgpatch.kube.problems.Kustomize` record; ``message``: kustomize's text)."""

    default_code = KUSTOMIZE_ERROR


@dataclass
class Loader:
    """A root directory (absolute, symlinks resolved), the loader that referred here and
    the file system both live on (:mod:`.filesys`)."""

    root: str
    referrer: Loader | None = None
    fs: FileSystem = field(default_factory=DiskFileSystem, repr=False, compare=False)
    #: kustomize's load restrictor: files only from the root and below (RootOnly), or
    #: from anywhere (``--load-restrictor LoadRestrictionsNone``).
    restricted: bool = True

    @classmethod
    def at(cls, directory: str, fs: FileSystem | None = None,
           load_restrictor: str = ROOT_ONLY) -> Loader:
        """The loader of the top directory of a build (on the disk unless ``fs``)."""
        if load_restrictor not in LOAD_RESTRICTORS:
            raise LoaderError(Kustomize("illegal-load-restrictor", name=load_restrictor,
                                        detail=" ".join(LOAD_RESTRICTORS)))
        fs = fs if fs is not None else DiskFileSystem()
        absolute = fs.abspath(directory)
        if not fs.exists(absolute):
            raise LoaderError(Kustomize("not-a-valid-directory",
                                        cause=_evalsymlink_error(fs, absolute)))
        real = fs.realpath(absolute)
        if not fs.is_dir(real):
            raise LoaderError(Kustomize("not-a-directory", path=real))
        return cls(real, None, fs, load_restrictor == ROOT_ONLY)

    def join(self, path: str) -> str:
        return posixpath.normpath(posixpath.join(self.root, path))

    # --- files ------------------------------------------------------------------------

    def file_path(self, path: str) -> str:
        """The absolute path of file ``path`` (kustomize's RestrictionRootOnly)."""
        fs = self.fs
        joined = path if posixpath.isabs(path) else self.join(path)
        if not self.restricted:  # kustomize's RestrictionNone: the path as it is
            return joined
        if not fs.lexists(joined):
            raise LoaderError(_evalsymlink_error(fs, joined))
        real = fs.realpath(joined)
        if fs.is_dir(real):
            raise LoaderError(Kustomize("must-resolve-to-file", path=joined))
        folder = posixpath.dirname(real)
        if not _has_prefix(folder, self.root):
            raise LoaderError(Kustomize("file-outside-root", path=joined, detail=self.root))
        return real

    def read(self, path: str) -> tuple[str, str]:
        """The text of file ``path`` and its absolute path."""
        real = self.file_path(path)
        return _text(self._bytes(real)), real

    def read_bytes(self, path: str) -> tuple[bytes, str]:
        real = self.file_path(path)
        return self._bytes(real), real

    def _bytes(self, real: str) -> bytes:
        try:
            return self.fs.read_bytes(real)
        except OSError as err:
            reason = (err.strerror or str(err)).lower()
            verb = "read" if isinstance(err, IsADirectoryError) else "open"
            raise LoaderError(Kustomize("unreadable-file", path=real, name=verb,
                                        detail=reason)) from None

    def exists_file(self, path: str) -> bool:
        joined = path if posixpath.isabs(path) else self.join(path)
        return self.fs.is_file(joined)

    # --- directories ------------------------------------------------------------------

    def new(self, path: str) -> Loader:
        """The loader of directory ``path`` (a base or a component)."""
        if not path:
            raise LoaderError(Kustomize("empty-root"))
        fs = self.fs
        joined = path if posixpath.isabs(path) else self.join(path)
        if not fs.lexists(joined):
            raise LoaderError(Kustomize("not-a-valid-directory",
                                        cause=_evalsymlink_error(fs, joined)))
        real = fs.realpath(joined)
        if not fs.is_dir(real):  # kustomize names the path as joined, links unresolved
            raise LoaderError(Kustomize("not-a-directory", path=joined))
        self._refuse_cycle(real)
        return Loader(real, self, fs, self.restricted)

    def _refuse_cycle(self, candidate: str) -> None:
        loader: Loader | None = self
        while loader is not None:
            if _has_prefix(loader.root, candidate):
                raise LoaderError(Kustomize("cycle", path=candidate, detail=loader.root))
            loader = loader.referrer

    def kustomization_file(self) -> str:
        """The one kustomization file of the root (kustomize's LoadKustFile)."""
        found = [name for name in KUSTOMIZATION_FILES if _loads(self, name)]
        if not found:
            raise LoaderError(Kustomize("no-kustomization", path=self.root))
        if len(found) > 1:
            raise LoaderError(Kustomize("many-kustomizations", path=self.root))
        return posixpath.join(self.root, found[0])


def _loads(loader: Loader, name: str) -> bool:
    """Whether kustomize's loader reads file ``name`` (a link out of the root does not
    count as a kustomization file unless the load restrictor allows it: measured)."""
    try:
        loader.read_bytes(name)
    except LoaderError:
        return False
    return True


def _has_prefix(directory: str, prefix: str) -> bool:
    if prefix == "/" or directory == prefix:
        return True
    return directory.startswith(prefix + "/")


def _evalsymlink_error(fs: FileSystem, path: str) -> Kustomize:
    """``path`` does not exist (``detail``: the first of its directories that does not)."""
    missing = path
    parent = posixpath.dirname(path)
    while parent and parent != missing and not fs.lexists(parent):
        missing, parent = parent, posixpath.dirname(parent)
    return Kustomize("no-such-path", path=path, detail=missing)


def _text(data: bytes) -> str:
    """A file's text as kustomize's YAML readers see it: UTF-16 after its byte order mark
    (go-yaml decodes it), anything else as UTF-8 with the bytes that are not kept as
    ``surrogateescape`` characters (the readers refuse them in go-yaml's words, as they
    do a UTF-16 file that does not decode)."""
    for mark, codec in UTF16_MARKS:
        if data.startswith(mark):
            try:
                return data[len(mark):].decode(codec)
            except UnicodeDecodeError:
                break
    return data.decode("utf-8", errors="surrogateescape")
