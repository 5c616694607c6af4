"""``cfgpatch lint --base REF``: the base tree the ``ssa-stuck-field`` rule compares with.

Lint's core runs no process; this reads the ref with the preview's git machinery
(:mod:`cfgpatch.preview.gittree`: one ``git ls-tree`` and ``git cat-file --batch``, no
checkout) and hands lint its files (:class:`cfgpatch.lint.files.TreeFiles`), the file
system ``kube build`` reads them through, and a helm runner that runs a chart of the
ref from a copy of the ref's folder (:class:`cfgpatch.preview.helmtree.RefHelm`).

Without ``--base`` or ``lint.base``: the merge-base of ``HEAD`` with the default
branch (``origin/HEAD``, else ``main`` or ``master``); when there is none, or the root is
not in a git repository, the rule is off and says why (a note).
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from ..lint.files import TreeFiles
from ..lint.kbuild import MEMORY_ROOT
from ..lint.ssa_stuck import BaseRef
from ..preview.gittree import GitError, GitRepo, GitTree, GitTreeFileSystem
from ..preview.helmblame import HelmBlame
from ..preview.helmtree import NetworkNeeded, RefHelm
from .helm_runner import SubprocessHelm


def base_ref(root: Path, ref: str) -> BaseRef:
    """The base for ``ref`` ("": the merge-base with the default branch); a ref git does
    not know is a ``ValueError`` (a usage error)."""
    try:
        repo = GitRepo.at(str(root))
    except GitError:
        return BaseRef(note=f"{root} is not inside a git repository")
    except OSError as err:
        return BaseRef(note=f"git could not run ({err.strerror or err})")
    if ref:
        try:
            commit = repo.commit(ref)
        except GitError as err:
            raise ValueError(f"--base: {err.message}") from None
        label = ref
    else:
        branch = repo.default_branch()
        if branch == "HEAD":
            return BaseRef(note="no default branch (origin/HEAD, main or master) to take "
                                "the merge-base with")
        commit = repo.merge_base(branch, "HEAD")
        label = f"{branch}@{commit[:12]}"
    tree = repo.tree(commit)
    sub = Path(root).resolve().relative_to(Path(repo.root).resolve()).as_posix()
    sub = "" if sub == "." else sub
    files = TreeFiles(tree, sub, SubTreeFileSystem(tree, MEMORY_ROOT, sub))
    # a chart is run from a copy of the ref's folder; only with the root at the top
    if sub:
        return BaseRef(label, files)
    helm = OfflineRefHelm(SubprocessHelm(), tree, MEMORY_ROOT)

    def chart_line(line: int, name: str) -> tuple[str, int] | None:
        return HelmBlame(helm.outputs, tree.read_text).where(line, name)

    return BaseRef(label, files, helm, chart_line=chart_line)


class OfflineRefHelm(RefHelm):
    """The ref's charts; a chart to pull fails that base build (lint goes to no
    network)."""

    def run(self, command: str, args: list[str], env: dict[str, str]
            ) -> tuple[int, bytes, bytes]:
        try:
            return super().run(command, args, env)
        except NetworkNeeded as err:
            return 1, b"", err.message.encode()


class SubTreeFileSystem(GitTreeFileSystem):
    """The tree's folder ``sub`` (the linted root) mounted at ``mount``."""

    def __init__(self, tree: GitTree, mount: str, sub: str) -> None:
        super().__init__(tree, mount)
        self.sub = sub

    def _rel(self, path: str) -> str | None:
        rel = super()._rel(path)
        if rel is None or not self.sub:
            return rel
        return posixpath.join(self.sub, rel) if rel else self.sub
