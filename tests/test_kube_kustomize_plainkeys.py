"""kustomize/plainkeys.py: a key kustomize writes plain (every annotation key, the
label and generator keys it sets) that reads as no string fails the build at output, as
kustomize's does (end to end: the corpus trees json6902-annotation-keys and
written-key-types, recorded with kubectl kustomize)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.kustomize.plainkeys import check_annotation_keys, typed_key


@pytest.mark.parametrize("key", ["true", "1", "null", "~", "1.5", "0x1F", "2024-01-01", ""])
def test_an_annotation_key_yaml_reads_as_no_string_fails_the_build(key):
    value = {"kind": "ConfigMap", "metadata": {"name": "cm", "annotations": {key: "x"}}}
    with pytest.raises(KubeError) as caught:
        check_annotation_keys(value)
    assert caught.value.message.endswith(": json: unsupported type: "
                                         "map[interface {}]interface {}")
    assert '"annotations":map[interface {}]interface {}{' in caught.value.message


@pytest.mark.parametrize("key", ["on", "yes", "y", "web", "a/b", "1a"])
def test_string_keys_pass(key):
    check_annotation_keys({"metadata": {"annotations": {key: "x"}, "labels": {"1": "x"}}})
    check_annotation_keys({"metadata": None})


def test_the_dump_shows_typed_keys_and_the_rest_of_the_resource():
    value = {"kind": "ConfigMap", "metadata": {"name": "cm", "annotations": {"a": "b",
                                                                           "true": "x"}}}
    with pytest.raises(KubeError) as caught:
        check_annotation_keys(value)
    assert caught.value.message.startswith(
        'map[string]interface {}{"kind":"ConfigMap", "metadata":map[string]interface {}{'
        '"annotations":map[interface {}]interface {}{"a":"b", true:"x"}, "name":"cm"}}')


def test_typed_keys():
    assert typed_key("2024-01-01") == "2024-01-01T00:00:00Z"
    assert type(typed_key("2024-01-01")).__name__ == "GoTime"
    assert typed_key("1.5") == 1.5 and typed_key("web") == "web"


def test_keys_kustomize_writes_are_typed_where_yaml_reads_them_so():
    from cfgpatch.kube.kustomize.plainkeys import TypedKey, has_typed_keys, plain_key
    assert type(plain_key("1")) is TypedKey and type(plain_key("app")) is str
    assert has_typed_keys({plain_key("true"): "x"}) and not has_typed_keys({"true": "x"})


def test_a_written_key_anywhere_fails_with_its_map_typed_only_when_walked():
    from cfgpatch.kube.kustomize.plainkeys import check_keys, plain_key
    value = {"kind": "Deployment", "metadata": {"name": "d", "labels": {"2": "kept"}},
             "spec": {"selector": {"matchLabels": {plain_key("1"): "x", "app": "d"}}}}
    check_keys(value, walk=False)  # not told of written keys: annotations only
    with pytest.raises(KubeError) as caught:
        check_keys(value, walk=True)
    assert caught.value.message == (
        'map[string]interface {}{"kind":"Deployment", "metadata":map[string]interface {}{'
        '"labels":map[string]interface {}{"2":"kept"}, "name":"d"}, "spec":map[string]'
        'interface {}{"selector":map[string]interface {}{"matchLabels":map[interface {}]'
        'interface {}{"app":"d", 1:"x"}}}}: json: unsupported type: '
        'map[interface {}]interface {}')


def test_annotations_elsewhere_than_metadata_are_no_annotations():
    from cfgpatch.kube.kustomize.plainkeys import check_keys
    check_keys({"spec": {"annotations": {"true": "x"}}, "metadata": {"labels": {"1": "x"}}},
               walk=True)
