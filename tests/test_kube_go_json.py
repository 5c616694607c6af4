"""Go ``encoding/json`` as kubectl shows it: float text, escapes, indent, syntax errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.kube.go import json as gojson
from cfgpatch.kube.go import jsondecode


@pytest.mark.parametrize(("value", "text", "g"), [
    (1.0, "1", "1"),
    (0.5, "0.5", "0.5"),
    (-0.0, "-0", "-0"),
    (1e21, "1e+21", "1e+21"),
    (1e20, "100000000000000000000", "1e+20"),
    (1.5e-7, "1.5e-7", "1.5e-07"),
    (1e-6, "0.000001", "1e-06"),
    (123456.789, "123456.789", "123456.789"),
    (1234567.5, "1234567.5", "1.2345675e+06"),
    (2.0**64, "18446744073709552000", "1.8446744073709552e+19"),
    (5e-324, "5e-324", "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308", "1.7976931348623157e+308"),
])
def test_float_text(value: float, text: str, g: str) -> None:
    assert gojson.go_float(value) == text
    assert gojson.go_float_g(value) == g


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_text_reads_back_exactly(value: float) -> None:
    assert float(gojson.go_float(value)) == value
    assert float(gojson.go_float_g(value)) == value


def test_strings_are_html_safe_with_go_short_escapes() -> None:
    assert gojson.encode_string('<a href="x">&</a>') == \
        '"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"'
    assert gojson.encode_string("\b\f\n\r\t\x01\x7f\u2028\u2029é") == \
        '"\\b\\f\\n\\r\\t\\u0001\x7f\\u2028\\u2029é"'


def test_marshal_indent_sorts_keys_and_keeps_empty_containers_compact() -> None:
    text = gojson.encode({"b": [1, {}], "a": [], "c": {"z": None, "y": True}}, "    ")
    assert text == ('{\n    "a": [],\n    "b": [\n        1,\n        {}\n    ],\n'
                    '    "c": {\n        "y": true,\n        "z": null\n    }\n}')
    assert gojson.encode({"b": 1, "a": [1.5, "x"]}) == '{"a":[1.5,"x"],"b":1}'


@pytest.mark.parametrize(("text", "message", "offset"), [
    ('{"a":1,}', "invalid character '}' looking for beginning of object key string", 8),
    ('{"a":', "unexpected end of JSON input", 5),
    ('{"a":1} x', "invalid character 'x' after top-level value", 9),
    ('{"a":01}', "invalid character '1' after object key:value pair", 7),
    ('{"a" 1}', "invalid character '1' after object key", 6),
    ('[1 2]', "invalid character '2' after array element", 4),
    ('"\\x"', "invalid character 'x' in string escape code", 3),
    ('"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape", 6),
    ("nul!", "invalid character '!' in literal null (expecting 'l')", 4),
    ("1.x", "invalid character 'x' after decimal point in numeric literal", 3),
    ("1ex", "invalid character 'x' in exponent of numeric literal", 3),
    ("-x", "invalid character 'x' in numeric literal", 2),
    ("{'a':1}", "invalid character '\\'' looking for object key string", None),
    ('"a\nb"', "invalid character '\\n' in string literal", 3),
])
def test_syntax_errors(text: str, message: str, offset: int | None) -> None:
    err = jsondecode.syntax_error(text.encode())
    assert err is not None
    if offset is None:  # quoting of a single quote
        assert err.message.startswith("invalid character '\\''")
        return
    assert (err.message, err.offset) == (message, offset)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
                              st.floats(allow_nan=False, allow_infinity=False)),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.text(max_size=3), inner,
                                                            max_size=3)),
                    max_leaves=10))
def test_valid_json_has_no_syntax_error_and_decodes(value: object) -> None:
    text = json.dumps(value)
    assert jsondecode.syntax_error(text.encode()) is None
    assert jsondecode.decode(text) == json.loads(text)
    as_floats = {"parse_int": float}
    assert json.loads(gojson.encode(value), **as_floats) == json.loads(text, **as_floats)


def test_decode_is_lenient_like_go() -> None:
    assert jsondecode.decode('{"a":1,"a":2}') == {"a": 2}
    assert jsondecode.decode('"\\ud800"') == "\ufffd"


TEXTS = st.text(alphabet=st.sampled_from(list('ab<>&"\\\n\t\b\f\x00\x1f\x7f\u2028\u2029é€\ud800\U0001f600 ')),
                max_size=8)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=20)


@settings(max_examples=500, deadline=None)
@given(VALUES, st.sampled_from([None, "    ", "  ", "\t"]))
def test_the_fast_encoder_writes_what_go_writes(value, indent):
    from cfgpatch.kube.go.json import encode, encode_reference

    assert encode(value, indent) == encode_reference(value, indent)


@pytest.mark.parametrize("value", [
    {"a": "x", "b": [1, {"c": 1.5}], "d": "<y>"}, {"a": [None, True, 2**63 - 1, 1e21]},
    {"a": {"b": {}}, "z": [[], -0.0]},
])
def test_a_float_deep_inside_falls_back_to_the_reference_encoder(value) -> None:
    from cfgpatch.kube.go.json import encode, encode_reference
    assert encode(value, "    ") == encode_reference(value, "    ")


def test_a_key_that_is_not_a_string_fails_as_the_reference_encoder_does() -> None:
    from cfgpatch.kube.go.json import encode, encode_reference
    with pytest.raises(TypeError) as ours:
        encode({"a": {1: "x"}}, "  ")
    with pytest.raises(TypeError) as reference:
        encode_reference({"a": {1: "x"}}, "  ")
    assert str(ours.value) == str(reference.value)
