"""Flux's cleanup of managed fields (``kube/ssa/flux.py``)."""

from __future__ import annotations

from cfgpatch.kube.ssa.flux import replaced_entries


def entry(manager, operation, fields, subresource=None):
    out = {"manager": manager, "operation": operation, "fieldsType": "FieldsV1",
           "fieldsV1": fields}
    if subresource:
        out["subresource"] = subresource
    return out


def test_first_match_renamed_when_the_controller_has_no_apply_entry():
    entries = [entry("kubectl-client-side-apply", "Update", {"f:data": {"f:a": {}}}),
               entry("hpa", "Update", {"f:spec": {"f:replicas": {}}}),
               entry("kubectl-edit", "Update", {"f:data": {"f:b": {}}})]
    out = replaced_entries(entries)
    assert [(e["manager"], e["operation"]) for e in out] == [
        ("hpa", "Update"), ("kustomize-controller", "Apply")]
    assert out[-1]["fieldsV1"] == {"f:data": {"f:a": {}, "f:b": {}}}


def test_merged_into_the_existing_apply_entry_which_goes_last():
    entries = [entry("kustomize-controller", "Apply", {"f:data": {"f:x": {}}}),
               entry("before-first-apply", "Update", {"f:data": {"f:y": {}}}),
               entry("kubectl", "Apply", {"f:data": {"f:z": {}}}, subresource="status")]
    out = replaced_entries(entries)
    assert [(e["manager"], e.get("subresource")) for e in out] == [
        ("kubectl", "status"), ("kustomize-controller", None)]
    assert out[-1]["fieldsV1"] == {"f:data": {"f:x": {}, "f:y": {}}}


def test_nothing_to_hand_over():
    assert replaced_entries([entry("helm", "Apply", {"f:data": {}})]) is None
