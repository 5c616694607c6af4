"""io/kyaml_scalars.py: Go's ``%#v`` of a map whose keys are not all strings, as
kustomize's JSON errors print it (order measured with kubectl kustomize 1.32, tree
json6902-annotation-keys/every-key-type)."""

from __future__ import annotations

from cfgpatch.kube.io.kyaml_scalars import GoTime, go_syntax, typed_map


def test_keys_go_by_type_then_by_value():
    shown = go_syntax(typed_map([(True, "x"), ("b", "x"), (10, "x"), (None, "x"), (2, "x"),
                                 (1.5, "x"), ("a", "x"), (False, "x"), (0.5, "x"),
                                 (GoTime("2024-01-01T00:00:00Z"), "x"), (-1, "x")]))
    assert shown == ('map[interface {}]interface {}{interface {}(nil):"x", "a":"x", '
                     '"b":"x", -1:"x", 2:"x", 10:"x", 0.5:"x", 1.5:"x", false:"x", '
                     'true:"x", time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC):"x"}')


def test_a_time_with_a_fraction_or_another_zone():
    assert go_syntax(GoTime("2001-12-14T21:59:43.1-05:00")) == (
        'time.Date(2001, time.December, 14, 21, 59, 43, 100000000, time.Location(""))')


def test_string_keys_stay_a_string_map():
    assert go_syntax({"b": 1, "a": None}) == 'map[string]interface {}{"a":interface {}(nil), "b":1}'


def test_plain_keys_that_read_as_no_string_can_be_kept_as_typed_keys():
    import pytest

    from cfgpatch.kube.io.kyaml import KyamlError
    from cfgpatch.kube.io.kyaml_read import read_document
    from cfgpatch.kube.io.kyaml_scalars import TypedKey, node_value, value_with_typed_keys
    node = read_document('a:\n  1: x\n  "2": y\n  2024-01-01: z\n')
    value, typed = value_with_typed_keys(node)
    assert typed and value == {"a": {"1": "x", "2": "y", "2024-01-01": "z"}}
    assert [type(k) for k in value["a"]] == [TypedKey, str, TypedKey]
    assert value_with_typed_keys(read_document("a: {b: c}"))[1] is False
    with pytest.raises(KyamlError):
        node_value(node)  # elsewhere still kustomize's JSON error
