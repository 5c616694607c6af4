"""cfgpatch.preconditions: If-Match / If-None-Match decided as RFC 9110 section 13.2.2."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.errors import PreconditionFailed
from cfgpatch.preconditions import NONE, Preconditions, TagList

ANY = TagList(any=True)


def tags(*strong, weak=()):
    return TagList(strong=frozenset(strong), weak=frozenset(weak))


# (if_match, if_none_match, current, read) -> "go", "not modified" or "412"
CASES = [
    (None, None, None, False, "go"),
    (None, None, 3, True, "go"),
    (ANY, None, None, False, "412"),          # If-Match: * and no document
    (ANY, None, 3, False, "go"),
    (tags(3), None, 3, False, "go"),
    (tags(2, 3), None, 3, False, "go"),
    (tags(2), None, 3, False, "412"),
    (tags(weak=(3,)), None, 3, False, "412"),  # strong comparison
    (tags(), None, 3, False, "412"),           # an empty list
    (tags(3), None, None, False, "412"),
    (None, ANY, None, False, "go"),
    (None, ANY, 3, False, "412"),
    (None, ANY, 3, True, "not modified"),
    (None, tags(3), 3, False, "412"),
    (None, tags(weak=(3,)), 3, False, "412"),  # weak comparison
    (None, tags(weak=(3,)), 3, True, "not modified"),
    (None, tags(2), 3, True, "go"),
    (None, tags(3), None, False, "go"),
    (tags(3), tags(3), 3, True, "not modified"),
    (tags(2), tags(3), 3, True, "412"),         # step 1 comes before step 3
    (tags(3), tags(3), 3, False, "412"),
]


@pytest.mark.parametrize(("if_match", "if_none_match", "current", "read", "outcome"), CASES)
def test_evaluation(if_match, if_none_match, current, read, outcome):
    when = Preconditions(if_match, if_none_match)
    if outcome == "412":
        with pytest.raises(PreconditionFailed) as caught:
            when.evaluate("doc", current, read=read)
        assert caught.value.code == "precondition failed"
        assert "'doc'" in caught.value.message
    else:
        assert when.evaluate("doc", current, read=read) is (outcome == "go")


versions = st.one_of(st.none(), st.integers(1, 6))
tag_lists = st.one_of(st.none(), st.just(ANY), st.builds(
    lambda s, w: tags(*s, weak=w), st.frozensets(st.integers(1, 6), max_size=3),
    st.frozensets(st.integers(1, 6), max_size=3)))


@given(tag_lists, tag_lists, versions, st.booleans())
def test_matches_the_rfc_text(if_match, if_none_match, current, read):
    """The decision, restated from RFC 9110 13.1.1, 13.1.2 and 13.2.2."""
    exists = current is not None
    if if_match is None:
        match_ok = True
    elif if_match.any:
        match_ok = exists
    else:
        match_ok = exists and current in if_match.strong
    if if_none_match is None:
        none_ok = True
    elif if_none_match.any:
        none_ok = not exists
    else:
        none_ok = not exists or current not in (if_none_match.strong | if_none_match.weak)
    when = Preconditions(if_match, if_none_match)
    if not match_ok or (not none_ok and not read):
        with pytest.raises(PreconditionFailed):
            when.evaluate("d", current, read=read)
    else:
        assert when.evaluate("d", current, read=read) is none_ok


def test_no_preconditions_is_falsy_and_always_goes():
    assert not NONE and Preconditions(if_match=ANY)
    assert NONE.evaluate("d", None) and NONE.evaluate("d", 5, read=True)
