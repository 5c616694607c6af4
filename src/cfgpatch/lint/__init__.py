"""``cfgpatch lint``: silent patch mistakes across a whole repository.

:func:`lint_files` lints every kustomization, Flux ``Kustomization`` and mapped
standalone patch under some paths of a set of files (:class:`DiskFiles` for a
repository on disk, :class:`MemoryFiles` for texts) and returns a :class:`Report`;
``lint.formats`` renders it (human, json, sarif, github).  The rules are in
``lint.rules`` and docs/lint.md.
"""

from __future__ import annotations

from .files import DiskFiles, MemoryFiles
from .linter import lint_files
from .report import Report

__all__ = ["DiskFiles", "MemoryFiles", "Report", "lint_files"]
