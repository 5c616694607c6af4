"""The Kubernetes patch engine: exactly what ``kubectl patch --local`` does, explained.

:func:`patch` applies a ``strategic``, ``merge`` or ``json`` patch to one object the
way kubectl 1.32 does and returns a :class:`KubeResult`: the resulting object, the
changes (every changed path, and where each list element landed) and findings
(warnings and explanations with stable codes).  When kubectl would refuse the patch it
raises :class:`~cfgpatch.errors.KubeError` whose ``message`` is kubectl's own text.

The package is layered; each sub-package imports only those above it in this list:

* ``go/``: how Go's ``encoding/json``, go-yaml v2 and the Go runtime behave
  (number formats, escapes, scanner errors, slice capacity, map order);
* ``io/``: reading objects and patches (``reader``) and printing results (``writer``)
  as kubectl does, and kubectl's unstructured decoder (``unstructured``);
* ``schema/``: where merge keys come from: the list rule and its lookup (``rules``),
  the built-in table (``node``, ``data/builtin.json``), ``--schema`` OpenAPI documents
  (``openapi``) and CRDs (``crd``);
* ``engine/``: what kubectl does: strategic merge (``strategic``, ``listorder``), its
  JSON Patch (``jsonpatch``) and merge patch (``mergepatch``);
* ``kustomize/``: ``kubectl kustomize`` (kustomize v5.5.0): the builder (``build``) and
  kustomize's own merge of patches (``apply_strategic``);
* ``ssa/``: server-side apply, offline (the API server's field manager);
* ``views/``: what other tools would do with the same patch (server-side apply on a
  custom resource, ``ssa``); they return results, not findings;
* ``explain/``: read-only over all of the above: the changes a patch made
  (``changes``) and the findings (``catalogue``, ``findings`` and one module per
  patch type);
* ``patcher``: :func:`patch` itself, which runs an engine or a view and explains it;
* ``objects``, ``applying``: the library's functions over the engines (:func:`read`,
  :func:`dump`, :func:`apply`, :func:`diff`, :func:`upgrade`).

The public API (docs/api.md) is this package's ``__all__``: everything ``cfgpatch
kube ...`` and ``cfgpatch lint`` do, as functions over plain values with typed results.
Every name is imported on first use (kustomize, the linter and the field manager take
a few tenths of a second to load; ``kube patch`` starts without ``typing`` or
``dataclasses``, ``kube build`` without the patcher), so ``from cfgpatch.kube import
patch`` stays fast.
Every failure is a :class:`~cfgpatch.errors.CfgPatchError`
(:class:`~cfgpatch.errors.KubeError` with kubectl's text for what kubectl refuses).

Standard library only, except ``io.reader``/``io.writer`` (PyYAML's pure-Python part).
"""

from __future__ import annotations

from ..errors import CfgPatchError, KubeError, OwnershipConflict
from . import compat, problems

# The readers report problems as records; kubectl's, go-yaml's and Go's words for them
# come from compat, whichever module catches the error.
problems.use_wording(compat.word)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing and dataclasses are left out of kube patch's start-up
    from typing import Any

    from ..lint.directory import lint_directory as lint
    from ..lint.report import Report as LintReport
    from .applying import ApplyOutcome, DiffResult, apply, diff, upgrade
    from .kustomize.build import BuildError, BuildResult, build
    from .objects import ReadObject, ReadResult, dump, read, read_one
    from .patcher import PATCH_TYPES, KubeResult, check_strategic_supported, patch, type_findings
    from .schema.openapi import load_openapi
    from .ssa import ApplyResult as ServerSideApplyResult
    from .ssa import Conflict, Types, UpdateResult, server_side_apply, update

_APPLYING, _OBJECTS, _BUILD, _SSA = ("cfgpatch.kube.applying", "cfgpatch.kube.objects",
                                     "cfgpatch.kube.kustomize.build", "cfgpatch.kube.ssa")
#: name -> (module, attribute) of the names imported on first use.
_LAZY = {
    **{name: ("cfgpatch.kube.patcher", name) for name in (
        "PATCH_TYPES", "KubeResult", "check_strategic_supported", "patch", "type_findings")},
    "apply": (_APPLYING, "apply"), "diff": (_APPLYING, "diff"),
    "upgrade": (_APPLYING, "upgrade"), "ApplyOutcome": (_APPLYING, "ApplyOutcome"),
    "DiffResult": (_APPLYING, "DiffResult"),
    "read": (_OBJECTS, "read"), "read_one": (_OBJECTS, "read_one"), "dump": (_OBJECTS, "dump"),
    "ReadObject": (_OBJECTS, "ReadObject"), "ReadResult": (_OBJECTS, "ReadResult"),
    "build": (_BUILD, "build"), "BuildResult": (_BUILD, "BuildResult"),
    "BuildError": (_BUILD, "BuildError"),
    "lint": ("cfgpatch.lint.directory", "lint_directory"),
    "LintReport": ("cfgpatch.lint.report", "Report"),
    "load_openapi": ("cfgpatch.kube.schema.openapi", "load_openapi"),
    "server_side_apply": (_SSA, "server_side_apply"), "update": (_SSA, "update"),
    "ServerSideApplyResult": (_SSA, "ApplyResult"), "UpdateResult": (_SSA, "UpdateResult"),
    "Conflict": (_SSA, "Conflict"), "Types": (_SSA, "Types"),
}


def __getattr__(name: str) -> Any:
    """The names of :data:`_LAZY`, imported on first use (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    module, attribute = _LAZY[name]
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


__all__ = [
    "PATCH_TYPES", "ApplyOutcome", "BuildError", "BuildResult", "CfgPatchError", "Conflict",
    "DiffResult", "KubeError", "KubeResult", "LintReport", "OwnershipConflict", "ReadObject",
    "ReadResult", "ServerSideApplyResult", "Types", "UpdateResult", "apply", "build",
    "check_strategic_supported", "diff", "dump", "lint", "load_openapi", "patch", "read",
    "read_one", "server_side_apply", "type_findings", "update", "upgrade",
]
