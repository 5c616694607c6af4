"""kustomize/openapi.py, crds.py and styles.py on their own (the corpus trees
openapi-schemas, crds-fieldspecs and scalar-styles replay kubectl kustomize 1.27-1.33
byte for byte on top of these)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.kustomize.crds import config_from, load_crds
from cfgpatch.kube.kustomize.kustomization import load
from cfgpatch.kube.kustomize.loader import Loader
from cfgpatch.kube.kustomize.openapi import SchemaState
from cfgpatch.kube.kustomize.resources import Gvk
from cfgpatch.kube.kustomize.styles import (
    Quoted,
    encoder_quotes,
    is_yaml11_non_string,
    kustomize_set,
    reencoded,
    restyled,
)

WIDGET = {"definitions": {
    "w": {"type": "object", "properties": {"spec": {"$ref": "#/definitions/s"}},
          "x-kubernetes-group-version-kind": [
              {"group": "example.com", "version": "v1", "kind": "Widget"}]},
    "s": {"type": "object", "properties": {"items": {
        "type": "array", "items": {"type": "object"},
        "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"}}}}}


def kustomization(tmp_path: Path, text: str, **files: str):
    (tmp_path / "kustomization.yaml").write_text(text)
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    return load(Loader.at(str(tmp_path)))


def merge_keys(schema, api: str, kind: str) -> list[str] | None:
    node = schema.for_type(api, kind)
    if node is None:
        return None
    items = node.field("spec").field("items") if api != "apps/v1" else \
        node.field("spec").field("template").field("spec").field("containers")
    return items.merge_keys() if items else None


def test_builtin_until_a_document_is_set(tmp_path):
    state = SchemaState()
    state.set_from(kustomization(tmp_path, "resources: []\n"), reset=True)
    assert merge_keys(state.schema(), "apps/v1", "Deployment") == ["name"]
    assert state.schema().for_type("example.com/v1", "Widget") is None


def test_a_document_set_first_replaces_the_builtin_schema(tmp_path):
    kust = kustomization(tmp_path, "openapi:\n  path: s.json\n", **{"s.json": json.dumps(WIDGET)})
    state = SchemaState()
    state.set_from(kust, reset=True)
    schema = state.schema()
    assert merge_keys(schema, "example.com/v1", "Widget") == ["name"]
    assert schema.for_type("apps/v1", "Deployment") is None


def test_a_document_set_after_the_builtin_was_used_adds_to_it(tmp_path):
    state = SchemaState()
    state.uses_type("example.com/v1", "Widget")  # kyaml asks: builtin marked to be parsed
    state.set_from(kustomization(tmp_path, "openapi:\n  path: s.json\n",
                                 **{"s.json": json.dumps(WIDGET)}), reset=False)
    schema = state.schema()
    assert merge_keys(schema, "example.com/v1", "Widget") == ["name"]
    assert merge_keys(schema, "apps/v1", "Deployment") == ["name"]


#: A Runner whose pod template is the built-in PodTemplateSpec, and which redefines the
#: built-in Deployment kind under a name of its own (containers merged on ``image``).
RUNNER = {"definitions": {
    "r": {"type": "object", "properties": {"spec": {"$ref": "#/definitions/rs"}},
          "x-kubernetes-group-version-kind": [
              {"group": "example.com", "version": "v1", "kind": "Runner"}]},
    "rs": {"type": "object", "properties": {
        "template": {"$ref": "#/definitions/io.k8s.api.core.v1.PodTemplateSpec"}}},
    "d": {"type": "object", "properties": {"spec": {"$ref": "#/definitions/ds"}},
          "x-kubernetes-group-version-kind": [
              {"group": "apps", "version": "v1", "kind": "Deployment"}]},
    "ds": {"type": "object", "properties": {"template": {"$ref": "#/definitions/dt"}}},
    "dt": {"type": "object", "properties": {"spec": {"$ref": "#/definitions/io.k8s.api.core.v1.PodSpec"}}},
    "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {"containers": {
        "type": "array", "items": {"$ref": "#/definitions/io.k8s.api.core.v1.Container"},
        "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "image"}}}}}


def containers(schema, api: str, kind: str):
    node = schema.for_type(api, kind)
    for step in ("spec", "template", "spec", "containers"):
        node = node.field(step) if node is not None else None
    return node


def runner_state(tmp_path: Path, before: str) -> SchemaState:
    state = SchemaState()
    if before == "named":
        state.uses_type("example.com/v1", "Runner")
    elif before == "merged":
        state.schema()
    state.set_from(kustomization(tmp_path, "openapi:\n  path: s.json\n",
                                 **{"s.json": json.dumps(RUNNER)}), reset=False)
    return state


def test_a_document_alone_does_not_reach_builtin_definitions(tmp_path):
    schema = runner_state(tmp_path, "nothing").schema()
    assert containers(schema, "example.com/v1", "Runner") is None
    deployment = containers(schema, "apps/v1", "Deployment")
    assert deployment.merge_keys() == ["image"]
    assert deployment.elements() is None  # the Container it names is not defined


def test_after_a_type_was_named_the_builtin_is_parsed_last_and_wins(tmp_path):
    schema = runner_state(tmp_path, "named").schema()
    runner = containers(schema, "example.com/v1", "Runner")
    assert runner.merge_keys() == ["name"]  # the built-in PodSpec, not the document's
    assert runner.elements().field("env").merge_keys() == ["name"]
    assert containers(schema, "apps/v1", "Deployment").merge_keys() == ["name"]


def test_after_a_merge_the_document_is_parsed_last_and_wins(tmp_path):
    schema = runner_state(tmp_path, "merged").schema()
    assert containers(schema, "example.com/v1", "Runner").merge_keys() == ["image"]
    deployment = containers(schema, "apps/v1", "Deployment")
    assert deployment.merge_keys() == ["image"]  # the document's kind
    assert deployment.elements().field("env").merge_keys() == ["name"]  # built-in Container
    volumes = schema.for_type("v1", "Pod").field("spec").field("volumes")
    assert volumes is None  # the built-in Pod reaches the document's PodSpec


def test_built_in_kinds_do_not_count_as_a_use(tmp_path):
    state = SchemaState()
    state.uses_type("apps/v1", "Deployment")
    state.set_from(kustomization(tmp_path, "openapi:\n  path: s.json\n",
                                 **{"s.json": json.dumps(WIDGET)}), reset=False)
    assert state.schema().for_type("apps/v1", "Deployment") is None


def test_first_set_wins_unless_reset(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    other = json.loads(json.dumps(WIDGET))
    other["definitions"]["s"]["properties"]["items"]["x-kubernetes-patch-merge-key"] = "id"
    state = SchemaState()
    state.set_from(kustomization(a, "openapi:\n  path: s.json\n",
                                 **{"s.json": json.dumps(WIDGET)}), reset=False)
    state.set_from(kustomization(b, "openapi:\n  path: s.json\n",
                                 **{"s.json": json.dumps(other)}), reset=False)
    assert merge_keys(state.schema(), "example.com/v1", "Widget") == ["name"]


@pytest.mark.parametrize("field, message", [
    ("openapi:\n  version: v1.20.0\n", "the specified OpenAPI version is not built in"),
    ("openapi:\n  version: v1.21.2\n  path: s.json\n",
     "builtin version and custom schema provided, cannot use both"),
    ("openapi:\n  path: none.json\n", "evalsymlink failure on"),
])
def test_field_errors(tmp_path, field, message):
    kust = kustomization(tmp_path, field, **{"s.json": "{}"})
    with pytest.raises(KubeError) as caught:
        SchemaState().set_from(kust, reset=True)
    assert message in caught.value.message


@pytest.mark.parametrize("text", ["", "{\"definitions\": [", "- a\n", "definitions: [1]\n"])
def test_a_bad_document_is_a_clear_error_at_first_use(tmp_path, text):
    # kubectl kustomize panics here ("panic: invalid schema file"); we name the file
    state = SchemaState()
    state.set_from(kustomization(tmp_path, "openapi:\n  path: s.json\n", **{"s.json": text}),
                   reset=True)
    with pytest.raises(KubeError) as caught:
        state.schema()
    assert "s.json" in caught.value.message and "invalid schema file" in caught.value.message


CRD = {
    "example.com/v1.Widget": {"Schema": {"properties": {
        "apiVersion": {}, "kind": {}, "metadata": {},
        "spec": {"$ref": "example.com/v1.WidgetSpec"}}}},
    "example.com/v1.WidgetSpec": {"Schema": {"properties": {
        "config": {"x-kubernetes-object-ref-api-version": "v1",
                   "x-kubernetes-object-ref-kind": "ConfigMap"},
        "secret": {"x-kubernetes-object-ref-api-version": "v1",
                   "x-kubernetes-object-ref-kind": "Secret",
                   "x-kubernetes-object-ref-name-key": "secretName"},
        "selector": {"x-kubernetes-label-selector": ""},
        "notes": {"x-kubernetes-annotation": ""},
        "ident": {"x-kubernetes-identity": ""},
        "flag": {"x-kubernetes-annotation": True}}}},  # not a string: ignored
    "example.com/v1.NotAResource": {"Schema": {"properties": {
        "notes": {"x-kubernetes-annotation": ""}}}},
}


def test_crd_field_specs():
    config = config_from(CRD)
    assert [(s.path, s.kind) for s in config.annotations] == [("spec/notes", "Widget")]
    assert [s.path for s in config.common_labels] == ["spec/selector"]
    assert [s.path for s in config.prefix] == ["spec/ident"]
    assert [(g, s.path) for g, s in config.references] == [
        (Gvk("", "v1", "ConfigMap"), "spec/config/name"),
        (Gvk("", "v1", "Secret"), "spec/secret/secretName")]


def test_crd_files_json_or_yaml_and_errors(tmp_path):
    kust = kustomization(tmp_path, "crds: [c.json, c.yaml]\n",
                         **{"c.json": json.dumps(CRD),
                            "c.yaml": "example.com/v1.Other:\n  Schema:\n    properties:\n"
                                      "      apiVersion: {}\n      kind: {}\n      metadata: {}\n"
                                      "      tags: {x-kubernetes-annotation: ''}\n"})
    config = load_crds(kust)
    assert {(s.path, s.kind) for s in config.annotations} == \
        {("spec/notes", "Widget"), ("tags", "Other")}
    bad = kustomization(tmp_path, "crds: [b.json]\n", **{"b.json": "{\"a\": "})
    with pytest.raises(KubeError) as caught:
        load_crds(bad)
    assert caught.value.message == ("loading CRDs [b.json]: unable to parse open API "
                                    "definition from 'b.json': unexpected end of JSON input")


def test_style_helpers():
    assert [is_yaml11_non_string(t) for t in ("1", "on", "~", "x", "", "a\nb")] == \
        [True, True, True, False, False, False]
    assert isinstance(kustomize_set("1"), Quoted) and type(kustomize_set("x")) is str
    assert isinstance(kustomize_set("a\nb"), Quoted)
    assert [encoder_quotes(t) for t in ("-x", "?x", "- x", "a\tb", "x:", "é")] == \
        [False, False, True, True, True, False]
    value = reencoded({"a": [Quoted("x"), "8080"], "b": 1})
    assert type(value["a"][0]) is str and isinstance(value["a"][1], Quoted)
    assert restyled(Quoted("1"), 2) == "2" and isinstance(restyled(Quoted("1"), 2), Quoted)
    assert restyled("x", 2) == 2 and type(restyled(1, Quoted("2"))) is str
