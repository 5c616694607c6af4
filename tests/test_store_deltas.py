"""cfgpatch.store.deltas: versions kept as patches with a whole text per block, read
back byte for byte through the service, on SQLite (PostgreSQL: test_store_postgres)."""

from __future__ import annotations

import itertools
import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError
from cfgpatch.service import Service
from cfgpatch.store.base import StoredVersion
from cfgpatch.store.deltas import (
    DELTA,
    FULL,
    SNAPSHOT_EVERY,
    TOMBSTONE,
    block_start,
    from_block,
    row_kind,
    whole,
)
from cfgpatch.store.migrations import MIGRATIONS
from cfgpatch.store.sqlite import SQLiteStore


def test_blocks_and_row_kinds():
    assert [block_start(v) for v in (1, 2, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1)] == [
        1, 1, 1, SNAPSHOT_EVERY + 1]
    assert row_kind(1, '{"a":1}', "[]", False) == (FULL, '{"a":1}')  # a block start
    assert row_kind(2, '{"a":1,"b":2}', "[]", False) == (DELTA, "[]")
    assert row_kind(2, "[]", "[1,2,3]", False) == (FULL, "[]")  # the delta is longer
    assert row_kind(5, "x", None, True) == (TOMBSTONE, "null")


def test_a_chain_is_replayed_from_its_last_whole_row():
    rows = [StoredVersion(1, '{"a":1}'), StoredVersion(2, '[{"op":"add","path":"/b","value":2}]',
                                                       kind=DELTA),
            StoredVersion(3, '{"c":3}'), StoredVersion(4, '[{"op":"remove","path":"/c"}]',
                                                       kind=DELTA)]
    assert [r.version for r in from_block(rows)] == [3, 4]
    assert whole(rows[:2]).text == '{"a":1,"b":2}'
    assert whole(rows).text == "{}"
    assert from_block([StoredVersion(2, "[]", kind=DELTA)]) == []


_values = st.recursive(
    st.one_of(st.integers(-3, 3), st.sampled_from(["x", "é", 1.5, True, None])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from("abcd"), inner, max_size=4)),
    max_leaves=12)
_pointers = st.lists(st.sampled_from(["a", "b", "0", "1", "-"]), max_size=3).map(
    lambda tokens: "".join("/" + t for t in tokens))
_ops = st.one_of(
    st.builds(lambda o, path, v: {"op": o, "path": path, "value": v},
              st.sampled_from(["add", "replace", "test"]), _pointers, _values),
    st.builds(lambda path: {"op": "remove", "path": path}, _pointers),
    st.builds(lambda o, f, path: {"op": o, "from": f, "path": path},
              st.sampled_from(["copy", "move"]), _pointers, _pointers))
_writes = st.lists(st.one_of(
    st.tuples(st.just("put"), _values.map(json.dumps)),
    st.tuples(st.just("patch"), st.lists(_ops, max_size=4).map(json.dumps)),
    st.tuples(st.just("merge"), st.dictionaries(st.sampled_from("abcd"), _values,
                                                max_size=3).map(json.dumps)),
), min_size=1, max_size=80)


def test_history_through_deltas_is_byte_for_byte_the_whole_history(tmp_path):
    counter = itertools.count()

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_writes)
    def check(writes):
        store = SQLiteStore(tmp_path / f"h{next(counter)}.db")
        durable, model = Service(store), Service()
        try:
            for kind, text in writes:
                outcomes = []
                for service in (durable, model):
                    call = {"put": service.put, "patch": service.apply,
                            "merge": service.apply_merge_patch}[kind]
                    try:
                        outcomes.append(call("d", text))
                    except CfgPatchError as error:
                        outcomes.append(error.wire())
                assert outcomes[0] == outcomes[1]
            if model.store.head_version("d") is None:
                return
            head = model.head("d")
            fresh = Service(SQLiteStore(tmp_path / f"h{next(counter) - 1}.db"))  # no cache
            for version in range(1, head + 1):
                assert fresh.get("d", version) == model.get("d", version)
                assert durable.get("d", version) == model.get("d", version)
            fresh.store.close()
        finally:
            store.close()

    check()


