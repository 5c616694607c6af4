"""kustomize/gotypes.py: a kustomization decoded into kustomize's Go types as Go's
encoding/json decodes it (texts measured with kubectl kustomize 1.32; end to end: the
corpus trees error-nested-types and nested-field-names)."""

from __future__ import annotations

import pytest

from cfgpatch.kube.kustomize import gotypes
from cfgpatch.kube.kustomize.gotypes import GoDecodeError, decode

_FIELD = "json: cannot unmarshal {} into Go struct field {} of type {}"


@pytest.mark.parametrize("value, kind, where, go", [
    ({"labels": [{"pairs": {"a": True}}]}, "bool", "Label.labels.pairs", "string"),
    ({"configMapGenerator": [{"name": 12}]}, "number", "ConfigMapArgs.configMapGenerator.name",
     "string"),
    ({"replicas": [{"name": "x", "count": "2"}]}, "string", "Replica.replicas.count", "int64"),
    ({"generatorOptions": {"labels": {"g": True}}}, "bool",
     "GeneratorOptions.generatorOptions.labels", "string"),
    ({"patches": [{"patch": "x", "target": {"kind": 2}}]}, "number",
     "Selector.patches.target.kind", "string"),
    ({"patches": [{"patch": "x", "target": "a"}]}, "string", "Patch.patches.target",
     "types.Selector"),
    ({"patches": [{"options": [1]}]}, "array", "Patch.patches.options", "map[string]bool"),
    ({"secretGenerator": [{"options": {"immutable": 1}}]}, "number",
     "GeneratorOptions.secretGenerator.options.immutable", "bool"),
    ({"labels": [{"fields": [{"create": "1"}]}]}, "string", "FieldSpec.labels.fields.create",
     "bool"),
    ({"labels": "x"}, "string", "Kustomization.labels", "[]types.Label"),
    ({"images": ["nginx"]}, "string", "Kustomization.images", "types.Image"),
    ({"sortOptions": {"order": 1}}, "number", "SortOptions.sortOptions.order",
     "types.SortOrder"),
    ({"patchesStrategicMerge": [1]}, "number", "Kustomization.patchesStrategicMerge",
     "types.PatchStrategicMerge"),
    ({"metadata": {"annotations": "x"}}, "string", "ObjectMeta.metadata.annotations",
     "map[string]string"),
    ({"replicas": [{"count": 1.5}]}, "number 1.5", "Replica.replicas.count", "int64"),
    ({"replicas": [{"count": 1e30}]}, "number 1e+30", "Replica.replicas.count", "int64"),
    ({"replicas": [{"count": 2**63}]}, "number 9223372036854775808", "Replica.replicas.count",
     "int64"),
    ({"helmCharts": "x"}, "string", "Kustomization.helmCharts", "[]types.HelmChart"),
])
def test_a_value_of_the_wrong_type_is_go_s_error(value, kind, where, go):
    with pytest.raises(GoDecodeError) as caught:
        decode(value)
    assert caught.value.message == _FIELD.format(kind, where, go)


@pytest.mark.parametrize("value, unknown", [
    ({"metadata": {"generateName": "x"}}, "generateName"),
    ({"inventory": {"type": "ConfigMap"}}, "inventory"),
    ({"labels": [{"fields": [{"kindd": "x"}]}]}, "kindd"),
    ({"sortOptions": {"legacySortOptions": {"bad": []}}}, "bad"),
])
def test_unknown_fields_are_refused_at_any_depth(value, unknown):
    with pytest.raises(GoDecodeError) as caught:
        decode(value)
    assert caught.value.message == f'json: unknown field "{unknown}"'


def test_the_first_error_in_sorted_field_order_wins():
    value = {"zeta": 1, "replicas": [{"count": "2"}],
             "labels": [{"includeSelectors": "yes"}]}
    with pytest.raises(GoDecodeError) as caught:
        decode(value)
    assert "Label.labels.includeSelectors" in caught.value.message
    assert caught.value.path == ("labels", "includeSelectors")
    with pytest.raises(GoDecodeError) as caught:
        decode({"labels": "x", "aaa": 1})
    assert caught.value.message == 'json: unknown field "aaa"'


def test_an_infinite_float_fails_before_any_type_error():
    with pytest.raises(GoDecodeError) as caught:
        decode({"aaa": 1, "commonLabels": {"a": float("-inf")}})
    assert caught.value.message == "json: unsupported value: -Inf"


def test_null_decodes_into_anything_and_whole_numbers_into_int64():
    value = {"labels": [{"pairs": None, "includeSelectors": None}],
             "replicas": [{"name": "x", "count": 2.0}, {"count": -0}], "metadata": None}
    assert decode(value) == {"labels": [{"pairs": None, "includeSelectors": None}],
                             "replicas": [{"name": "x", "count": 2}, {"count": 0}],
                             "metadata": None}
    assert type(decode({"replicas": [{"count": 1e3}]})["replicas"][0]["count"]) is int


def test_field_names_match_case_insensitively_the_later_spelling_winning():
    decoded = decode({"resources": ["a.yaml"], "NameSpace": "x", "namePrefix": "a-",
                      "NAMEPREFIX": "b-", "labels": [{"IncludeSelectors": True}]})
    assert decoded == {"resources": ["a.yaml"], "namespace": "x", "namePrefix": "a-",
                       "labels": [{"includeSelectors": True}]}
    assert list(decoded) == ["resources", "namespace", "namePrefix", "labels"]


def test_go_type_names():
    assert gotypes.Slice(gotypes.STRING).go == "[]string"
    assert gotypes.Map(gotypes.BOOL).go == "map[string]bool"
    assert gotypes.LABEL.go == "types.Label"
    assert gotypes.json_kind(None) == "null" and gotypes.json_kind(True) == "bool"
