"""The in-memory store: append-only histories with optimistic concurrency."""

from __future__ import annotations

import pytest

from cfgpatch.store import ConcurrentUpdate, MemoryStore, open_store


def test_append_and_read():
    store = MemoryStore()
    assert store.head_version("a") is None
    assert store.append("a", "1", expected_head=None, value=1, author="t") == 1
    assert store.append("a", "2", expected_head=1, value=2) == 2
    assert store.get("a", 1).text == "1" and store.get("a", 2).value == 2
    assert store.get("a", 3) is None and store.get("a", 0) is None
    assert [v.author for v in store.versions("a")] == ["t", None]
    assert store.names() == ["a"]


def test_stale_head_is_refused():
    store = MemoryStore()
    store.append("a", "1", expected_head=None)
    with pytest.raises(ConcurrentUpdate):
        store.append("a", "x", expected_head=None)
    with pytest.raises(ConcurrentUpdate):
        store.append("a", "x", expected_head=2)
    assert store.head_version("a") == 1


def test_open_store_urls():
    assert isinstance(open_store("memory://"), MemoryStore)
    with pytest.raises(ValueError):
        open_store("ftp://x")


def test_lone_surrogates_are_refused_as_the_sql_stores_refuse_them():
    import store_contract

    store_contract.check_lone_surrogates_refused(MemoryStore())
    store_contract.check_stale_heads_refused(MemoryStore())


def test_tombstones_paging_prune_and_retention_as_the_sql_stores():
    import store_contract

    store_contract.check_tombstones_and_paging(MemoryStore())
    store_contract.check_prune_and_retention(MemoryStore())
