"""The Python API of server-side apply: results, conflicts, refusals, explanations."""

from __future__ import annotations

import copy

import pytest

from cfgpatch.errors import OWNERSHIP_CONFLICT, SERVER_REFUSES, KubeError, OwnershipConflict
from cfgpatch.kube.ssa import Conflict, Types, conflict_message, server_side_apply, update
from cfgpatch.kube.ssa import fieldpath as fp

T0, T1, T2 = "2025-01-01T00:00:00Z", "2025-01-01T00:01:00Z", "2025-01-01T00:02:00Z"


def deployment(replicas: int | None = 2, image: str = "nginx:1", env: list | None = None) -> dict:
    c: dict = {"name": "app", "image": image}
    if env is not None:
        c["env"] = env
    spec: dict = {"selector": {"matchLabels": {"app": "web"}},
                  "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [c]}}}
    if replicas is not None:
        spec["replicas"] = replicas
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default"}, "spec": spec}


def scaled(obj: dict, n: int) -> dict:
    out = copy.deepcopy(obj)
    out["spec"]["replicas"] = n
    return out


REPLICAS = (fp.field("spec"), fp.field("replicas"))


def test_create_records_one_apply_entry_with_time() -> None:
    r = server_side_apply(None, deployment(), manager="helm", time=T0)
    [entry] = r.managed_fields
    assert (entry.manager, entry.operation, entry.api_version, entry.time) == (
        "helm", "Apply", "apps/v1", T0)
    assert r.object["metadata"]["managedFields"][0]["fieldsType"] == "FieldsV1"
    assert r.changed and not r.before and not r.before_first_apply
    assert entry.fields.has(REPLICAS)


def test_hpa_conflict_force_and_shared_values() -> None:
    helm = server_side_apply(None, deployment(), manager="helm", time=T0)
    hpa = update(helm.object, scaled(helm.object, 5), manager="hpa-controller", time=T1)
    assert [str(c) for c in hpa.taken] == ['conflict with "helm": .spec.replicas']
    with pytest.raises(OwnershipConflict) as err:
        server_side_apply(hpa.object, deployment(3), manager="helm", time=T2)
    assert err.value.code == OWNERSHIP_CONFLICT
    assert err.value.message == ('Apply failed with 1 conflict: conflict with "hpa-controller" '
                                 'using apps/v1: .spec.replicas')
    assert err.value.conflicts == [Conflict("hpa-controller", "Update", "apps/v1", REPLICAS)]
    # the same value is shared, not a conflict
    same = server_side_apply(hpa.object, deployment(5), manager="helm", time=T2)
    assert {e.manager for e in same.owners(REPLICAS)} == {"helm", "hpa-controller"}
    assert not same.changed
    # dropping the field leaves it to the controller
    dropped = server_side_apply(hpa.object, deployment(None), manager="helm", time=T2)
    assert dropped.object["spec"]["replicas"] == 5
    assert dropped.changes.removed.empty()
    forced = server_side_apply(hpa.object, deployment(3), manager="helm", force=True, time=T2)
    assert forced.object["spec"]["replicas"] == 3
    assert [e.manager for e in forced.owners(REPLICAS)] == ["helm"]
    assert [c.field for c in forced.forced] == [".spec.replicas"]


def test_removal_of_fields_the_applier_stopped_sending() -> None:
    env = [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]
    first = server_side_apply(None, deployment(env=env), manager="flux", time=T0)
    second = server_side_apply(first.object, deployment(env=env[:1]), manager="flux", time=T1)
    c = second.object["spec"]["template"]["spec"]["containers"][0]
    assert c["env"] == [{"name": "A", "value": "1"}]
    removed = [fp.path_string(p) for p in second.changes.removed.paths()]
    assert '.spec.template.spec.containers[name="app"].env[name="B"]' in removed


def test_several_conflicts_are_grouped_by_manager() -> None:
    base = server_side_apply(None, deployment(), manager="a", time=T0).object
    b = update(base, scaled(base, 4), manager="b", time=T1).object
    img = copy.deepcopy(b)
    img["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:9"
    c = update(b, img, manager="c", time=T2).object
    with pytest.raises(OwnershipConflict) as err:
        server_side_apply(c, deployment(7, "nginx:2"), manager="a")
    assert err.value.message == (
        'Apply failed with 2 conflicts: conflicts with "b" using apps/v1:\n- .spec.replicas\n'
        'conflicts with "c" using apps/v1:\n'
        '- .spec.template.spec.containers[name="app"].image')
    assert conflict_message(err.value.conflicts) == err.value.message


def test_existing_object_gets_before_first_apply() -> None:
    live = deployment()
    live["metadata"]["uid"] = "u-1"
    r = server_side_apply(live, deployment(), manager="kubectl", time=T0)
    assert r.before_first_apply
    assert [e.manager for e in r.managed_fields] == ["kubectl", "before-first-apply"]
    untracked = update(live, scaled(live, 4), manager="ctl", time=T0)
    assert untracked.managed_fields == [] and "managedFields" not in untracked.object["metadata"]


def test_refusals_carry_the_servers_text() -> None:
    env = [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]
    with pytest.raises(KubeError) as err:
        server_side_apply(None, deployment(env=env), manager="m")
    assert err.value.code == SERVER_REFUSES
    assert err.value.message == (
        "failed to create typed patch object (default/web; apps/v1, Kind=Deployment): "
        '.spec.template.spec.containers[name="app"].env: duplicate entries for key [name="A"]')
    with pytest.raises(KubeError) as err:
        server_side_apply(None, {"apiVersion": "x/v1", "kind": "Nope", "metadata": {"name": "n"}})
    assert "no corresponding type for x/v1, Kind=Nope" in err.value.message
    with pytest.raises(KubeError) as err:
        server_side_apply(None, "not an object")  # type: ignore[arg-type]
    assert err.value.code == "invalid arguments"


CRD = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
       "metadata": {"name": "ts.e.io"},
       "spec": {"group": "e.io", "names": {"kind": "T", "plural": "ts"}, "versions": [{
           "name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
               "type": "object", "properties": {"spec": {"type": "object", "properties": {
                   "items": {"type": "array", "x-kubernetes-list-type": "map",
                             "x-kubernetes-list-map-keys": ["id"],
                             "items": {"type": "object", "properties": {
                                 "id": {"type": "string"}, "v": {"type": "string"}}}},
                   "plain": {"type": "array", "items": {"type": "string"}}}}}}}}]}}


