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
* ``views/``: what other tools would do with the same patch (server-side apply on a
  custom resource, ``ssa``); they return results, not findings;
* ``explain/``: read-only over all of the above: the changes a patch made
  (``changes``) and the findings (``catalogue``, ``findings`` and one module per
  patch type);
* ``patcher``: :func:`patch` itself, which runs an engine or a view and explains it.

Standard library only, except ``io.reader``/``io.writer`` (PyYAML's pure-Python part).
"""

from __future__ import annotations

from .patcher import PATCH_TYPES, KubeResult, check_strategic_supported, patch, type_findings

__all__ = ["PATCH_TYPES", "KubeResult", "check_strategic_supported", "patch", "type_findings"]
