"""Writes from a guessed head (cfgpatch.lifecycle.guessing): a service writes from the
head it last saw without reading the store, and whatever another writer changed in
between is judged on the store's real head, exactly as without the guess.

Two :class:`Service` objects over one SQLite file (or one PostgreSQL table) stand for
two server processes: each has its own remembered heads.
"""

from __future__ import annotations

import json

import pytest

import pg_support
from cfgpatch.errors import CfgPatchError, StoreError
from cfgpatch.preconditions import NONE, Preconditions, TagList
from cfgpatch.service import Service
from cfgpatch.store import MemoryStore
from cfgpatch.store.postgres import PostgresStore
from cfgpatch.store.sqlite import SQLiteStore


class Counting:
    """A store that counts its head reads (every other call passed through)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.head_reads = 0

    def head_state(self, name):
        self.head_reads += 1
        return self.inner.head_state(name)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request, tmp_path):
    """Two handles on one durable store (two processes' view of it)."""
    if request.param == "sqlite":
        first, second = SQLiteStore(tmp_path / "h.db"), SQLiteStore(tmp_path / "h.db")
        yield first, second
        first.close()
        second.close()
        return
    pg_support.require_postgres()
    prefix = pg_support.unique_prefix()
    first = PostgresStore.from_url(pg_support.url_with_prefix(prefix))
    second = PostgresStore.from_url(pg_support.url_with_prefix(prefix))
    try:
        yield first, second
    finally:
        first.close()
        second.close()
        pg_support.drop_prefix(prefix)


def replace(path: str, value) -> str:
    return json.dumps([{"op": "replace", "path": path, "value": value}])


def if_match(version: int) -> Preconditions:
    return Preconditions(if_match=TagList(strong=frozenset({version})))


def test_a_write_on_the_head_this_service_wrote_reads_no_head(stores):
    store = Counting(stores[0])
    service = Service(store)
    assert service.put_value("cfg", {"n": 0}) == 1
    store.head_reads = 0
    for n in range(1, 6):
        assert service.apply("cfg", replace("/n", n)) == n + 1
    assert service.apply_merge_patch("cfg", '{"m": 1}') == 7
    assert service.put("cfg", '{"n": 9}') == 8
    assert store.head_reads == 0
    assert service.get("cfg") == '{"n":9}'


def test_what_another_writer_did_is_judged_on_the_real_head(stores):
    mine, theirs = Service(stores[0]), Service(stores[1])
    mine.put_value("cfg", {"n": 0, "owner": "me"})  # mine remembers head 1
    assert theirs.apply("cfg", replace("/n", 1)) == 2  # the real head is 2 now
    # A test that holds on the real head (not on the remembered one) passes ...
    patch = json.dumps([{"op": "test", "path": "/n", "value": 1},
                        {"op": "replace", "path": "/n", "value": 2}])
    assert mine.apply("cfg", patch) == 3
    theirs.apply("cfg", replace("/n", 3))  # head 4
    # ... If-Match names the real head, not the remembered one ...
    assert mine.apply("cfg", replace("/n", 4), when=if_match(4)) == 5
    theirs.apply("cfg", replace("/n", 5))  # head 6
    with pytest.raises(CfgPatchError) as stale:
        mine.apply("cfg", replace("/n", 0), when=if_match(5))
    assert stale.value.code == "precondition failed"
    # ... a rebase base above the remembered head exists ...
    assert mine.apply("cfg", replace("/owner", "both"), base_version=6) == 7
    theirs.put("cfg", '{"n": 8}')  # head 8
    # ... a no-op is judged on the real head (not answered from the remembered one) ...
    nothing = mine.put_text("cfg", '{"n": 8}', force=False)[0]
    assert (nothing, nothing.changed) == (8, False)
    theirs.put("cfg", '{"n": 9}')  # head 9
    changed = mine.put_text("cfg", '{"n": 8}', force=False)[0]
    assert (changed, changed.changed, changed.created) == (10, True, False)
    # ... and a deletion by another writer makes the document unknown, then new.
    theirs.delete("cfg")  # head 11, a tombstone
    with pytest.raises(CfgPatchError) as gone:
        mine.apply("cfg", replace("/n", 0))
    assert gone.value.code == "unknown document"
    theirs.put("cfg", '{"n": 12}')  # head 12, live again
    theirs.delete("cfg")  # head 13
    again = mine.put_text("cfg", '{"n": 14}')[0]
    assert (again, again.created) == (14, True)
    history = [(v.version, v.deleted) for v in theirs.versions("cfg")[1]]
    assert history == [(v, v in (11, 13)) for v in range(1, 15)]


def test_a_change_on_the_head_this_service_wrote_is_not_compared_in_full(stores):
    """A write with force=False on the head this service wrote compares the new text's
    hash with the one it kept: the head is not written out again to see it changed; an
    equal hash still compares the texts (a no-op answers the head)."""
    service = Service(stores[0])
    service.put_value("cfg", {"n": 0, "pad": "x" * 100})
    encoded: list[object] = []
    own = service._canonical
    service._canonical = lambda value: encoded.append(value) or own(value)
    head_value = service.get_value("cfg")
    changed = service.apply("cfg", replace("/n", 1), force=False)
    assert (changed, changed.changed) == (2, True)
    assert all(value is not head_value for value in encoded)
    nothing = service.apply("cfg", replace("/n", 1), force=False)
    assert (nothing, nothing.changed) == (2, False)
    assert service.get("cfg") == '{"n":1,"pad":"' + "x" * 100 + '"}'


def test_a_failing_store_is_not_asked_twice():
    class Failing(MemoryStore):
        failing, appends = False, 0

        def append(self, *args, **kwargs):
            if self.failing:
                self.appends += 1
                raise StoreError("database gone")
            return super().append(*args, **kwargs)

    store = Failing()
    service = Service(store)
    service.put_value("cfg", {"n": 0})  # the head is remembered
    store.failing = True
    with pytest.raises(CfgPatchError) as failed:
        service.apply("cfg", replace("/n", 1))
    assert failed.value.code == "store error" and store.appends == 1


def test_run_is_unchanged_by_remembered_heads():
    service = Service(MemoryStore(), cache_bytes=None)
    assert service.put("d", '{"a": 1}', when=NONE) == 1
    with pytest.raises(CfgPatchError) as failed:
        service.apply("d", json.dumps([{"op": "test", "path": "/a", "value": 2}]))
    assert failed.value.code == "test failed"
    assert service.apply("d", "[]") == 2  # an empty patch commits (force=True)
