"""kustomize/repeated.py: the lines kustomize reports for a key written twice, once
the build has added fields above it.  Measured with kubectl kustomize 1.32 (corpus tree
duplicate-keys: builds labelled, labelled-flow, json6902-after-metadata,
json6902-under-annotations)."""

from __future__ import annotations

from cfgpatch.kube.io.kyaml_duplicates import drop_duplicates
from cfgpatch.kube.io.kyaml_read import read_document
from cfgpatch.kube.io.kyaml_scalars import node_value
from cfgpatch.kube.kustomize.repeated import RepeatedKeys

BLOCK = "kind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: 1\n  a: 2\n"


def _repeated(text: str) -> tuple[RepeatedKeys, dict]:
    node = read_document(text)
    found = RepeatedKeys.of(text, node)
    assert found is not None
    value = node_value(drop_duplicates(node))
    found.remember(value)
    return found, value


def test_nothing_added_keeps_the_lines_as_read():
    found, value = _repeated(BLOCK)
    assert found.keys(value) == ((6, "a", 5),)


def test_fields_added_to_a_block_mapping_above_push_the_lines_down():
    found, value = _repeated(BLOCK)
    value["metadata"]["namespace"] = "x"                  # one line
    value["metadata"]["labels"] = {"a": "b", "c": "d"}    # three lines
    assert found.keys(value) == ((10, "a", 9),)


def test_fields_added_below_the_repeated_key_change_nothing():
    found, value = _repeated(BLOCK + "spec: {}\n")
    value["data"]["z"] = "new"
    value["spec"]["replicas"] = 1
    assert found.keys(value) == ((6, "a", 5),)


def test_a_flow_mapping_keeps_what_is_added_on_its_line():
    found, value = _repeated("kind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: 1\n  a: 2\n")
    value["metadata"]["namespace"] = "x"
    assert found.keys(value) == ((5, "a", 4),)


def test_new_entries_of_an_existing_block_map_count_one_line_each():
    found, value = _repeated("kind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n"
                             "    note: kept\ndata:\n  a: 1\n  a: 2\n")
    value["metadata"]["annotations"].update({"p1": "k", "p2": "n", "p3": "ns"})
    assert found.keys(value) == ((11, "a", 10),)


def test_added_maps_count_a_line_per_key_in_block_style():
    # as kustomize's labels and annotations transformers write them
    found, value = _repeated(BLOCK)
    value["metadata"]["labels"] = {"team": "a"}
    value["metadata"]["annotations"] = {"owner": "b", "tier": "c"}
    assert found.keys(value) == ((11, "a", 10),)
