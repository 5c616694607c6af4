"""Tests for cfgpatch.kube.io.yamlprint: the direct port of kubectl's YAML layout.

The port must print exactly what ``kube.io.writer.emitter_yaml(obj)`` prints (PyYAML's
emitter set up as go-yaml); generated objects with awkward strings (folding spaces,
quotes, indicators, line breaks, characters beyond U+FFFF, long texts) hold it to that.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.io import writer, yamlprint

ALPHABET = st.sampled_from(list("ab z09-:#'\"\n\t{[,]}.&*!|>%@`?~") +
                           ["\x85", "\u2028", "\u00e9", "\U0001F600", "\ufeff", "  ", "\\"])
WORDS = st.sampled_from(["yes", "no", "on", "null", "~", "010", "1e3", "0x1F", "-", "---",
                         "...", "2001-12-14", "1:20", "true", "", " ", "a b", "<b>"])
TEXT = st.one_of(WORDS, st.lists(ALPHABET, max_size=30).map("".join),
                 st.tuples(st.lists(ALPHABET, min_size=1, max_size=8).map("".join),
                           st.integers(5, 40)).map(lambda p: p[0] * p[1]))
KEYS = st.one_of(WORDS, st.lists(ALPHABET, max_size=12).map("".join))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                    st.floats(allow_nan=False, allow_infinity=False), TEXT)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)), max_leaves=25)
OBJECTS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=5)


def _both(obj: dict) -> tuple[str, str]:
    try:
        expected = writer.emitter_yaml(obj)
    except KubeError as exc:
        expected = f"error: {exc.message}"
    try:
        got = "".join(text + "\n" for text, _ in yamlprint.lines(obj))
    except yamlprint.NotCovered:
        return expected, expected  # writer.dump uses the emitter for these
    except KubeError as exc:
        got = f"error: {exc.message}"
    return got, expected


@settings(max_examples=600, deadline=None)
@given(OBJECTS)
def test_the_port_prints_what_the_writer_prints(obj):
    got, expected = _both(obj)
    assert got == expected


@pytest.mark.parametrize("value", [
    "word " * 40, "a\nb\n", "  x\ny", "it's: x", "010", "", "\U0001F600 x", "a\n\n",
    "x " * 50 + "\u00e9\t", "a  b " * 30, "- a", "#x", "a #b", "a: b", " lead", "trail ",
    "\ufeffbom", "x" * 200, "a\u2028b", "a\x85b", "a\x85\x85b", "\n", "'q'", '"dq"',
])
def test_awkward_strings_as_values_and_in_lists(value):
    for obj in ({"kind": "K", "v": value}, {"kind": "K", "l": [value, [value], {"k": value}]},
                {"kind": "K", value[:100] or "e": {"deep": {"er": [[value]]}}}):
        got, expected = _both(obj)
        assert got == expected


def test_every_line_knows_its_pointers():
    obj = {"kind": "K", "spec": {"containers": [{"name": "app", "args": ["a", "b"]}],
                                 "note": "word " * 30, "script": "a\nb\n", "empty": {}}}
    held = dict(yamlprint.lines(obj))
    assert held["  - args:"] == ("/spec/containers/0", "/spec/containers/0/args")
    assert held["    - a"] == ("/spec/containers/0/args/0",)
    assert held["    name: app"] == ("/spec/containers/0/name",)
    assert held["  empty: {}"] == ("/spec/empty",)
    assert held["  script: |"] == ("/spec/script",)
    assert held["    a"] == ("/spec/script",) and held["    b"] == ("/spec/script",)
    folded = [pointers for text, pointers in yamlprint.lines(obj) if "word" in text]
    assert len(folded) == 2 and all(p == ("/spec/note",) for p in folded)


def test_keys_it_does_not_write_are_refused():
    for key in ("k" * 129, "\u00e9" * 65, "a\nb", "a\u2028b"):
        with pytest.raises(yamlprint.NotCovered):
            yamlprint.lines({"kind": "K", key: 1})


@pytest.mark.parametrize(("key", "simple"), [
    ("k" * 128, True), ("k" * 129, False), ("\u00e9" * 64, True), ("\u00e9" * 65, False),
    ("\u00e9" * 63 + "kk", True), ("\U0001F600" * 32, True), ("\U0001F600" * 31 + "k" * 5, False),
    ("#" + "k" * 127, True), ("y" * 128, True)])
def test_a_key_is_simple_up_to_128_bytes_of_utf8(key, simple):
    # Measured with kubectl 1.27, 1.32 and 1.33 (tests/data/kube/object-text): go-yaml
    # counts a key's UTF-8 bytes, before quoting, and writes "? key" above 128.
    printed = writer.emitter_yaml({key: 1})
    assert printed.startswith("? ") is not simple
    if simple:
        assert yamlprint.text({key: 1}) == printed
    else:
        with pytest.raises(yamlprint.NotCovered):
            yamlprint.lines({key: 1})


def _recorded_line_breaks() -> list[dict]:
    import json
    from pathlib import Path

    path = Path(__file__).parent / "data" / "kube" / "line-breaks" / "cases.json"
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", _recorded_line_breaks(), ids=lambda case: repr(case["object"]["zzz"]))
def test_strings_ending_in_other_line_breaks_print_as_kubectl_printed_them(case):
    # Recorded from kubectl 1.32: a last value ending in U+0085, U+2028 or U+2029
    # ends the text inside a line (and never with PyYAML's "..." end marker).
    assert writer.dump(case["object"], "yaml") == case["kubectl_yaml"]


def test_a_text_ending_inside_a_line_is_left_to_the_emitter():
    with pytest.raises(yamlprint.NotCovered):
        yamlprint.lines({"zzz": "x\na\u2028"})
    assert writer.emitter_yaml({"zzz": "x\na\u2028"}) == "zzz: |\n  x\n  a\u2028"


@given(st.text(st.sampled_from(list("ab\r\n :") + ["\x85", "\u2028", "\u2029", "\u00e9",
                                                     "\u0085", "\U0001F600"]), max_size=12))
def test_a_key_line_break_is_what_go_yaml_takes_for_one(key: str) -> None:
    import re

    assert yamlprint._has_break(key) == bool(re.search("[\r\n\x85\u2028\u2029]", key))
