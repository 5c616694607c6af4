"""The library's read, read_one and dump (kube/objects.py): objects in and out as kubectl
reads and prints them, failures as values where kubectl reads on."""

from __future__ import annotations

import pytest

from cfgpatch.errors import MULTIPLE_DOCUMENTS, KubeError
from cfgpatch.kube import dump, read, read_one


def test_a_file_of_several_objects_and_a_list():
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n"
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Secret, metadata: {name: b}}\n")
    found = read(text)
    assert [(v["kind"], v["metadata"]["name"]) for v in found.values] == [
        ("ConfigMap", "a"), ("Secret", "b")]
    assert found.errors == []


def test_a_document_kubectl_cannot_take_is_an_error_value_and_reading_goes_on():
    found = read("name: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n", "f.yaml")
    assert [v["metadata"]["name"] for v in found.values] == ["web"]
    assert [e.message for e in found.errors] == [
        'unable to decode "f.yaml": Object \'Kind\' is missing in \'{"name":"x"}\'']


def test_an_error_that_stops_the_reading_is_raised_and_an_empty_file_is_one():
    with pytest.raises(KubeError):
        read("a: [\n")
    with pytest.raises(KubeError) as empty:
        read("")
    assert empty.value.message == "no objects passed to patch"


def test_bytes_are_decoded_as_kubectl_decodes_files():
    utf16 = "kind: K\nmetadata: {name: é}\n".encode("utf-16")  # with its byte order mark
    assert read(utf16).values == [{"kind": "K", "metadata": {"name": "é"}}]


def test_read_one_refuses_several_objects():
    with pytest.raises(KubeError) as several:
        read_one("kind: A\n---\nkind: B\n")
    assert several.value.code == MULTIPLE_DOCUMENTS
    assert read_one('{"kind": "A", "n": 010}'.replace("010", "10")).value == {"kind": "A", "n": 10}


def test_dump_prints_as_kubectl_and_refuses_other_formats():
    obj = {"kind": "K", "metadata": {"name": "x", "managedFields": [{"manager": "m"}]}}
    assert dump(obj) == "kind: K\nmetadata:\n  name: x\n"
    assert dump(obj, "json") == '{\n    "kind": "K",\n    "metadata": {\n        "name": "x"\n    }\n}\n'
    with pytest.raises(KubeError):
        dump(obj, "wide")
