"""Go's random map order: where kubectl's answer depends on it, against recorded cases.

The ``primitive-*`` cases of ``tests/data/kube_strategic/cases.jsonl`` were recorded from
kubectl 1.32 in both key orders of ``f`` and ``$deleteFromPrimitiveList/f`` (the second
order as ``other_order``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfgpatch.kube.engine.maporder import order_alternatives
from cfgpatch.kube.schema.node import builtin_schema

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "kube_strategic"
CASES = [json.loads(line) for line in (DATA / "cases.jsonl").read_text().splitlines() if line]


def test_a_patch_without_a_pair_has_no_alternatives():
    node = builtin_schema().for_kind("v1", "Namespace")
    obj = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"finalizers": ["a"]}}
    assert order_alternatives(obj, {"metadata": {"finalizers": ["b"]}}, node) == []


PRIMITIVE = [c for c in CASES if c["id"].startswith("primitive-")]


def test_primitive_list_cases_cover_both_orders():
    assert len(PRIMITIVE) >= 40
    assert 10 <= sum("other_order" in c for c in PRIMITIVE) < len(PRIMITIVE)


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in PRIMITIVE])
def test_key_order_dependence_is_reported_exactly_where_kubectl_varies(case):
    """kubectl takes f and $deleteFromPrimitiveList/f in Go's random map order: the
    engine names the field exactly when the other order gives another answer (recorded
    by swapping the two keys), and states that answer."""
    node = builtin_schema().for_kind(case["object"]["apiVersion"], case["object"]["kind"])
    found = order_alternatives(case["object"], case["patch"], node)
    if "other_order" not in case:
        assert found == []
        return
    (pointer, message), = found
    other = case["other_order"]
    assert pointer.endswith("/finalizers")
    if "result" in other:
        tokens = pointer.strip("/").split("/")
        value = other["result"]
        for token in tokens:
            value = value.get(token) if isinstance(value, dict) else None
        shown = "is left out" if value is None else \
            "is " + json.dumps(value, separators=(",", ":"))
        assert message.endswith(shown)
