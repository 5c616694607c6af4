"""What a build needs that lint cannot follow offline: a note, not a failure.

``kubectl kustomize`` in a CI job without network (or without helm) cannot fetch a remote
base (``github.com/org/repo//dir?ref=v1``, an ``https://`` file), pull a Helm chart named
by ``repo:``, run a chart without a ``helm`` binary, or run a plugin.  None of that is a
mistake of the repository, so lint says it once, as a ``build-incomplete`` note at the
entry that needs it, checks the patches against what is at hand, and keeps its exit status
for what kustomize itself refuses.  Everything else ``kube build`` refuses stays a
``build-failed``.

The kind of failure comes from the build's records (``BuildError.problem`` and what it
wraps: ``helm-failed``, ``external-plugin``, a missing path that is a URL), never from
kustomize's words; the words are only said.  cfgpatch's own refusals (what ``kube
build`` does not model, a ``file:line:`` it names) are its own text.
"""

from __future__ import annotations

import errno
import os
import re

from ..errors import KUSTOMIZE_UNMODELLED
from ..kube.problems import Kustomize, within
from ..lazy_pattern import lazily
from .finding import Location

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The helm commands whose failure means helm could not start, or could not pull.
_HELM = ("version", "pull", "repo", "template")
#: kustomize's refusals of a file or directory that is not there.
_MISSING = ("no-such-path", "no-kustomization", "unreadable-file")
_PLACE = lazily(r"^(?P<file>[^\s:][^:]*?\.ya?ml|[^\s:]*Kustomization):(?P<line>\d+): ")


_UNMODELLED = lazily(r"^(?:\S+:\d+: )?(?P<what>.*?)(?: is)? not modelled by cfgpatch kube "
                         r"build(?P<rest>.*)$", re.S)


def _steps(problem: Any) -> list[Kustomize]:
    """The kustomize records of a build's ``problem`` and of what it wraps."""
    return [p for p in within(problem) if isinstance(p, Kustomize)]


def _missing(record: Kustomize) -> bool:
    """Whether ``record`` says a file or directory is not there."""
    if record.code == "unreadable-file":  # read as a file: only when the OS said so
        return record.detail == os.strerror(errno.ENOENT).lower()
    return record.code in _MISSING


def _names_url(path: str | None) -> bool:
    """Whether ``path`` holds a URL joined to a directory (``/r/https:/host/x``)."""
    return path is not None and ("http:/" in path.lower() or "https:/" in path.lower())


def offline_reason(code: str, message: str, problem: Any = None) -> str | None:
    """Why a failed build could not be followed offline (the text to say, with
    ``message``), or None when the failure (``problem``: the build's record,
    ``BuildError.problem``) is kustomize's own refusal of what is at hand."""
    if code == KUSTOMIZE_UNMODELLED:
        match = _UNMODELLED.match(message)
        what = match["what"] + match["rest"] if match else message
        return f"{what} (kustomize fetches or runs it; lint checked what is at hand)"
    steps = _steps(problem)
    if any(step.code == "external-plugin" for step in steps):
        return f"a plugin: {message}"
    if any(step.code == "helm-failed" and (step.name or "").split(" ")[0] in _HELM
           for step in steps):
        return f"helm could not run here: {message}"
    if any(_missing(step) and _names_url(step.path) for step in steps):
        return f"a remote file or base could not be fetched: {message}"
    return None


def reason_location(message: str, unit: str) -> Location:
    """Where the reason points: ``file:line:`` at its start, else the unit's file."""
    return placed(message) or Location(unit)


def placed(message: str) -> Location | None:
    """The ``file:line:`` a kube build message starts with, if any."""
    match = _PLACE.match(message)
    if match is None:
        return None
    return Location(match["file"], int(match["line"]))


def kept_own_error(problem: Any) -> bool:
    """Whether lint's own resolution's failure (``problem``) in a unit that cannot be
    followed offline is still a failure: a local file that is missing fails the build
    whatever the remote part holds; a patch or reference that found no target may find
    it there."""
    steps = _steps(problem)
    return any(_missing(step) for step in steps) and \
        not any("http" in (step.path or "") for step in steps)


__all__ = ["kept_own_error", "offline_reason", "placed", "reason_location"]
