"""kubectl's client-side to server-side migration (``csaupgrade``) and its whole flow."""

from __future__ import annotations

import copy
import json

from cfgpatch.kube.ssa import server_side_apply, update
from cfgpatch.kube.ssa.csaupgrade import (
    LAST_APPLIED,
    LAST_APPLIED_PATH,
    find_fields_owners,
    kubectl_server_side_apply,
    upgrade_managed_fields_patch,
    upgraded_entries,
)
from kube_ssa_support import DATA, canonical, load_records, types_for

CFG = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "d"},
       "data": {"a": "1", "b": "2"}}


def client_side_applied(cfg: dict) -> dict:
    obj = copy.deepcopy(cfg)
    text = json.dumps(cfg, sort_keys=True, separators=(",", ":")) + "\n"
    obj["metadata"]["annotations"] = {LAST_APPLIED: text}
    return update(None, obj, manager="kubectl-client-side-apply",
                  time="2024-01-01T00:00:00Z").object


def test_stuck_field_without_migration_and_removed_with_it() -> None:
    live = client_side_applied(CFG)
    smaller = copy.deepcopy(CFG)
    del smaller["data"]["b"]
    helm = server_side_apply(live, smaller, manager="helm")
    assert helm.object["data"] == {"a": "1", "b": "2"}  # b stays: the old manager owns it
    flow = kubectl_server_side_apply(live, smaller)
    assert flow.result.object["data"] == {"a": "1"}
    assert flow.saved_annotation and flow.reapplied
    assert flow.migrated_managers == ["kubectl-client-side-apply"]
    assert sorted(e.manager for e in flow.result.managed_fields) == [
        "kubectl", "kubectl-last-applied"]


def test_upgrade_renames_or_merges_and_drops_the_client_side_entries() -> None:
    csa = {"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "v1",
           "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}}
    ssa = {"manager": "kubectl", "operation": "Apply", "apiVersion": "v1",
           "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:b": {}}}}
    merged = upgraded_entries([ssa, csa], ["kubectl-client-side-apply"], "kubectl")
    assert merged == [dict(ssa, fieldsV1={"f:data": {"f:a": {}, "f:b": {}}})]
    renamed = upgraded_entries([csa], ["kubectl-client-side-apply"], "kubectl")
    assert renamed == [dict(csa, manager="kubectl", operation="Apply")]
    assert upgraded_entries([ssa], ["kubectl-client-side-apply"], "kubectl") == [ssa]
    obj = {"metadata": {"managedFields": [ssa], "resourceVersion": "7"}}
    assert upgrade_managed_fields_patch(obj, ["kubectl-client-side-apply"], "kubectl") is None
    obj["metadata"]["managedFields"] = [csa]
    patch = upgrade_managed_fields_patch(obj, ["kubectl-client-side-apply"], "kubectl")
    assert patch and patch[1] == {"op": "replace", "path": "/metadata/resourceVersion",
                                  "value": "7"}
    owner = dict(csa, fieldsV1={"f:metadata": {"f:annotations": {f"f:{LAST_APPLIED}": {}}}})
    assert find_fields_owners([owner, csa], "Update", LAST_APPLIED_PATH) == [owner]


def _without_order(obj: dict) -> str:
    out = copy.deepcopy(obj)
    mf = out.get("metadata", {}).get("managedFields") or []
    for e in mf:
        e.pop("time", None)
    mf.sort(key=lambda e: json.dumps(e, sort_keys=True))
    return canonical(out)


def test_flow_agrees_with_the_servers_recorded_answers() -> None:
    """Each recorded migration (kubectl's requests answered by the Go oracle) ends where our
    :func:`kubectl_server_side_apply` ends from the same live object."""
    checked = 0
    for rec in load_records(DATA / "cases.jsonl.gz"):
        if not rec["id"].startswith("csaflow-") or len(rec["ops"]) < 4:
            continue
        i = next(n for n, op in enumerate(rec["ops"]) if op["manager"] == "kubectl")
        if not all(r["ok"] for r in rec["results"]):
            continue
        live = rec["results"][i - 1]["object"]
        op = rec["ops"][i]
        flow = kubectl_server_side_apply(live, op["object"], force=bool(op.get("force")),
                                         schema=types_for(rec["schema"]))
        assert _without_order(flow.result.object) == _without_order(rec["results"][-1]["object"])
        checked += 1
    assert checked >= 30