def _rows(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version, kind, length(body) FROM versions"
                            " ORDER BY version").fetchall()


def test_a_one_field_change_to_a_large_document_stores_a_few_bytes(tmp_path):
    service = Service(SQLiteStore(tmp_path / "big.db"))
    routes = [{"name": f"r{i}", "port": 8000 + i, "tags": ["a", "b"]} for i in range(20_000)]
    text = json.dumps({"routes": routes})
    service.put("big", text)
    service.apply("big", '[{"op":"replace","path":"/routes/7/port","value":1}]')
    service.put("big", service.get("big").replace('"port":8009', '"port":2'))  # a whole text
    rows = _rows(tmp_path / "big.db")
    full = rows[0][2]
    assert full > 700_000
    assert rows[1][1:] == (DELTA, len('[{"op":"replace","path":"/routes/7/port","value":1}]'))
    assert rows[2][1] == DELTA and rows[2][2] < 100  # the diff engine's patch
    assert Service(SQLiteStore(tmp_path / "big.db")).get("big", 3) == service.get("big", 3)


def test_no_op_writes_store_nothing_and_force_commits(tmp_path):
    service = Service(SQLiteStore(tmp_path / "n.db"))
    service.put("d", '{"a":[1,2]}')
    assert service.put("d", '{ "a" : [1, 2] }', force=False) == 1
    assert service.apply("d", "[]", force=False) == 1
    assert service.apply("d", "[]", force=True) == 2
    assert [row[1] for row in _rows(tmp_path / "n.db")] == [FULL, DELTA]


def test_an_existing_database_is_migrated_and_read_as_it_was(tmp_path):
    path = tmp_path / "old.db"
    SQLiteStore(path, schema=MIGRATIONS[:2]).close()
    texts = [json.dumps({"n": n, "items": list(range(50))}, separators=(",", ":"),
                        sort_keys=True) for n in range(40)]
    with sqlite3.connect(path) as conn:  # rows as the code before deltas wrote them
        conn.executemany("INSERT INTO versions VALUES ('old', ?, ?, '2026-01-01T00:00:00Z',"
                         " 'a', NULL)", list(enumerate(texts, 1)))
    store = SQLiteStore(path)
    assert store.schema_version() == MIGRATIONS[-1].number
    service = Service(store)
    assert [service.get("old", v) for v in range(1, 41)] == texts
    assert service.apply("old", '[{"op":"replace","path":"/n","value":-1}]') == 41
    assert _rows(path)[-1][1] == DELTA and _rows(path)[0][1] == FULL
    assert Service(SQLiteStore(path)).get("old", 41) == texts[-1].replace('"n":39', '"n":-1')
    with pytest.raises(sqlite3.DatabaseError, match="append-only"), sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM versions")


def test_a_patch_kept_as_the_delta_is_not_encoded_again(tmp_path, monkeypatch):
    """The delta of an applied JSON Patch is the canonical text its parse made (the
    patch is encoded once per write, not twice); a rebased patch is encoded."""
    from cfgpatch import write_steps

    encoded: list = []
    real = write_steps.canonical
    monkeypatch.setattr(write_steps, "canonical", lambda value: encoded.append(value)
                        or real(value))
    service = Service(SQLiteStore(tmp_path / "d.db"))
    service.put("d", json.dumps({"a": 1, "b": [1, 2], "pad": "x" * 200}))
    patch = '[ {"path": "/a", "op": "replace", "value": 2} ]'
    service.apply("d", patch)
    assert encoded == []
    rows = _rows(tmp_path / "d.db")
    assert rows[1][1:] == (DELTA, len('[{"op":"replace","path":"/a","value":2}]'))
    service.apply("d", '[{"op": "add", "path": "/b/-", "value": 3}]', base_version=1)
    assert encoded == [[{"op": "add", "path": "/b/2", "value": 3}]]
    assert Service(SQLiteStore(tmp_path / "d.db")).get("d") == service.get("d")
    assert json.loads(service.get("d"))["b"] == [1, 2, 3]
