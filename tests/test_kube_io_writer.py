"""``cfgpatch.kube.io.writer``: what kubectl cannot print as YAML.

Most of the printer is held to kubectl by the recorded corpora (``test_kube_io_yamlprint``,
``test_kube_io_reader_object_text``). These are the keys holding U+0085 (NEL), which
kubectl's YAML printer refuses; each answer was asked of kubectl 1.32 (``kubectl patch
--local -f obj.json --type merge -p '{}' -o yaml``) on 2026-12-06.
"""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.io import writer

HEAD = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}}


@pytest.mark.parametrize(("body", "line"), [
    ({"data": {"\x85a": "x"}}, 1),
    ({"data": {"a": "x\x85\x85y", "b\x85": "z"}}, 3),
    ({"data": {"a\x85": "x\x85y", "b\x85": "z"}}, 1),
    ({"spec": {"l": [{"x": "a\x85"}, {"k\x85k": 1}]}, "data": {"z": "\x85"}}, 3),
    ({"abc\x85": {"q": 1}, "data": {"\x85": "\x85"}}, 1),
    ({"data": {"a\u2028": "x", "b": "\x85", "c\x85\x85\x85": 1}}, 4),
    ({"data": {"\u00e9\x85": "x", "e": "\x85"}}, 2),
])
def test_a_key_holding_nel_stops_yaml_where_go_yaml_does(body: dict, line: int) -> None:
    with pytest.raises(KubeError) as failed:
        writer.dump({**HEAD, **body}, "yaml")
    assert failed.value.message == f"yaml: line {line}: did not find expected ',' or '}}'"
    assert writer.dump({**HEAD, **body}, "json")  # JSON prints it


@pytest.mark.parametrize("body", [
    {"data": {"a": "\x85"}}, {"data": {"a\u2028": "x"}}, {"data": {"\ra": "x"}},
])
def test_values_with_nel_and_other_breaking_keys_print(body: dict) -> None:
    assert writer.dump({**HEAD, **body}, "yaml").startswith("apiVersion: v1\n")
