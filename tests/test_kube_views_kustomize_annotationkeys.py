"""views/kustomize/annotationkeys.py: an annotation key that reads as no string fails the
build at output, as kustomize's does (end to end: the corpus tree
json6902-annotation-keys, recorded with kubectl kustomize)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.views.kustomize.annotationkeys import check_annotation_keys, typed_key


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
