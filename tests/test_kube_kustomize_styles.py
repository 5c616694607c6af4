"""kustomize/styles.py on its own: what kustomize keeps of a scalar's source text
in annotations, and what a JSON 6902 patch makes of them (end to end: the corpus trees
annotation-dates and json6902-annotation-values, recorded with kubectl kustomize)."""

from __future__ import annotations

import pytest

from cfgpatch.kube.io.kyaml_read import read_document
from cfgpatch.kube.kustomize.styles import (
    SourceText,
    json_annotations,
    metadata_texts,
    styled_value,
)


def _read(annotations: str, labels: str = "x: y") -> tuple:
    text = f"metadata:\n  annotations: {{{annotations}}}\n  labels: {{{labels}}}\n"
    node = read_document(text)
    value = styled_value(node)
    return node, value


def test_annotations_keep_the_source_text_of_numbers_nulls_and_dates():
    node, value = _read("hex: 0x1F, day: 2024-01-01, nil: ~, text: web, quoted: '2024-01-01'",
                        "day: 2024-01-01")
    metadata_texts(node, value)
    found = value["metadata"]["annotations"]
    assert found == {"hex": "0x1F", "day": "2024-01-01", "nil": "~", "text": "web",
                     "quoted": "2024-01-01"}
    assert (found["hex"].decoded, found["day"].decoded, found["nil"].decoded) == (
        31, "2024-01-01T00:00:00Z", None)
    assert not isinstance(found["text"], SourceText)
    assert not isinstance(found["quoted"], SourceText)
    assert value["metadata"]["labels"]["day"] == "2024-01-01T00:00:00Z"  # labels: decoded


def test_labels_too_and_nulls_left_alone_when_asked():
    node, value = _read("gone: null", "day: 2024-01-01")
    metadata_texts(node, value, labels=True, nulls=False)
    assert value["metadata"]["labels"]["day"] == "2024-01-01"
    assert value["metadata"]["annotations"]["gone"] is None


def test_a_json_patch_sees_the_decoded_values():
    node, value = _read("hex: 0x1F, day: 2024-01-01, nil: ~, text: web")
    metadata_texts(node, value)
    json_annotations(value, decoded=True)
    assert value["metadata"]["annotations"] == {"hex": 31, "day": "2024-01-01T00:00:00Z",
                                                "nil": None, "text": "web"}


@pytest.mark.parametrize("decoded, text", [
    (31, "31"), (1000000, "1e+06"), (1234567890123, "1.234567890123e+12"), (1.5, "1.5"),
    (-7, "-7"), (1.0, "1"), (None, "null"), (True, "true"), ("0x1F", "0x1F"),
])
def test_after_a_json_patch_annotations_are_go_s_float64_texts(decoded, text):
    value = {"metadata": {"annotations": {"a": decoded}}}
    json_annotations(value, decoded=False)
    assert value["metadata"]["annotations"]["a"] == text


def test_values_that_are_not_annotations_are_left_alone():
    value = {"metadata": {"labels": {"a": 31}, "annotations": None}, "data": {"a": 31}}
    json_annotations(value, decoded=False)
    assert value == {"metadata": {"labels": {"a": 31}, "annotations": None}, "data": {"a": 31}}


def test_after_a_json_patch_integers_print_as_go_s_float64():
    from cfgpatch.kube.kustomize.styles import reencoded
    found = reencoded({"a": 31, "b": 1234567890123, "c": 2**63 - 1, "d": 2**60, "e": True})
    assert found == {"a": 31, "b": 1234567890123, "c": 9.223372036854776e18,
                     "d": 1.152921504606847e18, "e": True}
    assert type(found["a"]) is int and type(found["c"]) is float
