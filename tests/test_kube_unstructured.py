"""kubectl's unstructured objects: number model, decoding checks, lists."""

from __future__ import annotations

import math

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube import unstructured


def test_kube_number_model() -> None:
    assert unstructured.normalize([1.0, 2**63, -(2**63), 1e3, 0.5]) == [1, 2.0**63, -(2**63), 1000, 0.5]
    assert math.copysign(1, unstructured.normalize(-0.0, literal=True)) < 0
    assert unstructured.normalize(-0.0) == 0


@pytest.mark.parametrize(("value", "message"), [
    ([1], "json: cannot unmarshal array into Go value of type unstructured.detector"),
    ("x", "json: cannot unmarshal string into Go value of type unstructured.detector"),
    (None, "Object 'Kind' is missing in 'null'"),
    ({"apiVersion": "v1", "kind": ""}, "Object 'Kind' is missing in '{\"apiVersion\":\"v1\","
     "\"kind\":\"\"}'"),
    ({"kind": 5}, "Object 'Kind' is missing in '{\"kind\":5}'"),
])
def test_decode_result_errors(value: object, message: str) -> None:
    with pytest.raises(KubeError) as info:
        unstructured.decode_result(value)
    assert info.value.message == message


def test_a_patched_object_with_items_is_printed_as_a_list() -> None:
    got = unstructured.decode_result({"apiVersion": "v1", "kind": "ConfigMap",
                                "items": [None, {"kind": "X"}, {"a": 1}]})
    assert got["items"] == [{"apiVersion": "v1", "kind": "ConfigMap"}, {"kind": "X"},
                            {"a": 1, "apiVersion": "v1", "kind": "ConfigMap"}]
    assert unstructured.decode_result({"kind": "K", "items": None})["items"] == []
    with pytest.raises(KubeError) as info:
        unstructured.decode_result({"kind": "K", "items": "x"})
    assert info.value.message == ("json: cannot unmarshal string into Go struct field "
                                  "decodeList.items of type []json.RawMessage")
