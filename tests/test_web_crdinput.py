"""The patch mode's CRD field (``cfgpatch.web.crdinput`` and the bridge's ``crd``
option): the CRD is read as ``kube patch --crd`` takes it, the strategic column gets
server-side apply's view from it, and kustomize's view with the CRD's schemas as its
``openapi:`` document equals what ``kubectl kustomize`` 1.32 built on the same document
(``tests/data/web/crd-kustomize``, ``scripts/record_web_crd_kustomize.py``)."""

from __future__ import annotations

import json

import pytest
import yaml

from cfgpatch.web import bridge
from cfgpatch.web.crdinput import kustomize_view, openapi_note, read_crd, unmerged_lists
from conftest import ROOT

RECORDED = [json.loads(line) for line in (
    ROOT / "tests" / "data" / "web" / "crd-kustomize" / "recorded.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("case", RECORDED, ids=[c["id"] for c in RECORDED])
def test_kustomize_with_the_crd_as_openapi_document_equals_kubectl_kustomize(case):
    body = {"apiVersion": case["object"]["apiVersion"], "kind": case["object"]["kind"],
            "metadata": {"name": case["object"]["metadata"]["name"]}, **case["patch"]}
    assert kustomize_view(case["object"], body, case["crd"]) == case["output"]


def test_server_side_apply_markers_alone_are_named_as_not_merged_by_kustomize():
    by_id = {c["id"].split("/")[0]: c["crd"] for c in RECORDED}
    assert unmerged_lists(by_id["list-map-only"]) == ["spec.ports"]
    assert unmerged_lists(by_id["patch-strategy"]) == []
    assert "`spec.ports` is replaced" in openapi_note(by_id["list-map-only"])


def test_the_bridge_passes_the_crd_as_the_command_line_does():
    case = next(c for c in RECORDED if c["id"] == "list-map-only/port-changed")
    obj, patch = yaml.safe_dump(case["object"]), json.dumps(case["patch"])
    options = {"crd": yaml.safe_dump(case["crd"]), "kustomize": True}
    data = bridge.compute(obj, patch, options)
    codes = [f["code"] for f in data["results"]["strategic"]["findings"]]
    assert "server-side-apply-view" in codes
    without = bridge.compute(obj, patch, {"kustomize": True})
    assert "server-side-apply-view" not in [f["code"] for f in
                                            without["results"]["strategic"]["findings"]]
    assert data["kustomize"]["object"] == case["output"]
    assert "openapi:" in data["kustomize"]["openapi_note"]
    assert "openapi_note" not in without["kustomize"]


def test_an_unreadable_or_wrong_crd_is_said_below_its_field():
    assert read_crd("") == (None, None)
    crd, error = read_crd("apiVersion: v1\nkind: ConfigMap\n")
    assert crd is None and "not a CustomResourceDefinition" in error.message
    data = bridge.compute("kind: A\napiVersion: v1\nmetadata: {name: a}\n", "{}",
                          {"crd": "kind: [\n"})
    assert data["inputs"]["crd"]["line"] == 1
    assert data["results"]["merge"]["ok"]  # the patch is still computed
