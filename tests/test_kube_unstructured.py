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


def test_numbers_beyond_float64() -> None:
    # kubectl keeps a merge patch's text, so 1e400 fails only when the result is decoded
    from cfgpatch.kube import gojson, mergepatch, yamlio

    patch, _ = yamlio.load_patch('{"data":{"x":1e400}}', "merge")
    assert isinstance(patch["data"]["x"], gojson.OutOfRange)
    with pytest.raises(KubeError) as info:
        mergepatch.apply({"kind": "K"}, patch)
    assert info.value.message == "json: cannot unmarshal number 1e400 into Go value of type float64"
    with pytest.raises(KubeError) as info:
        yamlio.load_patch('{"data":{"x":1e400}}', "strategic")
    assert info.value.message == "invalid JSON document"
    with pytest.raises(KubeError) as info:
        yamlio.load_object('{"kind":"K","n":-1e400}', "big.json")
    assert info.value.message == ('unable to decode "big.json": json: cannot unmarshal number '
                                  "-1e400 into Go value of type float64")
    assert yamlio.load_patch("x: 1e400", "merge")[0] == {"x": "1e400"}  # YAML: a string
