"""Strict JSON values: parsing rules, canonical text and exact equality."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError, InvalidInput
from cfgpatch.jsonvalue import (
    MAX_DEPTH,
    SCALAR_TEXT,
    canonical,
    canonical_unchecked,
    check_depth,
    deep_copy,
    equal,
    parse,
    type_name,
    validate,
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False).map(lambda f: f + 0.0)
    | st.text(st.characters(exclude_categories=("Cs",)), max_size=8)
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(st.characters(exclude_categories=("Cs",)), max_size=5), children, max_size=4),
    max_leaves=20,
)


def test_integers_and_floats_stay_apart():
    value = parse('{"i": 1, "f": 1.0, "e": 1e2, "t": true}')
    assert type(value["i"]) is int and type(value["f"]) is float and type(value["e"]) is float
    assert canonical(value) == '{"e":100.0,"f":1.0,"i":1,"t":true}'


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "[-Infinity]", "[1e400]", "-1e999"])
def test_non_finite_numbers_are_rejected(text):
    with pytest.raises(InvalidInput) as info:
        parse(text)
    assert info.value.code == "invalid json"


def test_negative_zero_becomes_zero():
    assert canonical(parse("[-0.0, -0]")) == "[0.0,0]"


def test_duplicate_keys_are_rejected_with_the_key_named():
    with pytest.raises(InvalidInput) as info:
        parse('{"a": 1, "b": 2, "a": 3}')
    assert info.value.code == "invalid json"
    assert 'duplicate key "a"' in info.value.message


def test_lone_surrogates_are_rejected():
    with pytest.raises(InvalidInput) as info:
        parse('["\\ud800"]')
    assert "surrogate" in info.value.message
    assert parse('["\\ud83d\\ude00"]') == ["\U0001f600"]


def test_huge_integers_get_a_clear_error():
    with pytest.raises(InvalidInput) as info:
        parse("1" * 5000)
    assert "5000 digits" in info.value.message
    assert parse("9" * 300) == int("9" * 300)


@pytest.mark.parametrize("opener,closer", [("[", "]"), ('{"a":', "}")])
def test_deep_nesting_is_a_clear_error(opener, closer):
    for depth in (MAX_DEPTH + 1, 5_000, 100_000):
        with pytest.raises(InvalidInput) as info:
            parse(opener * depth + "1" + closer * depth)
        assert "nested too deeply" in info.value.message
    assert parse(opener * MAX_DEPTH + "1" + closer * MAX_DEPTH) is not None


def test_syntax_errors_name_line_and_column():
    with pytest.raises(InvalidInput) as info:
        parse('{\n  "a": 1,\n}')
    assert "line 3" in info.value.message


def test_bytes_must_be_utf8():
    assert parse(b'{"a":"\xc3\xa9"}') == {"a": "é"}
    with pytest.raises(InvalidInput) as info:
        parse(b"\xff")
    assert "not UTF-8" in info.value.message


def test_canonical_text_is_sorted_compact_and_keeps_non_ascii():
    assert canonical({"b": [1, {"d": 1, "c": 2}], "a": "ü€"}) == '{"a":"ü€","b":[1,{"c":2,"d":1}]}'


def test_equality_is_exact_on_kind():
    assert not equal(1, 1.0)
    assert not equal(True, 1)
    assert not equal(0, False)
    assert not equal(None, False)
    assert equal({"a": 1, "b": [1.5]}, {"b": [1.5], "a": 1})
    assert not equal([1, 2], [2, 1])
    assert not equal({"a": 1}, {"a": 1, "b": 2})


def test_validate_names_the_location():
    with pytest.raises(InvalidInput) as info:
        validate({"a": [1, float("nan")]})
    assert "/a/1" in info.value.message
    with pytest.raises(InvalidInput):
        validate({1: "x"})
    with pytest.raises(InvalidInput):
        validate((1, 2))


def test_check_depth_is_iterative():
    deep: list = []
    node = deep
    for _ in range(50_000):
        node.append([])
        node = node[0]
    with pytest.raises(CfgPatchError):
        check_depth(deep)


def test_type_names():
    assert [type_name(v) for v in (None, True, 1, 1.0, "", [], {})] == [
        "null", "boolean", "integer", "float", "string", "array", "object"
    ]


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_canonical_text_parses_back_to_an_equal_value(value):
    text = canonical(value)
    assert equal(parse(text), value)
    assert canonical(parse(text)) == text
    assert json.loads(text) == value or value != value


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_deep_copy_is_equal_and_independent(value):
    copy = deep_copy(value)
    assert equal(copy, value)
    if isinstance(copy, (list, dict)) and copy:
        assert copy is not value


@settings(max_examples=300)
@given(st.one_of(st.none(), st.booleans(), st.integers(), st.text(),
                 st.floats(allow_nan=False, allow_infinity=False)))
def test_scalar_text_is_the_encoders_text(value):
    assert SCALAR_TEXT[type(value)](value) == canonical_unchecked(value)


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_scalar_text_refuses_what_the_encoder_refuses(value):
    with pytest.raises(ValueError) as ours:
        SCALAR_TEXT[float](value)
    with pytest.raises(ValueError) as encoder:
        canonical_unchecked(value)
    assert str(ours.value) == str(encoder.value)
