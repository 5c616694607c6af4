"""Schemas for server-side apply: the built-in table, CRDs and OpenAPI documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfgpatch.kube.ssa.builtin import builtin_schema, read_table, type_name
from cfgpatch.kube.ssa.crd import CRDError, crd_types
from cfgpatch.kube.ssa.openapi import openapi_types
from cfgpatch.kube.ssa.schema import ASSOCIATIVE, ATOMIC, SEPARABLE, UNTYPED, UNTYPED_DEDUCED
from kube_ssa_support import DATA


def field_atom(schema, type_, *names):
    atom = schema.resolve(type_)
    for n in names:
        atom = schema.resolve(atom.map.fields[n].type)
    return atom


def test_the_builtin_table_read_type_by_type_is_the_json_document() -> None:
    import cfgpatch.kube.ssa.builtin as module

    text = (Path(module.__file__).parent / "data" / "builtin.json").read_text()
    whole = json.loads(text)
    # looked up one by one before anything iterates (each line found in the text)
    lazy = read_table(text)["types"]
    assert all(json.loads(lazy[name]) == atom for name, atom in whole["types"].items())
    assert "io.k8s.api.core.v1.Nope" not in lazy and lazy.get("io.k8s.api.core.v1") is None
    assert 3 not in lazy
    with pytest.raises(KeyError):
        lazy["io.k8s.api.core.v1.Nope"]
    assert list(read_table(text)["types"]) == list(whole["types"])
    # any other layout (one line) is parsed whole
    assert read_table(json.dumps(whole)) == whole
    # a name with a quote: the types are the document's, found by name or by iterating
    odd = text.replace('"__untyped_atomic_":', '"__untyped\\"atomic":', 1)
    expected = json.loads(odd)["types"]
    def parsed(entry):  # (a table parsed whole holds its types parsed)
        return entry if isinstance(entry, dict) else json.loads(entry)

    table = read_table(odd)["types"]
    assert parsed(table['__untyped"atomic']) == expected['__untyped"atomic']
    assert "__untyped_atomic_" not in table
    assert {k: parsed(v) for k, v in table.items()} == expected
    table = read_table(odd)["types"]  # a plain name first: its line is found all the same
    assert parsed(table["io.k8s.api.core.v1.Pod"]) == expected["io.k8s.api.core.v1.Pod"]
    assert {k: parsed(v) for k, v in table.items()} == expected


def test_builtin_table_has_keys_defaults_and_types() -> None:
    s = builtin_schema()
    assert len(s.types) > 700
    ports = s.resolve(s.types["io.k8s.api.core.v1.Container"].map.fields["ports"].type).list
    assert (ports.relationship, ports.keys) == (ASSOCIATIVE, ("containerPort", "protocol"))
    port = s.types["io.k8s.api.core.v1.ContainerPort"].map.fields
    assert port["protocol"].default == "TCP"
    sel = s.resolve(s.types["io.k8s.api.apps.v1.DeploymentSpec"].map.fields["selector"].type)
    assert sel.map.relationship == ATOMIC
    assert type_name("rbac.authorization.k8s.io/v1", "Role") == "io.k8s.api.rbac.v1.Role"


def crd(schema: dict, **spec) -> dict:
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "spec": {"group": "a.io", "names": {"kind": "K"}, "versions": [
                {"name": "v1", "schema": {"openAPIV3Schema": schema}}], **spec}}


def test_crd_conversion() -> None:
    body = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "m": {"type": "array", "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["k"],
              "items": {"type": "object", "properties": {"k": {"type": "string",
                                                                "default": "d"}}}},
        "s": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "a": {"type": "array", "items": {"type": "string"}},
        "am": {"type": "object", "x-kubernetes-map-type": "atomic"},
        "gm": {"type": "object", "x-kubernetes-map-type": "granular",
               "additionalProperties": {"type": "string"}},
        "ios": {"x-kubernetes-int-or-string": True},
        "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True,
                 "properties": {"inner": {"type": "object", "properties": {"x": {
                     "type": "string"}}}}},
        "emb": {"type": "object", "x-kubernetes-embedded-resource": True,
                "properties": {"data": {"type": "string"}}}}}}}
    [(gvk, (schema, ref))] = crd_types(crd(body), builtin_schema()).items()
    assert gvk == ("a.io", "v1", "K")
    root = schema.resolve(ref)
    assert set(root.map.fields) == {"spec", "metadata", "apiVersion", "kind"}
    assert root.map.fields["metadata"].type.named.endswith("v1.ObjectMeta")
    assert root.map.element_type.is_empty()  # unknown top-level fields are refused
    spec = schema.resolve(root.map.fields["spec"].type).map.fields
    at = {k: schema.resolve(v.type) for k, v in spec.items()}
    assert (at["m"].list.relationship, at["m"].list.keys) == (ASSOCIATIVE, ("k",))
    assert schema.resolve(at["m"].list.element_type).map.fields["k"].default == "d"
    assert (at["s"].list.relationship, at["s"].list.keys) == (ASSOCIATIVE, ())
    assert at["a"].list.relationship == ATOMIC
    assert at["am"].map.relationship == ATOMIC
    assert at["gm"].map.relationship == SEPARABLE
    assert at["ios"].scalar == UNTYPED and at["ios"].map is not None
    inner = schema.resolve(at["free"].map.fields["inner"].type).map
    assert inner.element_type.named == UNTYPED_DEDUCED  # preserve-unknown goes down
    assert {"apiVersion", "kind", "metadata", "data"} == set(at["emb"].map.fields)


@pytest.mark.parametrize("bad", [
    {"type": "array", "x-kubernetes-list-type": "map", "items": {"type": "string"}},
    {"type": "array", "x-kubernetes-list-type": "bogus", "items": {"type": "string"}},
    {"type": "array"},
    {"type": "object", "x-kubernetes-map-type": "bogus"},
    {"type": "wat"},
])
def test_crd_errors(bad: dict) -> None:
    with pytest.raises(CRDError):
        crd_types(crd({"type": "object", "properties": {"x": bad}}), builtin_schema())
    with pytest.raises(CRDError):
        crd_types({"kind": "CustomResourceDefinition"}, builtin_schema())


def test_openapi_document() -> None:
    doc = json.loads((DATA / "openapi-gizmos.json").read_text())
    kinds = openapi_types(doc)
    schema, ref = kinds[("gizmos.example.io", "v1", "Gizmo")]
    spec = schema.resolve(schema.resolve(ref).map.fields["spec"].type).map.fields
    parts = schema.resolve(spec["parts"].type).list
    assert (parts.relationship, parts.keys) == (ASSOCIATIVE, ("name",))  # patch strategy
    assert schema.resolve(spec["retained"].type).list.relationship == ATOMIC
    assert schema.resolve(spec["selector"].type).map.relationship == ATOMIC  # allOf + map-type
    assert schema.resolve(spec["memory"].type).scalar == UNTYPED
    assert schema.resolve(spec["port"].type).scalar == UNTYPED
    with pytest.raises(CRDError):
        openapi_types({"openapi": "3.0.0"})
