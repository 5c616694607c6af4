"""cfgpatch.jsonlocate: where the strict reading refuses a JSON text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch import jsonlocate
from cfgpatch.errors import InvalidInput
from cfgpatch.jsonlocate import first_rejection, float_is_exact
from cfgpatch.jsonvalue import MAX_INT_DIGITS, parse
from cfgpatch.pointer import parse_pointer


def find(text: str):
    return first_rejection(text, MAX_INT_DIGITS)


@pytest.mark.parametrize(("text", "message", "line", "column", "pointer"), [
    ('{"a":1,"a":2}', 'duplicate key "a" in an object', 1, 8, ""),
    ('{"x": {"a": 1,\n  "a": 2}}', 'duplicate key "a" in an object', 2, 3, "/x"),
    ('[1, {"k~/": [NaN]}]', "NaN is not a JSON number", 1, 14, "/1/k~0~1/0"),
    ('{"a": -Infinity}', "-Infinity is not a JSON number", 1, 7, "/a"),
    ('{"a":\r\n  Infinity}', "Infinity is not a JSON number", 2, 3, "/a"),
    ('{"a": 1e999}', "number 1e999 is too large for a 64-bit float", 1, 7, "/a"),
    ('["x", "\\ud800"]', "a string holds a lone UTF-16 surrogate", 1, 7, "/1"),
    ('{"é": ["x", ' + "7" * (MAX_INT_DIGITS + 1) + "]}",
     f"integer with {MAX_INT_DIGITS + 1} digits", 1, 13, "/é/1"),
    ('[[], {}, {"b": [{"c": 1, "c": 1}]}]', 'duplicate key "c" in an object', 1, 26, "/2/b/0"),
])
def test_the_first_refusal_is_named_and_placed(text, message, line, column, pointer):
    found = find(text)
    assert found is not None
    assert found.message.startswith(message)
    assert (found.line, found.column, found.pointer) == (line, column, pointer)
    assert found.describe().endswith(
        f"(at {pointer or 'the root'}, line {line} column {column})")


@pytest.mark.parametrize("text", [
    '{"a": 1, "b": [1.5, -0.0, 1e308, "\\ud83d\\ude00", true, null, {}]}',
    '"just a string"', "12", "  [ ]  ",
    '{"a": 1',  # a syntax error: the C decoder names it, this finds nothing
    '{"a" 1, "a": 2}',
])
def test_texts_the_strict_reading_takes_or_cannot_read_give_nothing(text):
    assert find(text) is None


def test_the_error_of_a_put_names_the_place():
    with pytest.raises(InvalidInput) as info:
        parse('{"routes": [{"id": 1},\n {"id": 2, "id": 3}]}')
    assert info.value.message == (
        'duplicate key "id" in an object (at /routes/1, line 2 column 12)')
    assert info.value.pointer == "/routes/1"


def test_long_texts_are_not_read_again(monkeypatch):
    monkeypatch.setattr(jsonlocate, "MAX_LOCATED", 10)
    assert find('{"a":1,"a":2}') is None
    with pytest.raises(InvalidInput) as info:
        parse('{"a":1,"a":2}')
    assert info.value.message == 'duplicate key "a" in an object'


def test_deep_texts_are_read_without_recursion():
    depth = 200_000
    found = find("[" * depth + "NaN" + "]" * depth)
    assert found is not None and found.pointer == "/0" * depth


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False,
              allow_infinity=False), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=3), inner, max_size=4)),
    max_leaves=20,
)


def spots(value, pointer=""):
    """Every value's pointer, and whether it is an object."""
    yield pointer, type(value) is dict
    if type(value) is dict:
        for key, child in value.items():
            yield from spots(child, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
    elif type(value) is list:
        for index, child in enumerate(value):
            yield from spots(child, f"{pointer}/{index}")


def resolve(value, pointer):
    for token in parse_pointer(pointer):
        value = value[int(token)] if type(value) is list else value[token]
    return value


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from([None, 1, 2]), st.data())
def test_a_planted_problem_is_found_where_it_was_planted(value, indent, data):
    """A valid text gives nothing; NaN planted at a value, or a key repeated in an
    object, is found at that pointer (line and column point at it)."""
    assert find(json.dumps(value, indent=indent, ensure_ascii=False)) is None
    pointer, is_object = data.draw(st.sampled_from(list(spots(value))))
    planted = json.loads(json.dumps(value))
    target = resolve(planted, pointer)
    marker = "\u2603PLANT\u2603"
    if is_object and target:
        target[marker] = 0
        text = json.dumps(planted, indent=indent, ensure_ascii=False)
        key = json.dumps(next(iter(target)), ensure_ascii=False)
        text = text.replace(json.dumps(marker, ensure_ascii=False), key, 1)
        expected, token = pointer, key
    elif pointer:
        parent, _, _ = pointer.rpartition("/")
        container = resolve(planted, parent)
        last = parse_pointer(pointer)[-1]
        container[int(last) if type(container) is list else last] = marker
        text = json.dumps(planted, indent=indent, ensure_ascii=False)
        text = text.replace(json.dumps(marker, ensure_ascii=False), "NaN", 1)
        expected, token = pointer, "NaN"
    else:
        return
    with pytest.raises(InvalidInput):
        parse(text)
    found = find(text)
    assert found is not None and found.pointer == expected
    assert text.startswith(token, found.offset)
    line_start = text.rfind("\n", 0, found.offset) + 1
    assert (found.line, found.column) == (text.count("\n", 0, found.offset) + 1,
                                          found.offset - line_start + 1)


@pytest.mark.parametrize(("number", "exact"), [
    ("0.1", True), ("2.50", True), ("1e2", True), ("1E-5", True), ("-0.0", True),
    ("123456789012345.6", True), ("0.1000000000000000000001", False), ("1e-400", False),
    ("3.14159265358979323846", False), ("12345678901234567890.0", False),
    ("5e-324", True), ("4e-324", False),
])
def test_float_is_exact_when_the_double_writes_back_the_same_value(number, exact):
    assert float_is_exact(number) is exact


def test_first_rejection_names_an_inexact_number_only_when_asked():
    text = '{"a": [1, {"b": 0.5, "c": 0.1000000000000000000001}]}'
    assert first_rejection(text, 4300) is None
    found = first_rejection(text, 4300, exact_floats=True)
    assert found.pointer == "/a/1/c" and "a 64-bit float holds 0.1" in found.message
