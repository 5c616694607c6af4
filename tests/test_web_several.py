"""Several objects in the page's object editor: each is patched, as kubectl does
(cfgpatch.web.several through bridge.compute), held to real kubectl's recorded text."""

from __future__ import annotations

import json

from cfgpatch.web import bridge
from cfgpatch.web.several import several

TWO = """apiVersion: v1
kind: ConfigMap
metadata:
  name: a
data:
  x: "1"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
data:
  x: "2"
"""

#: ``kubectl.1.32 patch --local -f two.yaml -p '{"data":{"y":"3"}}' -o yaml``: exit 0 and
#: this text (the two results one after the other, no separator).
KUBECTL_YAML = """apiVersion: v1
data:
  x: "1"
  "y": "3"
kind: ConfigMap
metadata:
  name: a
apiVersion: v1
data:
  x: "2"
  "y": "3"
kind: ConfigMap
metadata:
  name: b
"""


def test_every_object_is_patched_and_printed_in_turn():
    data = bridge.compute(TWO, '{"data":{"y":"3"}}')
    assert data["inputs"] == {"object": None, "patch": None}
    for patch_type in ("strategic", "merge"):
        view = data["views"][patch_type]
        assert data["results"][patch_type]["ok"]
        assert "".join(line[0] + "\n" for line in view["lines"]) == KUBECTL_YAML
        assert view["verdict"].startswith("Accepted: 2 objects patched, 2 changes in all")
        assert [e["path"] for e in view["changes"] if e["kind"] == "object"] == [
            "ConfigMap a", "ConfigMap b"]
        assert [o["metadata"]["name"] for o in data["results"][patch_type]["objects"]] == ["a", "b"]


def test_one_object_failing_names_it_and_the_others_still_print():
    data = bridge.compute(TWO, '[{"op":"test","path":"/metadata/name","value":"a"}]')
    view = data["views"]["json"]
    assert not data["results"]["json"]["ok"]
    assert view["error"]["plain"].startswith("Object 2 of 2 (ConfigMap b): Operation 0")
    assert "kubectl still prints the result of the 1 other object" in view["error"]["plain"]


def test_losses_are_said_per_object():
    data = bridge.compute(TWO, '[{"op":"remove","path":"/data/x"}]')
    assert "field `data.x` in ConfigMap a" in data["views"]["json"]["verdict"]


def test_what_counts_as_several():
    assert several(TWO)
    assert not several(TWO.split("---")[0])
    assert not several("---\n" + TWO.split("---")[0] + "---\n# only a comment\n")
    assert not several(json.dumps({"a": 1}))
