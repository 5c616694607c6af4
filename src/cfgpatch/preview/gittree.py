"""A git repository read without a checkout: the tree of a ref, blobs, changed files.

:class:`GitRepo` runs ``git`` (the only module of the preview that starts processes).
:class:`GitTree` is the file tree of one commit: one ``git ls-tree -r -z`` lists it and
``git cat-file --batch`` reads the blobs (all the build may need, in one run), so no
work tree is touched.  :class:`GitTreeFileSystem` mounts a commit at the repository's
own path for ``kube build`` (:mod:`cfgpatch.kube.kustomize.filesys`): symbolic links
(mode 120000) are links, submodules are absent, and kustomize's messages name the same
paths as a build of the checkout would.  ``materialize`` writes a tree to a folder (for
running ``kubectl kustomize`` on it in tests and measurements).
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import subprocess
from dataclasses import dataclass, field

from ..errors import INVALID_INPUT, InvalidInput
from ..kube.kustomize.filesys import DIRECTORY, FILE, SYMLINK, TreeFileSystem

WORKTREE = "WORKTREE"  # the head ref that means "the working tree, as it is"
MANIFESTS = (".yaml", ".yml", ".json", "Kustomization")  # what entry points are read from


class GitError(InvalidInput):
    """git refused (an unknown ref, not a repository): its own message."""

    default_code = INVALID_INPUT


@dataclass
class GitRepo:
    root: str

    @classmethod
    def at(cls, path: str) -> GitRepo:
        proc = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise GitError(f"{path}: not inside a git repository ({proc.stderr.strip()})")
        return cls(proc.stdout.strip())

    def git(self, *args: str, input: bytes | None = None, check: bool = True) -> bytes:
        proc = subprocess.run(["git", "-C", self.root, *args], input=input,
                              capture_output=True)
        if check and proc.returncode != 0:
            raise GitError(f"git {' '.join(args[:3])}: "
                           f"{proc.stderr.decode('utf-8', 'replace').strip()}")
        return proc.stdout

    def text(self, *args: str, check: bool = True) -> str:
        return self.git(*args, check=check).decode("utf-8", "surrogateescape")

    def commit(self, ref: str) -> str:
        return self.text("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}",
                         check=False).strip() or _unknown(ref)

    def default_branch(self) -> str:
        """origin's HEAD, else main or master (the first that exists)."""
        head = self.text("symbolic-ref", "--quiet", "refs/remotes/origin/HEAD", check=False)
        if head.strip():
            return head.strip().removeprefix("refs/remotes/")
        for name in ("main", "master", "origin/main", "origin/master"):
            if self.text("rev-parse", "--verify", "--quiet", name, check=False).strip():
                return name
        return "HEAD"

    def merge_base(self, a: str, b: str) -> str:
        found = self.text("merge-base", a, b, check=False).strip()
        return found or self.commit(a)

    def changed_files(self, base: str, head: str) -> set[str]:
        """Paths (relative to the root) that differ between two commits, or between a
        commit and the working tree (``head`` = :data:`WORKTREE`, untracked files
        included)."""
        if head == WORKTREE:
            out = self.git("diff", "--name-only", "-z", "--no-renames", base)
            untracked = self.git("ls-files", "--others", "--exclude-standard", "-z")
            names = out.split(b"\0") + untracked.split(b"\0")
        else:
            names = self.git("diff", "--name-only", "-z", "--no-renames", base, head).split(b"\0")
        return {n.decode("utf-8", "surrogateescape") for n in names if n}

    def commits(self, base: str, head: str) -> list[str]:
        """The commits of base..head, oldest first (first parents)."""
        out = self.text("rev-list", "--reverse", "--first-parent", f"{base}..{head}")
        return out.split()

    def remote_urls(self) -> list[str]:
        """The URLs of the clone's remotes (how Argo CD names this repository)."""
        text = self.text("config", "--get-regexp", r"^remote\..*\.url$", check=False)
        return [line.split(" ", 1)[1] for line in text.splitlines() if " " in line]

    def tree(self, ref: str) -> GitTree:
        return GitTree.read(self, self.commit(ref))


def _unknown(ref: str) -> str:
    raise GitError(f"unknown git revision {ref!r}")


