"""lint/checks.py: ``custom-resource-list-replaced`` names what a replaced list loses,
and stays silent when the patch restates every element by name with all its fields."""

from __future__ import annotations

from cfgpatch.lint import MemoryFiles, lint_files

CLUSTER = """apiVersion: example.com/v1
kind: NetCluster
metadata: {name: c}
spec:
  subnets:
  - name: control-plane
    role: control-plane
  - name: node
    role: node
"""


def _patch(subnets: str) -> str:
    return f"apiVersion: example.com/v1\nkind: NetCluster\nmetadata: {{name: c}}\nspec:\n" \
           f"  subnets:\n{subnets}"


def _replaced(subnets: str) -> list[str]:
    texts = {"kustomization.yaml": "resources: [cluster.yaml]\npatches:\n- path: patch.yaml\n",
             "cluster.yaml": CLUSTER, "patch.yaml": _patch(subnets)}
    return [f.message for f in lint_files(MemoryFiles(texts)).findings
            if f.rule == "custom-resource-list-replaced"]


def test_elements_restated_by_name_with_every_field_are_changed_not_lost():
    assert _replaced("  - {name: control-plane, role: control-plane, cidr: 10.0.0.0/16}\n"
                     "  - {name: node, role: node, cidr: 10.1.0.0/16}\n") == []


def test_an_element_left_out_is_lost():
    (message,) = _replaced("  - {name: control-plane, role: control-plane, cidr: 10.0.0.0/16}\n")
    assert message.endswith("replaces /spec/subnets and loses node")


def test_an_element_restated_without_one_of_its_fields_is_still_named():
    (message,) = _replaced("  - {name: control-plane, cidr: 10.0.0.0/16}\n"
                           "  - {name: node, role: node}\n")
    assert message.endswith("replaces /spec/subnets and loses control-plane")
