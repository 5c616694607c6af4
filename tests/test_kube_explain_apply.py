"""What an apply does, field by field (``kube/explain/apply.py``)."""

from __future__ import annotations

from cfgpatch.kube.explain.apply import ApplyNote, explain_three_way, explain_two_way, fields
from cfgpatch.kube.schema.node import builtin_schema

POD = builtin_schema().for_kind("v1", "Pod")


def codes(notes):
    return [(note.code, note.path) for note in notes]


def test_fields_of_keyed_and_scalar_merge_lists():
    obj = {"metadata": {"finalizers": ["a"]},
           "spec": {"containers": [{"name": "app", "image": "x"}], "tolerations": [{"k": 1}]}}
    assert fields(obj, POD) == {
        "metadata.finalizers[=a]": '"a"',
        "spec.containers[name=app]": "<element>",
        "spec.containers[name=app].image": '"x"',
        "spec.tolerations": '[{"k":1}]',
    }
    # no schema: every list is one value
    assert fields(obj, None)["spec.containers"] == '[{"image":"x","name":"app"}]'


def test_three_way_surprises():
    last = {"spec": {"containers": [{"name": "app", "image": "1"}, {"name": "log"}],
                     "hostname": "h"}}
    live = {"spec": {"containers": [{"name": "app", "image": "2"}, {"name": "log"},
                                    {"name": "mesh"}], "hostname": "h", "nodeName": "n"}}
    new = {"spec": {"containers": [{"name": "app", "image": "1"}]}}
    result = {"spec": {"containers": [{"name": "app", "image": "1"}, {"name": "mesh"}],
                       "nodeName": "n"}}
    assert codes(explain_three_way(last, new, live, result, POD)) == [
        ("reverted", "spec.containers[name=app].image"),
        ("removed", "spec.containers[name=log]"),
        ("kept", "spec.containers[name=mesh]"),
        ("removed", "spec.hostname"),
        ("kept", "spec.nodeName"),
    ]


def test_dropped_when_the_result_lost_a_live_only_field():
    notes = explain_three_way({}, {"spec": {"tolerations": [{"k": 2}]}},
                              {"spec": {"tolerations": [{"k": 1}]}},
                              {"spec": {"tolerations": [{"k": 2}]}}, POD)
    assert codes(notes) == [("reverted", "spec.tolerations")]
    notes = explain_three_way({}, {}, {"spec": {"x": {"a": 1}}}, {"spec": {"x": {}}}, None)
    assert codes(notes) == [("dropped", "spec.x.a")]


def test_two_way_and_reordering():
    old = {"spec": {"containers": [{"name": "a"}, {"name": "b"}]}}
    new = {"spec": {"containers": [{"name": "b"}, {"name": "a"}, {"name": "c"}]}}
    assert codes(explain_two_way(old, new, new, POD)) == [
        ("reordered", "spec.containers"), ("added", "spec.containers[name=c]")]


def test_describe_shortens_long_values():
    note = ApplyNote("changed", "p", '"' + "x" * 100 + '"', '"y"')
    text = note.describe()
    assert text.startswith("changed p: the manifest changes it (") and "..." in text
    assert note.to_dict()["after"] == '"y"'


def test_fields_inside_a_kept_element_are_explained():
    # an element's own marker is no whole value: what is inside it is named on its own
    app = {"name": "app", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}
    live_app = {**app, "env": [*app["env"], {"name": "LIVE", "value": "x"}]}
    new_app = {"name": "app", "env": [{"name": "A", "value": "1"}]}
    last, live = {"spec": {"containers": [app]}}, {"spec": {"containers": [live_app]}}
    new = {"spec": {"containers": [new_app]}}
    result = {"spec": {"containers": [{**new_app, "env": [*new_app["env"],
                                                          {"name": "LIVE", "value": "x"}]}]}}
    assert codes(explain_three_way(last, new, live, result, POD)) == [
        ("removed", "spec.containers[name=app].env[name=B]"),
        ("kept", "spec.containers[name=app].env[name=LIVE]"),
    ]
    assert codes(explain_two_way(last, new, new, POD)) == [
        ("deleted", "spec.containers[name=app].env[name=B]"),
    ]


def test_a_field_the_patch_leaves_alone_is_left_not_reverted():
    # Helm's two-way patch of a custom resource: old == new on spec.tags, live differs
    old = {"spec": {"tags": ["a"], "size": 1}}
    new = {"spec": {"tags": ["a"], "size": 2}}
    live = {"spec": {"tags": ["a", "b"], "size": 1}}
    result = {"spec": {"tags": ["a", "b"], "size": 2}}
    notes = explain_three_way(old, new, live, result, None)
    assert codes(notes) == [("changed", "spec.size"), ("left", "spec.tags")]
    assert notes[1].describe().endswith('(live ["a","b"], manifest ["a"])')


def test_a_created_object_has_every_field_added_and_nothing_dropped():
    new = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"},
           "data": {"x": "2"}}
    notes = explain_three_way(None, new, None, new, None)
    assert [note.code for note in notes] == ["added"] * 4
    assert [note.describe().split(":")[0] for note in notes] == [
        "added apiVersion", "added data.x", "added kind", "added metadata.name"]
