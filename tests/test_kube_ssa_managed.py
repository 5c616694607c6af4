"""managedFields: identifiers, the server's order, decoding errors, the field manager chain."""

from __future__ import annotations

import pytest

from cfgpatch.errors import SERVER_REFUSES, KubeError
from cfgpatch.kube.ssa import fieldpath as fp
from cfgpatch.kube.ssa import managed as mf
from cfgpatch.kube.ssa import server_side_apply, update
from cfgpatch.kube.ssa.updater import VersionedSet


def test_identifiers_and_names_as_the_server_prints_them() -> None:
    assert mf.identifier("kubectl", "Apply", "apps/v1") == '{"manager":"kubectl","operation":"Apply"}'
    ident = mf.identifier("hpa", "Update", "apps/v1", "scale")
    assert ident == ('{"manager":"hpa","operation":"Update","apiVersion":"apps/v1",'
                     '"subresource":"scale"}')
    assert mf.describe(ident) == '"hpa" with subresource "scale" using apps/v1'
    assert mf.identifier("a<b", "Apply", "v1") == '{"manager":"a\\u003cb","operation":"Apply"}'


def test_entries_sorted_apply_first_then_time_then_name() -> None:
    s = fp.FieldSet.from_paths([(fp.field("data"),)])
    managers = {mf.identifier(n, op, "v1"): VersionedSet(s, "v1", op == "Apply")
                for n, op in [("z", "Update"), ("b", "Apply"), ("a", "Update"), ("c", "Apply")]}
    times = {mf.identifier("z", "Update", "v1"): "2020-01-01T00:00:00Z",
             mf.identifier("a", "Update", "v1"): "2021-01-01T00:00:00Z"}
    order = [(e.manager, e.operation) for e in mf.encode(managers, times)]
    assert order == [("b", "Apply"), ("c", "Apply"), ("z", "Update"), ("a", "Update")]


@pytest.mark.parametrize("entry, text", [
    ({"manager": "x", "operation": "Patch", "apiVersion": "v1", "fieldsType": "FieldsV1"},
     "operation must be `Apply` or `Update`"),
    ({"manager": "x", "operation": "Apply", "fieldsType": "FieldsV1"},
     "apiVersion must not be empty"),
    ({"manager": "x", "operation": "Apply", "apiVersion": "v1"},
     "missing fieldsType in managed fields entry 0"),
    ({"manager": "x", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV2"},
     'invalid fieldsType "FieldsV2" in managed fields entry 0'),
])
def test_unreadable_managed_fields(entry: dict, text: str) -> None:
    live = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "c", "managedFields": [entry]}, "data": {"a": "1"}}
    cfg = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "2"}}
    with pytest.raises(KubeError) as err:
        server_side_apply(live, cfg, manager="m")
    assert err.value.code == SERVER_REFUSES
    assert err.value.message == f"failed to decode managed fields: {text}"
    # an Update reads the live entries leniently: unreadable ones count as none
    assert update(live, cfg, manager="m").managed_fields != []


def test_update_managers_are_capped_into_ancient_changes() -> None:
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {}}
    live = update(None, obj, manager="m0", time="2024-01-01T00:00:00Z").object
    for i in range(1, 12):
        new = {**live, "data": {**live.get("data", {}), f"k{i}": "v"}}
        live = update(live, new, manager=f"m{i:02d}", time=f"2024-01-01T00:00:{i:02d}Z").object
    names = [e["manager"] for e in live["metadata"]["managedFields"]]
    assert len(names) == 10 and names[0] == "ancient-changes"
