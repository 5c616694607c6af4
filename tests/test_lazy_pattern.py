"""cfgpatch.lazy_pattern: a pattern compiled at its first use answers as re.compile's."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.lazy_pattern import lazily

PATTERNS = [r"[<>&\u2028\u2029\ud800-\udfff]", r"-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?",
            r"\s*(\(|\)|,|!=|==|=|!|[^\s(),=!]+)", r"(?P<word>[a-z]+)", "v?\\d+(\\.\\d+)+"]


@pytest.mark.parametrize("pattern", PATTERNS)
@given(text=st.text(alphabet=st.sampled_from(list("ab1.-e=!(), <&\u2028")), max_size=12))
def test_a_lazy_pattern_answers_as_the_compiled_one(pattern, text):
    lazy, compiled = lazily(pattern), re.compile(pattern)
    found, expected = lazy.search(text), compiled.search(text)
    assert (found and found.span()) == (expected and expected.span())
    assert lazy.sub("_", text) == compiled.sub("_", text)
    assert lazy.findall(text) == compiled.findall(text)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert bool(lazy.match(text)) == bool(compiled.match(text))
    assert bool(lazy.fullmatch(text)) == bool(compiled.fullmatch(text))
    assert lazy.split(text) == compiled.split(text)
    assert (lazy.pattern, lazy.groups, lazy.groupindex) == (
        compiled.pattern, compiled.groups, compiled.groupindex)


def test_it_compiles_once_and_only_when_used():
    lazy = lazily("[")  # an error shows at the first use, not at import
    with pytest.raises(re.error):
        lazy.search("x")
    good = lazily("a+")
    assert repr(good) == "lazily('a+')"
    first = good.search
    assert good.search is first  # the bound method is kept after the first use
    with pytest.raises(AttributeError):
        good.no_such_thing  # noqa: B018
