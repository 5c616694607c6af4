"""cfgpatch.version_cache and the service's memory: bounded in bytes under load.

The load test writes 10,000 versions of one document and 2,000 distinct documents
through a service on SQLite, measuring the Python heap with tracemalloc: it must
stay under a ceiling set by ``cache_bytes`` and level off (the last samples no
higher than the first ones after warming up, give or take a little)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import tracemalloc
from pathlib import Path

import pytest

from cfgpatch.errors import CfgPatchError
from cfgpatch.service import Service
from cfgpatch.store.memory import MemoryStore
from cfgpatch.store.sqlite import SQLiteStore
from cfgpatch.version_cache import VersionCache

CACHE = 8 * 1024 * 1024
#: What the heap may hold beyond the caches' own estimate (interpreter, SQLite
#: wrappers, one document being read and written).
SLACK = 12 * 1024 * 1024


def _routes(tag: str, count: int) -> list[dict]:
    return [{"name": f"{tag}-r{i}", "path": f"/api/v{i % 7}/{tag}/{i}",
             "upstream": {"host": f"h{i % 13}.{tag}", "port": 8000 + i % 50}}
            for i in range(count)]


@pytest.fixture
def fast_dir(tmp_path):
    """A directory in memory when the machine has one (10,000 synchronous commits on a
    disk take minutes; the heap measured is the same)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    path = Path(tempfile.mkdtemp(dir=shm, prefix="cfgpatch-test-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_memory_levels_off_for_10000_versions_and_2000_documents(fast_dir):
    service = Service(SQLiteStore(fast_dir / "load.db"), cache_bytes=CACHE)
    service.put("big", json.dumps({"routes": _routes("big", 100)}))
    tracemalloc.start()
    try:
        samples = []
        for n in range(10_000):
            service.apply("big", json.dumps([{"op": "replace", "path": f"/routes/{n % 100}"
                                              "/upstream/port", "value": n}]))
            if n % 2_000 == 1_999:
                samples.append(tracemalloc.get_traced_memory()[0])
        for n in range(2_000):
            service.put(f"doc{n}", json.dumps({"routes": _routes(f"d{n}", 40)}))
            if n % 500 == 499:
                samples.append(tracemalloc.get_traced_memory()[0])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print("heap MiB after each 2,000 versions, then 500 documents:", [s >> 20 for s in samples])
    assert peak < CACHE + SLACK, [s >> 20 for s in samples]
    assert max(samples[-3:]) < samples[1] + 4 * 1024 * 1024, [s >> 20 for s in samples]
    assert service.cache_bytes() <= CACHE * 1.1
    assert service.get("big", 1) != service.get("big") and service.head("doc1999") == 1


def test_the_weight_bound_evicts_the_least_recently_used():
    cache = VersionCache(MemoryStore(), json.loads, max_chars=100)
    cache.remember(("a", 1), [1], 40)
    cache.remember(("a", 2), [2], 40)
    cache.remember(("a", 3), [3], 40)  # 120 > 100: ("a", 1) goes
    assert cache.chars == 80 and len(cache) == 2
    cache.remember(("b", 1), "huge", 500)  # one entry over the bound stays alone
    assert len(cache) == 1 and cache.chars == 500
    cache.forget("b", 2)
    assert len(cache) == 0 and cache.chars == 0


def test_a_version_is_replayed_from_the_nearest_cached_one(tmp_path):
    store = SQLiteStore(tmp_path / "r.db")
    service = Service(store)
    service.put("d", '{"n":0,"pad":"' + "x" * 100 + '"}')
    for n in range(1, 20):
        service.apply("d", json.dumps([{"op": "replace", "path": "/n", "value": n}]))
    fresh = Service(store)  # nothing cached: version 10 is replayed from version 1
    value10 = fresh.get_value("d", 10)
    value11 = fresh.get_value("d", 11)  # one patch applied to the cached version 10
    assert value10["n"] == 9 and value11["n"] == 10
    assert value11["pad"] is value10["pad"]  # structure shared between versions
    assert Service(store).get_value("d", 11)["pad"] is not value10["pad"]
    with pytest.raises(CfgPatchError):
        fresh.get_value("d", 21)
