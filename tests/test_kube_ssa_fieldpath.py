"""Field paths, field sets and the FieldsV1 encoding of server-side apply."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.kube.ssa import fieldpath as fp

ELEMENTS = st.one_of(
    st.sampled_from(["spec", "metadata", "a", "b", "é", "x.y"]).map(fp.field),
    st.sampled_from([("name", "app"), ("name", "b"), ("port", 80)]).map(lambda kv: fp.key([kv])),
    st.sampled_from(["a", "z", 1, 2.5, True]).map(fp.value),
    st.integers(0, 3).map(fp.index),
)
PATHS = st.lists(ELEMENTS, min_size=1, max_size=4).map(tuple)
PATH_SETS = st.lists(PATHS, max_size=12)


def test_server_order_and_dot() -> None:
    s = fp.FieldSet.from_paths([
        (fp.field("spec"), fp.field("containers"), fp.key([("name", "app")])),
        (fp.field("spec"), fp.field("containers"), fp.key([("name", "app")]), fp.field("image")),
        (fp.field("spec"), fp.field("containers"), fp.index(0)),
        (fp.field("spec"), fp.field("containers"), fp.value("v")),
        (fp.field("spec"), fp.field("a")),
    ])
    text = s.to_json()
    assert text == ('{"f:spec":{"f:a":{},"f:containers":{"k:{\\"name\\":\\"app\\"}":'
                    '{".":{},"f:image":{}},"v:\\"v\\"":{},"i:0":{}}}}')
    assert fp.FieldSet.from_fields_v1(text) == s


def test_key_fields_sorted_and_escaped() -> None:
    pe = fp.key([("protocol", "TCP"), ("containerPort", 80)])
    assert pe.serialize() == 'k:{"containerPort":80,"protocol":"TCP"}'
    assert str(pe) == '[containerPort=80,protocol="TCP"]'
    assert fp.value("a<b").serialize() == 'v:"a\\u003cb"'
    assert fp.value(1e-7).serialize() == "v:1e-07"
    assert str(fp.value(1e6)) == "[=1e+06]"


def test_numbers_in_keys_read_as_floats() -> None:
    pe = fp.parse_element("v:9007199254740993")
    assert pe is not None and pe.serialize() == "v:9007199254740992"
    assert fp.parse_element("k:{\"port\":80}") == fp.key([("port", 80)])


def test_unknown_element_kind_is_skipped_and_bad_keys_fail() -> None:
    assert fp.FieldSet.from_fields_v1({"x:y": {}, "f:a": {}}) == fp.FieldSet.from_paths(
        [(fp.field("a"),)])
    for bad in ("f", "fa", "k:[1]", "i:x"):
        with pytest.raises(fp.FieldsV1Error):
            fp.FieldSet.from_fields_v1({bad: {}})


def test_path_string() -> None:
    p = (fp.field("spec"), fp.field("ports"), fp.key([("port", 80), ("protocol", "TCP")]),
         fp.field("name"))
    assert fp.path_string(p) == '.spec.ports[port=80,protocol="TCP"].name'


@settings(max_examples=150, deadline=None)
@given(PATH_SETS)
def test_fields_v1_round_trip(paths: list) -> None:
    s = fp.FieldSet.from_paths(paths)
    back = fp.FieldSet.from_fields_v1(json.loads(s.to_json()))
    assert set(back.paths()) == set(s.paths()) == set(paths)
    assert list(json.loads(s.to_json())) == list(s.to_fields_v1())


@settings(max_examples=150, deadline=None)
@given(PATH_SETS, PATH_SETS)
def test_algebra_is_set_algebra_on_paths(a: list, b: list) -> None:
    sa, sb = fp.FieldSet.from_paths(a), fp.FieldSet.from_paths(b)
    assert set(sa.union(sb).paths()) == set(a) | set(b)
    assert set(sa.intersection(sb).paths()) == set(a) & set(b)
    assert set(sa.difference(sb).paths()) == set(a) - set(b)
    assert sa.difference(sb).empty() == (set(a) <= set(b)) == sa.is_subset(sb)
    rd = set(sa.recursive_difference(sb).paths())
    assert rd == {p for p in a if not any(p[:i] in set(b) for i in range(1, len(p) + 1))}
    assert all(sa.has(p) for p in a) and sa.size() == len(set(a))


@settings(max_examples=100, deadline=None)
@given(PATH_SETS)
def test_paths_in_server_order(a: list) -> None:
    listed = list(fp.FieldSet.from_paths(a).paths())
    assert len(listed) == len(set(a))
    # members of a level come before the subtrees of that level
    for i, p in enumerate(listed):
        for q in listed[i + 1:]:
            if len(p) == len(q) and p[:-1] == q[:-1]:
                assert p[-1] < q[-1]
