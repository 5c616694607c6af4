"""kube/io/yamlanalysis.py: PyYAML's ``analyze_scalar`` without PyYAML, held to PyYAML."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.emitter import Emitter

from cfgpatch.kube.io.yamlanalysis import analyze


class _Unicode:
    allow_unicode = True  # all analyze_scalar reads of its emitter


def _pyyaml(text: str) -> tuple:
    found = Emitter.analyze_scalar(_Unicode(), text)  # type: ignore[arg-type]
    return (found.empty, found.multiline, found.allow_block_plain,
            found.allow_single_quoted, found.allow_block)


#: The characters analyze_scalar treats apart, and a few ordinary ones.
_ALPHABET = list("ab1 \t\r\n\0-?:#,[]{}&*!|>'\"%@`.~=/") + [
    "\x85", "\u2028", "\u2029", "\ufeff", "\x7f", "\x01", "\xa0", "é", "\ud7ff", "\ue000",
    "\ufffd", "\ufffe", "\U00010000", "\U0010fffe", "\U0010ffff", "\ud800"]


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from(_ALPHABET), max_size=8))
def test_generated_texts_analyse_as_pyyaml_analyses_them(text):
    assert analyze(text) == _pyyaml(text)


@pytest.mark.parametrize("text", [
    "", " ", "a", "-", "- a", "-a", "?", "? x", ":", ":x", "a:", "a: b", "a:b", "a #b", "a#b",
    "#a", "---", "...", "---a", "a\nb", "a \nb", "a\n b", "a\n", "\na", "line one\nline two\n",
    "tab\there", "x\ufeff", "ü", "\U0010ffff", "a\x85b", "a\u2028", "{x}", "'q'", "%x",
])
def test_known_texts(text):
    assert analyze(text) == _pyyaml(text)
