"""A partial build: what cannot be followed offline is skipped and reported, not refused.

``kubectl kustomize`` fetches a remote base or file, runs a plugin and runs helm for a
chart.  Where none of that can happen (a CI job without network, no helm binary), a
tool that checks the rest of the tree (``lint``) still wants the build of what is at
hand.  :func:`~.partial_build.build_partial` is :func:`~.build.build` with these entries
skipped, each reported as a :class:`Skipped` (where, what, why):

* a remote resource or component (a URL, a git repository);
* a plugin configuration kustomize cannot run here: an external plugin (KRM function,
  exec plugin), a built-in one ``kube build`` does not model;
* a Helm chart whose helm run fails to start or to pull (``unable to run: 'helm ...'``).

Everything else builds exactly as :func:`~.build.build` (the same resources, warnings and
errors); a build that skipped nothing is the plain build.  A failure after a skip is
still raised (the skipped part may explain it: the caller decides), with the skipped
entries on the error (``BuildError.skipped``).

The build modules ask :func:`skip` at each such entry; outside a partial build (outside
:func:`skipping`) it answers False and they raise as before.
"""

from __future__ import annotations

from contextvars import ContextVar

from ...context_scope import ContextScope
from ...errors import KUSTOMIZE_UNMODELLED, KubeError
from ...lazy_pattern import lazily
from ...records import dataclass
from ..problems import Kustomize, cause

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")


@dataclass(frozen=True)
class Skipped:
    """An entry a partial build left out: ``file`` (the kustomization, as the build
    names it), ``line`` (0 when unknown), ``entry`` (as written) and ``reason``."""

    file: str
    line: int
    entry: str
    reason: str

    def text(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.entry}: {self.reason}"


_SKIPPED: ContextVar[list[Skipped] | None] = ContextVar("kustomize_partial", default=None)
_WHERE = lazily(r"^(?P<file>.*?):(?P<line>\d+)$")
#: The helm commands whose failure means helm could not start, or could not pull.
_HELM = ("version", "pull", "repo", "template")


def skipping() -> ContextScope:
    """A partial build while inside: the block gets the list the skipped entries are
    added to."""
    return ContextScope(_SKIPPED, [])


def active() -> bool:
    """Whether a partial build is in progress."""
    return _SKIPPED.get() is not None


def skip(where: str, entry: str, reason: str) -> bool:
    """Record ``entry`` as skipped at ``where`` (``file`` or ``file:line``) when a
    partial build is in progress; False (the caller raises) otherwise."""
    skipped = _SKIPPED.get()
    if skipped is None:
        return False
    match = _WHERE.match(where)
    file, line = (match["file"], int(match["line"])) if match else (where, 0)
    skipped.append(Skipped(file, line, entry, reason))
    return True


def skip_error(where: str, entry: str, err: KubeError) -> bool:
    """:func:`skip` for ``err`` when it is one a partial build skips: helm that could not
    run, an external plugin, what ``kube build`` does not model in a plugin."""
    message = err.message
    helm = _within(cause(err), "helm-failed")
    if helm is not None and (helm.name or "").split(" ")[0] in _HELM:
        return skip(where, entry, f"helm could not run here: {message}")
    if _within(cause(err), "external-plugin") is not None:
        return skip(where, entry, f"a plugin: {message}")
    if err.code == KUSTOMIZE_UNMODELLED:
        return skip(where, entry, message)
    return False


def _within(problem: Any, code: str) -> Kustomize | None:
    """The :class:`Kustomize` problem of ``code`` that ``problem`` is or wraps."""
    while isinstance(problem, Kustomize):
        if problem.code == code:
            return problem
        problem = problem.cause
    return None


def run_or_skip(run: Callable[[], T], where: str, entry: str, skipped: T) -> T:
    """``run()``, or ``skipped`` when it fails in a way a partial build skips (a chart
    whose helm cannot run here: :func:`skip_error`)."""
    try:
        return run()
    except KubeError as err:
        if skip_error(where, entry, err):
            return skipped
        raise


__all__ = ["Skipped", "active", "run_or_skip", "skip", "skip_error", "skipping"]