@dataclass
class GitTree:
    """The files of one commit: path -> (mode, blob id); blobs read on demand."""

    repo: GitRepo
    commit: str
    entries: dict[str, tuple[str, str]] = field(default_factory=dict)
    _blobs: dict[str, bytes] = field(default_factory=dict)
    _manifests_read: bool = False

    @classmethod
    def read(cls, repo: GitRepo, commit: str) -> GitTree:
        listing = repo.git("ls-tree", "-r", "-z", "--full-tree", commit)
        entries: dict[str, tuple[str, str]] = {}
        for record in listing.split(b"\0"):
            if not record:
                continue
            meta, _, path = record.partition(b"\t")
            mode, kind, sha = meta.decode().split()
            if kind == "blob":
                entries[path.decode("utf-8", "surrogateescape")] = (mode, sha)
        return cls(repo, commit, entries)

    # --- the file-system view ---------------------------------------------------------

    def paths(self) -> list[str]:
        return sorted(self.entries)

    def is_file(self, path: str) -> bool:
        return _norm(path) in self.entries

    def is_dir(self, path: str) -> bool:
        prefix = _norm(path)
        if prefix in ("", "."):
            return True
        prefix += "/"
        return any(p.startswith(prefix) for p in self.entries)

    def read_bytes(self, path: str) -> bytes:
        path = _norm(path)
        if path not in self.entries:
            raise FileNotFoundError(path)
        sha = self.entries[path][1]
        if sha not in self._blobs:
            self.prefetch([path])
        if sha not in self._blobs:
            raise FileNotFoundError(f"{path}: blob {sha} is not in this clone")
        return self._blobs[sha]

    def read_text(self, path: str) -> str:
        return self.read_bytes(path).decode("utf-8", "surrogateescape")

    def prefetch(self, paths: list[str]) -> None:
        """Read the blobs of ``paths`` with one ``git cat-file --batch``."""
        wanted = list(dict.fromkeys(self.entries[p][1] for p in paths
                                    if p in self.entries
                                    and self.entries[p][1] not in self._blobs))
        if not wanted:
            return
        out = self.repo.git("cat-file", "--batch", input=("\n".join(wanted) + "\n").encode())
        at = 0
        for sha in wanted:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            if len(header) < 3:  # "<sha> missing": not in this clone (a partial one)
                at = end + 1
                continue
            size = int(header[2])
            self._blobs[sha] = out[end + 1:end + 1 + size]
            at = end + 1 + size + 1

    def prefetch_manifests(self) -> None:
        """Read every YAML and JSON file and kustomization at once (what entry points
        and builds read most)."""
        if not self._manifests_read:
            self.prefetch([p for p in self.entries if p.endswith(MANIFESTS)])
            self._manifests_read = True

    def materialize(self, target: str, under: tuple[str, ...] = ("",)) -> None:
        """Write the files (of the folders ``under``) into ``target``."""
        chosen = [p for p in self.entries
                  if any(not u or p == u or p.startswith(u.rstrip("/") + "/") for u in under)]
        self.prefetch(chosen)
        for path in chosen:
            mode, sha = self.entries[path]
            full = os.path.join(target, *path.split("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            data = self._blobs.get(sha)
            if data is None:  # not in a partial clone: left out, as a build sees it
                continue
            if mode == "120000":
                with contextlib.suppress(OSError):
                    os.symlink(data.decode("utf-8", "surrogateescape"), full)
                continue
            with open(full, "wb") as handle:
                handle.write(data)
            if mode == "100755":
                os.chmod(full, 0o755)


class GitTreeFileSystem(TreeFileSystem):
    """One commit's tree, mounted at ``mount`` (an absolute path), for ``kube build``."""

    def __init__(self, tree: GitTree, mount: str) -> None:
        self.tree = tree
        self.mount = posixpath.normpath(mount)
        self.cwd = self.mount
        self._children: dict[str, set[str]] = {"": set()}
        for path in tree.entries:
            parent = ""
            for part in path.split("/")[:-1]:
                child = f"{parent}/{part}" if parent else part
                self._children.setdefault(parent, set()).add(part)
                self._children.setdefault(child, set())
                parent = child
            self._children.setdefault(parent, set()).add(path.rsplit("/", 1)[-1])
        tree.prefetch_manifests()

    def _rel(self, path: str) -> str | None:
        if path == self.mount:
            return ""
        if path.startswith(self.mount + "/"):
            return path[len(self.mount) + 1:]
        return None

    def kind(self, path: str) -> str | None:
        rel = self._rel(path)
        if rel is None:
            above = self.mount.startswith(path.rstrip("/") + "/") or path == "/"
            return DIRECTORY if above else None
        if rel in self.tree.entries:
            return SYMLINK if self.tree.entries[rel][0] == "120000" else FILE
        return DIRECTORY if rel in self._children else None

    def readlink(self, path: str) -> str:
        return self.tree.read_bytes(self._rel(path) or "").decode("utf-8", "surrogateescape")

    def read_file(self, path: str) -> bytes:
        return self.tree.read_bytes(self._rel(path) or "")

    def entries(self, path: str) -> list[str]:
        rel = self._rel(path)
        if rel is None:
            rest = self.mount[len(path.rstrip("/")) + 1:] if self.kind(path) else ""
            return [rest.split("/")[0]] if rest else []
        return sorted(self._children.get(rel, ()))


def _norm(path: str) -> str:
    path = posixpath.normpath(path.replace(os.sep, "/")) if path else ""
    return "" if path == "." else path.lstrip("/")


@dataclass
class WorkTree:
    """The working tree as git sees it: tracked and untracked files (not ignored)."""

    repo: GitRepo
    commit: str = WORKTREE

    def __post_init__(self) -> None:
        listing = self.repo.git("ls-files", "-z", "--cached", "--others", "--exclude-standard")
        self._paths = sorted({p.decode("utf-8", "surrogateescape") for p in listing.split(b"\0")
                              if p and os.path.lexists(os.path.join(
                                  self.repo.root, p.decode("utf-8", "surrogateescape")))})
        self._set = set(self._paths)

    def paths(self) -> list[str]:
        return self._paths

    def is_file(self, path: str) -> bool:
        return _norm(path) in self._set

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(os.path.join(self.repo.root, _norm(path)))

    def read_bytes(self, path: str) -> bytes:
        with open(os.path.join(self.repo.root, _norm(path)), "rb") as handle:
            return handle.read()

    def read_text(self, path: str) -> str:
        return self.read_bytes(path).decode("utf-8", "surrogateescape")
