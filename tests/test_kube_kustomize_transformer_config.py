"""kube/kustomize/transformer_config.py: configurations files, merged as kustomize
merges field specs (the builds themselves are in the corpus, tree ``configurations``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.kustomize.fieldspecs import CONFLICTING, FieldSpec, merge_specs
from cfgpatch.kube.kustomize.kustomization import load
from cfgpatch.kube.kustomize.loader import Loader
from cfgpatch.kube.kustomize.resources import Gvk
from cfgpatch.kube.kustomize.transformer_config import (
    TransformerConfig,
    load_configurations,
    merged_into,
    parse,
)

LABELS = FieldSpec("metadata/labels", create=True)


def test_a_narrower_spec_first_keeps_the_wider_one_out():
    custom = (FieldSpec("metadata/labels", "App", create=True),)
    assert merge_specs(custom, (LABELS,)) == custom
    # the other way round, the wider spec stays and the narrower one is added
    assert merge_specs((LABELS,), custom) == (LABELS, *custom)


def test_a_spec_that_disagrees_on_create_conflicts():
    with pytest.raises(KubeError) as caught:
        merge_specs((FieldSpec("metadata/labels", "App"),), (LABELS,))
    assert caught.value.problem == CONFLICTING
    assert caught.value.message == "conflicting fieldspecs"
    # another path or a type the incoming spec does not select: no conflict
    assert len(merge_specs((FieldSpec("spec/x", "App"),), (FieldSpec("spec/y"),))) == 2
    assert len(merge_specs((FieldSpec("metadata/labels"),),
                           (FieldSpec("metadata/labels", "App", create=True),))) == 2


_SPECS = st.builds(FieldSpec, st.sampled_from(["a", "b", "a/b"]),
                   st.sampled_from(["", "App", "Web"]), st.sampled_from(["", "g"]),
                   st.sampled_from(["", "v1"]), st.booleans())


@given(st.lists(_SPECS, max_size=6), st.lists(_SPECS, max_size=6))
def test_merging_keeps_what_was_there_and_adds_only_what_nothing_covers(first, second):
    try:
        merged = merge_specs(tuple(first), second)
    except KubeError:
        return
    assert merged[:len(first)] == tuple(first)
    for spec in merged[len(first):]:
        assert spec in second
    assert merge_specs(merged, second) == merged  # merging again adds nothing


def test_every_field_of_a_file_and_the_name_references():
    config = parse("""\
namePrefix: [{path: spec/a, kind: App}]
nameSuffix: [{path: spec/b, kind: App}]
namespace: [{path: spec/c, kind: App, create: true}]
commonLabels: [{path: spec/d, kind: App}]
templateLabels: [{path: spec/e, kind: App}]
labels: [{path: spec/f, kind: App}]
commonAnnotations: [{path: spec/g, kind: App}]
varReference: [{path: spec/h, kind: App}]
images: [{path: spec/i, kind: App}]
replicas: [{path: spec/j, kind: App, group: example.com, version: v1}]
nameReference:
- kind: ConfigMap
  version: v1
  fieldSpecs: [{path: spec/k, kind: App}]
