"""cfgpatch.text_cache: canonical texts of values cached by identity (the diff's keys)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import InvalidInput
from cfgpatch.jsonvalue import MAX_DEPTH, canonical
from cfgpatch.text_cache import TextCache

SCALARS = st.sampled_from([0, 1, 1.0, True, False, None, "", "a", "b", "~/", "é", 2, 2.5])
KEYS = st.sampled_from(["a", "b", "c", "a/b", "~1", ""])



@settings(max_examples=300, deadline=None)
@given(st.recursive(SCALARS, lambda inner: st.lists(inner, min_size=0, max_size=40)
                    | st.dictionaries(KEYS, inner, max_size=4), max_leaves=120))
def test_document_text_is_the_canonical_text(value):
    cache = TextCache()
    assert cache.document_text(value) == canonical(value)
    assert cache.document_text(value) == canonical(value)  # again, from the cache
    child = TextCache(parent=cache)
    assert child.document_text({"x": value}) == canonical({"x": value})


def test_text_keys_separate_number_kinds_and_ignore_key_order():
    cache = TextCache()
    keys = cache.keys([1, 1.0, True, "1", None, {"a": 1, "b": 2}, {"b": 2, "a": 1}] + [0] * 40)
    assert len(set(keys[:5])) == 5
    assert keys[5] == keys[6]


def test_document_text_enforces_the_depth_limit():
    deep = [0]
    for _ in range(MAX_DEPTH):
        deep = [deep]
    with pytest.raises(InvalidInput):
        TextCache().document_text({"a": [deep] + [1] * 40})
    with pytest.raises(InvalidInput):
        TextCache().document_text(deep)
    ok = deep[0][0][0]  # 254 levels, so 256 inside {"a": [...]}
    assert TextCache().document_text({"a": [0] * 40 + [ok]}) == canonical({"a": [0] * 40 + [ok]})


def test_cache_limit_empties_the_cache():
    cache = TextCache(limit=50)
    rows = [{"i": i} for i in range(40)]
    cache.keys(rows)
    cache.keys([{"j": j} for j in range(40)])
    assert cache.keys(rows) == [canonical(r) for r in rows]


def test_only_pieces_with_enough_brackets_are_walked_for_depth(monkeypatch):
    """A long but shallow piece (a 4 KB array of 20 objects) is not walked: its count of
    '[' and '{' bounds its depth; brackets inside strings only make the bound looser."""
    from cfgpatch import text_cache

    walked: list[int] = []
    monkeypatch.setattr(text_cache, "check_depth", lambda value, room: walked.append(room))
    routes = [{"name": f"route-{i}", "headers": {"x-team": "p" * 150}} for i in range(20)]
    assert TextCache().document_text({"routes": routes}) == canonical({"routes": routes})
    assert walked == []
    TextCache().document_text({"routes": ["[" * 600]})
    assert walked == [MAX_DEPTH - 1]


def test_a_short_array_of_objects_is_written_element_by_element(monkeypatch):
    """After a patch of one route of a stored config (the other routes shared), only that
    route is encoded again: the others' texts come from the cache."""
    from cfgpatch import text_cache

    routes = [{"name": f"route-{i}", "timeout": 30, "headers": {"x": "p"}} for i in range(30)]
    cache = TextCache()
    head = {"routes": routes, "counter": 1}
    assert cache.document_text(head) == canonical(head)
    encoded: list = []
    real = text_cache.canonical_unchecked
    monkeypatch.setattr(text_cache, "canonical_unchecked",
                        lambda value: encoded.append(value) or real(value))
    changed = {**routes[3], "timeout": 31}
    patched = {"routes": [*routes[:3], changed, *routes[4:]], "counter": 2}
    assert cache.document_text(patched) == canonical(patched)
    assert encoded == [changed]


def test_a_short_array_of_containers_keeps_the_depth_limit():
    deep: list = [0]
    for _ in range(MAX_DEPTH - 3):  # 254 levels: 256 inside {"a": [...]}
        deep = [deep]
    assert TextCache().document_text({"a": [deep, []]}) == canonical({"a": [deep, []]})
    with pytest.raises(InvalidInput):
        TextCache().document_text({"a": [[deep], []]})
    with pytest.raises(InvalidInput):
        TextCache().document_text({"a": [{"b": deep}, {}]})
