"""``cfgpatch lint`` as one call over a folder on disk (the library's ``lint``).

:func:`lint_directory` is what ``cfgpatch lint --root ROOT PATH...`` computes, minus
the printing and the ``kubectl kustomize`` confirmation of failed builds (pass
``confirm`` for that): the :class:`~cfgpatch.lint.report.Report` of every
kustomization, Flux ``Kustomization`` and mapped standalone patch under ``paths``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..errors import INVALID_ARGUMENTS, InvalidInput
from .config import Config
from .files import DiskFiles
from .linter import Confirm, lint_files
from .report import Report


def lint_directory(root: str | os.PathLike[str], paths: Iterable[str] = ("",), *,
                   config: Config | None = None, confirm: Confirm | None = None) -> Report:
    """Lint the units under ``paths`` (relative to ``root``, ``""`` for all of it).

    ``config``: instead of the root's ``.cfgpatch.yaml``; ``confirm``: see
    :data:`~cfgpatch.lint.linter.Confirm`.  A root that is no folder is
    :class:`~cfgpatch.errors.InvalidInput`; what the files hold is reported as findings.
    """
    root = os.fspath(root)
    if not os.path.isdir(root):
        raise InvalidInput(f"{root} is not a folder", code=INVALID_ARGUMENTS,
                           hint="lint takes a repository's folder")
    return lint_files(DiskFiles(root), list(paths), config, confirm=confirm)