""", "c.yaml")
    assert config.namespace == (FieldSpec("spec/c", "App", create=True),)
    assert config.replicas == (FieldSpec("spec/j", "App", "example.com", "v1"),)
    assert [s.path for s in (config.prefix + config.suffix + config.common_labels
                             + config.template_labels + config.labels + config.annotations
                             + config.var_references + config.images)] == \
        ["spec/a", "spec/b", "spec/d", "spec/e", "spec/f", "spec/g", "spec/h", "spec/i"]
    assert config.references == [(Gvk("", "v1", "ConfigMap"), FieldSpec("spec/k", "App"))]
    assert not parse("", "c.yaml") and not parse("# nothing\n", "c.yaml")


@pytest.mark.parametrize("text, message", [
    ("images: [\n", "error converting YAML to JSON: yaml: line 1: did not find expected "
                    "node content"),
    ("images: x\n", "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal "
                    "string into Go struct field TransformerConfig.images of type "
                    "types.FsSlice"),
    ("kind: X\n", 'error unmarshaling JSON: while decoding JSON: json: unknown field "kind"'),
    ("images: [{path: x, group: 1e6}]\n",
     "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal number into Go "
     "struct field FieldSpec.images.group of type string"),
    ("nameReference: [{kind: 7, fieldSpecs: [{path: 1.5}]}]\n",
     "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal number into Go "
     "struct field NameBackReferences.nameReference.kind of type string"),
])
def test_errors_are_kustomize_s(text, message):
    with pytest.raises(KubeError) as caught:
        parse(text, "c.yaml")
    assert caught.value.message == message


def _kustomization(tmp_path: Path, text: str, **files: str):
    (tmp_path / "kustomization.yaml").write_text(text)
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    return load(Loader.at(str(tmp_path)))


def test_a_file_merged_with_the_defaults_then_into_the_kustomization_s(tmp_path):
    kust = _kustomization(tmp_path, "configurations: [a.yaml, b.yaml]\n",
                          **{"a.yaml": "commonLabels: [{path: metadata/labels, kind: App, "
                                       "create: true}]\n",
                             "b.yaml": "images: [{path: spec/image, kind: App}]\n"})
    config = load_configurations(kust)
    narrow = FieldSpec("metadata/labels", "App", create=True)
    # both are there, the App spec sorted first (a kind of rank 0 before no kind) ...
    labels = config.common_labels
    assert labels.index(narrow) < labels.index(LABELS)
    assert FieldSpec("spec/image", "App") in config.images
    # ... so merged into the kustomization's configuration, the default is dropped
    built = merged_into(TransformerConfig(), config)
    assert narrow in built.common_labels and LABELS not in built.common_labels
    assert built.prefix == TransformerConfig.default().prefix
    assert load_configurations(_kustomization(tmp_path, "namePrefix: p-\n")) is None


def test_the_sort_puts_specific_kinds_first_and_the_last_kinds_last():
    config = TransformerConfig().merge(TransformerConfig(replicas=(
        FieldSpec("a"), FieldSpec("a", "ValidatingWebhookConfiguration"), FieldSpec("a", "Zed"),
        FieldSpec("a", "Zed", "a.b"), FieldSpec("a", "Deployment"))))
    assert [str(s.gvk) for s in config.replicas] == [
        "Deployment.[noVer].[noGrp]", "Zed.[noVer].a.b", "Zed.[noVer].[noGrp]",
        "[noKind].[noVer].[noGrp]", "ValidatingWebhookConfiguration.[noVer].[noGrp]"]


def test_a_spec_at_odds_with_a_default_fails(tmp_path):
    # meets the default at once (the kind-less spec selects the Deployment default)
    kust = _kustomization(tmp_path, "configurations: [a.yaml]\n",
                          **{"a.yaml": "commonLabels: [{path: spec/selector/matchLabels}]\n"})
    with pytest.raises(KubeError) as caught:
        load_configurations(kust)
    assert caught.value.message == "failed to merge CommonLabels fieldSpec: conflicting fieldspecs"
    # meets it only when merged into the kustomization's configuration
    kust = _kustomization(tmp_path, "configurations: [a.yaml]\n",
                          **{"a.yaml": "commonLabels: [{path: metadata/labels, kind: App}]\n"})
    with pytest.raises(KubeError) as caught:
        merged_into(TransformerConfig(), load_configurations(kust))
    # kustomize prints its whole configuration before this (not modelled)
    assert caught.value.message.endswith(
        "failed to merge CommonLabels fieldSpec: conflicting fieldspecs")


def test_a_number_or_boolean_path_is_read_as_text():
    """As sigs.k8s.io/yaml does (measured): Go's float32 shortest form for floats."""
    config = parse("images: [{path: 123456789.0}, {path: true}, {path: 1e6}, {path: 0.1},"
                   " {path: 12}]\nnameReference: [{kind: K, fieldSpecs: [{path: 1.5}]}]\n",
                   "c.yaml")
    assert [s.path for s in config.images] == ["1.2345679e+08", "true", "1e+06", "0.1", "12"]
    assert config.references[0][1].path == "1.5"
