"""go-yaml v2's scalar rules and key order, as kubectl applies them (checked against kubectl)."""

from __future__ import annotations

import math
from functools import cmp_to_key

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.go import yaml as goyaml


@pytest.mark.parametrize(("text", "value"), [
    ("on", True), ("y", True), ("NO", False), ("~", None), ("", None), ("010", 8),
    ("0x1F", 31), ("0o17", 15), ("0b101", 5), ("-0b11", -3), ("1_000", 1000),
    ("08", 8.0), ("1e3", 1000.0), (".5", 0.5), ("+.inf", math.inf), ("-.Inf", -math.inf),
    ("18446744073709551615", 18446744073709551615), ("18446744073709551616", 1.8446744073709552e19),
    ("2024-01-01", goyaml.STR), ("2024-01-01T10:00:00Z", goyaml.STR), ("1e400", goyaml.STR),
    ("yEs", goyaml.STR), ("<<", goyaml.STR), ("0x", goyaml.STR), ("-", goyaml.STR),
])
def test_resolve_plain(text: str, value: object) -> None:
    got = goyaml.resolve_plain(text)
    if value is goyaml.STR:
        assert got is goyaml.STR
    else:
        assert got == value and type(got) is type(value)


def test_nan() -> None:
    assert math.isnan(goyaml.resolve_plain(".nan"))


@pytest.mark.parametrize(("text", "plain"), [
    ("abc", True), ("y", False), ("on", False), ("1:20", False), ("2024-01-01", False),
    ("1.2.3", True), ("<<", True), ("", False), ("0x1F", False), ("12:30:00", False),
])
def test_is_plain_string(text: str, plain: bool) -> None:
    assert goyaml.is_plain_string(text) is plain


@pytest.mark.parametrize(("text", "stamp"), [
    ("2024-02-29", True), ("2023-02-29", False), ("2024-13-01", False), ("2024-1-2", True),
    ("2024-01-01t10:00:00Z", True), ("2024-01-01 25:00:00", False), ("2024-01-01 10:00:00", True),
    ("2024-01-01T10:00:00", False), ("2024-01-01T1:2:3.5Z", True), ("2024-01-01T10:60:00Z", False),
    ("2024-01-01T24:00:00Z", False), ("2024-01-01T10:00:00+24:00", True), ("0000-01-01", True),
])
def test_timestamps_as_kubectl_quotes_them(text: str, stamp: bool) -> None:
    # kubectl 1.32 quotes exactly the strings go-yaml would read back as timestamps
    assert goyaml.is_timestamp(text) is stamp
    assert goyaml.is_plain_string(text) is not stamp


def test_natural_key_order() -> None:
    keys = ["port10", "port9", "port09", "a_b", "aB", "a-b", "ab", "x01", "x1", "k10", "k9", "é",
            "Z", "_z", "1", "10", "9"]
    # this order is what kubectl 1.32 printed for these keys
    assert sorted(keys, key=cmp_to_key(goyaml.key_cmp)) == [
        "_z", "1", "9", "10", "Z", "a-b", "a_b", "aB", "ab", "k9", "k10", "port9", "port09",
        "port10", "x1", "x01", "é"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("a0b19_-", max_size=5), min_size=2, max_size=6))
def test_key_order_is_a_strict_order(keys: list[str]) -> None:
    for a in keys:
        assert not goyaml.key_less(a, a)
        for b in keys:
            assert not (goyaml.key_less(a, b) and goyaml.key_less(b, a))


@pytest.mark.parametrize(("value", "text"), [
    (1, "1"), (1.0, "1"), (-0.0, "0"), (0.5, "0.5"), (1e21, "1e+21"), (1.5e-7, "1.5e-07"),
    (1234567.5, "1.2345675e+06"), (2**64 - 1, "18446744073709551615"),
    (2.0**64, "1.8446744073709552e+19"), (2.0**63, "9223372036854776000"),
])
def test_yaml_number(value: float, text: str) -> None:
    assert goyaml.yaml_number(value) == text


def test_yaml_text() -> None:
    assert goyaml.yaml_text("a \x85 b") == "a b"
    assert goyaml.yaml_text("a\x85\x85b") == "a\nb"
    with pytest.raises(KubeError):
        goyaml.yaml_text("a\x7fb")


def test_escapes() -> None:
    assert [goyaml.escape(c) for c in "\x00\t\u2028\x01\u0100\U0001F600"] == [
        "\\0", "\\t", "\\L", "\\x01", "\\u0100", "\\U0001F600"]
    assert goyaml.needs_escape("\ufeff") and not goyaml.needs_escape("\xa0")


#: Texts near the pre-checks' edges: digits of other scripts (``\d`` takes them), dashes,
#: colons, DEL and the C1 controls, line breaks beyond ASCII.
_EDGES = st.text(st.sampled_from(list("0123456789-:.Tt Z+_") +
                                 ["\u0663", "\uff11", "\x7f", "\x80", "\x85", "\x9f", "\ufffe",
                                  "\u00e9", "\u2028", "a"]), max_size=30)
_DATES = st.sampled_from(["2001-12-14", "2001-12-14t21:59:43.10-05:00", "2024-1-2 9:5:7",
                          "\u0662\u0660\u0662\u0664-01-02", "2024-02-29", "1:20", "-1:20:30.5",
                          "190:20:30", "2001-12-14 21:59:43.10"])


@given(st.one_of(_EDGES, _DATES, st.text(max_size=12)))
def test_pre_checks_answer_as_the_patterns_do(text: str) -> None:
    """The string tests put before the costly patterns change no answer."""
    assert goyaml.timestamp_match(text) is None or \
        goyaml.timestamp_match(text).group() == goyaml.TIMESTAMP.fullmatch(text).group()
    assert (goyaml.timestamp_match(text) is None) == (goyaml.TIMESTAMP.fullmatch(text) is None)
    found = goyaml.NOT_YAML.search(text)
    assert goyaml._not_yaml_at(text) == (found.start() if found else None)
    full = (goyaml.resolve_plain(text) is goyaml.STR and not goyaml._BASE60.fullmatch(text)
            and not (goyaml.TIMESTAMP.fullmatch(text) and goyaml.is_timestamp(text)))
    assert goyaml.is_plain_string(text) == full
