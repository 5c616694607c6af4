"""Group commit (cfgpatch.store.group_commit): batching, one item per key in a batch,
outcomes and errors handed to the right threads; and the SQLite and PostgreSQL stores'
batches (racing writers, a bad row among good ones, every answered append in the
history)."""

from __future__ import annotations

import threading
import time

import pytest

import pg_support
from cfgpatch.errors import InvalidInput
from cfgpatch.store import ConcurrentUpdate
from cfgpatch.store.group_commit import GroupCommit
from cfgpatch.store.sqlite import SQLiteStore


class Recorder:
    """A ``flush`` that records its batches and answers each item doubled; it holds
    the first batch until ``release`` is set, so others queue behind it."""

    def __init__(self, fail: str | None = None) -> None:
        self.batches: list[list[tuple[str, int]]] = []
        self.release = threading.Event()
        self.entered = threading.Event()
        self.fail = fail

    def __call__(self, items: list[tuple[str, int]]) -> list[int | BaseException]:
        self.batches.append(list(items))
        self.entered.set()
        self.release.wait(10)
        if self.fail == "batch":
            raise RuntimeError("the database went away")
        return [ValueError(key) if key == self.fail else number * 2 for key, number in items]


def run_threads(commits: GroupCommit, items: list[tuple[str, int]], recorder: Recorder
                ) -> dict[tuple[str, int], object]:
    """Submit the first item, wait until its batch is being written, submit the rest
    (they queue), then let the writes go; every thread's outcome by item."""
    outcomes: dict[tuple[str, int], object] = {}

    def submit(item: tuple[str, int]) -> None:
        try:
            outcomes[item] = commits.submit(item)
        except BaseException as error:  # noqa: BLE001 - the outcome under test
            outcomes[item] = error

    threads = [threading.Thread(target=submit, args=(item,)) for item in items]
    threads[0].start()
    assert recorder.entered.wait(10)
    for thread in threads[1:]:
        thread.start()
    deadline = time.monotonic() + 10
    while len(commits._queue) < len(items) - 1 and time.monotonic() < deadline:
        time.sleep(0.001)
    recorder.release.set()
    for thread in threads:
        thread.join(10)
    return outcomes


def test_items_queued_behind_a_batch_go_in_one_batch():
    recorder = Recorder()
    commits = GroupCommit(recorder, key=lambda item: item[0])
    items = [("a", 1), ("b", 2), ("c", 3), ("d", 4)]
    outcomes = run_threads(commits, items, recorder)
    assert outcomes == {item: item[1] * 2 for item in items}
    assert recorder.batches[0] == [("a", 1)]
    assert sorted(recorder.batches[1]) == [("b", 2), ("c", 3), ("d", 4)]
    assert (commits.batches, commits.items) == (2, 4)


def test_one_item_per_key_in_a_batch():
    recorder = Recorder()
    commits = GroupCommit(recorder, key=lambda item: item[0])
    items = [("first", 0), ("a", 1), ("a", 2), ("b", 3), ("a", 4)]
    outcomes = run_threads(commits, items, recorder)
    assert outcomes == {item: item[1] * 2 for item in items}
    for batch in recorder.batches:
        keys = [key for key, _ in batch]
        assert len(keys) == len(set(keys))
    assert sum(len(batch) for batch in recorder.batches) == len(items)


def test_at_most_max_batch_items():
    recorder = Recorder()
    commits = GroupCommit(recorder, key=lambda item: item[0], max_batch=2)
    items = [(f"k{i}", i) for i in range(7)]
    outcomes = run_threads(commits, items, recorder)
    assert outcomes == {item: item[1] * 2 for item in items}
    assert max(len(batch) for batch in recorder.batches) == 2


def test_an_item_outcome_that_is_an_error_is_raised_in_its_thread_only():
    recorder = Recorder(fail="bad")
    commits = GroupCommit(recorder, key=lambda item: item[0])
    outcomes = run_threads(commits, [("x", 1), ("bad", 2), ("y", 3)], recorder)
    assert isinstance(outcomes[("bad", 2)], ValueError)
    assert outcomes[("x", 1)] == 2 and outcomes[("y", 3)] == 6


def test_a_failing_flush_fails_its_batch_and_the_items_queued_behind_it_at_once():
    """A flush that raises (the database is gone) fails the items of its batch and
    those queued behind it, without a flush of their own; the next item is written."""
    recorder = Recorder(fail="batch")
    commits = GroupCommit(recorder, key=lambda item: item[0])
    outcomes = run_threads(commits, [("x", 1), ("y", 2), ("z", 3)], recorder)
    assert all(isinstance(outcome, RuntimeError) for outcome in outcomes.values())
    assert recorder.batches == [[("x", 1)]]
    recorder.fail = None
    assert commits.submit(("w", 5)) == 10  # the lead was handed back: not stuck


def test_a_lone_writer_writes_alone():
    seen: list[list[int]] = []
    commits = GroupCommit(lambda items: seen.append(items) or items, key=lambda item: item)
    assert [commits.submit(i) for i in range(3)] == [0, 1, 2]
    assert seen == [[0], [1], [2]]


