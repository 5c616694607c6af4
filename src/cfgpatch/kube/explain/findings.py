"""Findings: warnings and explanations about a Kubernetes patch, each with a stable code.

A :class:`Finding` names a code from :data:`CATALOGUE`, the path it concerns (a JSON
pointer into the original object, or into the patch for patch-only places) and a
short explanation.  :func:`detect` runs every detector that applies to the patch type
over a :class:`Situation` (original object, patch, result or error, list shapes) and
returns the findings in a stable order.  Detectors only read; they never change the
outcome of the patch, which comes from the engine alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .catalogue import CATALOGUE, Finding, Situation, make
from .jsonpatch import JSON_DETECTORS, kubectl_tokens
from .merge import MERGE_DETECTORS, namespace_finalize
from .strategic import STRATEGIC_DETECTORS

__all__ = ["CATALOGUE", "Finding", "Situation", "detect", "kubectl_tokens", "make"]

_DETECTORS: dict[str, tuple[Callable[[Situation], Iterator[Finding]], ...]] = {
    "strategic": STRATEGIC_DETECTORS,
    "merge": MERGE_DETECTORS,
    "json": JSON_DETECTORS,
}


def detect(situation: Situation) -> list[Finding]:
    """Every finding for the situation, de-duplicated, in detector order."""
    detectors = _DETECTORS.get(situation.patch_type, ())
    seen: set[tuple[str, str, str]] = set()
    out: list[Finding] = []
    for detector in (*detectors, namespace_finalize):
        for finding in detector(situation):
            ident = (finding.code, finding.path, finding.message)
            if ident not in seen:
                seen.add(ident)
                out.append(finding)
    return out

