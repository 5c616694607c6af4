"""What a build needs that lint cannot follow offline: a note, not a failure.

``kubectl kustomize`` in a CI job without network (or without helm) cannot fetch a remote
base (``github.com/org/repo//dir?ref=v1``, an ``https://`` file), pull a Helm chart named
by ``repo:``, run a chart without a ``helm`` binary, or run a plugin.  None of that is a
mistake of the repository, so lint says it once, as a ``build-incomplete`` note at the
entry that needs it, checks the patches against what is at hand, and keeps its exit status
for what kustomize itself refuses.  Everything else ``kube build`` refuses stays a
``build-failed``.
"""

from __future__ import annotations

import re

from ..errors import KUSTOMIZE_UNMODELLED
from ..lazy_pattern import lazily
from .finding import Location

#: kustomize's texts when it runs helm and helm cannot (no binary; ``helm pull`` offline).
_HELM = lazily(r"unable to run: '\S+ (version|pull|repo|template)\b")
#: A file named by URL (``openapi: {path: https://...}``, a patch ``path:``) read as a path.
_URL_AS_PATH = lazily(r"(evalsymlink failure on|unable to find|does not exist|no such "
                      r"file)[^\n]*\bhttps?:/", re.IGNORECASE)
#: git failing to clone a remote base (kubectl's text when it tries).
_GIT = lazily(r"git (clone|fetch|init)|exit status 128|fatal: unable to access")
_PLACE = lazily(r"^(?P<file>[^\s:][^:]*?\.ya?ml|[^\s:]*Kustomization):(?P<line>\d+): ")


_UNMODELLED = lazily(r"^(?:\S+:\d+: )?(?P<what>.*?)(?: is)? not modelled by cfgpatch kube "
                     r"build(?P<rest>.*)$", re.S)
_PLUGIN = lazily(r"external plugins? (disabled|not enabled)|unable to load external plugin")


def offline_reason(code: str, message: str) -> str | None:
    """Why a failed build could not be followed offline (the text to say), or None when
    the failure is kustomize's own refusal of what is at hand."""
    if code == KUSTOMIZE_UNMODELLED:
        match = _UNMODELLED.match(message)
        what = match["what"] + match["rest"] if match else message
        return f"{what} (kustomize fetches or runs it; lint checked what is at hand)"
    if _PLUGIN.search(message):
        return f"a plugin: {message}"
    if _HELM.search(message):
        return f"helm could not run here: {message}"
    if _URL_AS_PATH.search(message) or _GIT.search(message):
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


def kept_own_error(message: str) -> bool:
    """Whether lint's own resolution's failure in a unit that cannot be followed offline
    is still a failure: a local file that is missing fails the build whatever the remote
    part holds; a patch or reference that found no target may find it there."""
    return ("evalsymlink failure" in message or "no such file" in message) and \
        "http" not in message


__all__ = ["kept_own_error", "offline_reason", "placed", "reason_location"]