def test_several_batches_in_flight():
    """With flights=2 two leaders write at once; items arriving meanwhile queue and are
    written once a leader hands its flight on."""
    inside = threading.Semaphore(0)
    release = threading.Event()
    batches: list[list[str]] = []

    def flush(items: list[str]) -> list[str]:
        batches.append(list(items))
        inside.release()
        release.wait(10)
        return [item.upper() for item in items]

    commits = GroupCommit(flush, key=lambda item: item, flights=2)
    outcomes: dict[str, str] = {}
    threads = {item: threading.Thread(target=lambda i=item: outcomes.__setitem__(
        i, commits.submit(i))) for item in "abcd"}
    threads["a"].start()
    threads["b"].start()
    assert inside.acquire(timeout=10) and inside.acquire(timeout=10)  # both writing
    threads["c"].start()
    threads["d"].start()
    deadline = time.monotonic() + 10
    while len(commits._queue) < 2 and time.monotonic() < deadline:
        time.sleep(0.001)
    release.set()
    for thread in threads.values():
        thread.join(10)
    assert outcomes == {item: item.upper() for item in "abcd"}
    assert sorted(batches[:2]) == [["a"], ["b"]]
    # each finished leader hands its flight on: c and d follow, in one batch or two
    assert sorted(item for batch in batches[2:] for item in batch) == ["c", "d"]


def test_max_batch_and_flights_must_be_positive():
    with pytest.raises(ValueError):
        GroupCommit(lambda items: items, key=id, max_batch=0)
    with pytest.raises(ValueError):
        GroupCommit(lambda items: items, key=id, flights=0)


# -- the durable stores' batches ----------------------------------------------------------

@pytest.fixture
def pg_store(tmp_path):
    with pg_support.durable_store("postgres", tmp_path, pool_max="4") as store:
        yield store


@pytest.fixture(params=["sqlite", "postgres"])
def durable_store(request, tmp_path):
    with pg_support.durable_store(request.param, tmp_path, pool_max="4") as store:
        yield store


def test_racing_writers_lose_nothing_answered(durable_store):
    """Twelve threads, six documents (two writers each, racing): every append answered
    is in the history with its own text, versions have no gaps, and batches of more
    than one row were written."""
    store = durable_store
    answered: list[tuple[str, int, str]] = []
    lock = threading.Lock()

    def writer(doc: str, tag: str) -> None:
        for k in range(25):
            head = store.head_version(doc)
            text = f'"{tag}-{k}"'
            try:
                version = store.append(doc, text, expected_head=head)
            except ConcurrentUpdate:
                continue
            with lock:
                answered.append((doc, version, text))

    threads = [threading.Thread(target=writer, args=(f"doc{i % 6}", f"w{i}")) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for i in range(6):
        versions = [info.version for info in store.versions(f"doc{i}")]
        assert versions == list(range(1, len(versions) + 1))
        assert len(versions) == sum(1 for doc, _, _ in answered if doc == f"doc{i}")
    for doc, version, text in answered:
        assert store.get(doc, version).text == text
    assert store._commits.items > store._commits.batches  # some batches held several


def test_a_bad_row_in_a_batch_is_refused_alone(durable_store):
    """A lone surrogate refuses that append (invalid input naming the field); the
    appends batched with it are written."""
    store = durable_store
    results: dict[str, object] = {}

    def append(name: str, text: str) -> None:
        try:
            results[name] = store.append(name, text, expected_head=None)
        except InvalidInput as error:
            results[name] = error

    threads = [threading.Thread(target=append, args=(f"n{i}", "\ud800" if i == 3 else f"{i}"))
               for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert isinstance(results.pop("n3"), InvalidInput)
    assert results == {f"n{i}": 1 for i in range(8) if i != 3}
    assert store.head_version("n3") is None


def test_postgres_batch_with_a_bad_row_writes_the_others(pg_store):
    rows = [("a", 1, "{}", None, None, 0, None), ("b", 1, "\ud800", None, None, 0, None),
            ("c", 1, "[]", None, None, 0, None), ("d", 2, "1", None, None, 0, 1)]
    outcomes = pg_store._insert(rows)
    assert outcomes[0] is True and outcomes[2] is True
    assert isinstance(outcomes[1], UnicodeEncodeError)
    assert outcomes[3] is False  # d has no version 1: its head is not 1
    assert pg_store.get("a", 1).text == "{}" and pg_store.get("c", 1).text == "[]"
    assert pg_store.head_version("b") is None and pg_store.head_version("d") is None


def test_postgres_batch_judges_each_row_on_its_own_head(pg_store):
    pg_store.append("x", "1", expected_head=None)
    outcomes = pg_store._insert([("x", 2, "2", None, None, 0, 1), ("y", 1, "1", None, None, 0, None),
                                 ("z", 5, "5", None, None, 0, 4)])
    assert outcomes == [True, True, False]
    with pytest.raises(ConcurrentUpdate):
        pg_store.append("x", "3", expected_head=1)
    with pytest.raises(InvalidInput):
        pg_store.append("x", "\ud800", expected_head=2)
    assert pg_store.head_version("x") == 2


def test_sqlite_batch_with_a_bad_row_writes_the_others(tmp_path):
    store = SQLiteStore(tmp_path / "rows.db")
    store.append("x", "1", expected_head=None)
    at = "2026-01-01T00:00:00.000000Z"
    outcomes = store._insert([("a", 1, "{}", at, None, None, 0, None),
                              ("b", 1, "\ud800", at, None, None, 0, None),
                              ("x", 2, "2", at, None, None, 0, 1),
                              ("y", 2, "2", at, None, None, 0, 1)])
    assert outcomes[0] is True and outcomes[2] is True and outcomes[3] is False
    assert isinstance(outcomes[1], UnicodeEncodeError)
    assert store.get("a", 1).text == "{}" and store.get("x", 2).text == "2"
    assert store.head_version("b") is None and store.head_version("y") is None
    store.close()
