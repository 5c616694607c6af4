"""kubectl's unstructured objects: number model, decoding checks, lists."""

from __future__ import annotations

import math

import pytest

from cfgpatch.errors import KUBECTL_UNPREFIXED, KubeError
from cfgpatch.kube.io import unstructured


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
    ({"apiVersion": "x/y/z", "kind": "Pod"},
     "Object 'Kind' is missing in '{\"apiVersion\":\"x/y/z\",\"kind\":\"Pod\"}'"),
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
    from cfgpatch.kube.engine import mergepatch
    from cfgpatch.kube.go import jsondecode
    from cfgpatch.kube.io import reader

    patch, _ = reader.load_patch('{"data":{"x":1e400}}', "merge")
    assert isinstance(patch["data"]["x"], jsondecode.OutOfRange)
    with pytest.raises(KubeError) as info:
        mergepatch.apply({"kind": "K"}, patch)
    assert info.value.message == "json: cannot unmarshal number 1e400 into Go value of type float64"
    with pytest.raises(KubeError) as info:
        reader.load_patch('{"data":{"x":1e400}}', "strategic")
    assert info.value.message == "invalid JSON document"
    with pytest.raises(KubeError) as info:
        reader.load_object('{"kind":"K","n":-1e400}', "big.json")
    assert info.value.message == ('unable to decode "big.json": json: cannot unmarshal number '
                                  "-1e400 into Go value of type float64")
    assert reader.load_patch("x: 1e400", "merge")[0] == {"x": "1e400"}  # YAML: a string


def test_missing_kind_quotes_the_document_before_decoding() -> None:
    with pytest.raises(KubeError) as info:
        unstructured.decode_result({"apiVersion": "v1", "kind": "", "b": -0.0, "items": [{}]})
    assert info.value.message == ("Object 'Kind' is missing in '{\"apiVersion\":\"v1\","
                                  "\"b\":-0,\"items\":[{}],\"kind\":\"\"}'")


@pytest.mark.parametrize(("api_version", "ok"), [
    ("v1", True), ("apps/v1", True), ("", True), ("/", True), ("/v1", True), ("v1/", True),
    (5, True), (None, True), ("x/y/z", False), ("//", False), ("a//", False),
])
def test_group_version_split(api_version: object, ok: bool) -> None:
    assert unstructured.group_version_ok(api_version) is ok


# Checked against kubectl 1.32 (`kubectl patch --local -f tt.json ...`, any --type).
@pytest.mark.parametrize(("raw", "message"), [
    ('{"kind": "ConfigMap",  "apiVersion": "a/b/c", "metadata": {"name": "x"}}',
     'unable to decode "tt.json": Object \'Kind\' is missing in \'{"kind": "ConfigMap",  '
     '"apiVersion": "a/b/c", "metadata": {"name": "x"}}\''),
    ('{"apiVersion": 5, "kind": "X", "metadata": 5}',
     'unable to decode "tt.json": json: cannot unmarshal number into Go struct field '
     'metadataOnlyObject.apiVersion of type string'),
    ('{"metadata": 5, "apiVersion": 5, "kind": "X"}',
     'unable to decode "tt.json": json: cannot unmarshal number into Go struct field '
     'metadataOnlyObject.metadata of type v1.ObjectMeta'),
    ('{"apiVersion": "v1", "kind": "X", "metadata": {"namespace": 5, "name": 6}}',
     'unable to decode "tt.json": json: cannot unmarshal number into Go struct field '
     'ObjectMeta.metadata.namespace of type string'),
    ('{"apiVersion": "a/b/c", "kind": "List", "items": []}',
     'unable to decode "tt.json": Object \'Kind\' is missing in \'{"apiVersion": "a/b/c", '
     '"kind": "List", "items": []}\''),
    ('{"apiVersion": 5, "kind": "XList", "items": []}',
     'unable to decode "tt.json": json: cannot unmarshal number into Go struct field '
     'metadataOnlyObject.apiVersion of type string'),
    ('{"items": [], "metadata": "v1", "kind": "ConfigMap"}',
     'unable to decode "tt.json": json: cannot unmarshal string into Go struct field '
     'metadataOnlyObject.metadata of type v1.ObjectMeta'),
    ('{"kind": "List", "metadata": "X", "apiVersion": [1], "items": [{}]}',
     'unable to decode "tt.json": json: cannot unmarshal string into Go struct field '
     'metadataOnlyObject.metadata of type v1.ObjectMeta'),
    ('{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "a/b/c", "kind": "X"}]}',
     'unable to get type info from the object "*unstructured.Unstructured": Object \'Kind\' '
     "is missing in 'object has no kind field '"),
    ('{"kind": "XList", "items": [{"metadata": {"name": "x"}}]}',
     'unable to get type info from the object "*unstructured.Unstructured": Object '
     "'apiVersion' is missing in 'object has no apiVersion field'"),
])
def test_object_file_errors_in_kubectl_order(raw: str, message: str) -> None:
    import json
    with pytest.raises(KubeError) as info:
        unstructured.object_from_documents([json.loads(raw)], "tt.json", raw)
    assert info.value.message == message
    assert (info.value.code == KUBECTL_UNPREFIXED) == message.startswith("unable to get")


def test_list_items_skip_the_typed_metadata_check() -> None:
    item = unstructured.object_from_documents(
        [{"apiVersion": "v1", "kind": "XList", "items": [{"kind": "Y", "apiVersion": "v1",
                                                          "metadata": 5}]}], "-")
    assert item == {"kind": "Y", "apiVersion": "v1", "metadata": 5}


def _typed(value: object) -> object:
    """``value`` with each leaf's type beside it (``1 == 1.0`` would hide a difference)."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, repr(value))


@pytest.mark.parametrize("value", [
    {"kind": "K", "a": [1, "x", None, True, {"b": []}]},
    {"kind": "K", "a": 1.0}, {"kind": "K", "a": -0.0}, {"kind": "K", "a": 2**63},
    {"kind": "K", "a": [1.5, 1e21]}, {"kind": "K", "a": [1, "2"]},
    {"apiVersion": "v1", "kind": "PodList", "items": [{"a": 1.0}, None]},
])
@pytest.mark.parametrize("literal", [False, True])
def test_an_owned_result_decodes_as_a_copied_one(value: dict, literal: bool) -> None:
    def decoded(owned: bool) -> object:
        try:
            return _typed(unstructured.decode_result(value, literal=literal, owned=owned))
        except KubeError as err:
            return err.message
    assert decoded(True) == decoded(False)
    if unstructured.already_normal(value):  # then normalizing leaves it as it is
        assert decoded(False) == _typed(value)


def test_a_tree_sharing_a_container_is_not_already_normal() -> None:
    shared = {"b": 1}
    assert not unstructured.already_normal({"kind": "K", "x": shared, "y": shared})
    decoded = unstructured.decode_result({"kind": "K", "x": shared, "y": shared}, owned=True)
    assert decoded["x"] is not decoded["y"]
