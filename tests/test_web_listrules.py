"""How each type treats each list of the object (cfgpatch.web.listrules), from the
engine's schema tables, with the line of each list's key."""

from __future__ import annotations

import sys

from cfgpatch.kube.io import reader
from cfgpatch.web import bridge
from cfgpatch.web.listrules import list_fields
from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from want_cases import DEPLOYMENT, WIDGET  # noqa: E402


def test_every_list_of_a_deployment_with_its_rule_and_line():
    obj, _notes = reader.load_object(DEPLOYMENT)
    found = {entry["path"]: entry for entry in list_fields(DEPLOYMENT, obj)}
    lines = DEPLOYMENT.split("\n")
    for entry in found.values():
        assert lines[entry["line"] - 1].strip().startswith(entry["path"].split(".")[-1]
                                                           .removesuffix("[]") + ":")
    assert found["spec.template.spec.containers"]["rule"] == "keyed"
    assert "merged by `name`" in found["spec.template.spec.containers"]["strategic"]
    assert "`containerPort`" in found["spec.template.spec.containers[].ports"]["strategic"]
    assert found["spec.template.spec.tolerations"]["rule"] == "atomic"
    assert found["spec.template.spec.containers[].args"]["rule"] == "atomic"
    for entry in found.values():
        assert "by position" in entry["json"] and "replaced whole" in entry["merge"]


def test_a_set_and_an_unknown_kind():
    text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  finalizers: [a, b]\n"
    obj, _notes = reader.load_object(text)
    [entry] = list_fields(text, obj)
    assert entry["rule"] == "set" and entry["line"] == 5
    obj, _notes = reader.load_object(WIDGET)
    [entry] = list_fields(WIDGET, obj)
    assert entry["rule"] == "unknown" and "refused" in entry["strategic"]


def test_the_bridge_gives_them_to_the_page():
    data = bridge.compute(DEPLOYMENT, "spec:\n  replicas: 3\n")
    assert any(entry["path"] == "spec.template.spec.containers" for entry in data["lists"])
