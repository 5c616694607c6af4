"""Where a failed ``kube build`` points: the entry kustomize's records name.

kustomize wraps the error of a base in its overlay's (``accumulating resources from
'../base': ... recursed accumulation of path 'base': accumulating resources:
accumulation err='accumulating resources from 'servcie.yaml': ...``); the build's
problem (``BuildError.problem``) holds the same steps as records, each wrapping the
next.  The innermost ``recursed-accumulation`` is the kustomization at fault and the last
``resources-from`` (in the order kustomize words them) its entry: lint points at that
entry, so a base that does not build is one failure at one place however many overlays
use it.
"""

from __future__ import annotations

import posixpath

from ..kube.problems import Kustomize, within
from .finding import Location
from .kustomizations import find_kustomization, join, read_kustomization
from .offline import placed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: The records of an entry read as a resource (``path``: the entry as written).
_ENTRY = ("resources-from", "resources-from-file")
_FIELDS = ("resources", "bases", "components")


def _entry(problem: Any, relative: str) -> tuple[str, str | None] | None:
    """The last entry the records name and the directory of the last recursed
    kustomization before it (``relative``: the root prefix to drop), or None."""
    entry: str | None = None
    recursed: str | None = None
    directory: str | None = None
    for step in within(problem):
        if not isinstance(step, Kustomize):
            continue
        if step.code == "recursed-accumulation":
            recursed = (step.path or "").replace(relative, "")
        elif step.code in _ENTRY:
            entry, directory = (step.path or "").replace(relative, ""), recursed
    return None if entry is None else (entry, directory)


def failure_location(files: Mapping[str, str], unit: str, message: str, problem: Any = None,
                     relative: str = "") -> Location | None:
    """Where the failure points in the files, or None: the ``file:line`` ``message``
    (root-relative paths) starts with, else the entry the records of ``problem`` name
    (their paths relative once ``relative``, the root's prefix, is dropped)."""
    found = placed(message)
    if found is not None:
        return found
    named = _entry(problem, relative)
    if named is None:
        return None
    entry, recursed = named
    directory = posixpath.dirname(unit) if recursed is None else join("", recursed)
    path = find_kustomization(files, directory)
    if path is None:
        return None
    try:
        kustomization = read_kustomization(files, path)
    except Exception:  # noqa: BLE001 - it built that far: the file is read
        return Location(path)
    for field in _FIELDS:
        listed = kustomization.value.get(field)
        if isinstance(listed, list) and entry in listed:
            return kustomization.location([field, listed.index(entry)])
    return Location(path)


__all__ = ["failure_location"]