def test_custom_resource_lists_follow_the_crd() -> None:
    def cr(items: list, plain: list) -> dict:
        return {"apiVersion": "e.io/v1", "kind": "T", "metadata": {"name": "t"},
                "spec": {"items": items, "plain": plain}}
    a = server_side_apply(None, cr([{"id": "1", "v": "a"}], ["x"]), manager="a", crds=[CRD])
    b = server_side_apply(a.object, cr([{"id": "2", "v": "b"}], ["y"]), manager="b",
                          schema=Types(crds=[CRD]), force=True)
    assert b.object["spec"]["items"] == [{"id": "1", "v": "a"}, {"id": "2", "v": "b"}]
    assert b.object["spec"]["plain"] == ["y"]  # atomic: replaced, and taken over
    with pytest.raises(KubeError):
        Types(crds=[{"kind": "nope"}])


def test_dropped_fields_go_unless_someone_else_owns_them() -> None:
    first = server_side_apply(None, deployment(2, env=[{"name": "A", "value": "1"}]),
                              manager="helm", time=T0)
    shared = server_side_apply(first.object, deployment(2), manager="flux", time=T1)
    later = server_side_apply(shared.object, deployment(None, env=[]), manager="helm", time=T2)
    dropped = {fp.path_string(p) for p in later.dropped.paths()}
    assert ".spec.replicas" in dropped
    assert later.object["spec"]["replicas"] == 2  # flux still owns it
    gone = {fp.path_string(p) for p in later.changes.removed.paths()}
    assert '.spec.template.spec.containers[name="app"].env[name="A"]' in gone
    from cfgpatch.kube.ssa import field_owners
    owners = field_owners(later.managed_fields)
    assert owners[REPLICAS] == ['"flux"']


def test_refusals_without_applying() -> None:
    from cfgpatch.kube.ssa import Refusal, refusals
    env = [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]
    assert refusals(deployment(env=env)) == [Refusal(
        '.spec.template.spec.containers[name="app"].env', 'duplicate entries for key [name="A"]')]
    assert refusals(deployment(env=env), allow_duplicates=True) == []
    assert refusals(deployment()) == []
    cr = {"apiVersion": "e.io/v1", "kind": "T", "metadata": {"name": "t"},
          "spec": {"items": [{"v": "no id"}], "nope": 1}}
    assert [str(r) for r in refusals(cr, crds=[CRD])] == [
        '.spec.items: element 0: associative list with keys has an element that omits key '
        'field "id" (and doesn\'t have default value)', ".spec.nope: field not declared in schema"]
    assert [str(r) for r in refusals({"apiVersion": "x/v1", "kind": "Y"})] == [
        "no corresponding type for x/v1, Kind=Y"]


def test_kubectls_last_applied_rewrite_leaves_the_live_object_alone() -> None:
    """The merged object shares the parts the apply leaves as they were with the live one;
    the annotation kubectl's apply rewrites is copied first, never changed in place."""
    last = "kubectl.kubernetes.io/last-applied-configuration"
    old = deployment()
    live = update(None, {**old, "metadata": {**old["metadata"], "annotations": {
        last: "{}\n", "team": "a"}}}, manager="kubectl-client-side-apply", time=T0).object
    before = copy.deepcopy(live)
    result = server_side_apply(live, deployment(image="nginx:2"), manager="kubectl", force=True,
                               time=T1)
    assert live == before
    annotations = result.object["metadata"]["annotations"]
    assert annotations["team"] == "a" and '"nginx:2"' in annotations[last]
    result.object["metadata"]["annotations"]["team"] = "b"
    result.object["spec"]["selector"]["matchLabels"]["app"] = "x"
    assert live == before
