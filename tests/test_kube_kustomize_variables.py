"""kube/kustomize/variables.py: ``vars`` (the builds are in the corpus, tree ``vars``)."""

from __future__ import annotations

import pytest

from cfgpatch.kube.kustomize.resources import ResId, Resource, Source
from cfgpatch.kube.kustomize.variables import Var, _expand, _Lookup, field_value


def _expanded(text: str, **values):
    log: list[str] = []
    counts = dict.fromkeys(values, 0)
    return _expand(text, _Lookup(values, counts, log)), counts, log


@pytest.mark.parametrize("text, expected", [
    ("$(A)", 8080),  # a whole field keeps the value's type
    ("x$(A)", "x8080"),
    ("$(B)", True),
    ("$(B)-$(C)", "true-1.5"),
    ("$(C)", 1.5),
    ("$$(A)", "$(A)"),  # escaped
    ("$(NOPE)", "$(NOPE)"),  # unknown: as written
    ("a$(NOPE)b", "a$(NOPE)b"),
    ("$(A", "$(A"),  # unterminated
    ("$x $", "$x $"),  # not references
    ("$()", "$()"),
    ("$(S)", "$(A)"),  # a value is not expanded again
    ("", ""),
])
def test_expansion(text, expected):
    value, _, _ = _expanded(text, A=8080, B=True, C=1.5, S="$(A)")
    assert value == expected and type(value) is type(expected)


def test_counts_and_what_is_not_a_primitive():
    value, counts, log = _expanded("$(A) $(M) $(A)", A="a", M={"k": [1, "x"]})
    assert value == "a $(M) a"
    assert counts == {"A": 2, "M": 0}
    assert log == ["MakePrimitiveReplacer: bad replacement type=map[string]interface {} "
                   "val=map[k:[1 x]]"]
    value, _, log = _expanded("$(L)", L=[1, 2])
    assert value == "$(L)" and log[0].endswith("type=[]interface {} val=[1 2]")


def _resource(value: dict, **texts) -> Resource:
    resource = Resource(value, Source("r.yaml"))
    resource.texts = {tuple(k.split(".")): v for k, v in texts.items()}
    return resource


def test_field_values():
    resource = _resource({"metadata": {"name": "n"},
                          "spec": {"ports": [{"port": 80}, {"port": 16}], "count": 16,
                                   "none": None, "map": {"a": [1]}}},
                         **{"spec.count": ("0x10", 16)})
    resource.texts[("spec", "ports", 1, "port")] = ("0x10", 16)
    assert field_value(resource, "spec.ports[1].port") == (False, None)
    assert field_value(resource, "metadata.name") == (True, "n")
    assert field_value(resource, "spec.ports[0].port") == (True, 80)
    assert field_value(resource, "spec.ports.0.port") == (True, 80)
    assert field_value(resource, "spec.ports[2].port") == (False, None)
    assert field_value(resource, "spec.count") == (False, None)  # not decimal, as written
    assert field_value(resource, "spec.none") == (False, None)
    found, value = field_value(resource, "spec.map")
    assert found and value == {"a": [1]}
    value["a"].append(2)  # a copy: replacing vars later does not change the value
    assert resource.value["spec"]["map"] == {"a": [1]}


def test_var_texts_and_matching():
    var = Var.of({"name": "X", "objref": {"kind": "Service", "name": "svc", "apiVersion": "v1"}})
    assert var.written() == "{X Service.[noVer].[noGrp] {}}"
    assert var.looked_up() == "{X Service.v1.[noGrp] {}}"
    assert var.defaulted() == "{X Service.v1.[noGrp] {metadata.name}}"
    service = ResId(var.gvk(), "svc", "ns1")
    assert var.matches(service) and not var.matches(ResId(var.gvk(), "other"))
    no_version = Var.of({"name": "X", "objref": {"kind": "Service", "name": "svc"}})
    assert not no_version.matches(service)
    scoped = Var.of({"name": "X", "objref": {"kind": "Service", "name": "svc", "version": "v1",
                                             "namespace": "ns2"}})
    assert not scoped.matches(service) and scoped.written() == "{X Service.v1.[noGrp] {}}"
