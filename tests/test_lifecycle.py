"""cfgpatch.lifecycle: deletion as a tombstone version, restore, retention, on the
memory store and on SQLite (the same answers)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import CfgPatchError
from cfgpatch.preconditions import Preconditions, TagList
from cfgpatch.service import Service
from cfgpatch.store.base import RetentionPolicy
from cfgpatch.store.deltas import SNAPSHOT_EVERY
from cfgpatch.store.memory import MemoryStore
from cfgpatch.store.sqlite import SQLiteStore


@pytest.fixture(params=["memory", "sqlite"])
def service(request, tmp_path):
    store = MemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "l.db")
    yield Service(store)
    store.close()


def _code(call) -> str:
    with pytest.raises(CfgPatchError) as info:
        call()
    return info.value.code


def test_delete_keeps_the_history_and_frees_the_name(service):
    service.put("d", '{"v":1}')
    service.apply("d", '[{"op":"replace","path":"/v","value":2}]')
    assert service.delete("d", author="ops", message="retired") == 3
    assert _code(lambda: service.get("d")) == "unknown document"
    assert _code(lambda: service.apply("d", "[]")) == "unknown document"
    assert _code(lambda: service.delete("d")) == "unknown document"
    assert _code(lambda: service.get("d", 3)) == "unknown version"  # the tombstone itself
    assert service.get("d", 1) == '{"v":1}' and service.get("d", 2) == '{"v":2}'
    head, infos = service.versions("d")
    assert head == 3 and infos[-1].deleted and infos[-1].author == "ops"
    assert service.names() == []  # a deleted document is not listed
    assert service.put("d", '{"v":"new"}') == 4  # the name is free: the numbering goes on
    assert service.names() == ["d"]
    assert service.get("d") == '{"v":"new"}'
    assert [i.deleted for i in service.versions("d")[1]] == [False, False, True, False]


def test_restore_writes_an_old_version_again(service):
    service.put("d", '{"v":1}')
    service.put("d", '{"v":2}')
    service.delete("d")
    assert service.restore("d", 1, message="undo") == 4
    assert service.get("d") == '{"v":1}'
    assert service.restore("d", 4, force=False) == 4  # already the head: nothing stored
    assert service.restore("d", 2) == 5 and service.get("d") == '{"v":2}'
    assert _code(lambda: service.restore("d", 9)) == "unknown version"
    assert _code(lambda: service.restore("nothing", 1)) == "unknown document"


def test_delete_honours_preconditions(service):
    service.put("d", "{}")
    stale = Preconditions(if_match=TagList(strong=frozenset({2})))
    assert _code(lambda: service.delete("d", when=stale)) == "precondition failed"
    assert service.head("d") == 1


def test_retention_goes_by_whole_blocks_and_never_takes_the_head(service):
    service.set_retention(RetentionPolicy("team-", keep_last=5))
    count = 3 * SNAPSHOT_EVERY + 1  # the write of the last one starts a block: retention runs
    for n in range(count):
        service.put("team-cfg", f'{{"n":{n}}}')
        service.put("other", f'{{"n":{n}}}')
    kept = [i.version for i in service.versions("team-cfg")[1]]
    assert kept[0] == 2 * SNAPSHOT_EVERY + 1 and kept[-1] == count
    assert len(service.versions("other")[1]) == count  # no policy: everything stays
    assert _code(lambda: service.get("team-cfg", 1)) == "unknown version"
    assert service.get("team-cfg", kept[0]) == f'{{"n":{kept[0] - 1}}}'
    service.delete("team-cfg")
    assert service.prune("team-cfg") == 0
    assert service.versions("team-cfg")[0] == count + 1
    assert _code(lambda: service.set_retention(RetentionPolicy("x", keep_last=0))) \
        == "limit exceeded"


def test_history_pages(service):
    for n in range(7):
        service.put("d", str(n))
    head, page = service.versions("d", after=2, limit=3)
    assert head == 7 and [i.version for i in page] == [3, 4, 5]
    assert service.versions("d", after=7, limit=3)[1] == []
    assert _code(lambda: service.versions("none", after=1)) == "unknown document"
