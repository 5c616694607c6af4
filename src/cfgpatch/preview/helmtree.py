"""Helm charts in the preview's renders (``helmCharts:`` with ``--enable-helm``).

``kube build`` inflates a chart by running ``helm template CHART_DIR -f VALUES ...``
(:mod:`cfgpatch.kube.kustomize.helm`).  A ref's tree is read from git objects, so the
chart folder it names (``<repository>/.../charts/NAME``) is the working tree's, not the
ref's: :class:`RefHelm` runs helm on a copy of that ref's folder instead, written from
the git tree into a temporary folder once per render side (every argument that names a
path of the repository is given its copy's path).  The chart's output names its
templates relative to the chart (``# Source: NAME/templates/...``), so the render is the
same as ``kubectl kustomize --enable-helm`` on a checkout of that ref.

A chart that is not in the repository at that ref and has a ``repo:`` would be fetched
(``helm pull`` into the kustomization's chart home): the preview does not go to the
network nor write into the repository, so :class:`NetworkNeeded` ends that entry point's
render with a note (see :mod:`.render`), not an error of the preview.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import tempfile

from ..kube.kustomize.helm_options import HelmProcess
from .gittree import GitTree


class NetworkNeeded(Exception):  # noqa: N818 - a reason, not a failure of the preview
    """The render needs the network (a chart to pull, a remote base)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RefHelm:
    """A :class:`~cfgpatch.kube.kustomize.helm_options.HelmProcess` for the renders of one ref:
    ``inner`` runs helm; paths of the repository mounted at ``mount`` are copied out of
    ``tree`` (None: the working tree, read in place); ``helm pull`` is refused."""

    def __init__(self, inner: HelmProcess, tree: GitTree | None, mount: str) -> None:
        self.inner, self.tree = inner, tree
        self.mount = posixpath.normpath(mount)
        self.copies = ""  # the temporary folder of the ref's files (made when needed)
        self._copied: set[str] = set()
        #: (chart folder relative to the repository, helm's output) of each template run
        self.outputs: list[tuple[str, str]] = []

    def make_temp_dir(self) -> str:
        return self.inner.make_temp_dir()

    def write_file(self, path: str, data: bytes) -> None:
        self.inner.write_file(path, data)

    def remove_tree(self, path: str) -> None:
        self.inner.remove_tree(path)

    def run(self, command: str, args: list[str], env: dict[str, str]
            ) -> tuple[int, bytes, bytes]:
        if args[:1] == ["pull"]:
            raise NetworkNeeded(_pull_note(args))
        chart = self._relative(args[2]) if args[:1] == ["template"] and len(args) > 2 else None
        if self.tree is not None:
            args = [self._real(arg) for arg in args]
        code, out, err = self.inner.run(command, args, env)
        if code == 0 and chart is not None:
            self.outputs.append((chart, out.decode("utf-8", "surrogateescape")))
        return code, out, err

    def _relative(self, path: str) -> str | None:
        if path.startswith(self.mount + "/"):
            return posixpath.normpath(path[len(self.mount) + 1:])
        return None

    def _real(self, arg: str) -> str:
        """The path helm reads for ``arg``: its copy out of the ref's tree."""
        assert self.tree is not None
        if arg != self.mount and not arg.startswith(self.mount + "/"):
            return arg
        rel = posixpath.normpath(arg[len(self.mount) + 1:]) if arg != self.mount else ""
        if not (self.tree.is_dir(rel) or self.tree.is_file(rel)):
            return arg  # absent at this ref: helm says so about the same path's copy
        if not self.copies:
            self.copies = tempfile.mkdtemp(prefix="cfgpatch-preview-helm-")
        if not any(rel == done or rel.startswith(done + "/") or not done
                   for done in self._copied):
            self.tree.materialize(self.copies, (rel,))
            self._copied.add(rel)
        return os.path.join(self.copies, *rel.split("/")) if rel else self.copies

    def close(self) -> None:
        """Remove the copies."""
        if self.copies:
            shutil.rmtree(self.copies, ignore_errors=True)
            self.copies, self._copied = "", set()


def _pull_note(args: list[str]) -> str:
    """kustomize's ``pull --untar --untardir HOME (--repo REPO NAME | oci://.../NAME)``."""
    if "--repo" in args[:-2]:
        at = args.index("--repo")
        repo, chart = args[at + 1], args[at + 2]
    else:
        chart = repo = args[4] if len(args) > 4 else "?"
    return (f"a Helm chart that is not in the repository ({chart}, from {repo}) would be "
            f"fetched with `helm pull`: the preview does not go to the network")


def remote_note(message: str) -> str:
    """The note for ``kube build``'s refusal of a remote base or component."""
    return f"{message} (a remote base needs the network: the preview does not fetch it)"
