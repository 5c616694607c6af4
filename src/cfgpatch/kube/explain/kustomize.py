"""Findings comparing kustomize's merge with ``kubectl patch``'s on the same patch."""

from __future__ import annotations

from typing import Any

from ...jsonvalue import canonical_unchecked, equal
from ...pointer import format_pointer
from .catalogue import Finding, make


def differences(kubectl_result: Any, kustomize_result: Any) -> list[Finding]:
    """One ``kustomize-differs`` finding per place where the two results disagree."""
    out: list[Finding] = []
    _compare(kubectl_result, kustomize_result, [], out)
    return out


def _compare(a: Any, b: Any, tokens: list[str], out: list[Finding]) -> None:
    if equal(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *[k for k in b if k not in a]]:
            _compare(a.get(key), b.get(key), [*tokens, key], out)
        return
    out.append(make("kustomize-differs", format_pointer(tokens),
                    f"kustomize gives {_brief(b)} here; kubectl patch gives {_brief(a)}",
                    kubectl=a, kustomize=b))


def _brief(value: Any) -> str:
    if value is None:
        return "nothing"
    text = canonical_unchecked(value)
    return text if len(text) <= 80 else text[:77] + "..."

