"""Where a failed ``kube build`` points: the entry kustomize names in its text.

kustomize wraps the error of a base in its overlay's (``accumulating resources from
'../base': ... recursed accumulation of path 'base': accumulating resources:
accumulation err='accumulating resources from 'servcie.yaml': ...``).  The innermost
``recursed accumulation of path`` is the kustomization at fault and the last
``accumulating resources from`` its entry: lint points at that entry, so a base that
does not build is one failure at one place however many overlays use it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from .finding import Location
from .kustomizations import find_kustomization, join, read_kustomization
from .offline import placed

_RECURSED = re.compile(r"recursed accumulation of path '([^']*)'")
_ENTRY = re.compile(r"accumulating (?:resources|components) from '([^']*)'")
_FIELDS = ("resources", "bases", "components")


def failure_location(files: Mapping[str, str], unit: str, message: str) -> Location | None:
    """Where ``message`` (root-relative paths) points in the files, or None."""
    found = placed(message)
    if found is not None:
        return found
    entries = list(_ENTRY.finditer(message))
    if not entries:
        return None
    entry = entries[-1]
    directory = posixpath.dirname(unit)
    recursed = [m for m in _RECURSED.finditer(message) if m.start() < entry.start()]
    if recursed:
        directory = join("", recursed[-1].group(1))
    path = find_kustomization(files, directory)
    if path is None:
        return None
    try:
        kustomization = read_kustomization(files, path)
    except Exception:  # noqa: BLE001 - it built that far: the file is read
        return Location(path)
    for field in _FIELDS:
        listed = kustomization.value.get(field)
        if isinstance(listed, list) and entry.group(1) in listed:
            return kustomization.location([field, listed.index(entry.group(1))])
    return Location(path)


__all__ = ["failure_location"]
