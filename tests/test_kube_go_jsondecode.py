"""Go's JSON reading: the fast decode gives exactly the scanner's verdict on any text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.kube.go.json import GoJSONError
from cfgpatch.kube.go.jsondecode import decode, syntax_error

FRAGMENTS = ['{', '}', '[', ']', ',', ':', '"a"', '"\\u00e9"', '"\\ud800"', '"\t"', '1', '-0',
             '1.5e3', '01', '1.', '.5', 'true', 'false', 'null', 'NaN', 'Infinity', ' ', '\n',
             '\r', '\ufeff', '\x00', '"x', '\\', 'é', '1e999']


def verdict(function, text):
    try:
        return "ok", function(text)
    except GoJSONError as err:
        return "error", (err.message, err.offset)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join))
def test_decode_fails_exactly_where_the_scanner_does(text):
    raw = text.encode("utf-8", "surrogatepass")
    err = syntax_error(raw)
    try:
        outcome = verdict(decode, text)
    except ValueError:  # a number Python cannot hold (not a syntax question)
        assert err is None
        return
    if err is None:
        assert outcome[0] == "ok"
    else:
        assert outcome == ("error", (err.message, err.offset))


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=10))
def test_valid_documents_decode_to_their_value(value):
    text = json.dumps(value)
    assert syntax_error(text.encode()) is None
    assert decode(text) == value


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "\ufeff{}", "{} {}"])
def test_texts_python_refuses_get_gos_message(text):
    with pytest.raises(GoJSONError) as info:
        decode(text)
    assert info.value.message == syntax_error(text.encode()).message
